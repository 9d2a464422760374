// app.js is the inspector page: server picker, tabs, the live event
// stream, and the views of tools, resources, prompts, notifications,
// history and the wire.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = {
  servers: [], server: "", tools: [], calls: new Map(), wire: [], currentCall: 0, form: null,
};
const WIRE_KEEP = 100000; // the page's own bound, beside the server's
const WIRE_ROWS = 2000;   // notifications listed at once

// API paths are relative ("api/…", never "/api/…"): the page is served
// under a random path, to which its session cookie is scoped.
async function api(path, body) {
  const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const resp = await fetch(path, opts);
  const data = await resp.json().catch(() => ({ error: `HTTP ${resp.status}` }));
  if (!resp.ok) {
    const err = new Error(data.error || `HTTP ${resp.status}`);
    err.data = data; // the rest of the answer: a refused form's fields, say
    throw err;
  }
  return data;
}
const q = (path) => `${path}?server=${encodeURIComponent(state.server)}`;
const errorBox = (e) => h("div", { class: "verdict-error error", text: String(e.message || e) });

// ---- tabs and servers
async function showTab(name) {
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === name));
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.id === "tab-" + name));
  if (name === "wire") wireList.now(); // its view had no size while hidden
  await serversLoaded; // the lists need to know which server is picked
  // A list is read once per server, and again when the server says it
  // changed (see addWire), so that it does not redraw under the pointer.
  const load = { tools: loadTools, resources: loadResources, prompts: loadPrompts, report: Report.load }[name];
  if (load && state.loaded[name] !== state.server) {
    state.loaded[name] = state.server;
    await load();
  }
}
state.loaded = {}; // list name -> the server it was read from

// listChanged forgets a list that the current server says has changed,
// and reads it again when its tab is open.
const LIST_CHANGED = { "notifications/tools/list_changed": "tools", "notifications/resources/list_changed": "resources", "notifications/prompts/list_changed": "prompts" };
function listChanged(e) {
  const list = LIST_CHANGED[e.method];
  if (!list || e.server !== state.server) return;
  delete state.loaded[list];
  const open = document.querySelector("#tabs button.active").dataset.tab;
  if (open === list) showTab(list);
}
document.querySelectorAll("#tabs button").forEach((b) => { b.onclick = () => showTab(b.dataset.tab); });

async function loadServers() {
  state.servers = await api("api/servers");
  const sel = $("#server");
  const keep = state.server;
  sel.replaceChildren(...state.servers.map((s) => h("option", { value: s.name, text: `${s.name} (${s.state})` })));
  state.server = state.servers.some((s) => s.name === keep) ? keep : (state.servers[0] || {}).name || "";
  sel.value = state.server;
  $("#servers").replaceChildren(...state.servers.map(serverCard));
  // A server that connected, failed or came back may list other things.
  const states = JSON.stringify(state.servers.map((s) => [s.name, s.state]));
  if (state.serverStates !== undefined && states !== state.serverStates) {
    state.loaded = {};
    showTab(document.querySelector("#tabs button.active").dataset.tab);
  }
  state.serverStates = states;
}
$("#server").onchange = () => { state.server = $("#server").value; showTab(document.querySelector("#tabs button.active").dataset.tab); };

function serverCard(s) {
  const card = h("div", { class: "card server", "data-server": s.name },
    h("h2", { text: s.name + " " }, h("span", { class: "badge state-" + s.state, text: s.state }),
      s.needsSignIn ? h("span", { class: "badge needs-signin", text: "needs sign-in" }) : null),
    h("div", { text: `transport: ${s.transport || "?"}` }));
  if (s.serverInfo) card.append(h("div", { text: `server: ${s.serverInfo.name} ${s.serverInfo.version || ""}` }));
  if (s.protocol) card.append(h("div", { text: `protocol: ${s.protocol} (${s.era})` }));
  if (s.error) card.append(errorBox(new Error(s.error)));
  const signIn = SignIn.box(s); // signin.js
  if (signIn) card.append(signIn);
  if (s.capabilities) card.append(h("div", { class: "muted", text: "capabilities" }), Render.json(s.capabilities));
  if (s.instructions) card.append(h("div", { class: "muted", text: "instructions" }), h("pre", { text: s.instructions }));
  if (s.stderr) card.append(h("div", { class: "muted", text: "stderr (last lines)" }), h("pre", { class: "stderr", text: s.stderr }));
  const again = h("button", { type: "button", class: "reconnect", text: "Reconnect" });
  again.onclick = () => reconnect(s.name);
  card.append(h("div", { class: "toolbar" }, again, h("span", { class: "reconnect-status muted", text: state.reconnects[s.name] || "" })));
  return card;
}
// reconnect asks the inspector to end the server's connection and make it
// again (the same client, through the manager for configured servers); the
// states in between arrive as "servers" events. The outcome is kept by
// server, as the cards are redrawn on every change.
state.reconnects = {};
async function reconnect(name) {
  state.reconnects[name] = "reconnecting…";
  await loadServers().catch(() => {});
  try {
    await api("api/reconnect", { server: name });
    state.reconnects[name] = `reconnected at ${new Date().toLocaleTimeString()}`;
  } catch (e) { state.reconnects[name] = `reconnect failed: ${e.message}`; }
  await loadServers().catch(() => {});
}

// ---- tools
async function loadTools() {
  const list = $("#tool-list");
  // The open form is another server's once the picker changed: its Call
  // would run on the server now picked, maybe a tool of that name with
  // another schema. It goes, as does one whose tool its server dropped.
  if (state.toolServer !== state.server) closeTool();
  try {
    state.tools = await api(q("api/tools"));
  } catch (e) { list.replaceChildren(h("li", {}, errorBox(e))); return; }
  if (state.toolOpen && !state.tools.some((t) => t.name === state.toolOpen)) closeTool();
  drawTools();
}
function closeTool() {
  if (state.toolOpen === undefined) return;
  state.toolOpen = undefined;
  state.form = null;
  state.currentCall = 0;
  Apps.close();
  $("#tool-detail").replaceChildren(h("p", { class: "muted", text: "Pick a tool." }));
}
// The tool list draws only the tools in view (virtual.js).
const toolRow = (t) => {
  const li = h("li", { "data-tool": t.name, class: t.name === state.toolOpen ? "active" : "" }, h("span", { text: t.title || t.name }), h("small", { text: t.description || "" }));
  li.onclick = () => openTool(t);
  return li;
};
const toolList = Virtual.list({ scroller: $("#tool-list"), body: $("#tool-list"), rowHeight: 44, render: toolRow,
  pad: () => h("div", { class: "v-pad" }) });
function drawTools() {
  const needle = $("#tool-search").value.toLowerCase();
  const shown = state.tools.filter((t) => [t.name, t.title, t.description].some((x) => (x || "").toLowerCase().includes(needle)));
  toolList.set(shown);
  toolList.now();
}
$("#tool-search").oninput = drawTools;
$("#report-run").onclick = () => Report.load();

function openTool(tool, args) {
  state.toolOpen = tool.name;
  state.toolServer = state.server;
  document.querySelectorAll("#tool-list li").forEach((li) => li.classList.toggle("active", li.dataset.tool === tool.name));
  const form = SchemaForm.build(tool.inputSchema);
  state.form = form;
  const raw = h("textarea", { id: "raw-args", rows: 12, hidden: "" });
  const meta = h("textarea", { id: "call-meta", rows: 2, placeholder: '_meta, as a JSON object (optional)' });
  const toggle = h("button", { type: "button", id: "raw-toggle", text: "Raw JSON" });
  const problem = h("div", { id: "form-problem", class: "verdict-error" });
  let rawMode = false;
  toggle.onclick = () => {
    problem.textContent = "";
    try {
      if (!rawMode) raw.value = JSON.stringify(form.get(), null, 2);
      else form.set(JSON.parse(raw.value));
    } catch (e) { problem.textContent = e.message; return; }
    rawMode = !rawMode;
    raw.hidden = !rawMode; form.el.hidden = rawMode;
    toggle.textContent = rawMode ? "Form" : "Raw JSON";
  };
  const callBtn = h("button", { type: "button", id: "call", class: "primary", text: "Call" });
  callBtn.onclick = async () => {
    problem.textContent = "";
    let argsValue, metaValue;
    try {
      argsValue = rawMode ? JSON.parse(raw.value || "{}") : form.get();
      metaValue = meta.value.trim() ? JSON.parse(meta.value) : undefined;
    } catch (e) { problem.textContent = e.message; return; }
    try {
      const { id } = await api("api/call", { server: state.server, tool: tool.name, arguments: argsValue, meta: metaValue });
      state.currentCall = id;
      drawCurrentCall();
      Apps.open($("#app-view"), state.server, tool, argsValue, id); // apps.js: the tool's MCP App view, if it has one
    } catch (e) { problem.textContent = e.message; }
  };
  const detail = $("#tool-detail");
  detail.replaceChildren(
    h("h2", { text: tool.title || tool.name }), h("p", { text: tool.description || "" }),
    form.el, raw, h("div", { class: "field" }, h("label", { for: "call-meta", text: "_meta" }), meta),
    h("div", { class: "toolbar" }, callBtn, toggle), problem,
    h("div", { id: "call-result" }), h("div", { id: "app-view" }));
  Apps.close();
  if (args !== undefined) form.set(args);
  state.currentCall = 0;
}

function callView(rec) {
  const box = Render.call(rec, readLink);
  box.append(Report.verdict(rec, state.tools.find((t) => t.name === rec.tool)) || "");
  const bar = h("div", { class: "toolbar" });
  if (rec.state === "running") {
    const cancel = h("button", { type: "button", class: "cancel", text: "Cancel" });
    cancel.onclick = () => api("api/cancel", { id: rec.id }).catch(() => {});
    bar.append(cancel);
  }
  const copy = h("button", { type: "button", class: "copy", text: "Copy as mcpwire command" });
  copy.onclick = () => navigator.clipboard && navigator.clipboard.writeText(rec.command);
  bar.append(copy, h("code", { class: "command", text: rec.command }));
  box.append(bar);
  return box;
}
// redraw puts rec's view into slot, or only its progress when the view
// there is of the same call, still running.
function redraw(slot, rec) {
  const have = slot.firstElementChild;
  if (have && have.dataset.call === String(rec.id) && have.dataset.state === "running" && rec.state === "running") {
    Render.progress(have, rec);
    return;
  }
  slot.replaceChildren(callView(rec));
}
function drawCurrentCall() {
  const rec = state.calls.get(state.currentCall);
  const slot = $("#call-result");
  if (rec && slot) redraw(slot, rec);
}
async function readLink(uri) {
  await showTab("resources");
  readResource(uri);
}

// ---- history
// drawHistory updates the history item of rec, adding it (newest first)
// when it is new; the other items stay as they are.
function drawHistory(rec) {
  const list = $("#history");
  const have = list.querySelector(`[data-history="${rec.id}"]`);
  if (have) { redraw(have.querySelector(".call-slot"), rec); return; }
  const item = historyItem(rec);
  const older = [...list.children].find((el) => Number(el.dataset.history) < rec.id);
  list.insertBefore(item, older || null);
}
function historyItem(rec) {
  const rerun = h("button", { type: "button", class: "rerun", text: "Re-run" });
  rerun.onclick = async () => { await api("api/call", { server: rec.server, tool: rec.tool, arguments: rec.arguments, meta: rec.meta }); };
  const edit = h("button", { type: "button", class: "edit", text: "Edit and run" });
  edit.onclick = async () => {
    state.server = rec.server; $("#server").value = rec.server;
    await showTab("tools");
    const tool = state.tools.find((t) => t.name === rec.tool);
    if (tool) openTool(tool, rec.arguments);
  };
  return h("div", { class: "card history-item", "data-history": rec.id },
    h("div", { class: "toolbar" }, h("span", { text: `#${rec.id} ${new Date(rec.started).toLocaleTimeString()}` }), rerun, edit),
    h("pre", { class: "args", text: JSON.stringify(rec.arguments) }), h("div", { class: "call-slot" }, callView(rec)), Compare.control(rec));
}

// ---- resources
async function loadResources() {
  const list = $("#resource-list");
  try {
    const { resources, templates } = await api(q("api/resources"));
    list.replaceChildren(
      ...resources.map((r) => { const li = h("li", { "data-uri": r.uri }, h("span", { text: r.title || r.name }), h("small", { text: r.uri })); li.onclick = () => readResource(r.uri); return li; }),
      ...templates.map((t) => { const li = h("li", { "data-template": t.uriTemplate }, h("span", { text: (t.title || t.name) + " (template)" }), h("small", { text: t.uriTemplate })); li.onclick = () => openTemplate(t); return li; }));
  } catch (e) { list.replaceChildren(h("li", {}, errorBox(e))); }
}
// openTemplate builds a field per variable of the URI template, each with
// the server's completions (ref/resource), and reads the filled URI.
function openTemplate(t) {
  const values = {};
  const uri = h("code", { id: "template-uri", text: t.uriTemplate });
  const fill = () => { uri.textContent = Complete.expand(t.uriTemplate, values); };
  const fields = Complete.variables(t.uriTemplate).map((name) => {
    const el = h("input", { type: "text", id: "template-" + name, name: "template-" + name });
    el.addEventListener("input", () => { values[name] = el.value; fill(); });
    return h("div", { class: "field" }, h("label", { for: el.id, text: name }), el);
  });
  const go = h("button", { type: "button", id: "template-read", class: "primary", text: "Read" });
  go.onclick = () => readResource(uri.textContent);
  $("#resource-detail").replaceChildren(h("h2", { text: t.title || t.name }), h("p", { text: t.description || "Fill in the variables, then read." }),
    ...fields, h("div", { class: "field" }, h("span", { class: "muted", text: "URI " }), uri), go, h("div", { id: "read-result" }));
  if (server().capabilities && server().capabilities.completions) {
    fields.forEach((f) => { const el = f.querySelector("input"); Complete.attach(el, { type: "ref/resource", uri: t.uriTemplate }, el.id.slice(9), () => ({ ...values })); });
  }
}
// readResource shows uri's contents, with Subscribe when the server
// offers subscriptions: then each notifications/resources/updated for it
// reads it again (see resourceUpdated).
async function readResource(uri) {
  const detail = $("#resource-detail");
  const server = state.servers.find((s) => s.name === state.server) || {};
  const canSubscribe = !!(server.capabilities && server.capabilities.resources && server.capabilities.resources.subscribe);
  const parts = [h("h2", { text: uri })];
  if (canSubscribe) {
    const key = state.server + "\u0000" + uri;
    const btn = h("button", { type: "button", id: "subscribe", text: state.subscribed.has(key) ? "Unsubscribe" : "Subscribe" });
    const status = h("span", { id: "subscribe-status", class: "muted", text: state.subscribed.has(key) ? "subscribed" : "" });
    btn.onclick = async () => {
      const on = !state.subscribed.has(key);
      try {
        await api(q("api/subscribe"), { uri, subscribe: on });
        if (on) state.subscribed.set(key, 0); else state.subscribed.delete(key);
        btn.textContent = on ? "Unsubscribe" : "Subscribe";
        status.textContent = on ? "subscribed" : "unsubscribed";
      } catch (e) { status.textContent = e.message; }
    };
    parts.push(h("div", { class: "toolbar" }, btn, status));
  }
  parts.push(h("div", { id: "read-result", "data-uri": uri, text: "reading…" }));
  detail.replaceChildren(...parts);
  await showRead(uri);
}
async function showRead(uri) {
  try {
    const res = await api(q("api/read"), { uri });
    const slot = $("#read-result");
    if (slot && slot.dataset.uri === uri) slot.replaceChildren(Render.read(res));
  } catch (e) { const slot = $("#read-result"); if (slot) slot.replaceChildren(errorBox(e)); }
}
// resourceUpdated reads again a subscribed resource that is on show when
// its server says it changed, and counts the updates.
state.subscribed = new Map(); // server NUL uri -> updates seen
function resourceUpdated(e) {
  if (e.method !== "notifications/resources/updated") return;
  const uri = ((e.message || {}).params || {}).uri;
  const key = e.server + "\u0000" + uri;
  if (!state.subscribed.has(key)) return;
  const n = state.subscribed.get(key) + 1;
  state.subscribed.set(key, n);
  const slot = $("#read-result");
  if (e.server !== state.server || !slot || slot.dataset.uri !== uri) return;
  $("#subscribe-status").textContent = `subscribed; updated ${n}× (last ${new Date(e.time).toLocaleTimeString()})`;
  showRead(uri);
}

// ---- prompts
async function loadPrompts() {
  const list = $("#prompt-list");
  try {
    const prompts = await api(q("api/prompts"));
    list.replaceChildren(...prompts.map((p) => { const li = h("li", { "data-prompt": p.name }, h("span", { text: p.title || p.name }), h("small", { text: p.description || "" })); li.onclick = () => openPrompt(p); return li; }));
  } catch (e) { list.replaceChildren(h("li", {}, errorBox(e))); }
}
function openPrompt(p) {
  const inputs = (p.arguments || []).map((a) => ({ a, el: h("input", { type: "text", name: "prompt-" + a.name, id: "prompt-" + a.name }) }));
  const given = () => Object.fromEntries(inputs.filter(({ el }) => el.value !== "").map(({ a, el }) => [a.name, el.value]));
  const go = h("button", { type: "button", id: "get-prompt", class: "primary", text: "Get prompt" });
  const out = h("div", { id: "prompt-result" });
  go.onclick = async () => {
    const args = {};
    inputs.forEach(({ a, el }) => { if (el.value !== "" || a.required) args[a.name] = el.value; });
    try { out.replaceChildren(Render.prompt(await api(q("api/prompt"), { name: p.name, arguments: args }))); } catch (e) { out.replaceChildren(errorBox(e)); }
  };
  $("#prompt-detail").replaceChildren(h("h2", { text: p.title || p.name }), h("p", { text: p.description || "" }),
    ...inputs.map(({ a, el }) => h("div", { class: "field" }, h("label", { for: el.id, text: a.name + (a.required ? " *" : "") }), el, a.description ? h("div", { class: "desc", text: a.description }) : null)),
    go, out);
  // After the fields are in the page: each datalist goes beside its input.
  if (server().capabilities && server().capabilities.completions) inputs.forEach(({ a, el }) => Complete.attach(el, { type: "ref/prompt", name: p.name }, a.name, given));
}
const server = () => state.servers.find((s) => s.name === state.server) || {};

// ---- notifications
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
function noteRow(e) {
  let params = {};
  try { params = JSON.parse(JSON.stringify(e.message.params || {})); } catch (_) { /* shown raw */ }
  const level = e.method === "notifications/message" ? params.level || "" : "";
  const min = LEVELS.indexOf($("#note-level").value);
  if (level && LEVELS.indexOf(level) < min) return null;
  const text = e.method === "notifications/message" ? (typeof params.data === "string" ? params.data : JSON.stringify(params.data)) : JSON.stringify(params);
  return h("tr", { "data-seq": e.seq }, h("td", { text: new Date(e.time).toLocaleTimeString() }), h("td", { text: e.server }),
    h("td", { text: e.method }), h("td", { text: level }), h("td", { text: text.slice(0, 500) }));
}
function drawNotes() {
  const rows = state.wire.filter((e) => e.kind === "notification" && e.direction === "receive").slice(-WIRE_ROWS).reverse().map(noteRow).filter(Boolean);
  $("#notes").replaceChildren(...rows);
}
$("#note-level").onchange = drawNotes;
$("#set-level").onclick = async () => {
  const st = $("#level-status");
  try { await api(q("api/loglevel"), { level: $("#note-level").value }); st.textContent = `asked ${state.server} for ${$("#note-level").value}`; } catch (e) { st.textContent = e.message; }
};

// ---- wire
// The page keeps the last WIRE_KEEP messages (the server keeps its own
// bound) and draws only the rows in view (virtual.js); a message's text
// for the filter is lowercased once, when first filtered.
function hay(e) {
  if (e.hay === undefined) {
    e.hay = [e.method, e.server, e.id === undefined ? "" : JSON.stringify(e.id), e.direction, e.kind, JSON.stringify(e.message)].join("\u0000").toLowerCase();
  }
  return e.hay;
}
function wireMatches(e, needle, notes) {
  if (!notes && e.kind === "notification") return false;
  return !needle || hay(e).includes(needle);
}
const httpText = (x) => (x ? (x.status ? String(x.status) : "—") + (/event-stream/.test(x.contentType || "") ? " sse" : "") : "");
function wireRow(e) {
  const tr = h("tr", { class: `entry ${e.direction} k-${e.kind}` + (e.seq === state.selected ? " selected" : ""), "data-seq": e.seq, "data-method": e.method || "", "data-kind": e.kind },
    h("td", { text: new Date(e.time).toISOString().slice(11, 23) }), h("td", { text: e.server }),
    h("td", { text: e.direction === "send" ? "→ send" : "← recv" }),
    h("td", { text: (e.method || "") + (e.kind === "result" || e.kind === "error" ? ` (${e.kind})` : "") }),
    h("td", { text: e.id === undefined ? "" : JSON.stringify(e.id) }),
    h("td", { text: e.latencyMs ? e.latencyMs.toFixed(1) + " ms" : "" }), h("td", { text: String(e.size) }),
    h("td", { class: "http" + (e.http && (e.http.status >= 400 || !e.http.status) ? " bad" : ""), text: httpText(e.http) }));
  tr.onclick = () => {
    const was = state.selected && findWire(state.selected);
    state.selected = state.selected === e.seq ? 0 : e.seq;
    if (was) wireList.changed(was);
    wireList.changed(e);
    drawDetail();
  };
  return tr;
}
const wirePad = () => h("tr", { class: "v-pad", "aria-hidden": "true" }, h("td", { colspan: "8" }));
const wireList = Virtual.list({ scroller: $("#wire-scroll"), body: $("#wire"), rowHeight: 24, render: wireRow, pad: wirePad, follow: true });
state.selected = 0;  // the message shown in full below the log
state.wireView = []; // the messages that match the filter, oldest first

// drawDetail shows the selected message as pretty JSON, with its HTTP
// exchange when it went over HTTP.
function drawDetail() {
  const box = $("#wire-detail");
  const e = state.selected && findWire(state.selected);
  if (!e) { box.replaceChildren(); return; }
  const parts = [h("div", { class: "muted", text: `#${e.seq} ${e.server} ${e.direction} ${e.method || ""}` + (e.replyTo ? ` (answers #${e.replyTo})` : "") }), Render.json(e.message)];
  if (e.http) {
    const rows = (side, hdrs) => Object.entries(hdrs || {}).map(([k, v]) => h("tr", {}, h("td", { text: side }), h("td", { text: k }), h("td", { text: v })));
    parts.push(h("div", { class: "muted", text: `HTTP ${e.http.status || "(no answer)"} ${e.http.contentType || ""} ${e.http.error || ""}` }),
      h("table", { class: "grid http-headers" }, h("tbody", {}, ...rows("request", e.http.request), ...rows("response", e.http.response))));
  }
  box.replaceChildren(...parts);
}
// findWire finds a kept message by its sequence number (they are sorted).
function findWire(seq) {
  let lo = 0, hi = state.wire.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1, s = state.wire[mid].seq;
    if (s === seq) return state.wire[mid];
    if (s < seq) lo = mid + 1; else hi = mid - 1;
  }
  return null;
}
function wireCount() {
  $("#wire-count").textContent = `${state.wireView.length} of ${state.wire.length} messages`;
}
// drawWire filters anew (after a filter change or a reset) and draws at
// once; new messages are added by addWire.
function drawWire() {
  const needle = $("#wire-filter").value.toLowerCase();
  const notes = $("#wire-notes").checked;
  state.wireView = state.wire.filter((e) => wireMatches(e, needle, notes));
  wireList.set(state.wireView);
  wireList.now();
  wireCount();
  drawDetail();
  drawNotes();
}
// trimWire drops the oldest messages beyond the page's bound, a tenth at
// a time so that a flood does not move the whole array on every message.
function trimWire() {
  if (state.wire.length <= WIRE_KEEP * 1.1) return;
  state.wire.splice(0, state.wire.length - WIRE_KEEP);
  const oldest = state.wire[0].seq;
  const i = state.wireView.findIndex((e) => e.seq >= oldest);
  state.wireView.splice(0, i < 0 ? state.wireView.length : i);
}
function addWire(e) {
  state.wire.push(e);
  trimWire();
  if (wireMatches(e, $("#wire-filter").value.toLowerCase(), $("#wire-notes").checked)) {
    state.wireView.push(e);
    wireList.changed();
  }
  wireCount();
  if (e.kind === "notification" && e.direction === "receive") {
    listChanged(e);
    resourceUpdated(e);
    const row = noteRow(e);
    if (row) {
      const notes = $("#notes");
      notes.prepend(row);
      if (notes.childElementCount > WIRE_ROWS) notes.lastElementChild.remove();
    }
  }
}
// updateWire takes the HTTP exchange of a message already kept.
function updateWire(u) {
  const e = findWire(u.seq);
  if (!e) return;
  e.http = u.http;
  wireList.changed(e);
  if (state.selected === e.seq) drawDetail();
}
$("#wire-filter").oninput = drawWire;
$("#wire-notes").onchange = drawWire;

// ---- live updates
function connect() {
  const es = new EventSource("api/events");
  es.onopen = () => { $("#live").textContent = "live"; loadServers().catch(() => {}); };
  es.onerror = () => { $("#live").textContent = "reconnecting…"; };
  es.addEventListener("wire-reset", (ev) => {
    state.wire = JSON.parse(ev.data);
    drawWire();
    performance.mark("wire-drawn"); // the browser's own timing of a (re)load, for the benchmark
  });
  es.addEventListener("wire", (ev) => addWire(JSON.parse(ev.data)));
  es.addEventListener("wire-http", (ev) => updateWire(JSON.parse(ev.data)));
  es.addEventListener("call", (ev) => {
    const rec = JSON.parse(ev.data);
    const have = state.calls.get(rec.id);
    if (have && have.rev > rec.rev) return;
    state.calls.set(rec.id, rec);
    if (rec.id === state.currentCall) drawCurrentCall();
    drawHistory(rec);
    Apps.callChanged(rec);
  });
  es.addEventListener("servers", () => { loadServers().catch(() => {}); });
  es.addEventListener("asks", (ev) => Asks.draw(JSON.parse(ev.data)));
}
// serversLoaded settles once the server list has been read (or failed).
const serversLoaded = loadServers().catch(() => {});
connect();
Asks.drawRoots();
