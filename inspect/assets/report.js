// report.js answers "is this server correct?": the server's report (its
// listings as sent, the notifications it sent without the capability,
// the messages that were not valid JSON-RPC, the calls whose result
// failed its outputSchema), and the outputSchema verdict of each result.
"use strict";

const Report = (() => {
  async function load() {
    const box = document.getElementById("report");
    box.replaceChildren(h("p", { class: "muted", text: `checking ${state.server}…` }));
    let rep;
    try { rep = await api(q("api/report")); } catch (e) { box.replaceChildren(errorBox(e)); return; }
    const errors = rep.findings.filter((f) => f.severity === "error").length;
    const summary = h("p", { id: "report-summary", class: errors ? "verdict-error" : "verdict-ok",
      text: errors ? `${errors} problem${errors > 1 ? "s" : ""} against the specification, ${rep.findings.length - errors} warning(s)` : `no problem found; ${rep.findings.length} warning(s)` });
    box.replaceChildren(summary, ...rep.checks.map((check) => {
      const found = rep.findings.filter((f) => f.check === check);
      const head = h("h3", { text: (found.some((f) => f.severity === "error") ? "✗ " : found.length ? "! " : "✓ ") + check });
      if (!found.length) return h("div", { class: "card report-check pass", "data-check": check }, head);
      return h("div", { class: "card report-check", "data-check": check }, head,
        h("table", { class: "grid" }, h("tbody", {}, ...found.map((f) =>
          h("tr", { class: "finding sev-" + f.severity }, h("td", { text: f.severity }), h("td", { text: f.where }), h("td", { text: f.problem }))))));
    }));
  }

  // verdict says whether a finished call's structuredContent matched its
  // tool's outputSchema (the client checks it; the server tells the page).
  function verdict(rec, tool) {
    if (rec.state !== "done") return null;
    if (rec.schemaError) return h("div", { class: "verdict-error schema-verdict", text: "✗ " + rec.schemaError });
    if (tool && tool.outputSchema && rec.result && !rec.result.isError) return h("div", { class: "verdict-ok schema-verdict", text: "✓ structuredContent matches the outputSchema" });
    return null;
  }

  return { load, verdict };
})();
