// The match screen (#/m/<id> to play, #/w/<id> to watch).  One phone screen, top to
// bottom: the sticky scoreboard, the board (it gives up height so the rest fits), the
// decision panel in the thumb zone; below the fold the benches and the move list.
// While the opponent's reply plays back, the moment is drawn over the board.  Before the
// second player arrives it is the invite screen; after the end, the end screen.
import { html, nothing } from "lit-html";
import { app, update, go, flash } from "../app.js";
import { addScreen } from "../router.js";
import { slot } from "../slots.js";
import { enterMatch, seatSide, decide, resign, ctxOf, passOf } from "../match-model.js";
import { Chooser } from "../ui/chooser.js";
import { boardView, benchView } from "../ui/board.js";
import { scoreboard } from "../ui/scoreboard.js";
import { overlayView } from "../ui/overlay.js";
import { sheetView, playerInfo, cardsInfo } from "../ui/sheet.js";
import { lawLink } from "./rules.js";
import { overView } from "./over.js";
import { setting, SKIPPABLE, setOfferPolicy } from "../settings.js";
import { announce } from "../attention.js";
import { W } from "../words.js";

// Decisions that spend something the player cannot get back: confirmed by default.
export function irreversible(text) {
  const [kind, arg] = text.split(" ");
  if (kind === "action") return arg === "timeout";
  if (["sub", "order", "quantor"].includes(kind)) return true;
  if (["declare", "pull", "fly"].includes(kind)) return arg !== "none";
  if (kind === "scorch") return arg === "force";
  return false;
}

export function needsConfirm(text) {
  const c = setting("confirm");
  return c === "always" || (c === "irreversible" && irreversible(text));
}

const chooser = new Chooser({
  changed: () => update(),
  confirm: (t) => decide(t),
  needsConfirm,
  info: (ids) => { if (app.match) { app.match.infoFrom = document.activeElement; app.match.info = cardsInfo(ids); update(); } },
  skippable: (kind) => SKIPPABLE.includes(kind) && !!passOf(chooser.legal),
  never: (kind) => {
    const mm = app.match;
    if (!mm) return;
    setOfferPolicy(mm.id, kind, "never");
    const pass = passOf(chooser.legal);
    if (pass) decide(pass);
  },
  consequence: async (text) => {
    const mm = app.match;
    if (!mm || !mm.prompt || !app.preview) return null;
    const kind = text.split(" ")[0];
    const events = await app.preview.consequence(mm.prompt.view, text);
    if (!events) return kind === "speed" ? W.UI.chooser.speedBecomes(text.split(" ")[1]) : null;
    const ctx = ctxOf(mm);
    const lines = events.map((e) => W.narrate(e, ctx)).filter(Boolean);
    return lines.length ? W.UI.chooser.preview(lines.join(" ")) : null;
  },
});
app.chooser = chooser;

function statusLine(mm, view, myTurn, ctx) {
  const M = W.UI.match;
  const me = mm.seat;
  const toAct = view.to_act || mm.prompt.to_act;
  if (mm.pending) return M.sending(W.describe(mm.pending.text, ctx));
  if (mm.play) return M.playing;
  if (myTurn) {
    const opp = ctx.mySide === 0 ? "visitors" : "home";
    const chosen = view.secret && view.secret.chosen;
    return chosen && chosen[opp] ? M.oppChosenYourMove : M.yourMove;
  }
  if (toAct.kind === "decide" && me !== null && toAct.seats.includes(me) && view.secret && view.secret.mine) return M.youChose(W.describe(view.secret.mine, ctx));
  if (toAct.kind === "decide") return me === null ? M.waitingFor(toAct.seats.map((s) => ctx.seatNames[s] || "…").join(" and ")) : M.waitingOpp;
  return "";
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

// The move list: chronological, grouped by turn, each line with its law.
function moveList(mm) {
  const M = W.UI.match;
  const upTo = mm.play && mm.play.current ? mm.play.current.seq : Infinity;
  const lines = mm.lines.filter((l) => l.seq <= upTo).slice(-150);
  const groups = [];
  for (const l of lines) {
    if (!groups.length || groups[groups.length - 1].id !== l.group) groups.push({ id: l.group, lines: [] });
    groups[groups.length - 1].lines.push(l);
  }
  return html`<section class="moves" aria-labelledby="moves-title">
    <h2 id="moves-title" class="sub">${M.moves}</h2>
    <ol class="log" id="log" tabindex="0" aria-label=${M.whatHappened}>${groups.map((g) => html`<li class="grp">
      <ul>${g.lines.map((l) => html`<li class=${l.head ? "head" : ""} data-t=${l.t}>${l.text} ${lawLink(l.law)}</li>`)}</ul></li>`)}</ol>
  </section>`;
}

function view() {
  const t0 = performance.now();
  try { return draw(); } finally { app.stats.renderMs = performance.now() - t0; }
}

// The match screen for app.match; `extra` goes under the scoreboard (the tutorial's
// coach), `restrict(legal)` narrows what the player may choose (the tutorial's step).
export function draw(extra = nothing, restrict = null) {
  const M = W.UI.match;
  const mm = app.match;
  if (!mm) return html`<p class="card-screen">${M.loading}</p>`;
  if (mm.over && !mm.play) return overView(mm);
  const p = mm.prompt;
  if (!p) return html`<p class="card-screen">${M.loading}</p>`;
  if (p.status === "waiting") return waitingView(mm);
  const moment = mm.play ? mm.play.current : null;
  const view = moment ? moment.view : p.view;
  const ctx = ctxOf(mm, view);
  const mySide = seatSide(p.view, mm.seat);
  const me = mm.seat;
  const legal = p.legal || [];
  const myTurn = legal.length > 0 && !mm.pending && !mm.over;
  const status = statusLine(mm, p.view, myTurn, ctx);
  const choosing = myTurn && me !== null && !mm.play;
  if (choosing) {
    const offered = mm.previewLegal || legal;
    chooser.set(restrict ? restrict(offered) : offered, p.view, p.view.prompt.frame, ctxOf(mm));
    if (mm.odds && mm.odds.version === p.version) chooser.odds = mm.odds.odds;
  } else chooser.set([], p.view, null, ctx);
  const t = choosing ? chooser.targets() : { players: new Set(), spaces: new Set(), selected: new Set() };
  const boardOpts = { mySide, pickPlayers: t.players, pickSpaces: t.spaces, selected: t.selected, onPick: (v) => chooser.pick(v),
    prev: moment ? null : mm.prevPos, last: moment ? null : mm.lastMove, ctx,
    onInfo: (id) => { const pl = view.players.find((q) => q.id === id); if (pl) { mm.infoFrom = document.activeElement; mm.info = playerInfo(pl, ctx); update(); } } };
  // Closing the card puts the focus back where it was opened (the meeple, the "About the
  // cards" button), else on the prompt: never on the page's body.
  const closeInfo = () => {
    const from = mm.infoFrom;
    mm.info = null; mm.infoFrom = null; update();
    requestAnimationFrame(() => {
      const back = (from && from.isConnected ? from : null) || document.getElementById("prompt-title") || document.querySelector("#main h2");
      if (back) { if (!back.matches("button, a, input, [tabindex]")) back.setAttribute("tabindex", "-1"); back.focus({ preventScroll: true }); }
    });
  };
  // The player's own skips are counted (tests read it); a new prompt also ends a playback.
  const skip = () => { if (mm.play) { app.stats.skipped = (app.stats.skipped || 0) + 1; mm.play.skip(); } };
  let panel;
  if (choosing) panel = chooser.render();
  else if (mm.play) panel = html`<p class="muted" id="status-line">${M.playing}</p><button class="btn" type="button" id="skip-panel" @click=${skip}>${W.UI.overlay.skip}</button>`;
  else panel = html`<p class="muted" id="status-line">${me === null ? M.watching : status || "…"}</p>`;
  return html`<div class="match-screen${mm.play ? " playing" : ""}${choosing ? " mine" : ""}">
    ${scoreboard(mm, { ...p, view }, { mySide, you: M.you })}
    <p class="status${choosing ? " go sr" : mm.play ? " sr" : ""}" id="status" role="status">${status}</p>
    ${slot("match-notices", mm)}
    ${extra}
    <div id="boardbox" class="boardbox">${boardView(view, boardOpts)}${overlayView(moment, ctx, skip)}</div>
    <section id="panel" class="panel" aria-label=${M.decision}>${panel}</section>
    ${sheetView(mm.info, closeInfo)}
  </div>
  <div class="below">
    <div id="benchbox">${benchView(view, boardOpts)}</div>
    ${moveList(mm)}
    ${p.watch_code ? html`<p class="hint">${M.watchCode} <b id="watch-code">${p.watch_code}</b></p>` : nothing}
    <footer class="row">
      <span id="previewstate" class="muted">${previewBadge(mm)}</span>
      <a class="btn small" href="#/rules">${W.UI.nav.rules}</a>
      <a class="btn small" href="#/settings">${W.UI.nav.settings}</a>
      ${me !== null && p.watch_code ? watchInvite(p.watch_code) : nothing}
      ${me !== null ? html`<button class="btn small" type="button" id="resign" @click=${() => { if (confirm(M.resignAsk)) resign(); }}>${M.resign}</button>` : nothing}
    </footer>
  </div>`;
}

// After each draw: the newest move in view in the list, and the focus on a new prompt.
let focusedVersion = null;
export function after() {
  const mm = app.match;
  const log = document.getElementById("log");
  if (log && log.dataset.n !== String(mm ? mm.lines.length : 0)) {
    log.dataset.n = String(mm ? mm.lines.length : 0);
    log.scrollTop = log.scrollHeight;
  }
  const sheet = document.getElementById("sheet-title");
  if (sheet && document.activeElement && !document.activeElement.closest(".sheet")) sheet.focus({ preventScroll: true });
  if (!mm || !mm.prompt || mm.play || mm.info) return;
  const mine = mm.prompt.legal && mm.prompt.legal.length && !mm.pending;
  const key = `${mm.id}:${mm.prompt.version}`;
  if (mine && focusedVersion !== key) {
    focusedVersion = key;
    const title = document.getElementById("prompt-title");
    if (title) {
      title.focus({ preventScroll: true });
      announce(`${W.UI.score.yourTurn}: ${title.textContent}`);
    }
  }
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
  enter: (r) => enterMatch(r),
  title: () => (app.match && app.match.prompt && app.match.prompt.legal && app.match.prompt.legal.length && !app.match.pending ? W.UI.score.yourTurn : null),
  after,
  view,
});

// The clocks tick between prompts.
setInterval(() => { if (app.match && app.match.prompt && app.match.prompt.clock && !document.hidden) update(); }, 1000);
