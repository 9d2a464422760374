// compare.js compares a call's result with an earlier call's of the same
// tool: the two results as pretty JSON, line by line, what went and what
// came marked.
"use strict";

const Compare = (() => {
  const MAX_CELLS = 4e6; // lines × lines beyond which no diff is made

  // text is what a call ended with, as the comparison reads it.
  function text(rec) {
    const r = rec.result;
    const v = r ? { isError: !!r.isError, content: r.content, structuredContent: r.structuredContent } : { state: rec.state, error: rec.error };
    return JSON.stringify(v, null, 2);
  }

  // diff returns [kind, line] pairs (kind " ", "-" or "+") from the
  // longest common subsequence of the lines, or null when too large.
  function diff(a, b) {
    const A = a.split("\n"), B = b.split("\n");
    const n = A.length, m = B.length;
    if (n * m > MAX_CELLS) return null;
    const w = m + 1, L = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        L[i * w + j] = A[i] === B[j] ? L[(i + 1) * w + j + 1] + 1 : Math.max(L[(i + 1) * w + j], L[i * w + j + 1]);
      }
    }
    const out = [];
    let i = 0, j = 0;
    while (i < n && j < m) {
      if (A[i] === B[j]) { out.push([" ", A[i]]); i++; j++; } else if (L[(i + 1) * w + j] >= L[i * w + j + 1]) out.push(["-", A[i++]]); else out.push(["+", B[j++]]);
    }
    while (i < n) out.push(["-", A[i++]]);
    while (j < m) out.push(["+", B[j++]]);
    return out;
  }

  function show(out, older, rec) {
    const d = diff(text(older), text(rec));
    if (!d) { out.replaceChildren(h("div", { class: "muted", text: "too large to compare line by line" })); return; }
    const same = d.every(([k]) => k === " ");
    const cls = { " ": "diff-same", "-": "diff-del", "+": "diff-add" };
    out.replaceChildren(h("div", { class: "muted compare-summary", text: same ? `the same result as #${older.id}` : `#${older.id} (−) against #${rec.id} (+)` }),
      h("pre", { class: "diff" }, ...d.map(([k, line]) => h("div", { class: cls[k], text: k + " " + line }))));
  }

  // control is the history item's "Compare" button: it offers the earlier
  // calls of the same tool on the same server, the latest first, and
  // compares with that one at once.
  function control(rec) {
    const box = h("div", { class: "compare" });
    const btn = h("button", { type: "button", class: "compare-open", text: "Compare with an earlier call" });
    btn.onclick = () => {
      const earlier = [...state.calls.values()].filter((c) => c.id < rec.id && c.server === rec.server && c.tool === rec.tool && c.state !== "running").sort((a, b) => b.id - a.id);
      if (!earlier.length) { box.replaceChildren(btn, h("span", { class: "muted", text: " no earlier call of this tool" })); return; }
      const pick = h("select", { class: "compare-with" }, ...earlier.map((c) => h("option", { value: c.id, text: `#${c.id} ${new Date(c.started).toLocaleTimeString()} ${JSON.stringify(c.arguments).slice(0, 60)}` })));
      const out = h("div", { class: "compare-result" });
      pick.onchange = () => show(out, state.calls.get(Number(pick.value)), state.calls.get(rec.id) || rec);
      box.replaceChildren(pick, out);
      pick.onchange();
    };
    box.append(btn);
    return box;
  }

  return { control, diff };
})();
