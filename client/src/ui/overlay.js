// The moment being played back, drawn over the board: the two cards revealed side by
// side with who wins and why, each die with its face and the parts of its total, the
// shot with what it needed, GOAL, a turnover, an injury; smaller moments (the ball or a
// player moving, a substitution) are a caption.  Tapping anywhere skips the playback.
import { html, nothing } from "lit-html";
import { W } from "../words.js";

const side = (pid) => (pid && pid[0] === "h" ? "home" : "visitors");

function die(face, cls = "") {
  return html`<span class="die ${cls}" role="img" aria-label=${W.UI.overlay.dieLabel(face)}>${face}</span>`;
}

function rollBox(ctx, part, won, label) {
  const O = W.UI.overlay;
  return html`<div class="roll ${side(part.player)}${won ? " won" : ""}">
    <span class="who">${label || W.who(ctx, part.player)}</span>
    ${die(part.die)}
    <span class="sum">${W.parts(part)}</span>
    ${won ? html`<b class="tag">${O.wins}</b>` : nothing}
  </div>`;
}

function cardFace(id, won, who) {
  return html`<div class="bigcard ${id}${won ? " won" : ""}"><small>${who}</small><b>${W.cardName(id)}</b>${won ? html`<span class="tag">${W.UI.overlay.wins}</span>` : nothing}</div>`;
}

function body(m, ctx) {
  const O = W.UI.overlay;
  const e = m.event;
  switch (e.t) {
    case "reveal": {
      const t = ctx.view.turn || {};
      return html`<p class="kicker">${O.reveal}</p>
        <div class="pair">${cardFace(e.offense, e.winner === "O", t.handler ? W.who(ctx, t.handler) : O.attack)}
          <span class="vs">${O.vs}</span>${cardFace(e.defense, e.winner === "D", t.challenger ? W.who(ctx, t.challenger) : O.defence)}</div>
        <p class="why">${O.why(e)}</p>`;
    }
    case "skill-test":
      return html`<p class="kicker">${O.test}</p><div class="pair">${rollBox(ctx, e.offense, e.winner === "O")}<span class="vs">${O.vs}</span>${rollBox(ctx, e.defense, e.winner === "D")}</div>
        <p class="why">${e.winner === "tie" ? O.tie : O.higher}</p>`;
    case "contest":
      return html`<p class="kicker">${O.contest}</p><div class="pair">${rollBox(ctx, e.last, e.winner === e.last.player)}<span class="vs">${O.vs}</span>${rollBox(ctx, e.other, e.winner === e.other.player)}</div>
        <p class="why">${e.winner === "tie" ? O.tie : O.higher}</p>`;
    case "shootout-test":
      return html`<p class="kicker">${O.kick}</p><div class="pair">${rollBox(ctx, e.home, e.scorer === 0)}<span class="vs">${O.vs}</span>${rollBox(ctx, e.visitors, e.scorer === 1)}</div>
        <p class="why">${e.scorer < 0 ? O.kickLevel : O.kickScores(W.team(ctx, e.scorer))}</p>`;
    case "score-attempt": {
      const wall = (e.defense.wall || []).reduce((a, w) => a + w.adds, 0);
      return html`<p class="kicker">${O.shot(W.who(ctx, e.player))}</p>
        <div class="pair">${rollBox(ctx, { ...e.attack, player: e.player }, e.goal, O.shooter)}<span class="vs">${O.vs}</span>
          <div class="roll keeper${e.goal ? "" : " won"}"><span class="who">${O.keeper}</span>${die(e.defense.die)}
            <span class="sum">${e.defense.total}${wall ? ` (${O.wall(e.defense.die, wall)})` : ""}</span></div></div>
        <p class="why">${O.shotNeeds(e.defense.total)}${m.odds ? ` ${O.chanceWas(m.odds)}` : ""}</p>
        <p class="result ${e.goal ? "goal" : "miss"}">${e.goal ? O.goal : O.saved}</p>`;
    }
    case "goal":
      return html`<p class="result goal big">${e.kind === "own-goal" ? O.ownGoal : O.goal}</p><p class="why">${W.narrate(e, ctx)}</p>
        <p class="bigscore">${e.score[0]} : ${e.score[1]}</p>`;
    case "mind-pull":
      return html`<p class="kicker">${O.pull(W.who(ctx, e.player))}</p>${die(e.die, e.lands ? "good" : "bad")}
        <p class="why">${O.needs(e.needs)} ${e.lands ? O.pulled : O.failed}</p>`;
    case "own-goal-roll":
      return html`<p class="kicker">${O.ownGoalRoll(W.who(ctx, e.player))}</p><div class="dice">${e.dice.map((d) => die(d))}</div>
        <p class="why">${O.ownGoalSum(e)}</p><p class="result ${e.avoided ? "goal" : "miss"}">${e.avoided ? O.saved : O.ownGoal}</p>`;
    case "injury-check":
      return html`<p class="kicker">${O.injuryCheck(W.who(ctx, e.player))}</p>${die(e.die, e.injured ? "bad" : "good")}
        <p class="why">${O.injuryNeeds(e.tokens)}</p><p class="result ${e.injured ? "miss" : "goal"}">${e.injured ? O.injured : O.fine}</p>`;
    default:
      return html`<p class="why">${W.narrate(e, ctx) || ""}</p>`;
  }
}

// m: the moment {kind, event, view}; ctx: words context for the moment's view.
export function overlayView(m, ctx, onSkip) {
  if (!m) return nothing;
  const O = W.UI.overlay;
  const small = ["move", "sub", "note"].includes(m.kind);
  return html`<div class="overlay ${small ? "caption" : "card"} k-${m.kind} t-${m.event.t}" id="overlay" data-moment=${m.event.t} @click=${onSkip}>
    <div class="ovbody">${body(m, ctx)}</div>
    <button class="btn small skip" type="button" id="skip" @click=${(ev) => { ev.stopPropagation(); onSkip(); }}>${O.skip}</button>
  </div>`;
}
