// Dice nobody can choose, the browser's part (docs/PROTOCOL.md, "Provably fair dice").
// Each request that seats this player (create, join, quick; challenge, accept, rematch)
// carries `dice_commit`, the
// SHA-256 of 32 random bytes drawn here; the bytes stay in local storage, keyed by the
// request and then by its match; once the match has started they are revealed, and at
// the end the result screen checks that the server used them.
//
// A commitment must be ready when the request leaves (SHA-256 in the browser is
// asynchronous, sending is not), so one is always prepared in advance.  Without
// crypto.subtle (a page not served over HTTPS) no commitment is sent: the match then
// plays on the server's seed and the opponent's contribution alone.
import { LS, on, app } from "./app.js";

const SEATING = new Set(["create", "join", "quick", "challenge", "accept", "rematch"]);
// Requests whose match comes later in a `matched` rather than in their ack: the last of
// each kind, found again by what the `matched` names.
const LATER = { quick: "quick", challenge: "challenge", rematch: "rematch" };
const KEEP = 40; // contributions remembered (requests and matches), oldest dropped
let ready = null; // {hex, commit} for the next request
const revealedAt = new Map(); // match -> when we last sent its reveal

function hex(bytes) {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256hex(hexText) {
  const bytes = new Uint8Array(hexText.match(/../g).map((h) => parseInt(h, 16)));
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

async function prepare() {
  try {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const h = hex(bytes);
    ready = { hex: h, commit: await sha256hex(h) };
  } catch (e) { ready = null; /* no crypto.subtle here: no contribution */ }
}

function store() { return LS.json("dice", { req: {}, match: {} }); }

function save(d) {
  for (const k of ["req", "match"]) {
    const keys = Object.keys(d[k]);
    for (const old of keys.slice(0, Math.max(0, keys.length - KEEP))) delete d[k][old];
  }
  LS.set("dice", JSON.stringify(d));
}

// Called by the link for every message it sends: a seating request gets a commitment
// (a resend of the same request, the same one).
export function attachCommit(msg) {
  if (!SEATING.has(msg.t) || msg.dice_commit || msg.id === undefined) return;
  const d = store();
  const key = String(msg.id);
  let mine = d.req[key];
  if (!mine) {
    if (!ready) return;
    mine = ready;
    ready = null;
    prepare();
    d.req[key] = mine;
    if (LATER[msg.t]) d[LATER[msg.t]] = key;
    save(d);
  }
  msg.dice_commit = mine.commit;
}

function bind(reqKey, match) {
  const d = store();
  const mine = d.req[reqKey];
  if (!mine || !match) return;
  d.match[match] = mine.hex;
  delete d.req[reqKey];
  save(d);
}

// Our contribution to a match (hex), if this device made one.
export function contributionFor(match) {
  return store().match[match] || null;
}

on("ack", (m) => { if (m.match && m.re !== undefined) bind(String(m.re), m.match); });
on("matched", (m) => {
  const d = store();
  // (The one who accepted a challenge, seat 1, binds by the accept's own ack.)
  const key = m.rematch_of ? d.rematch : m.challenge ? (m.seat === 0 ? d.challenge : null) : d.quick;
  if (key) bind(key, m.match);
});
on("prompt", (m) => {
  // Reveal once both seats are taken; again after a reconnect if it did not arrive.
  if (m.status !== "playing" || m.seat === null || m.seat === undefined) return;
  if (!m.commits || !m.commits[m.seat] || !m.revealed || m.revealed[m.seat]) return;
  const mine = contributionFor(m.match);
  const last = revealedAt.get(m.match) || 0;
  if (!mine || !app.link || Date.now() - last < 3000) return;
  revealedAt.set(m.match, Date.now());
  app.link.send({ t: "reveal", id: `reveal:${m.match}`, match: m.match, dice: mine });
});

prepare();
