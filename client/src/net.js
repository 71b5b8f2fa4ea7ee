// The websocket link to the server: msgpack frames, hello with the kept token,
// reconnection with backoff, a heartbeat that notices dead links, and request/response
// pairing by message id.  It speaks protocol 2: prompts after the first come with the
// view as a patch, which it turns back into whole prompts (patch.js) before anyone
// sees them, asking for the whole view again if a patch does not fit.  Beyond that it
// knows nothing about matches; main.js does.
import { encode, decode } from "./msgpack.js";
import { Prompts } from "./patch.js";
import { attachCommit } from "./dice.js";

const VERSIONS = [1, 2]; // 2: view patches (docs/PROTOCOL.md)

const MIN_DELAY = 300;
const MAX_DELAY = 8000;
const PING_EVERY = 15000; // a phone that slept or a NAT that dropped us shows up within this
const PONG_WITHIN = 6000;

export class Link extends EventTarget {
  constructor(url, hello) {
    super();
    this.url = url;
    this.hello = hello; // () => hello message (token or name)
    this.ws = null;
    this.state = "connecting"; // connecting | online | reconnecting | offline
    this.delay = MIN_DELAY;
    this.timer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.welcomed = false;
    this.waiters = new Map();
    this.nextId = 1;
    this.prompts = new Prompts();
    this.stopped = false;
    this.frames = 0;
    addEventListener("online", () => this.now());
    addEventListener("offline", () => { this.setState("offline"); this.drop(); });
    // A phone waking from sleep: don't wait for the backoff or the heartbeat.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.checkAlive();
    });
  }

  setState(s) {
    if (s === this.state) return;
    this.state = s;
    this.dispatchEvent(new CustomEvent("state", { detail: s }));
  }

  start() { this.open(); }

  now() {
    clearTimeout(this.timer);
    this.delay = MIN_DELAY;
    if (!this.ws) this.open();
  }

  open() {
    if (this.stopped) return;
    if (navigator.onLine === false) { this.setState("offline"); this.schedule(); return; }
    this.setState(this.welcomed ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (e) {
      this.schedule();
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => { this.send({ ...this.hello(), versions: VERSIONS }); };
    ws.onmessage = (ev) => this.receive(ws, ev.data);
    ws.onclose = () => { if (this.ws === ws) { this.ws = null; this.lost(); } };
    ws.onerror = () => {};
  }

  drop() {
    const ws = this.ws;
    this.ws = null;
    if (ws) { try { ws.close(); } catch (e) { /* already gone */ } }
    this.lost();
  }

  lost() {
    this.prompts.forget();
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    for (const [, w] of this.waiters) w.reject(new Error("connection lost"));
    this.waiters.clear();
    if (navigator.onLine === false) this.setState("offline");
    else this.setState("reconnecting");
    this.schedule();
  }

  schedule() {
    clearTimeout(this.timer);
    const wait = this.delay * (0.75 + Math.random() * 0.5);
    this.delay = Math.min(this.delay * 2, MAX_DELAY);
    this.timer = setTimeout(() => { if (!this.ws) this.open(); }, wait);
  }

  checkAlive() {
    if (!this.ws) { this.now(); return; }
    this.ping();
  }

  ping() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    this.send({ t: "ping" });
    clearTimeout(this.pongTimer);
    this.pongTimer = setTimeout(() => this.drop(), PONG_WITHIN);
  }

  receive(ws, data) {
    if (ws !== this.ws) return;
    let decoded;
    try { decoded = decode(data); } catch (e) { console.error("kickline: bad frame", e); return; }
    this.frames++;
    clearTimeout(this.pongTimer);
    // The server may batch several messages into one frame as a msgpack array.
    for (const msg of Array.isArray(decoded) ? decoded : [decoded]) this.handle(msg);
  }

  handle(msg) {
    if (msg.t === "pong") return;
    if (msg.t === "prompt") {
      const whole = this.prompts.assemble(msg);
      if (whole === null) { // a patch of a view we do not hold: ask for the whole one
        this.send({ t: "open", id: `resync${this.nextId++}`, match: msg.match,
                    since: this.prompts.since(msg.match) });
        return;
      }
      msg = whole;
    }
    if (msg.t === "welcome") {
      this.welcomed = true;
      this.delay = MIN_DELAY;
      this.setState("online");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_EVERY);
    }
    if ((msg.t === "ack" || msg.t === "error") && msg.re !== undefined && this.waiters.has(msg.re)) {
      const w = this.waiters.get(msg.re);
      this.waiters.delete(msg.re);
      w.resolve(msg);
    }
    this.dispatchEvent(new CustomEvent("message", { detail: msg }));
  }

  get online() { return this.ws !== null && this.ws.readyState === WebSocket.OPEN && this.state === "online"; }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    attachCommit(msg); // a request that seats us carries our dice commitment (dice.js)
    this.ws.send(encode(msg));
    return true;
  }

  // Send a message with an id; resolves with its ack or error (or rejects if the link drops).
  request(msg) {
    if (msg.id === undefined) msg.id = `r${Date.now().toString(36)}${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (!this.send(msg)) { reject(new Error("not connected")); return; }
      this.waiters.set(msg.id, { resolve, reject });
    });
  }
}
