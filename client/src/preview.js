// The page's handle on the rules worker.  Nothing waits for it: until it is ready (or
// if it fails) the client plays with the server's legal list alone.
export class Preview extends EventTarget {
  constructor() {
    super();
    this.ready = false;
    this.failed = null;
    this.readyMs = null;
    this.mismatches = 0;
    this.unsupported = 0;
    this.timings = [];
    this.pending = new Map();
    this.next = 1;
    this.worker = null;
  }

  start() {
    if (this.worker || typeof Worker === "undefined") return;
    try {
      this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    } catch (e) {
      this.failed = String(e);
      return;
    }
    this.worker.onmessage = (ev) => {
      const m = ev.data;
      if (m.op === "ready") {
        this.ready = true;
        this.readyMs = m.ms;
        this.pyodideMs = m.pyodideMs;
        this.dispatchEvent(new CustomEvent("ready", { detail: m }));
        return;
      }
      if (m.op === "failed") {
        this.failed = m.error;
        console.warn("kickline: the rules preview could not start:", m.error);
        this.dispatchEvent(new CustomEvent("failed", { detail: m.error }));
        return;
      }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      this.lastWorkerMs = m.workerMs;
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(m.error));
    };
    this.worker.onerror = (e) => {
      this.failed = e.message || "worker error";
      this.dispatchEvent(new CustomEvent("failed", { detail: this.failed }));
    };
  }

  call(msg) {
    if (!this.worker || this.failed) return Promise.reject(new Error("no preview"));
    const id = this.next++;
    msg.id = id;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(msg);
    });
  }

  // The preview's legal list for this view, or null when it cannot preview this prompt.
  // Compares with the server's list: the server wins, a disagreement is counted.
  async legal(view, serverLegal) {
    if (!this.ready) return null;
    const t0 = performance.now();
    const r = await this.call({ op: "legal", view: JSON.stringify(view) });
    const ms = performance.now() - t0;
    if (r.legal === null) { this.unsupported++; return null; }
    this.timings.push({ roundTrip: ms, worker: this.lastWorkerMs, python: r.ms, frame: view.prompt.frame, n: r.legal.length });
    const a = r.legal.join("\n");
    const b = [...serverLegal].sort().join("\n");
    if (a !== b) {
      this.mismatches++;
      console.warn("kickline: preview and server disagree on the legal decisions; the server wins",
        { version: view.version, frame: view.prompt.frame, preview: r.legal, server: serverLegal });
      return null;
    }
    return r.legal;
  }

  consequence(view, decision) {
    if (!this.ready) return Promise.resolve(null);
    return this.call({ op: "consequence", view: JSON.stringify(view), decision }).catch(() => null);
  }

  // The exact odds of the view's decisions ({decision: odds}), or null.
  odds(view) {
    if (!this.ready) return Promise.resolve(null);
    return this.call({ op: "odds", view: JSON.stringify(view) }).catch(() => null);
  }

  // Offline play: a match run here, in the worker (kickline.local); see screens/local.js.
  local(fn, args) {
    return this.call({ op: "local", fn, args: JSON.stringify(args) });
  }

  verify(config, seed, log, seat, contributions = null) {
    return this.call({ op: "verify", config: JSON.stringify(config), seed, log: JSON.stringify(log), seat, contributions: JSON.stringify(contributions) });
  }
}
