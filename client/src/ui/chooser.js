// Building a decision from the legal decision texts.  A text is a kind and arguments
// ("run h3 M1"); the chooser narrows the legal list one argument at a time, picking the
// control from what the remaining values look like: players -> tap a meeple (or its
// button), spaces -> tap a space, numbers -> a stepper, anything else -> buttons.  So
// a decision kind the client has never heard of is still playable.  Cards, the Coaching
// Choice and the shootout order get their own words and layout on top of that.
import { html, nothing } from "lit-html";
import { W } from "../words.js";

const PLAYER = /^[hv][0-8]$/;
const SPACE = /^[HMV][1-9]$/;
const NUMBER = /^[0-9]+$/;
const COACH_KINDS = new Set(["sub", "formation", "move", "swap", "finish", "skip", "clear"]);

export function typeOf(values) {
  const real = values.filter((v) => v !== "none");
  if (real.length && real.every((v) => PLAYER.test(v))) return "player";
  if (real.length && real.every((v) => SPACE.test(v))) return "space"; // "fly none" too
  if (values.every((v) => NUMBER.test(v))) return "number";
  return "enum";
}

export function stepTitle(kind, i, n) {
  if (kind === "order") return W.UI.chooser.shootoutStep(i + 1, n);
  if (W.STEPS[kind] && W.STEPS[kind][i]) return W.STEPS[kind][i];
  return W.KINDS[kind] || kind;
}

export class Chooser {
  constructor(hooks) {
    // {changed(), confirm(text), consequence(text) -> Promise<string|null>,
    //  needsConfirm(text) -> bool, skippable(kind) -> bool, never(kind)}
    this.hooks = hooks;
    this.legal = [];
    this.view = null;
    this.ctx = null; // words context (match-model ctxOf)
    this.odds = null; // {decision: odds} from the rules package, when computed
    this.frame = null;
    this.kind = null;
    this.args = [];
    this.stepValue = null;
    this.note = "";
  }

  set(legal, view, frame, ctx = null) {
    const same = legal.join("\n") === this.legal.join("\n") && this.view && view && view.version === this.view.version;
    this.legal = legal;
    this.view = view;
    this.frame = frame;
    this.ctx = ctx || { view };
    if (!same) this.odds = null;
    if (!same) {
      this.kind = null; this.args = []; this.stepValue = null; this.note = "";
      this.settle();
    }
  }

  kinds() { return [...new Set(this.legal.map((t) => t.split(" ")[0]))]; }

  candidates() {
    if (!this.kind) return [];
    return this.legal.filter((t) => {
      const p = t.split(" ");
      if (p[0] !== this.kind) return false;
      for (let i = 0; i < this.args.length; i++) if (p[i + 1] !== this.args[i]) return false;
      return true;
    });
  }

  complete() {
    const c = this.candidates();
    const want = [this.kind, ...this.args].join(" ");
    return c.includes(want) ? want : null;
  }

  options() {
    const i = this.args.length + 1;
    return [...new Set(this.candidates().map((t) => t.split(" ")[i]).filter((v) => v !== undefined))];
  }

  // Take every step that has exactly one possible answer.
  settle() {
    const kinds = this.kinds();
    if (!this.kind && kinds.length === 1) this.kind = kinds[0];
    while (this.kind && !this.complete()) {
      const opts = this.options();
      if (opts.length !== 1) break;
      this.args.push(opts[0]);
    }
    this.stepValue = null;
    this.note = "";
    const done = this.complete();
    if (done && this.hooks.consequence) {
      this.hooks.consequence(done).then((text) => {
        if (this.complete() === done && text) { this.note = text; this.hooks.changed(); }
      });
    }
  }

  pick(value) {
    if (!this.kind) this.kind = value;
    else this.args.push(value);
    this.settle();
    this.taps = (this.taps || 0) + 1;
    const done = this.complete();
    // A finished choice goes at once unless the player wants to confirm this kind.
    if (done && this.hooks.needsConfirm && !this.hooks.needsConfirm(done)) { this.hooks.confirm(done); return; }
    this.hooks.changed();
  }

  confirm() {
    const done = this.complete();
    if (!done) return;
    this.taps = (this.taps || 0) + 1;
    this.hooks.confirm(done);
  }

  back() {
    // Undo the last choice the player made, skipping steps that had only one answer.
    let popped = false;
    while (this.args.length) {
      this.args.pop();
      if (this.options().length > 1) { popped = true; break; }
    }
    if (!popped && this.kinds().length > 1) this.kind = null;
    this.stepValue = null;
    this.note = "";
    this.hooks.changed();
  }

  // What the board should let the player tap now.
  targets() {
    const players = new Set();
    const spaces = new Set();
    if (this.kind && !this.complete()) {
      const opts = this.options();
      const t = typeOf(opts);
      if (t === "player") opts.forEach((o) => o !== "none" && players.add(o));
      if (t === "space") opts.forEach((o) => o !== "none" && spaces.add(o));
    }
    return { players, spaces, selected: new Set(this.args) };
  }

  // The odds of the decision `text`, as a short phrase, if the rules package gave any.
  oddsText(text) {
    const o = this.odds && this.odds[text];
    if (!o || o.p === undefined) return null;
    return W.UI.chooser.odds(o);
  }

  // For a secret card: how it fares against each card the other side may play.
  cardOdds(o) {
    const t = this.odds && this.odds[`card ${o}`];
    if (!t || !t.against) return nothing;
    return html`<span class="matchup">${t.against.map((r) => html`<span class="mu ${r.result}">${W.UI.chooser.against(r)}</span>`)}</span>`;
  }

  // The panel's content for the current step.
  render() {
    const C = W.UI.chooser;
    const ctx = this.ctx;
    const coaching = this.frame === "coach" || this.kinds().every((k) => COACH_KINDS.has(k));
    const done = this.complete();
    const backBtn = this.canGoBack() ? html`<button class="btn" type="button" id="back" @click=${() => this.back()}>${C.back}</button>` : nothing;
    const kind = this.kind || (this.kinds().length === 1 ? this.kinds()[0] : null);
    const help = coaching && !this.kind ? W.KIND_HELP.coach : kind ? W.KIND_HELP[kind] : null;
    const helpLine = help ? html`<p class="help" id="prompt-help">${help}</p>` : nothing;
    const never = kind && this.hooks.skippable && this.hooks.skippable(kind)
      ? html`<button class="link never" type="button" id="never" @click=${() => this.hooks.never(kind)}>${C.never}</button>` : nothing;
    if (done) {
      const odds = this.oddsText(done);
      return html`<h2 class="ptitle" id="prompt-title" tabindex="-1">${W.describe(done, ctx)}</h2>
        ${odds ? html`<p class="odds">${odds}</p>` : nothing}
        <p class="conseq" data-role="consequence">${this.note || ""}</p>
        <div class="row"><button class="btn primary" id="confirm" type="button" @click=${() => this.confirm()}>${C.confirm}</button>${backBtn}</div>`;
    }
    if (!this.kind) {
      return html`<h2 class="ptitle${coaching ? " coach" : ""}" id="prompt-title" tabindex="-1">${coaching ? C.coaching : C.choose}</h2>${helpLine}
        <div class=${coaching ? "grid kinds coachkinds" : "grid kinds"}>${this.kinds().map((k) => {
          const n = this.legal.filter((t) => t.split(" ")[0] === k).length;
          return html`<button class="btn kind${k === "finish" ? " primary" : ""}" type="button" data-kind=${k} @click=${() => this.pick(k)}>${W.KINDS[k] || k}${n > 1 ? html`<small> (${n})</small>` : nothing}</button>`;
        })}</div>`;
    }
    const opts = this.options();
    const type = typeOf(opts);
    const nArgs = (this.candidates()[0] || "").split(" ").length - 1;
    const soFar = this.args.length ? html`<p class="muted sofar">${C.soFar(this.args.map((a) => (PLAYER.test(a) ? W.playerLabel(ctx, a) : a)).join(", "))}</p>` : nothing;
    const whole = (o) => [this.kind, ...this.args, o].join(" ");
    let body;
    if (this.kind === "card") {
      body = html`<div class="grid cards">${opts.map((o) => {
        const [name, what] = W.CARDS[o] || [o, ""];
        return html`<button class="card ${o}" type="button" data-arg=${o} @click=${() => this.pick(o)}><b>${name}</b><small>${what}</small>${this.cardOdds(o)}</button>`;
      })}</div>${this.hooks.info ? html`<button class="link" type="button" id="about-cards" @click=${() => this.hooks.info(opts)}>${W.UI.info.about}</button>` : nothing}`;
    } else if (type === "number" && opts.length > 12) {
      const nums = opts.map(Number).sort((a, b) => a - b);
      if (this.stepValue === null || !nums.includes(this.stepValue)) this.stepValue = nums[0];
      const i = nums.indexOf(this.stepValue);
      const move = (d) => { this.stepValue = nums[Math.max(0, Math.min(nums.length - 1, i + d))]; this.hooks.changed(); };
      body = html`<div class="stepper" role="group" aria-label=${C.number}>
          <button class="btn step" type="button" data-step="-1" aria-label=${C.less} ?disabled=${i === 0} @click=${() => move(-1)}>−</button>
          <output class="val" aria-live="polite">${String(this.stepValue)}</output>
          <button class="btn step" type="button" data-step="1" aria-label=${C.more} ?disabled=${i === nums.length - 1} @click=${() => move(1)}>+</button>
        </div>
        <button class="btn primary" type="button" data-arg=${String(this.stepValue)} @click=${() => this.pick(String(this.stepValue))}>${C.pickNumber(this.stepValue)}</button>`;
    } else if (type === "number") {
      const nums = opts.map(Number).sort((a, b) => a - b);
      const cur = this.kind === "speed" && this.view ? this.view.ball.speed : null;
      body = html`<div class="grid nums">${nums.map((n) => html`<button class="btn num${n === cur ? " cur" : ""}" type="button" data-arg=${String(n)}
        aria-label=${n === cur ? C.numberNow(n) : String(n)} @click=${() => this.pick(String(n))}>${n}</button>`)}</div>`;
    } else {
      const hint = type === "player" ? html`<p class="hint">${C.tapMeeple}</p>` : type === "space" ? html`<p class="hint">${C.tapSpace}</p>` : nothing;
      body = html`${hint}<div class="grid ${type}${opts.length > 6 ? " many" : ""}">${opts.map((o) => {
        let label = o === "none" ? W.ENUMS.none : W.ENUMS[o] || o;
        if (type === "player" && o !== "none") {
          const pl = this.view.players.find((q) => q.id === o);
          label = C.playerAt(W.playerLabel(ctx, o), pl && pl.space, pl && pl.status);
        } else if (nArgs === 1) {
          label = W.describe(whole(o), ctx);
        }
        const odds = this.oddsText(whole(o));
        return html`<button class="btn opt" type="button" data-arg=${o} @click=${() => this.pick(o)}>${label}${odds ? html`<small class="odds">${odds}</small>` : nothing}</button>`;
      })}</div>`;
    }
    return html`<h2 class="ptitle" id="prompt-title" tabindex="-1">${stepTitle(this.kind, this.args.length, nArgs)}</h2>${helpLine}${soFar}${body}
      <div class="row tail">${backBtn}${never}</div>`;
  }

  canGoBack() {
    return this.args.length > 0 || (this.kind !== null && this.kinds().length > 1);
  }
}
