// signin.js is the Servers tab's OAuth sign-in: a server that wants one
// shows "needs sign-in" and a Sign in button; the inspector runs the
// flow "mcpwire login" runs (its redirect listener on this machine) and
// answers with the authorization URL, which opens in a new tab and stays
// on the card as a link with its site set apart. The outcome (signed in
// and connected, or why not) arrives with the "servers" events.
"use strict";

const SignIn = (() => {
  const problems = {}; // server -> the error of the last request to start one

  // link shows an authorization URL with its site in bold, so that the
  // person sees where it leads before following it; only http(s).
  function link(url, site) {
    if (!/^https?:\/\//i.test(url) || !site || !url.startsWith(site)) return h("span", { class: "error", text: "the sign-in address is not an http(s) URL" });
    return h("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "signin-link" },
      h("b", { text: site }), h("span", { text: url.slice(site.length) }));
  }

  async function start(name) {
    delete problems[name];
    let out;
    try {
      out = await api("api/signin", { server: name });
    } catch (e) {
      problems[name] = e.message;
      await loadServers().catch(() => {});
      return;
    }
    if (/^https?:\/\//i.test(out.url || "")) window.open(out.url, "_blank", "noopener,noreferrer");
    await loadServers().catch(() => {});
  }

  // box is what a server card shows of its sign-in; null when nothing.
  function box(s) {
    const si = s.signIn || {};
    if (!s.needsSignIn && !si.state && !problems[s.name]) return null;
    const el = h("div", { class: "signin", "data-signin": si.state || (s.needsSignIn ? "needed" : "") });
    if (si.state === "waiting") {
      el.append(h("div", { class: "signin-status", text: `Waiting for the sign-in at ${si.site}; if no tab opened, follow: ` }), link(si.url, si.site));
    } else if (si.state === "failed") {
      el.append(h("div", { class: "signin-status verdict-error error", text: `sign-in failed: ${si.error}` }));
    } else if (si.state === "signed-in" && !s.needsSignIn) {
      el.append(h("div", { class: "signin-status muted", text: "signed in" }));
    }
    if (problems[s.name]) el.append(h("div", { class: "verdict-error error", text: `sign-in failed: ${problems[s.name]}` }));
    if (s.needsSignIn || si.state === "waiting" || si.state === "failed") {
      const b = h("button", { type: "button", class: "signin-button", text: si.state === "waiting" ? "Start again" : si.state === "failed" ? "Try again" : "Sign in" });
      b.onclick = () => start(s.name);
      el.append(h("div", { class: "toolbar" }, b));
    }
    return el;
  }

  return { box, start };
})();
