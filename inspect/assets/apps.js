// apps.js renders MCP App views (2026-01-26): a tool whose
// _meta.ui.resourceUri names a ui:// resource shows that view beside its
// result. The view runs in the sandbox proxy of the second origin
// (apps_sandbox.go) and talks JSON-RPC over postMessage; this file is the
// host's side: the handshake, the tool's input and result, and the
// view's requests, each put on the wire timeline (/api/apps/log).
"use strict";

const Apps = (() => {
  const PROTOCOL = "2026-01-26";
  // LOG_QUEUE_CAP bounds the messages a view may have waiting to be logged.
  const LOG_QUEUE_CAP = 256;
  let current = null; // the one view shown (the page shows one tool at a time)
  // seen keeps the latest state of recent calls: a call may end before the
  // page learns its id (the event stream outruns the answer to the POST).
  const seen = new Map();
  const SEEN_KEEP = 100;

  // resourceUri is a tool's view, or "" (the flat key is the deprecated form).
  function resourceUri(tool) {
    const meta = (tool && tool._meta) || {};
    const uri = (meta.ui && meta.ui.resourceUri) || meta["ui/resourceUri"] || "";
    return typeof uri === "string" && uri.startsWith("ui://") ? uri : "";
  }

  async function post(path, body) {
    const resp = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await resp.json().catch(() => ({ error: `HTTP ${resp.status}` }));
    if (!resp.ok) throw new Error(data.error || `HTTP ${resp.status}`);
    return data;
  }

  function hostContext(view) {
    const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    let timeZone;
    try { timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (_) { /* left out */ }
    return {
      toolInfo: { tool: view.tool }, theme: dark ? "dark" : "light", displayMode: "inline", availableDisplayModes: ["inline"],
      containerDimensions: { width: Math.round(view.box.clientWidth) || 600, maxHeight: 800 },
      locale: navigator.language || "en", timeZone, platform: "web", userAgent: "mcpwire inspect",
    };
  }

  // View is one rendered view, bound to its server's view id.
  class View {
    constructor(box, server, tool, args, callId) {
      Object.assign(this, { box, server, tool, args, callId, initialized: false, closed: false, nextId: 1, pending: new Map(), call: null, logQueue: [], logDropped: 0 });
      this.status = h("div", { class: "muted app-status", text: `MCP App view ${resourceUri(tool)}: loading…` });
      this.log = h("ul", { class: "app-log" });
      this.el = h("div", { class: "app-view" }, h("h3", { text: "App view" }), this.status);
      box.replaceChildren(this.el);
      this.onMessage = (ev) => this.receive(ev);
    }

    async start() {
      try {
        this.info = await post("api/apps/view", { server: this.server, uri: resourceUri(this.tool) });
      } catch (e) { this.status.textContent = `MCP App view: ${e.message}`; this.status.classList.add("verdict-error"); return; }
      if (this.closed) return;
      const p = this.info.policy;
      this.status.textContent = `${this.info.label}: ${resourceUri(this.tool)}`;
      const details = h("details", { class: "app-policy" }, h("summary", { text: "sandbox policy" }),
        h("div", { text: "Content-Security-Policy: " + p.csp }), h("div", { text: "allow: " + (p.allow || "(none)") }),
        ...(p.refused || []).map((r) => h("div", { class: "verdict-error", text: "refused: " + r })));
      this.frame = h("iframe", { class: "app-frame", title: "MCP App sandbox", sandbox: "allow-scripts allow-same-origin", allow: p.allow || undefined, src: this.info.sandbox });
      window.addEventListener("message", this.onMessage);
      this.el.append(details, this.frame, this.log);
    }

    // send posts a message to the view (through the sandbox) and logs it.
    send(msg) {
      if (this.closed || !this.frame || !this.frame.contentWindow) return;
      if (!(msg.method || "").startsWith("ui/notifications/sandbox-")) this.record("send", msg);
      this.frame.contentWindow.postMessage(msg, this.info.sandboxOrigin);
    }
    // record logs a message on the wire, one post at a time and in order:
    // the wire names an answer after the request it answers, so a request's
    // entry must reach the server before its answer's. The queue is bounded;
    // past its cap entries are dropped and counted in the view's notes.
    record(direction, message) {
      if (this.logQueue.length >= LOG_QUEUE_CAP) {
        if (this.logDropped++ === 0) this.note("the wire log falls behind; some of this view's messages are not logged");
        return;
      }
      this.logQueue.push({ view: this.info.id, direction, message });
      if (this.logQueue.length === 1) this.flushLog();
    }
    async flushLog() {
      while (this.logQueue.length > 0) {
        await post("api/apps/log", this.logQueue[0]).catch(() => {});
        this.logQueue.shift();
      }
    }
    reply(id, result) { this.send({ jsonrpc: "2.0", id, result }); }
    fail(id, message, code) { this.send({ jsonrpc: "2.0", id, error: { code: code || -32000, message } }); }
    note(text) { this.log.append(h("li", { text })); }

    receive(ev) {
      if (this.closed || !this.frame || ev.source !== this.frame.contentWindow || ev.origin !== this.info.sandboxOrigin) return;
      const msg = ev.data;
      if (!msg || typeof msg !== "object" || msg.jsonrpc !== "2.0") return;
      if (msg.method === "ui/notifications/sandbox-proxy-ready") {
        const p = this.info.policy;
        this.send({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html: this.info.html, csp: p.granted, permissions: p.permissions } });
        return;
      }
      this.record("receive", msg);
      if (msg.method === undefined) { // an answer to one of ours
        const done = this.pending.get(msg.id);
        if (done) { this.pending.delete(msg.id); done(msg); }
        return;
      }
      const isRequest = msg.id !== undefined && msg.id !== null;
      this.handle(msg).then((result) => { if (isRequest) this.reply(msg.id, result); },
        (e) => { if (isRequest) this.fail(msg.id, String(e.message || e), e.code); });
    }

    async handle(msg) {
      const params = msg.params || {};
      switch (msg.method) {
        case "ui/initialize":
          return {
            protocolVersion: PROTOCOL, hostInfo: { name: "mcpwire inspect", version: "1" },
            hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, sandbox: { csp: this.info.policy.granted, permissions: this.info.policy.permissions } },
            hostContext: hostContext(this),
          };
        case "ui/notifications/initialized":
          this.initialized = true;
          this.send({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: this.args || {} } });
          this.deliver();
          return undefined;
        case "tools/call": {
          const res = await post("api/apps/call", { view: this.info.id, name: params.name, arguments: params.arguments, _meta: params._meta });
          this.note(`tools/call ${params.name}: ${res.isError ? "isError" : "done"}`);
          return res;
        }
        case "resources/read": return post("api/apps/read", { view: this.info.id, uri: params.uri });
        case "ui/open-link": {
          let u;
          try { u = new URL(params.url); } catch (_) { throw Object.assign(new Error("Invalid URL"), { code: -32602 }); }
          if (u.protocol !== "https:" && u.protocol !== "http:") throw Object.assign(new Error("Policy violation: only http and https links open"), { code: -32602 });
          // Opened by the person's click (their consent), in a new tab
          // that learns nothing of the page.
          const a = h("a", { href: u.href, target: "_blank", rel: "noopener noreferrer", class: "app-link", text: u.href });
          this.log.append(h("li", {}, document.createTextNode("the view asks to open "), a));
          return {};
        }
        case "ui/notifications/size-changed":
          if (typeof params.height === "number" && this.frame) this.frame.style.height = Math.max(40, Math.min(2000, Math.ceil(params.height))) + "px";
          return undefined;
        case "ui/message": {
          const c = params.content;
          this.note(`message from the view (${params.role || "?"}): ${Array.isArray(c) ? c.map((x) => x.text || "").join(" ") : (c && c.text) || ""}`);
          return {};
        }
        case "ui/update-model-context": this.note("model context updated by the view"); return {};
        case "ui/request-display-mode": return { mode: "inline" };
        case "notifications/message": this.note(`log (${params.level || "info"}): ${typeof params.data === "string" ? params.data : JSON.stringify(params.data)}`); return undefined;
        case "ping": return {};
        default:
          if (msg.id === undefined) return undefined; // notifications the host does not act on
          throw Object.assign(new Error(`Method not found: ${msg.method}`), { code: -32601 });
      }
    }

    // deliver sends the call's outcome once the view is initialized.
    deliver() {
      const rec = this.call;
      if (!this.initialized || !rec || this.delivered || rec.state === "running") return;
      this.delivered = true;
      if (rec.state === "done") this.send({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: rec.result });
      else this.send({ jsonrpc: "2.0", method: "ui/notifications/tool-cancelled", params: { reason: rec.error || rec.state } });
    }

    // close tells the view it goes (ui/resource-teardown), and removes it
    // when it answers or after a second at most.
    close() {
      if (this.closed) return;
      const gone = () => { this.closed = true; window.removeEventListener("message", this.onMessage); this.el.remove(); };
      if (!this.initialized) { gone(); return; }
      const id = "teardown-" + this.nextId++;
      this.pending.set(id, gone);
      this.send({ jsonrpc: "2.0", id, method: "ui/resource-teardown", params: { reason: "the tool was closed" } });
      setTimeout(gone, 1000);
    }
  }

  // open shows tool's view in box for call callId (when the tool has one).
  function open(box, server, tool, args, callId) {
    close();
    if (!box || !resourceUri(tool)) return;
    current = new View(box, server, tool, args, callId);
    current.call = seen.get(callId) || null;
    current.start();
  }
  function close() { if (current) current.close(); current = null; }
  // callChanged hands a call's new state to the view waiting for it.
  function callChanged(rec) {
    seen.set(rec.id, rec);
    if (seen.size > SEEN_KEEP) seen.delete(seen.keys().next().value);
    if (current && rec.id === current.callId) { current.call = rec; current.deliver(); }
  }
  return { open, close, callChanged, resourceUri };
})();
