// The opponent's presence under the scoreboard ("lost the connection", "away 1:20",
// "claim the win?" with a countdown), and coming back at once when the page does: a
// phone unlocked, a tab brought back, the back button restoring the page from its
// cache (pageshow), the window focused.  net.js already retries on `online` and when
// the page becomes visible.  The server's side: docs/PROTOCOL.md, `presence`, `claim`.
import { html, nothing } from "lit-html";
import { app, update, on, request, flash, errorWords } from "./app.js";
import { addToSlot } from "./slots.js";
import { W } from "./words.js";

const seen = {}; // match id -> seat -> {state, since, claim_at}
const waiting = new Set(); // "match:seat:since": the player chose to keep waiting
app.presence = seen;

function keep(match, seat, p) { (seen[match] || (seen[match] = {}))[seat] = p; }

on("presence", (m) => { keep(m.match, m.seat, m); update(); });
on("prompt", (m) => { (m.presence || []).forEach((p, seat) => keep(m.match, seat, p)); });

const clock = (secs) => { const s = Math.max(0, Math.round(secs)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };

function claim(mm) {
  request({ t: "claim", match: mm.id }).then((m) => { if (m.t === "error") flash(errorWords(m), "error"); })
    .catch(() => flash(W.UI.home.notConnected, "error"));
}

// The one line about a player who is away (the match screen shows no other): the
// opponent for a player, with the claim when it is due; either player, by name, for a
// spectator.
addToSlot("match-notices", (mm) => {
  if (!mm || mm.over || !mm.prompt || mm.prompt.status !== "playing") return nothing;
  const watching = mm.seat === null || mm.seat === undefined;
  const P = W.UI.presence;
  const players = mm.prompt.players || [];
  const now = Date.now() / 1000;
  const seats = watching ? [0, 1] : [1 - mm.seat];
  const notes = [];
  for (const seat of seats) {
    const p = (seen[mm.id] || {})[seat];
    if (!p || p.state === "connected") continue;
    const name = (players[seat] && players[seat].name) || (watching ? P.player(seat + 1) : P.opponent);
    const away = now - (p.since || now);
    const lines = [away < 5 ? P.reconnecting(name) : P.away(name, clock(away))];
    const key = `${mm.id}:${seat}:${p.since}`;
    const canClaim = !watching && p.claim_at && now >= p.claim_at;
    if (!watching && p.claim_at && now < p.claim_at) lines.push(P.claimIn(clock(p.claim_at - now)));
    notes.push({ lines, key, canClaim });
  }
  if (!notes.length) return nothing;
  return html`<div class="presence-notice" id="opp-presence" role="status">
    ${notes.map(({ lines, key, canClaim }) => html`${lines.map((l) => html`<p>${l}</p>`)}
    ${canClaim ? html`<p>${waiting.has(key) ? P.waiting : P.claimNow}</p>
      <div class="row">
        <button class="btn primary" type="button" id="claim" @click=${() => claim(mm)}>${P.claim}</button>
        ${waiting.has(key) ? nothing : html`<button class="btn" type="button" id="keep-waiting" @click=${() => { waiting.add(key); update(); }}>${P.wait}</button>`}
      </div>` : nothing}`)}
  </div>`;
});

// The countdown moves while the opponent is away.
setInterval(() => {
  const mm = app.match;
  if (!mm || mm.over) return;
  if (Object.values(seen[mm.id] || {}).some((p) => p && p.state !== "connected")) update();
}, 1000);

// ---- coming back ------------------------------------------------------------------

addEventListener("pageshow", (e) => {
  if (!app.link || app.link.stopped) return;
  // Restored from the back-forward cache: its socket is gone, whatever it says.
  if (e.persisted) app.link.drop();
  else app.link.checkAlive();
});
addEventListener("focus", () => { if (app.link) app.link.checkAlive(); });
