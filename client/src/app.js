// The app's shared state and the few services every screen uses: kept settings
// (localStorage), the link to the server, message subscriptions, navigation, the toast,
// and a render that is scheduled rather than called (many changes, one redraw).
//
// Screens import from here; this module imports no screen (imports point down).
import { W } from "./words.js";

export const LS = {
  get(k) { try { return localStorage.getItem("kickline." + k); } catch (e) { return null; } },
  set(k, v) {
    try {
      if (v === null || v === undefined) localStorage.removeItem("kickline." + k);
      else localStorage.setItem("kickline." + k, v);
    } catch (e) { /* private mode: settings last for this visit only */ }
  },
  json(k, dflt) { try { const v = JSON.parse(this.get(k)); return v === null ? dflt : v; } catch (e) { return dflt; } },
};

export const app = {
  link: null, // net.js Link, once the player has a name
  preview: null, // preview.js Preview (the rules worker)
  welcome: null, // the server's welcome: {player, name, token, matches, ...}
  match: null, // the match on screen (match/model.js)
  queued: false, // waiting in the quick-match queue
  toast: null,
  chooser: null,
  stats: { decisions: 0, errors: 0, firstPromptAt: null, resyncs: 0, renders: 0 },
};
window.__kickline = app; // tests and the benchmark read this; nothing else should

// ---- rendering ------------------------------------------------------------------

let renderer = () => {};
let scheduled = false;

// Ask for a redraw; many calls in one task draw once.  Microtasks, not animation
// frames: a hidden page must still update its title and state ("your turn").
export function update() {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => { scheduled = false; app.stats.renders++; renderer(); });
}

export function setRenderer(fn) { renderer = fn; }

// ---- server messages --------------------------------------------------------------

const handlers = new Map();

// Subscribe to a server message type ("prompt", "over", or a colleague's own message).
// Returns the unsubscribe function.
export function on(type, fn) {
  if (!handlers.has(type)) handlers.set(type, new Set());
  handlers.get(type).add(fn);
  return () => handlers.get(type).delete(fn);
}

export function dispatch(msg) {
  for (const fn of handlers.get(msg.t) || []) fn(msg);
  for (const fn of handlers.get("*") || []) fn(msg);
}

// A request with an id; resolves with its ack or error.  Rejects when not connected.
export function request(msg) {
  if (!app.link) return Promise.reject(new Error("not connected"));
  if (msg.id === undefined) msg.id = `${msg.t}:${Date.now()}:${Math.random().toString(36).slice(2, 6)}`;
  return app.link.request(msg);
}

export const online = () => !!(app.link && app.link.online);

// ---- navigation ------------------------------------------------------------------

let onRoute = () => {};
export function setRouteHandler(fn) { onRoute = fn; }

export function go(hash) {
  if (location.hash !== hash) location.hash = hash;
  else onRoute();
}

// ---- the toast -------------------------------------------------------------------

let toastTimer = null;
export function flash(text, kind = "info") {
  app.toast = { text, kind, at: Date.now() };
  const t = document.querySelector("#toast");
  if (!t) return;
  t.textContent = text;
  t.className = `toast ${kind}`;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 7000);
}

export const errorWords = (m) => W.ERRORS[m.code] || `The server said: ${m.message || m.code}`;
