// The match on screen: what the server last said about it (prompt, events, result), the
// decision in flight, and the narration so far.  The server is the authority: the
// screen only ever shows the last view the server sent; a decision is "sending" until
// the server's next prompt or error arrives.
import { app, LS, update, on, flash, go, errorWords, online, request } from "./app.js";
import { route } from "./router.js";
import { W } from "./words.js";
import { Playback } from "./playback.js";
import { SKIPPABLE, offerPolicy } from "./settings.js";
import { announce, yourTurn } from "./attention.js";

export function newMatch(id) {
  return {
    id, seat: null, code: null, prompt: null, lines: [], cursor: 0, over: null,
    pending: null, prevPos: null, previewLegal: null, replay: null, verified: null,
    commit: null, play: null, lastMove: null, odds: null, seq: 0,
  };
}

// Who is who, for the words: names by seat and by side, and the reader's own side.
export function ctxOf(mm, view, players = null) {
  const v = view || (mm.prompt && mm.prompt.view);
  const seatNames = (players || (mm.prompt && mm.prompt.players) || []).map((x) => (x ? x.name : null));
  const home = v && v.home_seat >= 0 ? v.home_seat : 0;
  const mySide = v && v.home_seat >= 0 && mm.seat !== null && mm.seat !== undefined ? (mm.seat === home ? 0 : 1) : null;
  return { view: v, seatNames, sideNames: [seatNames[home] || null, seatNames[1 - home] || null], mySide };
}

// Events into move-list lines, grouped by turn.  A line is {seq, text, law, t, group}.
function addLines(mm, events, view, players) {
  const ctx = ctxOf(mm, view, players);
  for (const e of events) {
    mm.seq++;
    if (e.t === "shootout-test") (mm.kicks || (mm.kicks = [])).push(e);
    // The end screen's score counts a shootout's goals; it says the full-time one too.
    if (e.t === "full-time" && e.score) mm.fullTime = e.score.slice();
    let text = W.narrate(e, ctx);
    if (text === null) continue;
    if (text === undefined) text = W.unknownEvent;
    const starts = ["turn", "kickoff", "halftime", "shootout", "full-time"].includes(e.t);
    if (starts || !mm.lines.length) mm.group = (mm.group || 0) + 1;
    mm.lines.push({ seq: mm.seq, text, law: e.law, t: e.t, group: mm.group, head: starts, minute: view ? view.minute : null });
  }
  if (mm.lines.length > 600) mm.lines.splice(0, mm.lines.length - 600);
}

export const seatSide = (view, seat) => {
  if (!view || view.home_seat < 0 || seat === null || seat === undefined) return null;
  return view.home_seat === seat ? "home" : "visitors";
};

// The match a route names: #/m/<id> (playing) or #/w/<id> (watching).
export function enterMatch(r) {
  if (!app.match || app.match.id !== r.arg) app.match = newMatch(r.arg);
  LS.set("match", r.what === "m" ? r.arg : null);
  attach();
}

// Ask the server for what the route shows; called on every (re)connect too.
export function attach() {
  const r = route();
  if (!online()) return;
  if (r.what === "m" && r.arg) {
    app.link.send({ t: "open", id: `open:${r.arg}:${Date.now()}`, match: r.arg, since: app.match ? app.match.cursor : 0 });
  } else if (r.what === "w" && r.arg) {
    const mm = app.match;
    // Just attached by a watch code: the server is already sending this match.
    if (mm && mm.skipAttach) { mm.skipAttach = false; return; }
    // A private match is watched by its watch code (its id alone shows nothing).
    const by = mm && mm.watchCode ? { code: mm.watchCode } : { match: r.arg };
    app.link.send({ t: "watch", id: `watch:${r.arg}:${Date.now()}`, ...by, since: mm ? mm.cursor : 0 });
  } else if (r.what === "join" && r.arg) {
    app.link.request({ t: "join", id: `join:${r.arg}`, code: r.arg }).then((m) => {
      if (m.t === "ack" && m.match) { app.match = newMatch(m.match); app.match.seat = m.seat; go(`#/m/${m.match}`); }
      else if (m.t === "error") { flash(errorWords(m)); go("#/"); }
    }).catch(() => {});
  } else if (r.what === "watch" && r.arg) {
    app.link.request({ t: "watch", id: `watchc:${r.arg}:${Date.now()}`, code: r.arg }).then((m) => {
      if (m.t === "ack" && m.match) {
        app.match = app.match && app.match.id === m.match ? app.match : newMatch(m.match);
        app.match.watchCode = r.arg;
        app.match.skipAttach = true;
        adoptEarly(m.match);
        go(`#/w/${m.match}`);
      }
      else if (m.t === "error") { flash(errorWords(m)); go("#/"); }
    }).catch(() => {});
  }
}

// Prompts that arrive with the ack of a join or a watch by code, before the match
// model exists (the ack's handler runs a moment later): kept for it.
const early = new Map();

function adoptEarly(id) {
  const m = early.get(id);
  early.clear();
  if (m) onPrompt(m);
}

function onPrompt(m) {
  const mm = app.match;
  if (!mm || m.match !== mm.id) {
    if (["join", "watch"].includes(route().what)) early.set(m.match, m);
    return;
  }
  const first = app.stats.firstPromptAt === null && m.legal && m.legal.length;
  const before = mm.prompt && mm.prompt.view;
  mm.prevPos = before ? new Map(before.players.map((p) => [p.id, p.space])) : null;
  mm.seat = m.seat;
  mm.code = m.code || mm.code;
  mm.commit = mm.commit || m.commit;
  // Events from..next; drop what we already narrated (a resent prompt after reconnect).
  const skip = Math.max(0, mm.cursor - m.from);
  const fresh = m.from <= mm.cursor ? m.events.slice(skip) : m.events;
  const view = m.view;
  // A decision of ours that we did not send: our clock ran out and the server played
  // the default.  Only on live updates (not the history replayed after a reload).
  if (mm.prompt && mm.seat !== null && mm.seat !== undefined) {
    const mine = fresh.find((e) => (e.t === "decision" || e.t === "chosen") && e.seat === mm.seat);
    if (mine && !mm.pending) flash(W.UI.match.timedOut(mine.decision ? W.describe(mine.decision, ctxOf(mm, view)) : null), "error");
  }
  const seqBefore = mm.seq;
  addLines(mm, fresh, view, m.players);
  mm.cursor = Math.max(mm.cursor, m.next);
  // Live news is played back at the player's pace; a match opened afresh (a reload, a
  // spectator arriving) starts on its current position.
  const live = !!(mm.prompt && before) && fresh.length > 0 && fresh.length < 400;
  if (mm.play) mm.play.skip();
  if (live) startPlayback(mm, before, fresh, seqBefore);
  mm.lastMove = lastMove(fresh) || mm.lastMove;
  const changed = !mm.prompt || mm.prompt.version !== m.version;
  mm.prompt = m;
  if (changed) mm.pending = null;
  else if (mm.pending && mm.pending.lost && online()) { mm.pending.lost = false; send(mm.pending); }
  mm.previewLegal = null;
  if (m.status === "playing" && mm.seat !== null && mm.seat !== undefined && !mm.local) LS.set("match", mm.id);
  // Ask the worker first: it computes while this thread draws the prompt.
  runPreview();
  if (changed && m.legal && m.legal.length && !mm.over) {
    if (!autoAnswer(mm)) { yourTurn(); runOdds(mm); }
  }
  update();
  if (first) {
    app.stats.firstPromptAt = performance.now();
    app.onFirstPrompt && app.onFirstPrompt();
  }
}

function onError(m) {
  app.stats.errors++;
  const mm = app.match;
  if (mm && mm.local && m.match === mm.id) { mm.pending = null; flash(errorWords(m), "error"); update(); return; }
  if (mm && m.match && m.match !== mm.id) return;
  const lobbyRe = typeof m.re === "string" && /^(join|watchc|lobby|create|quick|list|odds|reveal):/.test(m.re);
  if (m.code === "bad_token") LS.set("token", null);
  // The match we tried to open is gone (or not ours): forget it and go home.
  if (typeof m.re === "string" && /^(open|watch):/.test(m.re) && ["not_found", "not_your_seat", "bad_field"].includes(m.code)) {
    LS.set("match", null);
    flash(errorWords(m), "error");
    app.match = null;
    go("#/");
    return;
  }
  if (!lobbyRe) flash(errorWords(m), "error");
  if (mm && m.view && m.legal) {
    // The server's own view rides on a refused decision: show exactly that.
    app.stats.resyncs++;
    mm.pending = null;
    mm.prompt = { ...(mm.prompt || {}), view: m.view, legal: m.legal, version: m.version, turns: m.turns, to_act: m.view.to_act };
    update();
    runPreview();
  } else if (mm && m.match === mm.id) {
    // No view attached: ask for the match again so the screen matches the server.
    app.stats.resyncs++;
    mm.pending = null;
    attach();
    update();
  }
}

// The last move to mark on the board: where the ball went, who moved.
function lastMove(events) {
  let out = null;
  for (const e of events) {
    if (["pass", "dribble", "dribble-burst", "high-pass", "setup-pass", "deflect", "steal", "intercept", "pressure", "double-team", "ball-rolls", "loose", "takes-ball", "pulled", "smooth"].includes(e.t)) {
      const to = e.space || e.to;
      out = { to, players: [e.player, e.to, e.frm, e.handler, e.challenger, e.partner].filter((x) => typeof x === "string" && /^[hv][0-8]$/.test(x)) };
    }
  }
  return out;
}

function startPlayback(mm, fromView, events, seqBefore) {
  const play = new Playback(fromView, events, {
    onStep: () => {
      if (app.match !== mm) return;
      update();
      const m = play.current;
      if (m) {
        announce(W.narrate(m.event, ctxOf(mm, m.view)));
        // Which kinds of moment were drawn (tests and benchmarks read it).
        const key = m.event.t + (m.event.t === "injury-check" && m.event.injured ? ":injured" : "");
        (app.stats.moments || (app.stats.moments = {}))[key] = (app.stats.moments[key] || 0) + 1;
      }
    },
    onDone: (p) => {
      if (mm.play === p) mm.play = null;
      app.stats.lastPlaybackMs = p.ms;
      // From the prompt's arrival to the end of its playback, for bench/client.py.
      if (p.moments.length) (app.stats.playbackMs || (app.stats.playbackMs = [])).push(Math.round(p.ms));
      app.stats.playbacks = (app.stats.playbacks || 0) + 1;
      if (app.match === mm) { update(); app.onPlaybackDone && app.onPlaybackDone(mm); }
    },
  });
  // Each moment knows the event's sequence number, so the move list grows with it.
  let seq = seqBefore;
  const bySeq = new Map();
  for (const e of events) bySeq.set(e, ++seq);
  for (const m of play.moments) m.seq = bySeq.get(m.event);
  if (mm.odds && mm.oddsFor) {
    for (const m of play.moments) if (m.event.t === "score-attempt" && mm.odds[mm.oddsFor]) m.odds = mm.odds[mm.oddsFor];
  }
  mm.play = play;
  play.start();
}

// The answer to an offer the player asked not to be asked again (this match).
export function passOf(legal) {
  return legal.find((d) => /^(pull|smooth|fly|declare) none$|^join no$|^scorch accept$/.test(d)) || null;
}

// Answer "no" for the player to an offer they switched off for this match.
export function autoAnswer(mm) {
  const p = mm.prompt;
  if (!p || !p.legal || !p.legal.length || mm.pending) return false;
  const kinds = new Set(p.legal.map((d) => d.split(" ")[0]));
  if (kinds.size !== 1) return false;
  const [kind] = kinds;
  if (!SKIPPABLE.includes(kind) || offerPolicy(mm.id, kind) !== "never") return false;
  const pass = passOf(p.legal);
  if (!pass) return false;
  app.stats.autoAnswers = (app.stats.autoAnswers || 0) + 1;
  decide(pass);
  return true;
}

// The exact odds of this prompt's decisions, from the rules package in the worker.
export async function runOdds(mm) {
  const p = mm.prompt;
  if (!p || !p.view || !app.preview) return;
  const version = p.version;
  try {
    let odds;
    if (app.preview.ready) odds = await app.preview.odds(p.view);
    else if (!mm.local && online()) {
      // The rules have not loaded here yet: the server computes them from our view.
      const a = await request({ t: "odds", match: mm.id });
      odds = a.t === "ack" && a.version === version ? a.odds : null;
    } else return;
    if (odds && Object.keys(odds).length && app.match === mm && mm.prompt.version === version) {
      mm.odds = { version, odds };
      update();
    }
  } catch (e) { /* no odds shown */ }
}

export async function runPreview() {
  const mm = app.match;
  if (!mm || !mm.prompt || !mm.prompt.legal || !mm.prompt.legal.length || !app.preview.ready) return;
  const version = mm.prompt.version;
  try {
    const legal = await app.preview.legal(mm.prompt.view, mm.prompt.legal);
    if (app.match === mm && mm.prompt.version === version) { mm.previewLegal = legal; update(); }
  } catch (e) { /* the server's list stands */ }
}

// ---- decisions --------------------------------------------------------------------

// A local match (the tutorial, offline play): the worker answers instead of the server.
export function receive(m) {
  if (m.t === "prompt") {
    onPrompt(m);
    const mm = app.match;
    if (mm && m.match === mm.id && m.status === "over" && m.result && !mm.over) {
      mm.over = { match: m.match, result: { ...m.result, reason: "played" }, local: true, log: [] };
      update();
    }
  } else onError(m);
}

let attempt = 0;
export function decide(text) {
  const mm = app.match;
  if (!mm || !mm.prompt || mm.pending) return;
  if (mm.local) {
    mm.pending = { text, version: mm.prompt.version, local: true };
    mm.oddsFor = text;
    app.stats.decisions++;
    update();
    const plan = mm.planFor ? mm.planFor(text) : {};
    mm.local.decide(text, plan).then(receive).catch((e) => { mm.pending = null; flash(String(e), "error"); update(); });
    return;
  }
  if (!online()) { flash(W.UI.match.offline, "error"); return; }
  const p = mm.prompt;
  const msg = { t: "decide", id: `${mm.seat}:${p.version}:${++attempt}`, match: mm.id, version: p.version, decision: text, seat: mm.seat };
  mm.pending = { text, version: p.version, msg, acked: false };
  mm.oddsFor = text;
  app.stats.decisions++;
  update();
  send(mm.pending);
}

function send(pending) {
  app.link.request(pending.msg).then((reply) => {
    if (reply.t === "ack") pending.acked = true;
  }).catch(() => {
    pending.lost = true;
    // Kept: after the reconnect it is sent again with the same id, which the server
    // applies at most once.
    if (app.match && app.match.pending === pending) {
      flash(W.UI.match.dropped, "error");
      update();
    }
  });
}

export function resign() {
  const mm = app.match;
  if (!mm || mm.seat === null || mm.seat === undefined) return;
  app.link.request({ t: "resign", match: mm.id, seat: mm.seat }).catch(() => {});
}

// ---- subscriptions ---------------------------------------------------------------

on("prompt", onPrompt);
on("error", onError);
on("over", (m) => {
  if (app.match && m.match === app.match.id) { app.match.over = m; LS.set("match", null); update(); }
});
on("matched", (m) => {
  app.queued = false;
  app.match = newMatch(m.match);
  app.match.seat = m.seat;
  go(`#/m/${m.match}`);
});
on("welcome", () => attach());
