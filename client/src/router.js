// The screen registry and the hash router.  A screen is a module that registers itself
// with addScreen() (see docs/CLIENT.md, "Adding a screen"); the router picks the one
// whose `paths` holds the first part of the URL hash and draws its view with lit-html.
//
//   #/                 home (the lobby)       #/m/<match>     a match you play
//   #/join/<code>      joining by a code      #/w/<match>     a match you watch
//   #/watch/<code>     watching by a code     #/rules[/<law>] how to play
//   #/tutorial         the training match     #/settings      settings
import { render, html, nothing } from "lit-html";
import { app, LS, setRenderer, setRouteHandler } from "./app.js";

const screens = new Map();
let current = null; // {screen, route}

// screen: {
//   id: "home",                      // unique
//   paths: ["", "home"],             // the hash's first part(s) it answers
//   needsName: true,                 // default true: show the name screen until there is one
//   view(route) -> lit template,     // pure: draws app state; called on every update()
//   enter?(route), leave?(),         // when the route starts / stops showing it
//   title?(route) -> string,         // the document title (the tab, the task switcher)
//   wide?: false,                    // true: no max-width (boards, tables)
//   after?(route),                   // after each draw (focus, scroll)
// }
export function addScreen(screen) {
  for (const p of screen.paths) {
    if (screens.has(p)) throw new Error(`two screens answer #/${p}`);
    screens.set(p, screen);
  }
}

export function route() {
  const h = location.hash.replace(/^#\/?/, "");
  const parts = h.split("/").map((x) => decodeURIComponent(x));
  return { what: parts[0] || "", arg: parts[1] || null, rest: parts.slice(1), hash: location.hash };
}

export function currentScreen() { return current ? current.screen : null; }

function pickScreen(r) {
  const s = screens.get(r.what) || screens.get("");
  const named = app.welcome || LS.get("name");
  if (s.needsName !== false && !named) return screens.get("name") || s;
  return s;
}

function onRoute() {
  const r = route();
  const next = pickScreen(r);
  if (current && (current.screen !== next || current.route.hash !== r.hash) && current.screen.leave) current.screen.leave();
  const entering = !current || current.screen !== next || current.route.hash !== r.hash;
  current = { screen: next, route: r };
  if (entering && next.enter) next.enter(r);
  draw();
  if (entering) {
    // A new screen: put the reader at its start, not wherever the last one left them.
    const h = document.querySelector("#main h2, #main [data-autofocus]");
    if (h && next.id !== "match") { if (!h.hasAttribute("tabindex")) h.setAttribute("tabindex", "-1"); h.focus({ preventScroll: true }); }
  }
}

// Re-pick the screen (the name may have arrived) and draw it.
function draw() {
  const r = route();
  const s = pickScreen(r);
  if (!current || current.screen !== s) { current = { screen: s, route: r }; if (s.enter) s.enter(r); }
  const main = document.querySelector("#main");
  main.classList.toggle("wide", !!s.wide);
  render(s.view(r), main);
  render(chrome(s), document.querySelector("#nav"));
  const title = s.title ? s.title(r) : null;
  if (!app.titleOverride) document.title = title ? `${title} · Kickline` : "Kickline";
  if (s.after) s.after(r);
}

// The top bar's links: home, and back to your running match from any other screen.
const chromeParts = [];
export function addChrome(fn) { chromeParts.push(fn); }

function chrome(s) {
  return html`${chromeParts.map((fn) => fn(s) || nothing)}`;
}

export function startRouter() {
  document.querySelector("#main").replaceChildren(); // the page's "Loading…" (lit renders after existing children)
  setRenderer(draw);
  setRouteHandler(onRoute);
  addEventListener("hashchange", onRoute);
  onRoute();
}
