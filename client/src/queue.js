// Quick match, rated or casual: the request, how many wait, and waiting on across a
// dropped connection or a server restart.  The request is kept while the player waits;
// after a reconnect it is sent again with the same id, which queues the player again
// (keeping the time already waited, within two minutes) or, if they were paired while
// away, opens the match it made.  docs/PROTOCOL.md, `quick`.
import { html, nothing } from "lit-html";
import { app, update, on, request, flash, errorWords, online, go } from "./app.js";
import { addToSlot } from "./slots.js";
import { newMatch } from "./match-model.js";
import { W } from "./words.js";

const Q = {
  msg: null, // the quick request while waiting (re-sent after a reconnect)
  waiting: null, // players in our queue, us included
  window: null, // rated: the rating gap we accept now
  counts: null, // {casual, rated} for the lobby's settings
  countsFor: null,
  countsAt: 0,
};
app.quick = Q;

// Join the quick-match queue with these settings.
export function quick(config, rated) {
  Q.msg = { t: "quick", id: `quick:${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, game: "kickline", config, rated };
  Q.waiting = null;
  Q.window = null;
  send(Q.msg);
}

function send(msg) {
  request({ ...msg }).then((m) => {
    if (Q.msg !== msg) return;
    if (m.t === "error") {
      Q.msg = null;
      app.queued = false;
      flash(errorWords(m), "error");
    } else if (m.queued) {
      app.queued = true;
      Q.waiting = m.waiting;
    } else if (m.match) {
      // Sent again after a restart, the request had already been paired: its match.
      Q.msg = null;
      app.queued = false;
      app.match = newMatch(m.match);
      app.match.seat = m.seat;
      go(`#/m/${m.match}`);
    }
    update();
  }).catch(() => { /* the link dropped: sent again on the next welcome */ });
}

on("welcome", () => { if (Q.msg && app.queued) send(Q.msg); });
on("queue", (m) => { Q.waiting = m.waiting; Q.window = m.window; update(); });
on("matched", () => { Q.msg = null; });
on("ack", (m) => { if (m.cancelled !== undefined) Q.msg = null; });

// How many wait for the lobby's settings: asked when they change, and every 10 s while
// the lobby is on screen.
function countsKey(cfg) { return `${cfg.mode}:${cfg.board}`; }

function refreshCounts(cfg, force = false) {
  const key = countsKey(cfg);
  if (!online() || (!force && Q.countsFor === key && Date.now() - Q.countsAt < 10000)) return;
  Q.countsFor = key;
  Q.countsAt = Date.now();
  request({ t: "queues", game: "kickline", config: cfg }).then((m) => {
    if (m.t === "ack" && Q.countsFor === key) { Q.counts = m.waiting; update(); }
  }).catch(() => {});
}

let lastCfg = null;
setInterval(() => {
  const home = location.hash === "" || location.hash === "#/" || location.hash === "#";
  if (home && lastCfg && document.visibilityState === "visible") refreshCounts(lastCfg, true);
}, 10000);

addToSlot("lobby", (cfg) => {
  if (!cfg) return nothing;
  lastCfg = cfg;
  refreshCounts(cfg);
  const QW = W.UI.queue;
  const c = Q.counts && Q.countsFor === countsKey(cfg) ? Q.counts : null;
  return html`<div class="queue">
    ${app.queued && Q.msg ? html`<p id="queue-status" role="status">${QW.status(Q.msg.rated, Q.waiting, Q.window)}</p>`
      : html`<button class="btn" type="button" id="quick-rated" ?disabled=${!online() || app.queued} @click=${() => quick(cfg, true)}>${QW.rated}</button>
        <p class="hint">${QW.ratedHint}</p>`}
    ${c ? html`<p class="hint" id="queue-counts">${QW.counts(c.casual, c.rated)}</p>` : nothing}
  </div>`;
});
