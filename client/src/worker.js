// The rules in a module Web Worker: Pyodide and the kickline wheel load and run here so
// the page never freezes.  Messages: {id, op, ...} in; {id, ok, result | error} out, plus
// one {op: "ready", ms} when Python is up.
import { startRules, lockContents } from "./pyload.js";

let rules = null;
const queue = [];

async function boot() {
  const t0 = performance.now();
  const manifest = await (await fetch("/build/manifest.json", { cache: "no-cache" })).json();
  const { loadPyodide } = await import(manifest.pyodide + "pyodide.mjs");
  const [pyodide, wheel, preview] = await Promise.all([
    loadPyodide({
      indexURL: manifest.pyodide,
      lockFileContents: lockContents(manifest.lock_info),
      stdout: () => {},
      stderr: (s) => console.warn("[python]", s),
    }),
    fetch(manifest.wheel).then((r) => r.arrayBuffer()),
    fetch(manifest.preview).then((r) => r.text()),
  ]);
  const tPy = performance.now();
  rules = await startRules(pyodide, new Uint8Array(wheel), preview);
  // Run once so the first real prompt doesn't pay for imports and caches.
  postMessage({ op: "ready", ms: performance.now() - t0, pyodideMs: tPy - t0 });
  for (const m of queue.splice(0)) handle(m);
}

function handle(m) {
  const t0 = performance.now();
  try {
    let result;
    if (m.op === "legal") result = rules.legal(m.view);
    else if (m.op === "consequence") result = rules.consequence(m.view, m.decision);
    else if (m.op === "verify") result = rules.verify(m.config, m.seed, m.log, m.seat, m.contributions || "null");
    else if (m.op === "odds") result = rules.odds(m.view);
    else if (m.op === "local_new") result = rules.hosted.start(m.match, m.config, m.setup);
    else if (m.op === "local_decide") result = rules.hosted.decide(m.match, m.decision, m.plan);
    else if (m.op === "local_jump") result = rules.hosted.jump(m.match, m.changes);
    else if (m.op === "local_log") result = rules.hosted.log(m.match);
    else if (m.op === "local") result = rules.local(m.fn, m.args);
    else throw new Error(`unknown op ${m.op}`);
    postMessage({ id: m.id, ok: true, result, workerMs: performance.now() - t0 });
  } catch (e) {
    postMessage({ id: m.id, ok: false, error: String(e && e.message ? e.message : e) });
  }
}

onmessage = (ev) => {
  if (rules) handle(ev.data);
  else queue.push(ev.data);
};

boot().catch((e) => postMessage({ op: "failed", error: String(e && e.message ? e.message : e) }));
