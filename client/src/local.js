// A match played entirely in the page: the rules and the other seat run in the rules
// worker (py/kpreview.py, "Local matches"), no server.  It answers with the server's own
// `prompt` messages, so the match model and screen are the same for both.  Used by the
// tutorial; offline and pass-and-play build on it (docs/CLIENT.md, "Local matches").
import { app, LS } from "./app.js";

export class LocalMatch {
  // id: the match's key; config: the ruleset config; setup: {seat, names, seed, plan,
  // log?}; keep: the localStorage key its log is saved under (null: not kept).
  constructor(id, config, setup, keep = null) {
    this.id = id;
    this.config = config;
    this.setup = setup;
    this.keep = keep;
  }

  async start() {
    const saved = this.keep ? LS.json(this.keep, null) : null;
    const setup = saved && saved.log ? { ...this.setup, log: saved.log } : this.setup;
    return app.preview.call({ op: "local_new", match: this.id, config: JSON.stringify(this.config), setup: JSON.stringify(setup) });
  }

  async decide(text, plan = {}) {
    const msg = await app.preview.call({ op: "local_decide", match: this.id, decision: text, plan: JSON.stringify(plan) });
    await this.save();
    return msg;
  }

  async jump(changes) {
    const msg = await app.preview.call({ op: "local_jump", match: this.id, changes: JSON.stringify(changes) });
    await this.save();
    return msg;
  }

  async save() {
    if (!this.keep) return;
    const log = await app.preview.call({ op: "local_log", match: this.id });
    LS.set(this.keep, JSON.stringify(log));
  }

  forget() { if (this.keep) LS.set(this.keep, null); }
}
