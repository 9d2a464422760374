// asks.js shows what servers ask of the client (sampling, form and URL
// elicitation) until the person answers, on every tab, and the roots the
// page gives. The server's request, or in the stateless era the
// input_required round, waits in mcpwire for the answer.
"use strict";

const Asks = (() => {
  // drawn keeps each question's card, so that a half-filled answer
  // survives the updates of the other questions.
  const drawn = new Map();

  async function answer(card, body) {
    const problem = card.querySelector(".ask-problem");
    problem.textContent = "";
    card.querySelectorAll(".field-problem").forEach((el) => el.remove());
    card.querySelectorAll(".field.invalid").forEach((el) => el.classList.remove("invalid"));
    try { await api("api/answer", body); card.classList.add("answered"); } catch (e) {
      problem.textContent = e.message;
      // A form answer its schema refuses: the question still waits, and
      // each field the server named says what is wrong with it.
      const fields = [...card.querySelectorAll(".field[data-field]")];
      for (const f of (e.data && e.data.fields) || []) {
        const el = fields.find((x) => x.dataset.field === String(f.field).replaceAll("/", "."));
        if (!el) continue;
        el.classList.add("invalid");
        el.append(h("div", { class: "field-problem", text: f.problem }));
      }
    }
  }

  function button(cls, text, onclick) {
    const b = h("button", { type: "button", class: cls, text });
    b.onclick = onclick;
    return b;
  }

  function head(a, what) {
    return h("div", { class: "ask-head" }, h("strong", { text: `${a.server || "a server"} asks: ${what}` }),
      h("span", { class: "badge", text: a.era }), h("span", { class: "muted", text: " " + new Date(a.asked).toLocaleTimeString() }));
  }

  function sampling(a, card) {
    const p = a.params || {};
    const msgs = (p.messages || []).map((m) => {
      const blocks = Array.isArray(m.content) ? m.content : [m.content];
      return h("div", { class: "message" }, h("strong", { text: m.role + ": " }), ...blocks.map((c) => Render.content(c)));
    });
    const reply = h("textarea", { class: "sampling-reply", rows: 4, placeholder: "The model's reply, as you want the server to get it" });
    const model = h("input", { type: "text", class: "sampling-model", value: "a person at mcpwire inspect" });
    card.append(head(a, "a reply from the model (sampling)"),
      p.systemPrompt ? h("div", { class: "muted", text: "system prompt: " + p.systemPrompt }) : null,
      ...msgs, h("div", { class: "muted", text: `max tokens ${p.maxTokens}` + (p.modelPreferences ? " · preferences " + JSON.stringify(p.modelPreferences) : "") }),
      h("div", { class: "field" }, h("label", { text: "reply" }), reply), h("div", { class: "field" }, h("label", { text: "model" }), model),
      h("div", { class: "toolbar" },
        button("primary accept", "Send reply", () => answer(card, { id: a.id, action: "accept",
          result: { role: "assistant", content: [{ type: "text", text: reply.value }], model: model.value, stopReason: "endTurn" } })),
        button("reject", "Reject", () => answer(card, { id: a.id, action: "reject" }))));
  }

  function elicitation(a, card) {
    const p = a.params || {};
    const form = SchemaForm.build(p.requestedSchema || { type: "object", properties: {} });
    card.append(head(a, "a form (elicitation)"), h("p", { class: "ask-message", text: p.message || "" }), form.el,
      h("div", { class: "toolbar" },
        button("primary accept", "Accept", () => {
          let content;
          try { content = form.get() || {}; } catch (e) { card.querySelector(".ask-problem").textContent = e.message; return; }
          answer(card, { id: a.id, action: "accept", content });
        }),
        button("decline", "Decline", () => answer(card, { id: a.id, action: "decline" })),
        button("cancel", "Cancel", () => answer(card, { id: a.id, action: "cancel" }))));
  }

  function elicitationURL(a, card) {
    const p = a.params || {};
    let host = "";
    try { host = new URL(p.url).host; } catch (_) { host = "(not a valid URL)"; }
    // The person sees where the link goes before anything opens it.
    const link = h("a", { class: "ask-url", href: /^https?:/i.test(p.url || "") ? p.url : "about:blank", target: "_blank", rel: "noopener noreferrer", text: p.url || "" });
    card.append(head(a, "to open a page (URL elicitation)"), h("p", { class: "ask-message", text: p.message || "" }),
      h("div", {}, h("span", { text: "site: " }), h("strong", { class: "ask-host", text: host })), h("div", {}, link),
      h("div", { class: "toolbar" },
        button("primary accept", "Accept (I open it)", () => answer(card, { id: a.id, action: "accept" })),
        button("decline", "Decline", () => answer(card, { id: a.id, action: "decline" })),
        button("cancel", "Cancel", () => answer(card, { id: a.id, action: "cancel" }))));
  }

  function card(a) {
    const el = h("div", { class: "card ask", "data-ask": a.id, "data-kind": a.kind });
    ({ sampling, elicitation, "elicitation-url": elicitationURL }[a.kind] || ((x, c) => c.append(head(x, a.kind), Render.json(x.params))))(a, el);
    el.append(h("div", { class: "ask-problem verdict-error" }));
    return el;
  }

  // draw shows the questions waiting (the server sends the whole list on
  // every change); cards of answered questions go.
  function draw(list) {
    const box = document.getElementById("asks");
    const ids = new Set(list.map((a) => a.id));
    for (const [id, el] of drawn) if (!ids.has(id)) { el.remove(); drawn.delete(id); }
    for (const a of list) {
      if (drawn.has(a.id)) continue;
      const el = card(a);
      drawn.set(a.id, el);
      box.append(el);
    }
    box.hidden = list.length === 0;
  }

  // rootsCard edits the roots the page gives the servers.
  async function drawRoots() {
    const area = h("textarea", { id: "roots-edit", rows: 3, placeholder: "file:///home/me/project  (one root a line; a name after a space)" });
    const status = h("span", { class: "muted", id: "roots-status" });
    const save = button("primary", "Give these roots", async () => {
      const roots = area.value.split("\n").map((l) => l.trim()).filter(Boolean).map((l) => {
        const [uri, ...name] = l.split(/\s+/);
        return name.length ? { uri, name: name.join(" ") } : { uri };
      });
      try {
        const { failed } = await api("api/roots", { roots });
        status.textContent = failed.length ? "told the servers, except: " + failed.join("; ") : "the servers were told (roots/list_changed)";
      } catch (e) { status.textContent = e.message; }
    });
    save.id = "roots-save";
    document.getElementById("roots").replaceChildren(h("div", { class: "card" }, h("h2", { text: "Roots" }),
      h("p", { class: "muted", text: "What the servers get when they ask for roots/list." }), area, h("div", { class: "toolbar" }, save, status)));
    try { area.value = (await api("api/roots")).map((r) => r.uri + (r.name ? " " + r.name : "")).join("\n"); } catch (_) { /* left empty */ }
  }

  return { draw, drawRoots };
})();
