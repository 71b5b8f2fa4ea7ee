// Building a decision from the legal decision texts.  A text is a kind and arguments
// ("run h3 M1"); the chooser narrows the legal list one argument at a time, picking the
// control from what the remaining values look like: players -> tap a meeple (or its
// button), spaces -> tap a space, numbers -> a stepper, anything else -> buttons.  So
// a decision kind the client has never heard of is still playable.  Cards, the Coaching
// Choice and the shootout order get their own words and layout on top of that.
import { el } from "./board.js";
import { CARDS, KINDS, ENUM_WORDS, playerLabel } from "./words.js";

const PLAYER = /^[hv][0-8]$/;
const SPACE = /^[HMV][1-9]$/;
const NUMBER = /^[0-9]+$/;
const COACH_KINDS = new Set(["sub", "formation", "move", "swap", "finish", "skip", "clear"]);

export function typeOf(values) {
  const real = values.filter((v) => v !== "none");
  if (real.length && real.every((v) => PLAYER.test(v))) return "player";
  if (real.length && real.every((v) => SPACE.test(v))) return "space";  // "fly none" too
  if (values.every((v) => NUMBER.test(v))) return "number";
  return "enum";
}

const STEP_WORDS = {
  sub: ["Who comes off?", "Who comes on?"],
  move: ["Which player moves?", "To which space?"],
  swap: ["First player of the swap", "Second player of the swap"],
  run: ["Who runs back?", "To which space?"],
};

export function stepTitle(kind, i, n) {
  if (kind === "order") return `Shootout order: shooter ${i + 1} of ${n}`;
  if (STEP_WORDS[kind] && STEP_WORDS[kind][i]) return STEP_WORDS[kind][i];
  return KINDS[kind] || `Choose: ${kind}`;
}

export function describe(text, view) {
  const [kind, ...args] = text.split(" ");
  const words = args.map((a) => (PLAYER.test(a) ? playerLabel(view, a) : CARDS[a] ? CARDS[a][0] : ENUM_WORDS[a] || a));
  switch (kind) {
    case "card": return `Play ${words[0]}`;
    case "pass": return `Pass to ${words[0]}`;
    case "speed": return `Set the ball's speed to ${args[0]}`;
    case "dribble": return `Dribble ${args[0]} space${args[0] === "1" ? "" : "s"}`;
    case "throw": return `Throw ${args[0]} space${args[0] === "1" ? "" : "s"}`;
    case "sub": return `${words[1]} comes on for ${words[0]}`;
    case "move": return `Move ${words[0]} to ${args[1]}`;
    case "swap": return `Swap ${words[0]} and ${words[1]}`;
    case "run": return `${words[0]} runs back to ${args[1]}`;
    case "send": return args[0] === "none" ? "Send no one" : `Send ${words[0]}`;
    case "order": return `Shootout order: ${args.join(", ")}`;
    case "finish": return "Finish coaching";
    case "skip": return "Skip coaching";
    case "formation": return `Line up ${args[0]}`;
    case "declare": return args[0] === "none" ? "No Overdrive on this roll" : `${ENUM_WORDS[args[0]]} on this roll`;
    case "pull": return args[0] === "none" ? "No Mind Pull" : `${words[0]} tries a Mind Pull`;
    case "smooth": return args[0] === "none" ? "No Smooth" : `${words[0]} takes the ball over`;
    case "fly": return args[0] === "none" ? "Zenith stays" : `Zenith flies to ${args[0]}`;
    case "quantor": return `Throw ${args[0]} with Quantor running onto it`;
    case "aim": return `Pick the Setup Pass out ${args[0]} ahead`;
    case "drive": return `Drive it ${args[0]} further back`;
    case "join": return args[0] === "yes" ? "Glompex joins the ball" : "Glompex stays";
    case "scorch": return args[0] === "force" ? "Force the skill test (Scorchit tires 2)" : "Accept the loss";
    default: return `${KINDS[kind] || kind}: ${words.join(", ")}`;
  }
}

export class Chooser {
  constructor(panel, hooks) {
    this.panel = panel;
    this.hooks = hooks; // {changed(), confirm(text), consequence(text) -> Promise<string|null>}
    this.legal = [];
    this.view = null;
    this.kind = null;
    this.args = [];
    this.stepValue = null;
    this.note = "";
  }

  set(legal, view, frame) {
    const same = legal.join("\n") === this.legal.join("\n") && this.view && view.version === this.view.version;
    this.legal = legal;
    this.view = view;
    this.frame = frame;
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
        if (this.complete() === done && text) { this.note = text; this.render(); }
      });
    }
  }

  pick(value) {
    if (!this.kind) { this.kind = value; }
    else this.args.push(value);
    this.settle();
    this.hooks.changed();
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

  render() {
    const p = this.panel;
    p.replaceChildren();
    const view = this.view;
    const coaching = this.frame === "coach" || this.kinds().every((k) => COACH_KINDS.has(k));
    const done = this.complete();
    if (coaching) p.append(el("h3", { class: "coach", text: "Coaching Choice" }));
    if (done) {
      p.append(el("p", { class: "choice", text: describe(done, view) }));
      p.append(el("p", { class: "conseq", "data-role": "consequence", text: this.note || "" }));
      p.append(el("div", { class: "row" },
        el("button", { class: "btn primary", id: "confirm", type: "button", onclick: () => this.hooks.confirm(done) }, "Confirm"),
        this.canGoBack() ? el("button", { class: "btn", type: "button", id: "back", onclick: () => this.back() }, "Back") : null));
      return;
    }
    if (!this.kind) {
      p.append(el("h3", { text: coaching ? "What next?" : "Choose" }));
      const row = el("div", { class: coaching ? "grid kinds coachkinds" : "grid kinds" });
      for (const k of this.kinds()) {
        const n = this.legal.filter((t) => t.split(" ")[0] === k).length;
        row.append(el("button", { class: `btn kind${k === "finish" ? " primary" : ""}`, type: "button", "data-kind": k, onclick: () => this.pick(k) },
          KINDS[k] || k, n > 1 ? el("small", { text: ` (${n})` }) : null));
      }
      p.append(row);
      return;
    }
    const opts = this.options();
    const type = typeOf(opts);
    const nArgs = (this.candidates()[0] || "").split(" ").length - 1;
    p.append(el("h3", { text: stepTitle(this.kind, this.args.length, nArgs) }));
    if (this.args.length) p.append(el("p", { class: "muted", text: `So far: ${this.args.join(" ")}` }));
    if (this.kind === "card") {
      const g = el("div", { class: "grid cards" });
      for (const o of opts) {
        const [name, what] = CARDS[o] || [o, ""];
        g.append(el("button", { class: `card ${o}`, type: "button", "data-arg": o, onclick: () => this.pick(o) },
          el("b", { text: name }), el("small", { text: what })));
      }
      p.append(g);
    } else if (type === "number") {
      const nums = opts.map(Number).sort((a, b) => a - b);
      if (this.stepValue === null || !nums.includes(this.stepValue)) {
        const cur = this.kind === "speed" && view ? view.ball.speed : nums[0];
        this.stepValue = nums.includes(cur) ? cur : nums[0];
      }
      const i = nums.indexOf(this.stepValue);
      const move = (d) => { this.stepValue = nums[Math.max(0, Math.min(nums.length - 1, i + d))]; this.render(); };
      p.append(el("div", { class: "stepper", role: "group", "aria-label": "Choose a number" },
        el("button", { class: "btn step", type: "button", "data-step": "-1", "aria-label": "less", disabled: i === 0 ? true : undefined, onclick: () => move(-1) }, "−"),
        el("output", { class: "val", "aria-live": "polite", text: String(this.stepValue) }),
        el("button", { class: "btn step", type: "button", "data-step": "1", "aria-label": "more", disabled: i === nums.length - 1 ? true : undefined, onclick: () => move(1) }, "+")));
      p.append(el("p", { class: "muted", text: `From ${nums[0]} to ${nums[nums.length - 1]}` }));
      p.append(el("button", { class: "btn primary", type: "button", "data-arg": String(this.stepValue), onclick: () => this.pick(String(this.stepValue)) }, `Choose ${this.stepValue}`));
    } else {
      const g = el("div", { class: `grid ${type}` });
      if (type === "player") p.append(el("p", { class: "hint", text: "Tap a highlighted meeple, or a name below." }));
      if (type === "space") p.append(el("p", { class: "hint", text: "Tap a highlighted space, or a button below." }));
      for (const o of opts) {
        let label = ENUM_WORDS[o] || o;
        if (type === "player" && o !== "none") {
          const pl = view.players.find((q) => q.id === o);
          label = `${playerLabel(view, o)}${pl && pl.space ? ` at ${pl.space}` : pl ? ` (${pl.status})` : ""}`;
        }
        g.append(el("button", { class: "btn opt", type: "button", "data-arg": o, onclick: () => this.pick(o) }, label));
      }
      p.append(g);
    }
    if (this.canGoBack()) p.append(el("button", { class: "btn", type: "button", id: "back", onclick: () => this.back() }, "Back"));
  }

  canGoBack() {
    return this.args.length > 0 || (this.kind !== null && this.kinds().length > 1);
  }
}
