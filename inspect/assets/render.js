// render.js shows what servers return as a person wants to see it: text as
// text, images and audio inline, resources with their URI, structured
// content as pretty JSON (nodes built with dom.js's h).
"use strict";

const Render = (() => {
  const json = (v) => h("pre", { class: "json", text: JSON.stringify(v, null, 2) });

  // safeMime keeps a data: URL's type to what the element can show.
  const safeMime = (m, kind) => (typeof m === "string" && new RegExp("^" + kind + "/[a-z0-9.+-]+$", "i").test(m) ? m : kind + "/png");

  function resourceContents(rc) {
    const box = h("div", { class: "resource" }, h("div", { class: "muted", text: `${rc.uri || ""} ${rc.mimeType || ""}` }));
    if (typeof rc.text === "string") box.append(h("pre", { class: "text", text: rc.text }));
    else if (typeof rc.blob === "string") {
      if (/^image\//.test(rc.mimeType || "")) box.append(h("img", { class: "content", alt: rc.uri, src: `data:${safeMime(rc.mimeType, "image")};base64,${rc.blob}` }));
      else {
        box.append(h("div", { text: `binary, ${blobBytes(rc.blob)} bytes (base64)` }));
        const text = /^text\/|[/+](json|xml)$/i.test(rc.mimeType || "") ? blobText(rc.blob) : null;
        if (text !== null) box.append(h("pre", { class: "text", text }));
      }
    }
    return box;
  }
  // blobBytes is the length of what base64 b decodes to: its padding
  // stands for no byte.
  function blobBytes(b) {
    const s = b.replace(/\s/g, "");
    return Math.floor((s.length * 3) / 4) - (s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0);
  }
  // blobText decodes a blob of a text type as UTF-8, or null when it is
  // no valid base64 or UTF-8 (then only its size shows).
  function blobText(b) {
    try {
      const raw = atob(b.replace(/\s/g, ""));
      return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(raw, (c) => c.charCodeAt(0)));
    } catch (_) { return null; }
  }

  // content renders one content block; onLink is called with a resource
  // link's URI when the person asks to read it.
  function content(c, onLink) {
    switch (c && c.type) {
      case "text": return h("pre", { class: "text", text: c.text });
      case "image": return h("img", { class: "content", alt: "image " + (c.mimeType || ""), src: `data:${safeMime(c.mimeType, "image")};base64,${c.data}` });
      case "audio": return h("audio", { controls: "", src: `data:${safeMime(c.mimeType, "audio")};base64,${c.data}` });
      case "resource_link": {
        const b = h("button", { type: "button", class: "link", text: `${c.name || c.uri} (${c.uri})` });
        b.onclick = () => onLink && onLink(c.uri);
        return h("div", { class: "resource-link" }, h("span", { text: "resource link: " }), b, c.description ? h("div", { class: "muted", text: c.description }) : null);
      }
      case "resource": return h("div", {}, h("div", { text: "embedded resource" }), resourceContents(c.resource || {}));
      default: return json(c);
    }
  }

  // openFirst shows the pages a server asks the person to open before the
  // call can succeed (its -32042 error): each page's site in bold and the
  // whole URL as a link, opened only when the person clicks it.
  function openFirst(pages) {
    const box = h("div", { class: "open-first" }, h("div", { text: "The server asks you to open this first, then to call again:" }));
    for (const p of pages) {
      let u;
      try { u = new URL(p.url); } catch (_) { continue; }
      if (u.protocol !== "http:" && u.protocol !== "https:") continue;
      box.append(h("div", { class: "card" }, p.message ? h("p", { text: p.message }) : null,
        h("div", {}, h("span", { text: "site: " }), h("strong", { class: "ask-host", text: u.host })),
        h("a", { class: "open-url", href: p.url, target: "_blank", rel: "noopener noreferrer", text: p.url })));
    }
    return box;
  }

  // result renders a finished or running tool call.
  function call(rec, onLink) {
    const box = h("div", { class: "result", "data-call": rec.id, "data-state": rec.state });
    const head = h("div", { class: "result-head" }, h("strong", { text: `${rec.server} / ${rec.tool}` }), document.createTextNode(" "),
      h("span", { class: "badge state", text: rec.state }));
    if (rec.durationMs) head.append(h("span", { class: "muted duration", text: ` ${rec.durationMs.toFixed(1)} ms` }));
    box.append(head);
    if (rec.state === "running") {
      box.append(h("div", { class: "running" }, h("progress", { class: "call-progress" }), h("span", { class: "progress-text", text: " running…" })));
      progress(box, rec);
    }
    if (rec.error) box.append(h("div", { class: "verdict-error error", text: rec.error }));
    if (rec.openFirst && rec.openFirst.length) box.append(openFirst(rec.openFirst));
    const r = rec.result;
    if (r) {
      if (r.isError) { box.classList.add("is-error"); box.append(h("div", { class: "verdict-error", text: "The tool reported an error (isError)." })); }
      (r.content || []).forEach((c) => box.append(content(c, onLink)));
      if (r.structuredContent !== undefined) box.append(h("div", { class: "muted", text: "structuredContent" }), json(r.structuredContent));
    }
    return box;
  }

  // progress shows a running call's latest progress in its box, in place,
  // so that its buttons stay put while updates stream in.
  function progress(box, rec) {
    const p = rec.progress;
    const bar = box.querySelector(".call-progress");
    if (!p || !bar) return;
    if (p.total) { bar.max = p.total; bar.value = p.progress; }
    box.querySelector(".progress-text").textContent = ` ${p.progress}${p.total ? " / " + p.total : ""} ${p.message || ""}`;
  }

  function prompt(res) {
    const box = h("div", { class: "prompt-result" });
    if (res.description) box.append(h("p", { text: res.description }));
    (res.messages || []).forEach((m) => box.append(h("div", { class: "card message" }, h("strong", { text: m.role }), content(m.content))));
    return box;
  }

  function read(res) {
    const box = h("div", { class: "read-result" });
    (res.contents || []).forEach((rc) => box.append(resourceContents(rc)));
    return box;
  }

  return { json, call, progress, prompt, read, content };
})();
