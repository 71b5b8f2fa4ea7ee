#!/usr/bin/env node
// Put sample events into words with the client's lang/en.js and report every line that
// is missing or shows raw engine fields.  Input on stdin: {"samples": {kind: [{event,
// view}]}, "static": [kinds], "laws": [law numbers cited], "decisions": {kind: [{decision, view}]}};
// output: one JSON object {missing, raw, silent, lines, no_law_entry, no_help,
// raw_decisions, described}.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const W = (await import(path.join(ROOT, "client", "src", "lang", "en.js"))).default;
const input = JSON.parse(readFileSync(0, "utf8"));
// Raw engine text: player ids, field names, JSON, JavaScript's own placeholders.
const RAW = /\b[hv][0-8]\b|undefined|NaN|\[object|[{}_]|\bnull\b|\bfrm\b|\bwinner_seat\b|\btrue\b|\bfalse\b/;
const out = { missing: [], raw: [], silent: {}, lines: {}, no_law_entry: [], no_help: [] };
// A law's entry on the rules page is its section ("6.4" for 6.4.3; screens/rules.js).
const entries = new Set(W.LAWS.flatMap(([, , sections]) => sections.map(([id]) => id)));
for (const law of input.laws || []) if (!entries.has(law.split(".").slice(0, 2).join("."))) out.no_law_entry.push(law);
out.raw_decisions = [];
out.described = {};
for (const [kind, list] of Object.entries(input.decisions || {})) {
  if (!W.KIND_HELP[kind]) out.no_help.push(kind);
  for (const { decision, view } of list) {
    const ctx = { view, seatNames: ["Ann", "Ben"], sideNames: ["Ann", "Ben"], mySide: 0 };
    const text = W.describe(decision, ctx);
    // ("a player": an id the view could not name.)
    if (typeof text !== "string" || !text || RAW.test(text) || /\ba player\b/.test(text) || text === decision) out.raw_decisions.push({ decision, text });
    else out.described[kind] = text;
  }
}
for (const k of input.static) if (!(k in W.EVENTS)) out.missing.push(k);
for (const [kind, list] of Object.entries(input.samples)) {
  if (!(kind in W.EVENTS)) { if (!out.missing.includes(kind)) out.missing.push(kind); continue; }
  for (const { event, view } of list) {
    const ctx = { view, seatNames: ["Ann", "Ben"], sideNames: view && view.home_seat === 1 ? ["Ben", "Ann"] : ["Ann", "Ben"], mySide: 0 };
    const text = W.narrate(event, ctx);
    if (text === undefined) { out.raw.push({ kind, text: "(no words)", event }); continue; }
    if (text === null) { out.silent[kind] = (out.silent[kind] || 0) + 1; continue; }
    if (RAW.test(text)) out.raw.push({ kind, text, event });
    out.lines[kind] = text;
  }
}
console.log(JSON.stringify(out));
