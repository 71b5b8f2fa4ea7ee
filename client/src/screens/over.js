// The end screen: names, the winner and the score in the scoreboard's order (home :
// visitors), the shootout kick by kick, the match record to download, the provably fair
// dice folded away, and a replay that reaches the final position.  Drawn by the match
// screen once the server's `over` has arrived (and its last moves have played back).
import { html, nothing } from "lit-html";
import { app, update, go } from "../app.js";
import { seatSide, ctxOf } from "../match-model.js";
import { boardView } from "../ui/board.js";
import { slot } from "../slots.js";
import { lawLink } from "./rules.js";
import { W } from "../words.js";
import { contributionFor, sha256hex } from "../dice.js";

// Every check the `over` message allows (docs/PROTOCOL.md, "To check a match"): the
// server's seed against its commitment, each player's revealed number against its seal,
// our own number against what this device drew, and every die replayed.
async function verify(mm) {
  const o = mm.over;
  mm.checking = true;
  update();
  let commitOk = null;
  try { commitOk = (await sha256hex(o.seed)) === o.commit; } catch (e) { commitOk = null; }
  let sealsOk = null;
  let mine = null; // true: ours was used; false: another; null: we made none (or an old match)
  if (o.contributions) {
    try {
      const checks = await Promise.all(o.contributions.map(async (c, i) =>
        c === null || (o.commits[i] !== null && (await sha256hex(c)) === o.commits[i])));
      sealsOk = checks.every(Boolean);
    } catch (e) { sealsOk = null; }
    const drawn = mm.seat === null || mm.seat === undefined ? null : contributionFor(mm.id);
    if (drawn) mine = o.contributions[mm.seat] === drawn;
  }
  let replay = null;
  if (app.preview && app.preview.ready) {
    try { replay = await app.preview.verify(o.config, o.seed, o.log, mm.seat, o.contributions || null); } catch (e) { replay = { ok: false, error: String(e) }; }
  }
  mm.checking = false;
  mm.verified = { commitOk, sealsOk, mine, replay };
  mm.replayAt = replay && replay.views ? replay.views.length - 1 : 0;
  update();
}

function checkView(mm) {
  const O = W.UI.over;
  const v = mm.verified;
  if (mm.checking) return html`<p>${O.checking}</p>`;
  if (!v) return nothing;
  const { commitOk, sealsOk, mine, replay } = v;
  const mixed = !!mm.over.contributions;
  const own = mm.seat === null || mm.seat === undefined || !mixed ? null
    : mine === null ? O.mineNone : mine ? O.mineUsed : O.mineMissing;
  return html`
    <p id="commit-check">${commitOk === null ? O.noHash : commitOk ? O.hashOk : O.hashBad}</p>
    ${mixed && sealsOk !== null ? html`<p id="seals-check">${sealsOk ? O.sealsOk : O.sealsBad}</p>` : nothing}
    ${own ? html`<p id="mine-check">${own}</p>` : nothing}
    <p id="dice-check">${!replay ? O.noPreview : replay.ok ? O.diceOk(mm.over.log.length) : O.diceBad(replay.error)}</p>`;
}

function replayView(mm) {
  const O = W.UI.over;
  const replay = mm.verified && mm.verified.replay;
  if (!replay || !replay.views || !replay.views.length) return nothing;
  const n = replay.views.length;
  const i = Math.max(0, Math.min(n - 1, mm.replayAt));
  const v = replay.views[i];
  const set = (k) => { mm.replayAt = Math.max(0, Math.min(n - 1, k)); update(); };
  const none = new Set();
  const ctx = ctxOf(mm, v.view);
  const what = v.d ? O.moveBy(ctx.seatNames[v.s] || O.player(v.s + 1), W.describe(v.d, ctx)) : O.finalPosition;
  return html`<h3>${O.replay}</h3>
    <input type="range" min="0" max=${String(n - 1)} .value=${String(i)} aria-label=${O.replayPos} @input=${(e) => set(Number(e.target.value))}>
    <div class="row">
      <button class="btn" type="button" id="replay-prev" @click=${() => set(i - 1)}>${O.prev}</button>
      <button class="btn" type="button" id="replay-next" @click=${() => set(i + 1)}>${O.next}</button>
    </div>
    <p class="muted" id="replay-label">${O.move(i + 1, n, what, v.view.score[0], v.view.score[1])}</p>
    <div class="replay-board">${boardView(v.view, { mySide: seatSide(v.view, mm.seat), pickPlayers: none, pickSpaces: none, selected: none, onPick: () => {}, ctx })}</div>`;
}

// The shootout, kick by kick, from the match's own events.
function shootoutView(mm, ctx) {
  const O = W.UI.over;
  const kicks = mm.kicks || [];
  if (!kicks.length) return nothing;
  return html`<h3>${O.shootout}</h3><ol class="kicks" id="kicks">${kicks.map((k) => html`
    <li><span class="kh">${W.who(ctx, k.home.player)} ${k.home.total}</span> : <span class="kv">${k.visitors.total} ${W.who(ctx, k.visitors.player)}</span>
      — ${k.scorer < 0 ? O.noGoal : O.kickGoal(W.team(ctx, k.scorer))}</li>`)}</ol>`;
}

export function overView(mm) {
  const O = W.UI.over;
  const o = mm.over;
  const r = o.result || {};
  const me = mm.seat;
  const view = mm.prompt && mm.prompt.view;
  const ctx = ctxOf(mm, view);
  const names = ctx.seatNames;
  const homeSeat = view && view.home_seat >= 0 ? view.home_seat : 0;
  let head;
  if (r.winner === null || r.winner === undefined) head = r.reason === "played" ? O.draw : O.noResult(O.reasons[r.reason] || r.reason);
  else if (me === null || me === undefined) head = O.wins(names[r.winner] || O.player(r.winner + 1));
  else head = r.winner === me ? O.youWin : O.youLose;
  const hv = r.score_home_visitors || (r.score ? (homeSeat === 0 ? r.score : [r.score[1], r.score[0]]) : null);
  const watching = me === null || me === undefined;
  const named = watching && r.seat !== undefined && r.seat !== null && O.reasonsOf[r.reason];
  const reason = named ? named(names[r.seat] || O.player(r.seat + 1)) : O.reasons[r.reason] || r.reason;
  const record = !o.local && mm.id ? `/record/${encodeURIComponent(mm.id)}.json` : null;
  return html`<section class="over" id="over">
    <h2 id="result">${head}</h2>
    ${hv ? html`<p class="final" id="final-score" aria-label=${O.finalLabel(names[homeSeat] || W.UI.score.home, hv[0], names[1 - homeSeat] || W.UI.score.visitors, hv[1])}>
      <span class="nm">${names[homeSeat] || W.UI.score.home}</span> <b>${hv[0]} : ${hv[1]}</b> <span class="nm">${names[1 - homeSeat] || W.UI.score.visitors}</span></p>` : nothing}
    <p>${reason}${r.shootout ? O.afterShootout : ""}${r.shootout && mm.fullTime ? O.atFullTime(mm.fullTime[0], mm.fullTime[1]) : ""}</p>
    ${shootoutView(mm, ctx)}
    <div class="row">${slot("end-actions", mm)}
      <button class="btn primary" type="button" id="home" @click=${() => { app.match = null; go("#/"); }}>${O.newMatch}</button>
      ${record ? html`<a class="btn" id="download" href=${record} download=${`kickline-${mm.id}.json`}>${O.download}</a>` : nothing}</div>
    ${o.seed ? html`<details class="fair" id="fair-details">
      <summary>${O.fairTitle}</summary>
      <p class="small">${O.fairText(o.commit, o.seed)}</p>
      ${o.contributions ? html`<p class="small">${O.mixText}</p>` : nothing}
      ${mm.commit ? html`<p id="commit-same">${mm.commit === o.commit ? O.commitSame : O.commitDiffers}</p>` : nothing}
      <p class="hint">${O.verifyCmd}</p>
    </details>` : nothing}
    ${o.seed ? html`<button class="btn" type="button" id="verify" @click=${() => verify(mm)}>${O.check}</button>
      <div id="fair">${checkView(mm)}</div>
      <div id="replay">${replayView(mm)}</div>` : nothing}
    <h3>${W.UI.match.moves}</h3>
    <ol class="log" tabindex="0" aria-label=${W.UI.match.whatHappened}>${mm.lines.slice(-60).map((l) => html`<li>${l.text} ${lawLink(l.law)}</li>`)}</ol>
  </section>`;
}
