// The match screen (#/m/<id> to play, #/w/<id> to watch): scoreboard, board, the
// decision panel, the match report.  Before the second player arrives it is the invite
// screen; after the end it is the end screen (over.js).
import { html, nothing } from "lit-html";
import { app, update, go, flash } from "../app.js";
import { addScreen } from "../router.js";
import { slot } from "../slots.js";
import { enterMatch, seatSide, decide, resign } from "../match-model.js";
import { Chooser } from "../ui/chooser.js";
import { boardView, benchView } from "../ui/board.js";
import { overView } from "./over.js";
import { W } from "../words.js";

const chooser = new Chooser({
  changed: () => update(),
  confirm: (t) => decide(t),
  consequence: async (text) => {
    const mm = app.match;
    if (!mm || !mm.prompt || !app.preview) return null;
    const kind = text.split(" ")[0];
    const events = await app.preview.consequence(mm.prompt.view, text);
    if (!events) {
      if (kind === "speed") return W.UI.chooser.speedBecomes(text.split(" ")[1]);
      return null;
    }
    const lines = events.map((e) => W.narrate(e, mm.prompt.view)).filter(Boolean);
    return lines.length ? W.UI.chooser.preview(lines.join(" ")) : null;
  },
});
app.chooser = chooser;

function statusLine(mm, view, mySide, names, myTurn) {
  const M = W.UI.match;
  const me = mm.seat;
  const toAct = view.to_act || mm.prompt.to_act;
  if (mm.pending) return M.sending(W.describe(mm.pending.text, view));
  if (myTurn) {
    const opp = mySide === "home" ? "visitors" : "home";
    const chosen = view.secret && view.secret.chosen;
    return chosen && mySide && chosen[opp] ? M.oppChosenYourMove : M.yourMove;
  }
  if (toAct.kind === "decide" && me !== null && toAct.seats.includes(me) && view.secret && view.secret.mine) return M.youChose(W.describe(view.secret.mine, view));
  if (toAct.kind === "decide") return me === null ? M.waitingFor(toAct.seats.map((s) => names[s]).join(" and ")) : M.waitingOpp;
  return "";
}

function clockText(mm) {
  if (!mm.prompt || !mm.prompt.clock) return "";
  const dl = mm.prompt.clock.deadline || [];
  const now = Date.now() / 1000;
  const parts = [];
  (mm.prompt.to_act ? mm.prompt.to_act.seats : []).forEach((s) => {
    if (dl[s]) {
      const left = Math.max(0, Math.round(dl[s] - now));
      parts.push(`${s === mm.seat ? W.UI.match.clockYou : W.UI.match.clockOpp}: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`);
    }
  });
  return parts.join(" · ");
}

function previewBadge(mm) {
  const P = W.UI.preview;
  const pv = app.preview;
  if (!pv) return "";
  let text;
  if (pv.failed) text = P.failed;
  else if (!pv.ready) text = P.loading;
  else if (mm && mm.previewLegal) text = P.checked;
  else text = P.ready;
  if (pv.mismatches) text += P.disagreements(pv.mismatches);
  return text;
}

function waitingView(mm) {
  const Wt = W.UI.waiting;
  const link = `${location.origin}/#/join/${mm.code || ""}`;
  return html`<section class="card-screen" id="waiting">
    <h2>${Wt.title}</h2>
    <p>${Wt.share}<b id="invite-code">${mm.code || "…"}</b>.</p>
    <input id="invite-link" readonly .value=${link} aria-label=${Wt.link} @click=${(e) => e.target.select()}>
    <div class="row">
      <button class="btn primary" type="button" id="share" @click=${async () => {
        try {
          if (navigator.share) await navigator.share({ title: "Kickline", text: Wt.invite, url: link });
          else { await navigator.clipboard.writeText(link); flash(Wt.copied); }
        } catch (e) { /* dismissed */ }
      }}>${Wt.shareBtn}</button>
      <button class="btn" type="button" @click=${() => go("#/")}>${Wt.back}</button>
    </div></section>`;
}

function view() {
  const t0 = performance.now();
  try { return draw(); } finally { app.stats.renderMs = performance.now() - t0; }
}

function draw() {
  const M = W.UI.match;
  const mm = app.match;
  if (!mm) return html`<p class="card-screen">${M.loading}</p>`;
  if (mm.over) return overView(mm);
  const p = mm.prompt;
  if (!p) return html`<p class="card-screen">${M.loading}</p>`;
  if (p.status === "waiting") return waitingView(mm);
  const view = p.view;
  const mySide = seatSide(view, mm.seat);
  const names = (p.players || []).map((x) => (x ? x.name : "—"));
  const homeSeat = view.home_seat;
  const homeName = homeSeat >= 0 ? names[homeSeat] : names[0];
  const visName = homeSeat >= 0 ? names[1 - homeSeat] : names[1];
  const me = mm.seat;
  const legal = p.legal || [];
  const myTurn = legal.length > 0 && !mm.pending;
  const status = statusLine(mm, view, mySide, names, myTurn);
  if (myTurn && me !== null) chooser.set(mm.previewLegal || legal, view, view.prompt.frame);
  else chooser.set([], view, null);
  const t = myTurn ? chooser.targets() : { players: new Set(), spaces: new Set(), selected: new Set() };
  const boardOpts = { mySide, pickPlayers: t.players, pickSpaces: t.spaces, selected: t.selected, onPick: (v) => chooser.pick(v), prev: mm.prevPos };
  const you = (side, seat) => (mySide === side || (homeSeat < 0 && me === seat) ? M.you : "");
  const panel = myTurn && me !== null ? chooser.render() : html`<p class="muted">${me === null ? M.watching : status || "…"}</p>`;
  const away = Object.entries(mm.presence).filter(([seat, state]) => Number(seat) !== me && state !== "connected")
    .map(([, state]) => M.oppAway(state));
  return html`
    <header class="score">
      <div class="teams">
        <span class="t home${mySide === "home" ? " me" : ""}"><b>${homeSeat >= 0 ? M.home : ""}</b> ${homeName || ""}${you("home", 0)}</span>
        <span class="sc" id="score" role="img" aria-label=${M.score(view.score[0], view.score[1])}>${view.score[0]} : ${view.score[1]}</span>
        <span class="t visitors${mySide === "visitors" ? " me" : ""}"><b>${homeSeat >= 0 ? M.visitors : ""}</b> ${visName || ""}${you("visitors", 1)}</span>
      </div>
      <div class="meta">
        <span id="clock">${view.period === 3 ? M.shootout : M.periodMinute(Math.max(1, view.period), view.minute)}</span>
        <span id="ballinfo">${view.ball.space ? M.ball(view.ball.space, view.ball.speed) : ""}</span>
        <span id="timer" class="timer">${clockText(mm)}</span>
      </div>
      <div class="meta">
        <span>${M.subsLeft(view.subs_left[0], view.subs_left[1])}</span>
        <span>${M.timeoutsUsed(view.timeouts_used[0], view.timeouts_used[1])}</span>
      </div>
      <p class="status${myTurn ? " go" : ""}" id="status" role="status">${status}</p>
      ${away.length ? html`<p class="presence">${away.join(" ")}</p>` : nothing}
      ${slot("match-notices", mm)}
    </header>
    <div id="boardbox">${boardView(view, boardOpts)}</div>
    <section id="panel" class="panel" aria-label=${M.decision}>${panel}</section>
    <div id="benchbox">${benchView(view, boardOpts)}</div>
    <h3>${M.report}</h3>
    <ol class="log" id="log" aria-label=${M.whatHappened} reversed tabindex="0">
      ${mm.lines.slice(-60).reverse().map((line) => html`<li>${line.text}</li>`)}
    </ol>
    <footer class="row">
      <span id="previewstate" class="muted">${previewBadge(mm)}</span>
      ${me !== null && p.watch_code ? watchInvite(p.watch_code) : nothing}
      ${me !== null ? html`<button class="btn small" type="button" id="resign" @click=${() => { if (confirm(M.resignAsk)) resign(); }}>${M.resign}</button>` : nothing}
    </footer>`;
}

// A private match is seen only by its players, and by whoever they give its watch link
// (docs/PROTOCOL.md, watch): the one way to invite a spectator.
function watchInvite(code) {
  const M = W.UI.match;
  const link = `${location.origin}/#/watch/${code}`;
  return html`<button class="btn small" type="button" id="watch-invite" @click=${async () => {
    try {
      if (navigator.share) await navigator.share({ title: "Kickline", text: M.watchInvite, url: link });
      else { await navigator.clipboard.writeText(link); flash(M.watchCopied); }
    } catch (e) { /* dismissed */ }
  }}>${M.watchShare}</button>`;
}

addScreen({
  id: "match",
  paths: ["m", "w"],
  wide: false,
  enter: (r) => enterMatch(r),
  title: () => (app.match && app.match.prompt && app.match.prompt.legal && app.match.prompt.legal.length && !app.match.pending ? W.UI.match.yourMove : null),
  view,
});

// The clock ticks between prompts.
setInterval(() => { if (app.match && app.match.prompt && app.match.prompt.clock) update(); }, 1000);
