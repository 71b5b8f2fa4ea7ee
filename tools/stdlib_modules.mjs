#!/usr/bin/env node
// Print (JSON) the stdlib zip entries the browser client imports: start Pyodide with the
// full stdlib the way client/src/worker.js does, install the wheel and the preview,
// exercise every preview function, then list the modules loaded from the stdlib zip.
//
//   node tools/stdlib_modules.mjs WHEEL PREVIEW.py [STDLIB.zip]
//
// With STDLIB.zip (a trimmed one) it instead checks that the client runs on it and
// prints {"ok": true}.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startRules, lockContents } from "../client/src/pyload.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PYODIDE_DIR = path.join(ROOT, "client", "node_modules", "pyodide");
const [wheel, preview, stdlib] = process.argv.slice(2);
const { loadPyodide } = await import(path.join(PYODIDE_DIR, "pyodide.mjs"));
const info = JSON.parse(readFileSync(path.join(PYODIDE_DIR, "pyodide-lock.json"), "utf8")).info;
const py = await loadPyodide({
  indexURL: PYODIDE_DIR + "/",
  stdLibURL: stdlib || undefined,
  lockFileContents: lockContents(info),
  stdout: () => {},
  stderr: (s) => process.stderr.write(s + "\n"),
});
const rules = await startRules(py, new Uint8Array(readFileSync(wheel)), readFileSync(preview, "utf8"));
const view = JSON.parse(py.runPython(`
import json, kickline
s = kickline.new_game({"mode": "training", "board": 7})
json.dumps(kickline.view(s, 0))
`));
rules.legal(JSON.stringify(view));
rules.consequence(JSON.stringify(view), "toss home");
rules.odds(JSON.stringify(view));
// A local match (the tutorial, offline play): its host, the bot, a jump, the log.
const lp = rules.hosted.start("check", JSON.stringify({ mode: "training", board: 7 }), JSON.stringify({ seat: 0, seed: 1, plan: { dice: ["fortune"], opponent: [] } }));
rules.hosted.decide("check", lp.legal[0], "{}");
rules.hosted.jump("check", JSON.stringify({ minute: 1 }));
rules.hosted.log("check");
const v = rules.verify(JSON.stringify({ mode: "training", board: 7 }), "00ff", "[]", 0, JSON.stringify([null, "00".repeat(32)]));
if (!v.ok) throw new Error("verify failed: " + v.error);
// Offline play, a search bot's thinking included (its imports are the client's too).
let lm = rules.local("new", JSON.stringify({ config: { mode: "advanced", board: 7, teams: ["cyborgs", "oozes"] }, seats: ["strong", "strong"], seed: "stdlib" }));
for (let i = 0; i < 6 && !lm.error; i++) lm = rules.local("step", JSON.stringify({ match: lm.match }));
if (lm.error) throw new Error("offline play failed: " + lm.error);
rules.local("show", JSON.stringify({ match: lm.match, seat: 0, events: lm.events }));
if (stdlib) {
  console.log(JSON.stringify({ ok: true }));
} else {
  const files = py.runPython(`
import sys, json
json.dumps(sorted({f.split(".zip/", 1)[1] for m in list(sys.modules.values())
                   if (f := getattr(m, "__file__", None)) and ".zip/" in f}))
`);
  console.log(files);
}
