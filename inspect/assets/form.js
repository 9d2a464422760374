// form.js builds a form from a JSON Schema (a tool's inputSchema) and
// reads it back as the JSON value it describes. Every field offers
// get() (undefined: leave the key out) and set(value), so that the raw
// JSON editor and the form round-trip.
"use strict";

const SchemaForm = (() => {
  // shape reduces a schema to {type, nullable, schema}: the one non-null
  // type it takes, whether null is allowed too, and the schema of that type.
  function shape(schema) {
    schema = schema && typeof schema === "object" ? schema : {};
    let nullable = false;
    let base = schema;
    const alts = schema.anyOf || schema.oneOf;
    if (Array.isArray(alts)) {
      const rest = alts.filter((a) => !(a && a.type === "null"));
      nullable = rest.length < alts.length;
      // A titled enum (MCP elicitation's single and multi-select, and
      // JSON Schema's idiom): every choice a const, its title the label.
      if (rest.length > 0 && rest.every((a) => a && typeof a === "object" && "const" in a)) {
        const choices = Object.assign({}, schema, { anyOf: undefined, oneOf: undefined, enum: rest.map((a) => a.const), enumTitles: rest.map((a) => a.title) });
        return { type: "enum", nullable, schema: choices };
      }
      if (rest.length === 1) base = Object.assign({}, schema, rest[0], { anyOf: undefined, oneOf: undefined });
      else return { type: "json", nullable, schema };
    }
    let type = base.type;
    if (Array.isArray(type)) {
      const rest = type.filter((t) => t !== "null");
      nullable = nullable || rest.length < type.length;
      type = rest.length === 1 ? rest[0] : "json";
    }
    if (Array.isArray(base.enum) || "const" in base) type = "enum";
    else if (!type && base.properties) type = "object";
    else if (!type) type = "json";
    if (type === "object" && !base.properties) type = "json";
    return { type, nullable, schema: base };
  }

  function label(name, schema, required) {
    const l = h("label", { for: "f-" + name, text: (schema.title || name.split(".").pop() || "value") + " " });
    if (required) l.append(h("span", { class: "req", title: "required", text: "*" }));
    const t = shape(schema).type;
    l.append(h("span", { class: "muted", text: " " + (t === "json" ? "JSON" : t) + (shape(schema).nullable ? " or null" : "") }));
    return l;
  }

  // field builds the input for one value at path name.
  function field(schema, name, required) {
    const sh = shape(schema);
    let f;
    switch (sh.type) {
      case "string": f = stringField(sh.schema, name, required); break;
      case "number": case "integer": f = numberField(sh.schema, name, required, sh.type === "integer"); break;
      case "boolean": f = boolField(name, required); break;
      case "enum": f = enumField(sh.schema, name, required); break;
      case "object": f = objectField(sh.schema, name, required); break;
      case "array": f = arrayField(sh.schema, name, required); break;
      default: f = jsonField(name, required);
    }
    if (sh.nullable) f = nullableField(f, name);
    const wrap = h("div", { class: "field", "data-field": name });
    if (sh.type !== "object") wrap.append(label(name, schema, required));
    wrap.append(f.el);
    if (schema && schema.description && sh.type !== "object") wrap.append(h("div", { class: "desc", text: schema.description }));
    if (schema && schema.default !== undefined) f.set(schema.default);
    return { el: wrap, get: f.get, set: f.set };
  }

  function stringField(schema, name, required) {
    const long = schema.maxLength > 200 || schema.format === "textarea";
    const input = h(long ? "textarea" : "input", { type: long ? undefined : "text", id: "f-" + name, name, placeholder: schema.format || "" });
    return {
      el: input,
      get: () => (input.value === "" && !required ? undefined : input.value),
      set: (v) => { input.value = v === undefined || v === null ? "" : String(v); },
    };
  }

  function numberField(schema, name, required, integer) {
    const input = h("input", { type: "number", id: "f-" + name, name, step: integer ? "1" : "any", min: schema.minimum, max: schema.maximum });
    return {
      el: input,
      get: () => {
        if (input.value === "") return undefined;
        const n = Number(input.value);
        if (Number.isNaN(n) || (integer && !Number.isInteger(n))) throw new Error(`${name}: ${input.value} is not ${integer ? "an integer" : "a number"}`);
        return n;
      },
      set: (v) => { input.value = typeof v === "number" ? String(v) : ""; },
    };
  }

  function boolField(name, required) {
    if (required) {
      const input = h("input", { type: "checkbox", id: "f-" + name, name });
      return { el: input, get: () => input.checked, set: (v) => { input.checked = v === true; } };
    }
    const sel = h("select", { id: "f-" + name, name },
      h("option", { value: "", text: "(unset)" }), h("option", { value: "true", text: "true" }), h("option", { value: "false", text: "false" }));
    return {
      el: sel,
      get: () => (sel.value === "" ? undefined : sel.value === "true"),
      set: (v) => { sel.value = v === true ? "true" : v === false ? "false" : ""; },
    };
  }

  function enumField(schema, name, required) {
    const values = Array.isArray(schema.enum) ? schema.enum : [schema.const];
    const sel = h("select", { id: "f-" + name, name });
    if (!required || values.length === 0) sel.append(h("option", { value: "", text: "(unset)" }));
    // A choice's title (a titled enum's, or the legacy enumNames) shows
    // beside the value that is sent.
    const titles = Array.isArray(schema.enumTitles) ? schema.enumTitles : Array.isArray(schema.enumNames) ? schema.enumNames : [];
    values.forEach((v, i) => {
      const value = typeof v === "string" ? v : JSON.stringify(v);
      const title = typeof titles[i] === "string" && titles[i] !== "" ? titles[i] : "";
      sel.append(h("option", { value: String(i), text: title && title !== value ? `${title} (${value})` : value }));
    });
    return {
      el: sel,
      get: () => (sel.value === "" ? undefined : values[Number(sel.value)]),
      set: (v) => {
        const i = values.findIndex((x) => JSON.stringify(x) === JSON.stringify(v));
        sel.value = i >= 0 ? String(i) : (required && values.length ? "0" : "");
      },
    };
  }

  function objectField(schema, name, required) {
    const req = new Set(Array.isArray(schema.required) ? schema.required : []);
    const box = h("fieldset", { "data-object": name || "(arguments)" });
    if (name) {
      const legend = h("legend", { text: (schema.title || name.split(".").pop()) + (required ? " *" : "") });
      box.append(legend);
      if (schema.description) box.append(h("div", { class: "desc", text: schema.description }));
    }
    const kids = {};
    for (const [k, sub] of Object.entries(schema.properties || {})) {
      kids[k] = field(sub, name ? name + "." + k : k, req.has(k));
      box.append(kids[k].el);
    }
    if (!name && Object.keys(kids).length === 0) box.append(h("div", { class: "muted", text: "This tool takes no arguments." }));
    let extras = {}; // keys the schema does not list, kept for the raw editor
    return {
      el: box,
      get: () => {
        const out = Object.assign({}, extras);
        for (const [k, f] of Object.entries(kids)) {
          const v = f.get();
          if (v !== undefined) out[k] = v;
        }
        return Object.keys(out).length === 0 && !required && name ? undefined : out;
      },
      set: (v) => {
        const obj = v && typeof v === "object" && !Array.isArray(v) ? v : {};
        extras = {};
        for (const [k, x] of Object.entries(obj)) if (!(k in kids)) extras[k] = x;
        for (const [k, f] of Object.entries(kids)) f.set(obj[k]);
      },
    };
  }

  function arrayField(schema, name, required) {
    const items = schema.items && typeof schema.items === "object" ? schema.items : {};
    const list = h("div", { class: "array", "data-array": name });
    const rows = [];
    const add = (v) => {
      const f = field(items, name + "[" + rows.length + "]", true);
      const row = h("div", { class: "array-item" }, f.el);
      const rm = h("button", { type: "button", text: "Remove" });
      rm.onclick = () => { const i = rows.indexOf(entry); rows.splice(i, 1); row.remove(); };
      row.append(rm);
      const entry = { f, row };
      rows.push(entry);
      list.insertBefore(row, addBtn);
      if (v !== undefined) f.set(v);
    };
    const addBtn = h("button", { type: "button", text: "Add item", "data-add": name });
    addBtn.onclick = () => add();
    list.append(addBtn);
    return {
      el: list,
      get: () => {
        const out = rows.map((r) => { const v = r.f.get(); return v === undefined ? null : v; });
        return out.length === 0 && !required ? undefined : out;
      },
      set: (v) => {
        rows.splice(0).forEach((r) => r.row.remove());
        if (Array.isArray(v)) v.forEach((x) => add(x));
      },
    };
  }

  function jsonField(name, required) {
    const ta = h("textarea", { id: "f-" + name, name, placeholder: "JSON value", rows: 3 });
    return {
      el: ta,
      get: () => {
        if (ta.value.trim() === "") return required ? null : undefined;
        try { return JSON.parse(ta.value); } catch (e) { throw new Error(`${name}: not valid JSON (${e.message})`); }
      },
      set: (v) => { ta.value = v === undefined ? "" : JSON.stringify(v, null, 2); },
    };
  }

  function nullableField(f, name) {
    const cb = h("input", { type: "checkbox", name: name + ":null", "data-null": name });
    const el = h("span", { class: "nullable" }, f.el, h("label", { class: "null-toggle" }, cb, document.createTextNode(" null")));
    const disable = () => { f.el.querySelectorAll && f.el.querySelectorAll("input,select,textarea,button").forEach((x) => { x.disabled = cb.checked; }); if ("disabled" in f.el) f.el.disabled = cb.checked; };
    cb.onchange = disable;
    return {
      el,
      get: () => (cb.checked ? null : f.get()),
      set: (v) => { cb.checked = v === null; if (v !== null) f.set(v); disable(); },
    };
  }

  // build returns the form of a tool's input schema: {el, get, set}. The
  // arguments are always an object; one without properties takes none
  // (or any, through the raw JSON editor, whose keys the form keeps).
  function build(schema) {
    const s = schema && typeof schema === "object" ? schema : {};
    return objectField(Object.assign({}, s, { properties: s.properties || {} }), "", true);
  }

  return { build, shape };
})();
