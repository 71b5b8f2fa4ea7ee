// Playing back what happened.  A prompt's fresh events become *moments* (a card
// reveal, a roll, the ball moving, a goal, a turnover, an injury, a substitution), shown
// one after the other at the player's speed on a copy of the board that each moment
// moves on a step ("the display view"), so the opponent's whole reply can be followed.
// The board ends on the server's own view whatever a moment guessed.  Tap to skip;
// instant at speed "instant" or under reduced motion.
import { beat } from "./settings.js";

// How long each kind of moment stays, in beats (settings.beat(): 1 s at normal speed).
const WEIGHT = { reveal: 1.6, test: 1.8, shot: 2, goal: 2, roll: 1.2, turnover: 1.2, injury: 1.4, move: 0.7, sub: 0.8, note: 0.6 };

const clone = (v) => JSON.parse(JSON.stringify(v));

function player(view, id) { return view.players.find((p) => p.id === id); }

function place(view, id, space) {
  const p = player(view, id);
  if (p && space) { p.space = space; p.status = "field"; }
}

function ball(view, fields) { Object.assign(view.ball, fields); }

// What one event does to the board, as far as its fields say.  Best effort: the end of
// the playback shows the server's view exactly.
export function applyEvent(view, e) {
  switch (e.t) {
    case "kickoff": ball(view, { space: e.space, speed: 1, carrier: null }); break;
    case "pass": ball(view, { space: e.space, speed: e.speed, carrier: e.to }); break;
    case "dribble": case "dribble-burst": place(view, e.player, e.to); ball(view, { space: e.to, carrier: e.player, ...(e.speed ? { speed: e.speed } : {}) }); break;
    case "high-pass": case "setup-pass": ball(view, { space: e.to, carrier: null, ...(e.speed ? { speed: e.speed } : {}) }); break;
    case "deflect": ball(view, { space: e.to, speed: e.speed, carrier: null }); break;
    case "ball-rolls": ball(view, { space: e.to, speed: e.speed, carrier: null }); break;
    case "ball-moves": ball(view, { space: e.to }); for (const id of e.carried || []) place(view, id, e.to); break;
    case "steal": case "intercept": place(view, e.player, e.to); ball(view, { space: e.to, carrier: e.player, speed: 1 }); break;
    case "pressure": place(view, e.handler, e.to); place(view, e.challenger, e.to); ball(view, { space: e.to, carrier: e.handler }); break;
    case "double-team": place(view, e.handler, e.to); place(view, e.challenger, e.to); if (e.partner) place(view, e.partner, e.to); ball(view, { space: e.to, carrier: e.handler }); break;
    case "send": case "run-back": case "flies": case "runs-onto-pass": case "glompex-joins": case "passer-steps": case "positioning": place(view, e.player, e.to); break;
    case "takes-ball": ball(view, { space: e.space, carrier: e.player }); break;
    case "pulled": case "smooth": ball(view, { space: e.space, carrier: e.player, ...(e.speed ? { speed: e.speed } : {}) }); break;
    case "loose": ball(view, { space: e.space, carrier: null }); break;
    case "speed": case "lights-ball": case "possession-lost": ball(view, { speed: e.speed }); break;
    case "exhaust": case "clear": case "extra-clear": { const p = player(view, e.player); if (p) p.tokens = e.tokens; break; }
    case "injury-check": { const p = player(view, e.player); if (p && e.injured) { p.injured = true; p.tokens = 0; } break; }
    case "substitution": {
      const off = player(view, e.off); const on = player(view, e.on);
      if (off && on) { on.space = off.space; on.status = "field"; off.status = "bench"; off.space = null; }
      break;
    }
    case "goal": case "halftime": case "full-time": if (e.score) view.score = e.score.slice(); break;
    case "turn": ball(view, { space: e.space, speed: e.speed }); break;
    default:
  }
}

// The moment an event makes, or null when it is only a log line.
export function momentOf(e) {
  switch (e.t) {
    case "reveal": return "reveal";
    case "skill-test": case "contest": case "shootout-test": return "test";
    case "score-attempt": return "shot";
    case "goal": return "goal";
    case "mind-pull": case "own-goal-roll": return "roll";
    case "injury-check": return e.injured ? "injury" : "roll";
    case "steal-turnover": case "out-of-bounds": case "possession-lost": case "pulled": return "turnover";
    case "substitution": return "sub";
    case "pass": case "dribble": case "dribble-burst": case "high-pass": case "setup-pass": case "deflect": case "steal":
    case "intercept": case "pressure": case "double-team": case "ball-rolls": case "send": case "run-back": case "flies":
    case "runs-onto-pass": case "takes-ball": case "loose": case "smooth": return "move";
    case "time-out": case "halftime": case "full-time": case "miss": case "shootout-won": case "sudden-death": case "last-possession": return "note";
    default: return null;
  }
}

// A running playback: steps through `moments`, each {kind, event, view (the board after
// it), ms}.  `onStep()` redraws; `onDone()` once finished or skipped.
export class Playback {
  constructor(fromView, events, hooks) {
    this.hooks = hooks;
    this.moments = [];
    this.index = -1;
    this.timer = null;
    this.done = false;
    this.startedAt = performance.now();
    let view = clone(fromView);
    const scale = beat();
    for (const e of events) {
      applyEvent(view, e);
      const kind = momentOf(e);
      if (!kind) continue;
      this.moments.push({ kind, event: e, view: clone(view), ms: Math.round(WEIGHT[kind] * scale) });
      view = clone(view);
    }
  }

  get current() { return this.index >= 0 && this.index < this.moments.length ? this.moments[this.index] : null; }

  start() {
    if (!this.moments.length || this.moments.every((m) => m.ms === 0)) { this.finish(); return; }
    this.next();
  }

  next() {
    clearTimeout(this.timer);
    this.index++;
    if (this.index >= this.moments.length) { this.finish(); return; }
    const m = this.moments[this.index];
    this.hooks.onStep(m);
    this.timer = setTimeout(() => this.next(), m.ms);
  }

  skip() { this.finish(); }

  finish() {
    if (this.done) return;
    clearTimeout(this.timer);
    this.done = true;
    this.index = this.moments.length;
    this.ms = performance.now() - this.startedAt;
    this.hooks.onDone(this);
  }
}
