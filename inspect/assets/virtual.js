// virtual.js draws only the rows of a long list that are in view (and a
// margin), with a spacer above and below standing in for the others, so
// that 100,000 wire messages or 1,000 tools cost about as much to draw as
// fifty. Rows have one fixed height (set in app.css), which is what makes
// the spacers exact. A row stays the same element while it is in view, so
// that nothing moves under the pointer as the list grows.
"use strict";

const Virtual = (() => {
  const MARGIN = 15; // rows drawn beyond each edge of the view

  // list draws items into body, a child of (or the same as) scroller.
  // render(item) returns one row; pad() a spacer element that fits in
  // body (its height is set here). With follow, a list scrolled to its
  // end stays at its end as items are added (a live log).
  function list({ scroller, body, rowHeight, render, pad, follow }) {
    let items = [];
    let queued = false;
    let stick = !!follow;
    let rows = new Map(); // item -> its row, for the items in the window
    const top = pad(), bottom = pad();

    function draw() {
      queued = false;
      const view = scroller.clientHeight || window.innerHeight;
      const at = stick ? Math.max(0, items.length * rowHeight - view) : scroller.scrollTop;
      const first = Math.max(0, Math.floor(at / rowHeight) - MARGIN);
      const last = Math.min(items.length, Math.ceil((at + view) / rowHeight) + MARGIN);
      const want = items.slice(first, last);
      const next = new Map();
      for (const it of want) next.set(it, rows.get(it) || render(it));
      for (const [it, el] of rows) if (!next.has(it)) el.remove();
      rows = next;
      top.style.height = first * rowHeight + "px";
      bottom.style.height = (items.length - last) * rowHeight + "px";
      if (top.parentNode !== body) body.replaceChildren(top, bottom);
      // Put each row in place, moving only those that are not.
      let cursor = top.nextSibling;
      for (const it of want) {
        const el = rows.get(it);
        if (el === cursor) cursor = cursor.nextSibling;
        else body.insertBefore(el, cursor);
      }
      if (stick) scroller.scrollTop = scroller.scrollHeight;
    }
    function schedule() {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => { if (queued) draw(); });
    }
    scroller.addEventListener("scroll", () => {
      if (follow) stick = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2 * rowHeight;
      schedule();
    }, { passive: true });
    return {
      // set replaces the items (the list keeps the array: push to it and
      // call changed).
      set(next) { items = next; rows.forEach((el) => el.remove()); rows = new Map(); schedule(); },
      // changed draws what was added; with item, that item's row anew.
      changed(item) {
        const el = item && rows.get(item);
        if (el) { const fresh = render(item); el.replaceWith(fresh); rows.set(item, fresh); }
        schedule();
      },
      // now draws at once (after a filter, so that what is asserted or
      // timed is on the page when the call returns).
      now() { queued = false; draw(); },
    };
  }

  return { list };
})();
