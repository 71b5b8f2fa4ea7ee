// The app: screens, the match model, and the glue between the link, the board, the
// chooser and the preview worker.  The server is the authority: the screen only ever
// shows the last view the server sent; a decision is "sending" until the server's next
// prompt or error arrives.
import { Link } from "./net.js";
import { Preview } from "./preview.js";
import { renderBoard, el } from "./board.js";
import { Chooser, describe } from "./decide.js";
import { narrate, sideName } from "./words.js";

const $ = (sel) => document.querySelector(sel);
const LS = {
  get(k) { try { return localStorage.getItem("kickline." + k); } catch (e) { return null; } },
  set(k, v) { try { if (v === null) localStorage.removeItem("kickline." + k); else localStorage.setItem("kickline." + k, v); } catch (e) { /* private mode */ } },
};

const ERROR_WORDS = {
  illegal_decision: "That move is not allowed in this position. The board shows where the match really stands.",
  malformed_decision: "That move could not be read. The board shows where the match really stands.",
  stale_version: "The match moved on before your move arrived, so it was not played. Here is the current position.",
  not_your_turn: "It is not your turn, so your move was not played.",
  rate_limited: "Too many messages too quickly. Wait a moment, then try again.",
  busy: "The server is busy. Try again in a moment.",
  match_over: "This match is already over.",
  not_found: "No match found with that code or link.",
  match_full: "That match already has two players. You can watch it instead.",
  not_your_seat: "You do not hold a seat in this match.",
  not_started: "The match has not started yet.",
  bad_token: "Your saved identity is not known to this server; starting fresh.",
  bad_name: "Please choose another name: 2 to 20 letters or digits (spaces and . - _ ' are fine).",
  name_taken: "Someone already plays under that name. Please choose another.",
  reserved_name: "That name is kept for the game itself. Please choose another.",
  signed_out: "You signed out on all devices. Choose a name, or sign in again from a device where you still are.",
  no_identity: "Please choose a name.",
  transfer_used: "That link was already used. Make a new one on the device where you are signed in.",
  transfer_expired: "That link has expired. Make a new one on the device where you are signed in.",
  transfer_unknown: "That link is not from this server.",
  wrong_password: "Wrong password.",
  too_many_attempts: "Too many wrong passwords. Wait a few minutes, then try again.",
  cannot_claim: "Your opponent may still come back: you can claim the win a little later.",
  shutting_down: "The server is restarting. You will be reconnected.",
  already_queued: "You are already waiting for a quick match.",
  idle_timeout: "You were idle for a long time and got disconnected; reconnecting.",
  handshake_timeout: "The connection was too slow to start; reconnecting.",
  hello_required: "The connection was not set up properly; reconnecting.",
  unsupported_version: "This page is out of date for the server. Reload the page.",
  bad_config: "The server refused those match settings.",
  unknown_bot: "That bot is not available on this server.",
  internal: "Something went wrong on the server. The match is safe; try again.",
};
const errorWords = (m) => ERROR_WORDS[m.code] || `The server said: ${m.message || m.code}`;

const app = {
  link: null,
  preview: new Preview(),
  welcome: null,
  match: null, // the match model (see newMatch)
  queued: false,
  toast: null,
  stats: { decisions: 0, errors: 0, firstPromptAt: null, resyncs: 0 },
};
window.__kickline = app; // tests and the benchmark read this; nothing else should

function newMatch(id) {
  return {
    id, seat: null, code: null, prompt: null, lines: [], cursor: 0, over: null,
    pending: null, presence: {}, prevPos: null, previewLegal: null, replay: null, verified: null,
  };
}

// ---- routing ----------------------------------------------------------------------

function route() {
  const h = location.hash.replace(/^#\/?/, "");
  const [what, arg] = h.split("/");
  return { what: what || "home", arg: arg ? decodeURIComponent(arg) : null };
}

function go(hash) {
  if (location.hash !== hash) location.hash = hash;
  else onRoute();
}

addEventListener("hashchange", onRoute);

function onRoute() {
  const r = route();
  if ((r.what === "m" || r.what === "w") && r.arg) {
    if (!app.match || app.match.id !== r.arg) app.match = newMatch(r.arg);
    LS.set("match", r.what === "m" ? r.arg : null);
    if (app.link && app.link.online) attach();
  } else if (r.what === "join" || r.what === "watch") {
    if (app.link && app.link.online) attach();
  } else {
    app.match = null;
  }
  render();
}

// Ask the server for what the route shows; called on every (re)connect too.
function attach() {
  const r = route();

  if (r.what === "m" && r.arg) {
    app.link.send({ t: "open", id: `open:${r.arg}:${Date.now()}`, match: r.arg, since: app.match ? app.match.cursor : 0 });
  } else if (r.what === "w" && r.arg) {
    app.link.send({ t: "watch", id: `watch:${r.arg}:${Date.now()}`, match: r.arg, since: app.match ? app.match.cursor : 0 });
  } else if (r.what === "join" && r.arg) {
    app.link.request({ t: "join", id: `join:${r.arg}`, code: r.arg }).then((m) => {
      if (m.t === "ack" && m.match) { app.match = newMatch(m.match); app.match.seat = m.seat; go(`#/m/${m.match}`); }
      else if (m.t === "error") { flash(errorWords(m)); go("#/"); }
    }).catch(() => {});
  } else if (r.what === "watch" && r.arg) {
    app.link.request({ t: "watch", id: `watchc:${r.arg}:${Date.now()}`, code: r.arg }).then((m) => {
      if (m.t === "ack" && m.match) { app.match = app.match && app.match.id === m.match ? app.match : newMatch(m.match); go(`#/w/${m.match}`); }
      else if (m.t === "error") { flash(errorWords(m)); go("#/"); }
    }).catch(() => {});
  }
}

// ---- the link ---------------------------------------------------------------------

// Who we are: the kept token; else a new player's name (only while choosing one); else
// nothing, and the server reads its HttpOnly cookie (page storage can be wiped: Safari
// deletes it after 7 days without a visit).
function hello() {
  const token = LS.get("token");
  if (token) return { t: "hello", versions: [1], token };
  const name = LS.get("newname");
  if (name) return { t: "hello", versions: [1], name };
  return { t: "hello", versions: [1] };
}

// hello refusals that need the player: choose (another) name.
const IDENTITY_ERRORS = ["no_identity", "name_taken", "reserved_name", "bad_name", "bad_token", "signed_out"];

function startLink() {
  if (app.link) return;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  app.link = new Link(url, hello);
  app.link.addEventListener("state", () => renderConn());
  app.link.addEventListener("message", (ev) => onMessage(ev.detail));
  app.link.start();
}

function onMessage(m) {
  switch (m.t) {
    case "welcome":
      app.welcome = m;
      app.nameProblem = null;
      LS.set("token", m.token);
      LS.set("name", m.name);
      LS.set("newname", null);
      // The server keeps the token in an HttpOnly cookie too; this one-time ticket sets it.
      if (m.cookie) fetch(`/session?ticket=${encodeURIComponent(m.cookie)}`, { credentials: "same-origin", cache: "no-store" }).catch(() => {});
      attach();
      render();
      return;
    case "prompt": return onPrompt(m);
    case "over":
      if (app.match && m.match === app.match.id) { app.match.over = m; LS.set("match", null); render(); }
      return;
    case "presence":
      if (app.match && m.match === app.match.id) { app.match.presence[m.seat] = m.state; render(); }
      return;
    case "matched":
      app.queued = false;
      app.match = newMatch(m.match);
      app.match.seat = m.seat;
      go(`#/m/${m.match}`);
      return;
    case "ack":
      if (m.queued === true) { app.queued = true; render(); }
      return;
    case "error": return onError(m);
    default:
  }
}

function onPrompt(m) {
  const mm = app.match;
  if (!mm || m.match !== mm.id) return;
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
    if (mine && !mm.pending) {
      flash(`Your time ran out, so the server played ${mine.decision ? `"${describe(mine.decision, view)}"` : "the default"} for you.`, "error");
    }
  }
  for (const e of fresh) {
    const line = narrate(e, view);
    if (line) mm.lines.push({ text: line, law: e.law, t: e.t });
  }
  if (mm.lines.length > 400) mm.lines.splice(0, mm.lines.length - 400);
  mm.cursor = Math.max(mm.cursor, m.next);
  const changed = !mm.prompt || mm.prompt.version !== m.version;
  mm.prompt = m;
  if (changed) mm.pending = null;
  else if (mm.pending && mm.pending.lost && app.link.online) { mm.pending.lost = false; send(mm.pending); }
  mm.previewLegal = null;
  if (m.status === "playing" && mm.seat !== null && mm.seat !== undefined) LS.set("match", mm.id);
  // Ask the worker first: it computes while this thread draws the prompt.
  runPreview();
  render();
  if (first) {
    app.stats.firstPromptAt = performance.now();
    startPreview();
  }
}

function onError(m) {
  app.stats.errors++;
  const mm = app.match;
  if (mm && m.match && m.match !== mm.id) return;
  const lobbyRe = typeof m.re === "string" && /^(join|watchc|lobby|create|quick):/.test(m.re);
  if (IDENTITY_ERRORS.includes(m.code) && !app.welcome) {
    // Nothing to retry on our own: stop and ask for a name, saying why.
    LS.set("token", null);
    LS.set("newname", null);
    app.nameProblem = m.code === "no_identity" ? null : errorWords(m);
    if (app.link) { app.link.stopped = true; app.link.drop(); }
    app.link = null;
    render();
    return;
  }
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
    render();
    runPreview();
  } else if (mm && m.match === mm.id) {
    // No view attached: ask for the match again so the screen matches the server.
    app.stats.resyncs++;
    mm.pending = null;
    attach();
    render();
  }
}

async function runPreview() {
  const mm = app.match;
  if (!mm || !mm.prompt || !mm.prompt.legal || !mm.prompt.legal.length || !app.preview.ready) return;
  const version = mm.prompt.version;
  try {
    const legal = await app.preview.legal(mm.prompt.view, mm.prompt.legal);
    if (app.match === mm && mm.prompt.version === version) { mm.previewLegal = legal; renderPreviewBadge(); }
  } catch (e) { /* the server's list stands */ }
}

// ---- decisions --------------------------------------------------------------------

let attempt = 0;
function confirmDecision(text) {
  const mm = app.match;
  if (!mm || !mm.prompt || mm.pending) return;
  if (!app.link.online) { flash("You are offline; the move was not sent. It can be sent once reconnected.", "error"); return; }
  const p = mm.prompt;
  const msg = { t: "decide", id: `${mm.seat}:${p.version}:${++attempt}`, match: mm.id, version: p.version, decision: text, seat: mm.seat };
  mm.pending = { text, version: p.version, msg, acked: false };
  app.stats.decisions++;
  render();
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
      flash("The connection dropped before the server answered; your move will be re-sent once reconnected.", "error");
      render();
    }
  });
}

// ---- rendering --------------------------------------------------------------------

const chooser = new Chooser(null, {
  changed: () => renderMatch(),
  confirm: (t) => confirmDecision(t),
  consequence: async (text) => {
    const mm = app.match;
    if (!mm || !mm.prompt) return null;
    const kind = text.split(" ")[0];
    const events = await app.preview.consequence(mm.prompt.view, text);
    if (!events) {
      if (kind === "speed") return `The ball's speed becomes ${text.split(" ")[1]}.`;
      return null;
    }
    const lines = events.map((e) => narrate(e, mm.prompt.view)).filter(Boolean);
    return lines.length ? `Preview: ${lines.join(" ")}` : null;
  },
});

app.chooser = chooser;

function flash(text, kind = "info") {
  app.toast = { text, kind, at: Date.now() };
  const t = $("#toast");
  if (t) {
    t.textContent = text;
    t.className = `toast ${kind}`;
    t.hidden = false;
    clearTimeout(flash.timer);
    flash.timer = setTimeout(() => { t.hidden = true; }, 7000);
  }
}

function renderConn() {
  const c = $("#conn");
  if (!c || !app.link) return;
  const s = app.link.state;
  const words = { online: "Online", connecting: "Connecting…", reconnecting: "Reconnecting…", offline: "Offline: waiting for the network" };
  c.textContent = words[s] || s;
  c.className = `conn ${s}`;
  c.setAttribute("data-state", s);
}

function render() {
  renderConn();
  const r = route();
  const main = $("#main");
  if (!app.welcome && (app.nameProblem !== undefined && !app.link)) return renderName(main);
  if ((r.what === "m" || r.what === "w") && app.match) return renderMatch();
  if (r.what === "join" || r.what === "watch") {
    main.replaceChildren(el("section", { class: "card-screen" }, el("p", { text: r.what === "join" ? `Joining match ${r.arg}…` : `Finding match ${r.arg}…` })));
    return;
  }
  return renderHome(main);
}

function renderName(main) {
  const input = el("input", { id: "name", name: "name", autocomplete: "nickname", maxlength: "24", required: true, placeholder: "Your name", "aria-label": "Your name" });
  const form = el("form", { class: "card-screen", onsubmit: (e) => {
    e.preventDefault();
    const v = input.value.trim();
    if (!v) return;
    LS.set("newname", v);
    LS.set("token", null);
    app.nameProblem = undefined;
    if (app.link) { app.link.drop(); } else startLink();
    render();
  } }, el("h2", { text: "Choose a name" }), el("p", { text: "Other players see it in the match. Nobody else can have the same one." }),
  app.nameProblem ? el("p", { class: "error", role: "alert", id: "name-problem", text: app.nameProblem }) : null, input,
  el("button", { class: "btn primary", type: "submit", id: "save-name" }, "Continue"));
  main.replaceChildren(form);
  input.focus();
}

const MODES = [["training", "Training"], ["standard", "Standard"], ["advanced", "Advanced"]];
const TEAMS = [["training", "Training XI"], ["fire-demons", "Fire Demons"], ["cyborgs", "Cyborgs"], ["telekinetics", "Telekinetics"], ["oozes", "Oozes"]];

// The lobby's choices, kept between visits. teams[0] is always the player's own team:
// they take seat 0 when creating, and a quick match reads teams[0] as theirs.
function config() {
  const b = Number(LS.get("board") || 7);
  const pick = (k, list, dflt) => { const v = LS.get(k); return list.some(([id]) => id === v) ? v : dflt; };
  const mode = pick("mode", MODES, "training");
  return { mode, board: b === 9 ? 9 : 7, teams: [pick("team", TEAMS, "training"), pick("opponent", TEAMS, "training")] };
}

function segmented(label, items, current, key) {
  const box = el("div", { class: "seg", role: "radiogroup", "aria-label": label });
  for (const [id, text] of items) {
    const on = current === id;
    box.append(el("button", { class: `btn${on ? " on" : ""}`, type: "button", role: "radio", "aria-checked": on ? "true" : "false", [`data-${key}`]: id,
      onclick: () => { LS.set(key, id); render(); } }, text));
  }
  return box;
}

function teamSelect(id, label, current, key) {
  const sel = el("select", { id, "aria-label": label, onchange: () => { LS.set(key, sel.value); render(); } },
    ...TEAMS.map(([v, text]) => el("option", { value: v, selected: v === current || undefined }, text)));
  return el("label", { class: "team-pick" }, label, " ", sel);
}

function lobby(msg) {
  msg.id = `${msg.t}:${Date.now()}`;
  app.link.request(msg).then((m) => {
    if (m.t === "error") { flash(errorWords(m), "error"); return; }
    if (m.match) { app.match = newMatch(m.match); app.match.seat = m.seat; app.match.code = m.code; go(`#/m/${m.match}`); }
  }).catch(() => flash("Not connected yet; try again in a moment.", "error"));
}

function renderHome(main) {
  const name = (app.welcome && app.welcome.name) || LS.get("name");
  const cfg = config();
  const boardSel = segmented("Board size", [["7", "7 spaces"], ["9", "9 spaces"]], String(cfg.board), "board");
  const modeSel = segmented("Mode", MODES, cfg.mode, "mode");
  const code = el("input", { id: "code", placeholder: "Match code", autocapitalize: "characters", maxlength: "16", "aria-label": "Match code" });
  const online = app.link && app.link.online;
  const mine = (app.welcome && app.welcome.matches || []).filter((m) => m.status !== "over");
  main.replaceChildren(el("section", { class: "home" },
    el("p", {}, "Playing as ", el("b", { text: name || "…" }), " ",
      el("button", { class: "link", type: "button", id: "rename", onclick: () => { LS.set("token", null); LS.set("name", null); app.welcome = null; render(); } }, "change")),
    mine.length ? el("div", { class: "resume" }, el("h3", { text: "Your matches" }),
      ...mine.map((m) => el("button", { class: "btn primary", type: "button", "data-resume": m.match, onclick: () => go(`#/m/${m.match}`) }, `Back to your match (${m.status})`))) : null,
    el("h3", { text: "Board" }), boardSel,
    el("h3", { text: "Mode" }), modeSel,
    el("p", { class: "hint", text: cfg.mode === "training" ? "Part I only: species is just a name." : cfg.mode === "standard" ? "Adds the species abilities." : "Adds gambits, personal abilities and advanced skills." }),
    el("div", { class: "row teams" }, teamSelect("team", "Your team", cfg.teams[0], "team"), teamSelect("opponent", "Opponent (bot or private match)", cfg.teams[1], "opponent")),
    el("div", { class: "grid actions" },
      el("button", { class: "btn primary", type: "button", id: "vs-bot", disabled: !online || undefined, onclick: () => lobby({ t: "create", game: "kickline", config: config(), bot: "greedy" }) }, "Play against the bot"),
      el("button", { class: "btn", type: "button", id: "quick", disabled: !online || undefined, onclick: () => lobby({ t: "quick", game: "kickline", config: config() }) }, "Quick match"),
      el("button", { class: "btn", type: "button", id: "create", disabled: !online || undefined, onclick: () => lobby({ t: "create", game: "kickline", config: config(), private: true }) }, "Create a private match")),
    app.queued ? el("div", { class: "waiting" }, el("p", { text: "Looking for an opponent…" }),
      el("button", { class: "btn", type: "button", id: "cancel-quick", onclick: () => { app.link.request({ t: "cancel" }).catch(() => {}); app.queued = false; render(); } }, "Cancel")) : null,
    el("h3", { text: "Have a code?" }), code,
    el("div", { class: "row" },
      el("button", { class: "btn", type: "button", id: "join", onclick: () => code.value.trim() && go(`#/join/${encodeURIComponent(code.value.trim().toUpperCase())}`) }, "Join"),
      el("button", { class: "btn", type: "button", id: "watch", onclick: () => code.value.trim() && go(`#/watch/${encodeURIComponent(code.value.trim().toUpperCase())}`) }, "Watch"))));
}

function seatSide(view, seat) {
  if (!view || view.home_seat < 0 || seat === null || seat === undefined) return null;
  return view.home_seat === seat ? "home" : "visitors";
}

function renderMatch() {
  const t0 = performance.now();
  try { drawMatch(); } finally { app.stats.renderMs = performance.now() - t0; }
}

function drawMatch() {
  const mm = app.match;
  const main = $("#main");
  if (!mm) return;
  const p = mm.prompt;
  if (mm.over) return renderOver(main, mm);
  if (!p) { main.replaceChildren(el("p", { class: "card-screen", text: "Loading the match…" })); return; }
  if (p.status === "waiting") return renderWaiting(main, mm);
  const view = p.view;
  const mySide = seatSide(view, mm.seat);
  const names = (p.players || []).map((x) => (x ? x.name : "—"));
  const homeSeat = view.home_seat;
  const homeName = homeSeat >= 0 ? names[homeSeat] : names[0];
  const visName = homeSeat >= 0 ? names[1 - homeSeat] : names[1];
  const me = mm.seat;
  const legal = p.legal || [];
  const myTurn = legal.length > 0 && !mm.pending;
  const toAct = view.to_act || p.to_act;
  let status;
  if (mm.pending) status = `Sending: ${describe(mm.pending.text, view)}…`;
  else if (myTurn) {
    const opp = mySide === "home" ? "visitors" : "home";
    const chosen = view.secret && view.secret.chosen;
    status = chosen && mySide && chosen[opp] ? "Your opponent has chosen (hidden until both are in). Your move" : "Your move";
  }
  else if (toAct.kind === "decide" && me !== null && toAct.seats.includes(me) && view.secret && view.secret.mine) status = `You chose ${view.secret.mine}. Waiting for your opponent…`;
  else if (toAct.kind === "decide") status = me === null ? `Waiting for ${toAct.seats.map((s) => names[s]).join(" and ")}` : "Waiting for your opponent…";
  else status = "";
  const header = el("header", { class: "score" },
    el("div", { class: "teams" },
      el("span", { class: `t home${mySide === "home" ? " me" : ""}` }, el("b", { text: homeSeat >= 0 ? "Home" : "" }), ` ${homeName || ""}${mySide === "home" || (homeSeat < 0 && me === 0) ? " (you)" : ""}`),
      el("span", { class: "sc", id: "score", "aria-label": `Score ${view.score[0]} to ${view.score[1]}`, text: `${view.score[0]} : ${view.score[1]}` }),
      el("span", { class: `t visitors${mySide === "visitors" ? " me" : ""}` }, el("b", { text: homeSeat >= 0 ? "Visitors" : "" }), ` ${visName || ""}${mySide === "visitors" || (homeSeat < 0 && me === 1) ? " (you)" : ""}`)),
    el("div", { class: "meta" },
      el("span", { id: "clock", text: view.period === 3 ? "Shootout" : `Period ${Math.max(1, view.period)} · minute ${view.minute}` }),
      el("span", { id: "ballinfo", text: view.ball.space ? `Ball ${view.ball.space}, speed ${view.ball.speed}` : "" }),
      el("span", { id: "timer", class: "timer" })),
    el("div", { class: "meta" },
      el("span", { text: `Subs left H ${view.subs_left[0]} · V ${view.subs_left[1]}` }),
      el("span", { text: `Time outs used H ${view.timeouts_used[0] ? "yes" : "no"} · V ${view.timeouts_used[1] ? "yes" : "no"}` })),
    el("p", { class: `status${myTurn ? " go" : ""}`, id: "status", role: "status", text: status }),
    opponentPresence(mm));
  const boardBox = el("div", { id: "boardbox" });
  const panel = el("section", { id: "panel", class: "panel", "aria-label": "Your decision" });
  chooser.panel = panel;
  if (myTurn && me !== null) {
    chooser.set(mm.previewLegal || legal, view, view.prompt.frame);
    chooser.render();
  } else {
    chooser.set([], view, null);
    panel.append(el("p", { class: "muted", text: me === null ? "You are watching." : status || "…" }));
  }
  const t = myTurn ? chooser.targets() : { players: new Set(), spaces: new Set(), selected: new Set() };
  const benchBox = el("div", { id: "benchbox" });
  renderBoard(boardBox, view, { mySide, pickPlayers: t.players, pickSpaces: t.spaces, selected: t.selected, onPick: (v) => chooser.pick(v), prev: mm.prevPos }, benchBox);
  mm.prevPos = null;
  const log = el("ol", { class: "log", id: "log", "aria-label": "What happened", reversed: true });
  for (const line of mm.lines.slice(-60).reverse()) log.append(el("li", { title: line.law ? `Law ${line.law}` : undefined, text: line.text }));
  const foot = el("footer", { class: "row" },
    el("span", { id: "previewstate", class: "muted" }),
    me !== null ? el("button", { class: "btn small", type: "button", id: "resign", onclick: () => {
      if (confirm("Resign this match?")) app.link.request({ t: "resign", match: mm.id, seat: me }).catch(() => {});
    } }, "Resign") : null);
  main.replaceChildren(header, boardBox, panel, benchBox, el("h3", { text: "Match report" }), log, foot);
  renderPreviewBadge();
  tick();
}

function opponentPresence(mm) {
  const bits = [];
  for (const [seat, state] of Object.entries(mm.presence)) {
    if (Number(seat) !== mm.seat && state !== "connected") bits.push(`Your opponent is ${state === "reconnecting" ? "reconnecting" : state}…`);
  }
  return bits.length ? el("p", { class: "presence", text: bits.join(" ") }) : null;
}

function renderPreviewBadge() {
  const b = $("#previewstate");
  if (!b) return;
  const pv = app.preview;
  const mm = app.match;
  let text;
  if (pv.failed) text = "Rules preview unavailable (server list used)";
  else if (!pv.ready) text = "Rules preview loading…";
  else if (mm && mm.previewLegal) text = "Rules preview: checked ✓";
  else text = "Rules preview: ready";
  if (pv.mismatches) text += ` · disagreements: ${pv.mismatches}`;
  b.textContent = text;
}

function tick() {
  const mm = app.match;
  const t = $("#timer");
  if (!t || !mm || !mm.prompt || !mm.prompt.clock) return;
  const dl = mm.prompt.clock.deadline || [];
  const now = Date.now() / 1000;
  const parts = [];
  (mm.prompt.to_act ? mm.prompt.to_act.seats : []).forEach((s) => {
    if (dl[s]) {
      const left = Math.max(0, Math.round(dl[s] - now));
      parts.push(`${s === mm.seat ? "You" : "Opponent"}: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`);
    }
  });
  t.textContent = parts.join(" · ");
}
setInterval(tick, 1000);

function renderWaiting(main, mm) {
  const link = `${location.origin}/#/join/${mm.code || ""}`;
  main.replaceChildren(el("section", { class: "card-screen", id: "waiting" },
    el("h2", { text: "Waiting for your opponent" }),
    el("p", {}, "Share this link or the code ", el("b", { id: "invite-code", text: mm.code || "…" }), "."),
    el("input", { id: "invite-link", readonly: true, value: link, "aria-label": "Invite link", onclick: (e) => e.target.select() }),
    el("div", { class: "row" },
      el("button", { class: "btn primary", type: "button", id: "share", onclick: async () => {
        try {
          if (navigator.share) await navigator.share({ title: "Kickline", text: "Play Kickline with me", url: link });
          else { await navigator.clipboard.writeText(link); flash("Link copied."); }
        } catch (e) { /* dismissed */ }
      } }, "Share link"),
      el("button", { class: "btn", type: "button", onclick: () => go("#/") }, "Back"))));
}

function renderOver(main, mm) {
  const o = mm.over;
  const r = o.result || {};
  const me = mm.seat;
  let head;
  if (r.winner === null || r.winner === undefined) head = r.reason === "played" ? "A draw" : `No result (${r.reason})`;
  else if (me === null || me === undefined) head = `Seat ${r.winner + 1} wins`;
  else head = r.winner === me ? "You win!" : "You lose";
  const score = r.score ? `${r.score[0]} : ${r.score[1]} (seat 1 : seat 2)` : "";
  const reason = { played: "played to the end", resigned: "by resignation", gone: "the opponent left", timeouts: "too many timeouts", expired: "expired", abandoned: "abandoned" }[r.reason] || r.reason;
  const check = el("div", { id: "fair" });
  const replayBox = el("div", { id: "replay" });
  main.replaceChildren(el("section", { class: "over", id: "over" },
    el("h2", { id: "result", text: head }),
    el("p", { text: `${score}${score ? " · " : ""}${reason}${r.shootout ? " · after a shootout" : ""}` }),
    el("h3", { text: "Provably fair dice" }),
    el("p", { class: "small", text: `Before the match the server committed to its dice seed: sha256 = ${o.commit}. Now it reveals the seed: ${o.seed}.` }),
    mm.commit ? el("p", { id: "commit-same", text: mm.commit === o.commit ? "✓ This is the commitment you were shown during the match." : "✗ This is NOT the commitment you were shown during the match!" }) : null,
    el("button", { class: "btn", type: "button", id: "verify", onclick: () => verify(mm, check, replayBox) }, "Check the dice and replay"),
    check, replayBox,
    el("div", { class: "row" }, el("button", { class: "btn primary", type: "button", id: "home", onclick: () => { app.match = null; go("#/"); } }, "New match")),
    el("h3", { text: "Match report" }),
    el("ol", { class: "log", reversed: true }, ...mm.lines.slice(-40).reverse().map((l) => el("li", { text: l.text })))));
  if (mm.verified) showVerified(mm, check, replayBox);
}

async function sha256hex(hex) {
  const bytes = new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function verify(mm, box, replayBox) {
  const o = mm.over;
  box.textContent = "Checking…";
  let commitOk = null;
  try { commitOk = (await sha256hex(o.seed)) === o.commit; } catch (e) { commitOk = null; }
  let replay = null;
  if (app.preview.ready) {
    try { replay = await app.preview.verify(o.config, o.seed, o.log, mm.seat); } catch (e) { replay = { ok: false, error: String(e) }; }
  }
  mm.verified = { commitOk, replay };
  showVerified(mm, box, replayBox);
}

function showVerified(mm, box, replayBox) {
  const { commitOk, replay } = mm.verified;
  box.replaceChildren(
    el("p", { id: "commit-check", text: commitOk === null ? "The seed's hash could not be computed here (needs a secure page)." : commitOk ? "✓ The revealed seed matches the commitment." : "✗ The revealed seed does NOT match the commitment." }),
    el("p", { id: "dice-check", text: !replay ? "The rules preview is not loaded, so the dice could not be replayed." : replay.ok ? `✓ Every die in the match follows from the seed (${mm.over.log.length} log entries replayed).` : `✗ ${replay.error}` }));
  if (replay && replay.views && replay.views.length) {
    let i = replay.views.length - 1;
    const boardBox = el("div");
    const label = el("p", { class: "muted" });
    const slider = el("input", { type: "range", min: "0", max: String(replay.views.length - 1), value: String(i), "aria-label": "Replay position" });
    const show = () => {
      const v = replay.views[i];
      label.textContent = `Move ${i + 1} of ${replay.views.length}: seat ${v.s + 1} — ${describe(v.d, v.view)} · ${v.view.score[0]} : ${v.view.score[1]}`;
      renderBoard(boardBox, v.view, { mySide: seatSide(v.view, mm.seat), pickPlayers: new Set(), pickSpaces: new Set(), selected: new Set(), onPick: () => {} });
    };
    slider.addEventListener("input", () => { i = Number(slider.value); show(); });
    replayBox.replaceChildren(el("h3", { text: "Replay" }), slider,
      el("div", { class: "row" },
        el("button", { class: "btn", type: "button", onclick: () => { i = Math.max(0, i - 1); slider.value = i; show(); } }, "◀ Back"),
        el("button", { class: "btn", type: "button", onclick: () => { i = Math.min(replay.views.length - 1, i + 1); slider.value = i; show(); } }, "Next ▶")),
      label, boardBox);
    show();
  }
}

// ---- start ------------------------------------------------------------------------

function startPreview() {
  if (app.preview.worker) return;
  const go = () => app.preview.start();
  if ("requestIdleCallback" in window) requestIdleCallback(go, { timeout: 300 });
  else setTimeout(go, 0);
}

function boot() {
  document.body.classList.add("ready");
  startLink(); // a kept token, or the server's cookie, or it asks for a name
  // A reload during a match goes straight back to it.
  const r = route();
  const last = LS.get("match");
  if (r.what === "home" && last && !location.hash) history.replaceState(null, "", `#/m/${last}`);
  onRoute();
  // The preview is never on the critical path: compiling Pyodide takes a core for
  // seconds, so it starts once the first prompt is on screen, or a moment after the
  // first screen is usable, whichever comes first.
  setTimeout(startPreview, 2000);
  app.preview.addEventListener("ready", () => { renderPreviewBadge(); runPreview(); });
  app.preview.addEventListener("failed", () => renderPreviewBadge());
  if ("serviceWorker" in navigator && !new URLSearchParams(location.search).has("nosw")) {
    navigator.serviceWorker.register("/sw.js").catch((e) => console.warn("kickline: no service worker", e));
  }
}

boot();
