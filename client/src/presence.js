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

addToSlot("match-notices", (mm) => {
  if (!mm || mm.over || mm.seat === null || mm.seat === undefined || !mm.prompt || mm.prompt.status !== "playing") return nothing;
  const opp = 1 - mm.seat;
  const p = (seen[mm.id] || {})[opp];
  if (!p || p.state === "connected") return nothing;
  const P = W.UI.presence;
  const players = mm.prompt.players || [];
  const name = (players[opp] && players[opp].name) || P.opponent;
  const now = Date.now() / 1000;
  const away = now - (p.since || now);
  const key = `${mm.id}:${opp}:${p.since}`;
  const lines = [away < 5 ? P.reconnecting(name) : P.away(name, clock(away))];
  if (p.claim_at && now < p.claim_at) lines.push(P.claimIn(clock(p.claim_at - now)));
  const canClaim = p.claim_at && now >= p.claim_at;
  return html`<div class="presence-notice" id="opp-presence" role="status">
    ${lines.map((l) => html`<p>${l}</p>`)}
    ${canClaim ? html`<p>${waiting.has(key) ? P.waiting : P.claimNow}</p>
      <div class="row">
        <button class="btn primary" type="button" id="claim" @click=${() => claim(mm)}>${P.claim}</button>
        ${waiting.has(key) ? nothing : html`<button class="btn" type="button" id="keep-waiting" @click=${() => { waiting.add(key); update(); }}>${P.wait}</button>`}
      </div>` : nothing}
  </div>`;
});

// The countdown moves while the opponent is away.
setInterval(() => {
  const mm = app.match;
  const p = mm && mm.seat !== null && mm.seat !== undefined && (seen[mm.id] || {})[1 - mm.seat];
  if (p && p.state !== "connected" && !mm.over) update();
}, 1000);

// ---- coming back ------------------------------------------------------------------

addEventListener("pageshow", (e) => {
  if (!app.link || app.link.stopped) return;
  // Restored from the back-forward cache: its socket is gone, whatever it says.
  if (e.persisted) app.link.drop();
  else app.link.checkAlive();
});
addEventListener("focus", () => { if (app.link) app.link.checkAlive(); });
