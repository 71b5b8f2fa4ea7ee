// Load for our server in `bench/server.py --vs-bgio` (`--load node`, the default): the
// same bots as bench/server.py's Python ones (quick match, a uniform choice among the
// legal decisions, paced at 0.5-1.5 x THINK seconds or at once, another quick match
// when one ends), in one Node process, as load.js drives boardgame.io: both servers are
// then driven by the same kind of load generator.  Speaks our protocol (version 2,
// docs/PROTOCOL.md) with the web client's own msgpack codec (client/src/msgpack.js) over
// `ws`; every frame received is decoded whole, as the Python bots and load.js do.
//
// Usage: node load_kickline.mjs URL CLIENTS THINK_S SEED GAME CONFIG_JSON [trace]
// Speaks JSON lines as load.js: prints {"connected": n, "failed": n} once every client
// has said hello, then obeys "go" (quick-match and play), "reset" (the warm-up is over:
// count from now) and "stop" (print the figures and exit) read from stdin.  With
// `trace`, the figures also hold (match, id, seat, sent, frame read, ack handled) per
// decision and the event loop's stalls (bench/trace.py joins them with the server's).
import readline from 'node:readline';
import WebSocket from 'ws';
import { decode, encode } from '../../client/src/msgpack.js';

const [url, clientsArg, thinkArg, seedArg, game, configJson, traceArg] = process.argv.slice(2);
const clients = Number(clientsArg);
const think = Number(thinkArg);
const config = JSON.parse(configJson);
const tracing = traceArg === 'trace';
let rng = Number(seedArg) || 1;
const random = () => {  // the same small LCG as load.js
  rng = (rng * 1103515245 + 12345) % 2147483648;
  return rng / 2147483648;
};
const now = () => Number(process.hrtime.bigint()) / 1e9;  // CLOCK_MONOTONIC, as perf_counter

const stats = {
  decisions: 0, completed: 0, dropped: 0, rtts: [], bytesIn: 0, framesIn: 0,
  measuring: false, going: false, trace: [], lag: [],
};

function bot(index) {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 0 });
  let match = null;
  let seat = null;
  let sent = new Map();  // decide id (the version) -> when it was sent
  let thinking = null;  // the pending paced decision's timer
  let quickIds = 0;
  let welcomed;
  const hello = new Promise((resolve) => { welcomed = resolve; });

  const sendDecision = (msg) => {
    thinking = null;
    if (match === null || ws.readyState !== WebSocket.OPEN) return;
    const rid = String(msg.version);
    const legal = msg.legal;
    const data = encode({ t: 'decide', id: rid, match, version: msg.version,
      decision: legal[Math.floor(random() * legal.length)], seat: msg.seat });
    sent.set(rid, now());
    ws.send(data);
  };
  const quick = () => ws.send(encode({ t: 'quick', id: `q${quickIds++}`, game, config }));

  ws.on('message', (data) => {
    const frameT = now();
    const obj = decode(data);
    if (!welcomed.done) { welcomed.done = true; welcomed(true); return; }
    if (stats.measuring) { stats.framesIn += 1; stats.bytesIn += data.length; }
    for (const m of Array.isArray(obj) ? obj : [obj]) {
      const t = m.t;
      if (t === 'matched') {
        match = m.match;
      } else if (t === 'prompt' && m.legal && m.legal.length && match !== null) {
        seat = m.seat;
        if (!sent.has(String(m.version))) {
          if (think > 0) {
            if (thinking !== null) clearTimeout(thinking);
            thinking = setTimeout(sendDecision, (0.5 + random()) * think * 1000, m);
          } else {
            sendDecision(m);
          }
        }
      } else if (t === 'ack' && m.version !== undefined) {
        const t0 = sent.get(String(m.re));
        if (t0 !== undefined && stats.measuring) {
          const t1 = now();
          stats.rtts.push(t1 - t0);
          stats.decisions += 1;
          if (tracing) stats.trace.push([match, String(m.re), seat, t0, frameT, t1]);
        }
      } else if (t === 'over' && m.match === match) {
        if (stats.measuring) stats.completed += 1;
        if (thinking !== null) clearTimeout(thinking);
        thinking = null;
        match = null;
        sent = new Map();
        quick();  // another match at once, as the Python bots' requeue
      }
    }
  });
  ws.on('close', () => {
    if (thinking !== null) clearTimeout(thinking);
    if (stats.going && !stats.stopping) stats.dropped += 1;
    welcomed(false);
  });
  ws.on('error', () => welcomed(false));
  ws.on('open', () => ws.send(encode({ t: 'hello', versions: [1, 2], name: `n${index}` })));
  return { ws, hello, quick };
}

function probe() {  // the event loop's stalls over 1 ms, as bench/trace.py's probe
  let t0 = now();
  setInterval(() => {
    const t1 = now();
    const late = t1 - t0 - 0.005;
    if (late > 0.001 && stats.measuring) stats.lag.push([t1, late]);
    t0 = t1;
  }, 5);
}

async function main() {
  const bots = [];
  let ok = 0;
  for (let i = 0; i < clients; i += 64) {  // dial in small groups, as load.js
    const group = [];
    for (let j = i; j < Math.min(clients, i + 64); j += 1) group.push(bot(Number(seedArg) * 100000 + j));
    for (const b of group) if (await b.hello) { ok += 1; bots.push(b); }
  }
  process.stdout.write(JSON.stringify({ connected: ok, failed: clients - ok }) + '\n');
  if (tracing) probe();
  let cpu0 = process.cpuUsage();
  for await (const line of readline.createInterface({ input: process.stdin })) {
    if (line === 'go') {
      stats.going = true;
      bots.forEach((b) => b.quick());
    } else if (line === 'reset') {
      stats.measuring = true;
      stats.decisions = stats.completed = stats.bytesIn = stats.framesIn = 0;
      stats.rtts = [];
      stats.trace = [];
      stats.lag = [];
      cpu0 = process.cpuUsage();
    } else if (line === 'stop') {
      const cpu = process.cpuUsage(cpu0);
      stats.stopping = true;
      const out = {
        decisions: stats.decisions, completed: stats.completed, dropped: stats.dropped,
        rtts: stats.rtts, bytes_in: stats.bytesIn, frames_in: stats.framesIn,
        cpu_s: (cpu.user + cpu.system) / 1e6,
        trace: tracing ? stats.trace : null, lag: tracing ? stats.lag : null,
      };
      bots.forEach((b) => b.ws.close());
      process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(0));
    }
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
