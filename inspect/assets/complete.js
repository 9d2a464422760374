// complete.js: argument completion (completion/complete) for prompt
// arguments and resource-template variables, and the filling of a URI
// template (RFC 6570, the expressions MCP servers use).
"use strict";

const Complete = (() => {
  let lists = 0;
  // attach offers the server's completions of input's value as a datalist.
  // ref is {type, name} or {type, uri}; given() returns the other values
  // already typed (sent as the request's context).
  function attach(input, ref, name, given) {
    const list = h("datalist", { id: `complete-${++lists}` });
    input.setAttribute("list", list.id);
    input.setAttribute("autocomplete", "off");
    let asked = 0;
    const ask = async () => {
      const mine = ++asked;
      try {
        const res = await api(q("api/complete"), { ref, argument: { name, value: input.value }, arguments: given() });
        if (mine !== asked) return; // a newer keystroke asked since
        list.replaceChildren(...(res.values || []).slice(0, 100).map((v) => h("option", { value: v })));
        input.dataset.completions = String((res.values || []).length);
      } catch (e) { input.dataset.completions = "0"; input.title = e.message; }
    };
    input.addEventListener("input", ask);
    input.addEventListener("focus", ask);
    input.after(list);
  }

  // variables lists a URI template's expressions: [{op, names}] and text.
  const EXPR = /\{([+#./;?&]?)([^}]*)\}/g;
  function variables(template) {
    const names = [];
    for (const m of template.matchAll(EXPR)) {
      m[2].split(",").map((v) => v.replace(/\*$|:\d+$/, "")).filter(Boolean).forEach((v) => { if (!names.includes(v)) names.push(v); });
    }
    return names;
  }
  // expand fills template with values (RFC 6570 level 3; an empty value
  // is left out, as an undefined variable).
  function expand(template, values) {
    return template.replace(EXPR, (_, op, list) => {
      const reserved = op === "+" || op === "#";
      const enc = (v) => (reserved ? encodeURI(v) : encodeURIComponent(v));
      const named = op === "?" || op === "&" || op === ";";
      const parts = list.split(",").map((v) => v.replace(/\*$|:\d+$/, "")).filter((v) => values[v] !== undefined && values[v] !== "")
        .map((v) => (named ? `${v}=${enc(values[v])}` : enc(values[v])));
      if (!parts.length) return "";
      const first = { "": "", "+": "", "#": "#", ".": ".", "/": "/", ";": ";", "?": "?", "&": "&" }[op];
      const sep = { "": ",", "+": ",", "#": ",", ".": ".", "/": "/", ";": ";", "?": "&", "&": "&" }[op];
      return first + parts.join(sep);
    });
  }
  return { attach, variables, expand };
})();
