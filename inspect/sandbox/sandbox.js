// sandbox.js is the MCP App sandbox proxy, served inline from the second
// origin (apps_sandbox.go). It waits for the view's HTML from the page,
// loads it in an inner frame whose origin is opaque (allow-scripts and
// allow-forms, never allow-same-origin), and passes JSON-RPC messages
// between the page and the view. It trusts messages only from its parent
// at the page's origin, and from its own inner frame.
"use strict";
(() => {
  const host = document.documentElement.dataset.host;
  const PERMISSIONS = { camera: "camera", microphone: "microphone", geolocation: "geolocation", clipboardWrite: "clipboard-write" };
  const isSandboxMethod = (m) => typeof m === "string" && m.startsWith("ui/notifications/sandbox-");
  let inner = null;

  function load(params) {
    if (inner || !params || typeof params.html !== "string") return;
    inner = document.createElement("iframe");
    // Fixed here whatever the message says: the view never shares an
    // origin with anything.
    inner.setAttribute("sandbox", "allow-scripts allow-forms");
    const allow = Object.keys(params.permissions || {}).filter((k) => PERMISSIONS[k]).map((k) => PERMISSIONS[k]);
    if (allow.length) inner.setAttribute("allow", allow.join("; "));
    inner.setAttribute("title", "MCP App view");
    // srcdoc inherits this document's CSP (the view's, set by the host's
    // header), which the view cannot loosen.
    inner.srcdoc = params.html;
    document.body.append(inner);
  }

  window.addEventListener("message", (ev) => {
    const msg = ev.data;
    if (!msg || typeof msg !== "object" || msg.jsonrpc !== "2.0") return;
    if (ev.source === window.parent && ev.origin === host) {
      if (msg.method === "ui/notifications/sandbox-resource-ready") { load(msg.params); return; }
      if (isSandboxMethod(msg.method)) return;
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(msg, "*"); // the view's origin is opaque: "*" is the only target
      return;
    }
    if (inner && ev.source === inner.contentWindow) {
      if (isSandboxMethod(msg.method)) return; // the view may not speak for the sandbox
      window.parent.postMessage(msg, host);
    }
  });
  window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, host);
})();
