// dom.js: h builds an element from its tag, attributes and children. The
// page builds every node this way, with textContent for what servers
// send, never HTML from a server.
"use strict";

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k === "class") el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid) el.append(kid);
  return el;
}
