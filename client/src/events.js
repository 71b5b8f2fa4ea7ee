// Tournaments ("events") on the client: the list, the event on screen (watched: the
// server says `tournament_changed` and we ask again), commands, and "your match is
// ready" notices.  Screens (screens/events.js, event.js, event-big.js) draw from here.
// Protocol: docs/PROTOCOL.md, "Tournaments".
import { app, update, on, request, flash, go } from "./app.js";
import { W } from "./words.js";
import { notify as notifyAttention } from "./attention.js";

export const E = {
  list: null, // [{tournament, name, format, status, ...}]
  organiser: false, // the signed-in player holds the organiser role
  views: new Map(), // id -> the event's view
  cards: new Map(), // "id/pid" -> a score card
  watching: null, // the event on screen
  ready: new Map(), // match id -> next_match message (tournament matches not yet opened)
  busy: new Set(), // commands in flight (buttons show it)
};

let refreshTimer = null;

export async function loadList() {
  try {
    const m = await request({ t: "tournaments" });
    if (m.t === "ack") { E.list = m.tournaments; E.organiser = !!m.organiser; update(); }
  } catch (e) { /* not connected: the screen says so; it retries on the next visit */ }
}

export async function watch(id) {
  E.watching = id;
  try {
    const m = await request({ t: "tournament", tournament: id, watch: true });
    if (m.t === "ack") { E.views.set(id, m.tournament); E.organiser = !!m.tournament.organiser; }
    else E.views.set(id, { missing: true });
  } catch (e) { /* offline: the link reconnects; watch() runs again on "welcome" */ }
  update();
}

export function unwatch() {
  const id = E.watching;
  E.watching = null;
  if (id) request({ t: "tournament", tournament: id, watch: false }).catch(() => {});
}

export async function loadCard(id, pid) {
  try {
    const m = await request({ t: "tournament", tournament: id, card: pid });
    if (m.t === "ack") { E.cards.set(`${id}/${pid}`, m.card); update(); }
  } catch (e) { /* offline */ }
}

// A command; resolves with the reply, or null after telling the player why not.  `key`
// names the command for idempotency: the same key is the same message id, so a second
// tap (or a resend after a reconnect) is answered, never done twice.
export async function command(id, op, args = {}, key = null) {
  const msgId = key ? `${op}:${id}:${key}` : undefined;
  const tag = key ? `${op}:${key}` : op;
  E.busy.add(tag);
  update();
  try {
    const msg = { t: "tcommand", op, args };
    if (id) msg.tournament = id;
    if (msgId) msg.id = msgId;
    const m = await request(msg);
    if (m.t === "error") { flash(m.message || W.ERRORS[m.code] || m.code, "error"); return null; }
    if (m.tournament) watch(m.tournament);
    return m.reply;
  } catch (e) {
    flash(W.UI.home.notConnected, "error");
    return null;
  } finally {
    E.busy.delete(tag);
    update();
  }
}

export const busy = (tag) => E.busy.has(tag);

on("tournament_changed", (m) => {
  if (m.tournament !== E.watching) return;
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => { if (E.watching === m.tournament) watch(m.tournament); }, 150);
});

// After a reconnect: watch the event on screen again, and pick up matches made while away.
on("welcome", (m) => {
  for (const x of m.matches || []) {
    if (x.reserved && x.tournament && x.status === "waiting") E.ready.set(x.match, { ...x, t: "next_match" });
  }
  if (E.watching) watch(E.watching);
});

on("next_match", (m) => {
  if (!m.tournament) return;
  E.ready.set(m.match, m);
  flash(`${W.UI.events.ready}: ${W.UI.events.readyLine(m)}`);
  notify(m);
  update();
});

// A match opened (or finished) is no longer "ready".
on("prompt", (m) => { if (E.ready.delete(m.match)) update(); });

export function readyMatches() {
  return [...E.ready.values()];
}

export function openMatch(m) {
  E.ready.delete(m.match);
  go(`#/m/${m.match}`);
}

// A system notification when the page is hidden and the player allowed them.
// (attention.js shows it through the service worker, as a phone requires; a tap leads
// to the match.)
function notify(m) {
  if (!document.hidden) return;
  notifyAttention(W.UI.events.ready, { body: W.UI.events.notifyBody(m), tag: m.match, url: `${location.origin}/#/m/${m.match}` });
}

export function canNotify() {
  return "Notification" in window && Notification.permission === "default";
}

export function askNotify() {
  if ("Notification" in window) Notification.requestPermission().then(() => update());
}

export function me(view) {
  return view && view.you ? view.entries.find((e) => e.pid === view.you) : null;
}

export function nameOf(view, pid) {
  const e = view.entries.find((x) => x.pid === pid);
  return e ? e.name : "?";
}

export function exportsOf(id) {
  const base = `/tournaments/${encodeURIComponent(id)}`;
  return {
    trf: `${base}/event.trf`, csvStandings: `${base}/standings.csv`, jsonStandings: `${base}/standings.json`,
    csvPairings: `${base}/pairings.csv`, jsonPairings: `${base}/pairings.json`, qr: `${base}/join.svg`,
    sheet: `${base}/sheet.html`,
  };
}

export const joinLink = (id, token) => `${location.origin}/#/ej/${id}${token ? `/${token}` : ""}`;

export function isOrganiser() { return E.organiser; }

export { app };
