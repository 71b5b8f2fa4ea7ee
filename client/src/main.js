// Start-up: the screens register themselves when imported; this module connects to the
// server, starts the router and, off the critical path, the rules worker.
import { html, nothing } from "lit-html";
import { Link } from "./net.js";
import { Preview } from "./preview.js";
import { app, LS, dispatch, update, on } from "./app.js";
import { startRouter, route, addChrome } from "./router.js";
import { slot } from "./slots.js";
import { runPreview, runOdds } from "./match-model.js";
import { W } from "./words.js";
import { hello } from "./identity.js";
import "./screens/index.js";

app.preview = new Preview();

function renderConn() {
  const c = document.querySelector("#conn");
  if (!c) return;
  c.hidden = !app.link; // no name yet (the rules, the tutorial): no connection to show
  if (!app.link) return;
  const s = app.link.state;
  c.textContent = W.UI.conn[s] || s;
  c.className = `conn ${s}`;
  c.setAttribute("data-state", s);
}

app.startLink = function startLink() {
  if (app.link) return;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  app.link = new Link(url, hello);
  app.link.addEventListener("state", () => { renderConn(); update(); });
  app.link.addEventListener("message", (ev) => dispatch(ev.detail));
  app.link.start();
  renderConn();
};

on("welcome", (m) => {
  app.welcome = m;
  LS.set("token", m.token);
  LS.set("name", m.name);
  update();
});

// The way back to your running match, from every other screen.
addChrome((screen) => {
  const id = LS.get("match");
  const r = route();
  if (!id || (screen && screen.id === "match" && r.arg === id)) return nothing;
  return html`<a class="navlink" id="back-to-match" href=${`#/m/${id}`}>${W.UI.nav.backToMatch}</a>`;
});

// Other modules' links in the top bar ("menu" slot).
addChrome(() => html`${slot("menu")}`);

// ---- the rules worker ------------------------------------------------------------

function startPreview() {
  if (app.preview.worker) return;
  const go = () => app.preview.start();
  if ("requestIdleCallback" in window) requestIdleCallback(go, { timeout: 300 });
  else setTimeout(go, 0);
}
app.onFirstPrompt = startPreview;
app.startPreview = () => app.preview.start();

function boot() {
  document.body.classList.add("ready");
  app.startLink(); // the kept token, else the server's cookie, else it asks for a name
  // A reload during a match goes straight back to it.
  const r = route();
  const last = LS.get("match");
  if (r.what === "" && last && !location.hash) history.replaceState(null, "", `#/m/${last}`);
  startRouter();
  // The preview is never on the critical path: compiling Pyodide takes a core for
  // seconds, so it starts once the first prompt is on screen, or a moment after the
  // first screen is usable, whichever comes first.
  setTimeout(startPreview, 2000);
  app.preview.addEventListener("ready", () => { update(); runPreview(); if (app.match) runOdds(app.match); });
  app.preview.addEventListener("failed", () => update());
  if ("serviceWorker" in navigator && !new URLSearchParams(location.search).has("nosw")) {
    navigator.serviceWorker.register("/sw.js").catch((e) => console.warn("kickline: no service worker", e));
  }
}

boot();
