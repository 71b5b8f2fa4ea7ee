// Who this browser is to the server.  The server keeps every player as an account with
// a unique name (docs/PROTOCOL.md, Identity); this module decides what the `hello` says
// and what to do when the server refuses it:
//
// * hello carries, in order: a one-time transfer code or a name and password (only while
//   the player is signing in), the kept token, a new player's name (only while choosing
//   one), else nothing, and the server reads its HttpOnly cookie.  So a browser that lost
//   its storage (Safari wipes it after 7 days without a visit) is still the same player,
//   and a kept name is never sent to make a second account.
// * welcome: keep the token; if the server asks (welcome.cookie), fetch the one-time
//   ticket so it sets the cookie.
// * a refused hello (name taken, bad name, signed out, wrong password, an unknown cookie…)
//   stops the link, since retrying would get the same answer, and the name screen says
//   why in plain words and lets the player pick another name or sign in.
import { app, LS, update, on, go, flash } from "./app.js";
import { W } from "./words.js";

// The refusals of a hello (sent without a message id, before welcome, then the server
// closes the connection) that only the player can cure.
const REFUSALS = new Set(["no_identity", "bad_name", "name_taken", "reserved_name", "bad_token",
  "signed_out", "wrong_password", "no_password", "too_many_attempts", "transfer_used",
  "transfer_expired", "transfer_unknown", "not_found", "too_many_identities"]);

app.identity = {
  asked: false, // the server needs the player to say who they are
  problem: null, // why the last attempt was refused, in words
  code: null, // ... and its code (tests read it)
  signingIn: false, // the name screen shows the password field
};

let pending = null; // {name} | {name, password} | {transfer}: used by the next hello only
let sent = null; // what the last hello carried: "transfer" | "password" | "name" | "token" | "cookie"

export function hello() {
  const base = { t: "hello", versions: [1] };
  const token = LS.get("token");
  if (pending && pending.transfer) { sent = "transfer"; return { ...base, transfer: pending.transfer }; }
  if (pending && pending.password) { sent = "password"; return { ...base, name: pending.name, password: pending.password }; }
  if (token) { sent = "token"; return { ...base, token }; }
  if (pending && pending.name) { sent = "name"; return { ...base, name: pending.name }; }
  sent = "cookie";
  return base;
}

function retry() {
  const link = app.link;
  if (!link) { app.startLink(); return; }
  link.stopped = false;
  if (link.ws) link.drop(); // reconnects at once with the new hello
  else link.now();
}

// Try again as a new player called `name`.
export function chooseName(name) {
  pending = { name };
  LS.set("token", null);
  app.welcome = null;
  app.identity.problem = null;
  retry();
  update();
}

// Sign in with a name and password (an account made elsewhere).
export function signIn(name, password) {
  pending = { name, password };
  LS.set("token", null);
  app.welcome = null;
  app.identity.problem = null;
  retry();
  update();
}

// Use a "use on another device" link: this browser becomes the player who made it.
export function useTransfer(code) {
  pending = { transfer: code };
  LS.set("token", null);
  app.welcome = null;
  app.identity.problem = null;
  retry();
  update();
}

// Stop being this player on this device (a shared phone): the token and the cookie go,
// and the name screen asks who is here.  The account stays, for its password or a link.
export async function signOutHere() {
  LS.set("token", null);
  LS.set("name", null);
  LS.set("match", null);
  app.welcome = null;
  pending = null;
  try {
    await fetch("/session?clear=1", { credentials: "same-origin", cache: "no-store" });
  } catch (e) { /* offline: the server's cookie stays until the next sign-out */ }
  retry(); // a bare hello with no cookie: the server asks for a name
  update();
}

on("welcome", (m) => {
  const how = sent;
  pending = null;
  sent = null;
  Object.assign(app.identity, { asked: false, problem: null, code: null, signingIn: false });
  // The server keeps the token in an HttpOnly cookie too; this one-time ticket sets it.
  if (m.cookie) {
    fetch(`/session?ticket=${encodeURIComponent(m.cookie)}`, { credentials: "same-origin", cache: "no-store" })
      .catch(() => { /* the next welcome offers another ticket */ });
  }
  if (how === "transfer") { flash(W.UI.name.moved(m.name)); go("#/"); }
  else if (how === "password") flash(W.UI.name.signedIn(m.name));
});

on("error", (m) => {
  if (m.re !== undefined && m.re !== null) return;
  if (!REFUSALS.has(m.code) || (sent === null && m.code !== "signed_out")) return;
  const link = app.link;
  if (m.code === "bad_token" && sent === "token") {
    // The kept token is not this server's any more; the cookie may still be.
    LS.set("token", null);
    return; // the link reconnects by itself, with a bare hello
  }
  if (m.code === "bad_token" || m.code === "signed_out") {
    // The cookie names nobody here (or a signed-out device): drop it.
    fetch("/session?clear=1", { credentials: "same-origin", cache: "no-store" }).catch(() => {});
  }
  if (link) { link.stopped = true; link.drop(); link.setState("signedout"); }
  const wasName = sent === "name" || sent === "password";
  pending = null;
  sent = null;
  LS.set("token", null);
  LS.set("name", null);
  app.welcome = null;
  app.identity.asked = true;
  app.identity.code = m.code;
  app.identity.problem = m.code === "no_identity" ? null : identityWords(m, wasName);
  if (m.code === "wrong_password" || m.code === "too_many_attempts" || m.code === "no_password") app.identity.signingIn = true;
  if (m.code === "not_found") app.identity.signingIn = true;
  // The name screen says it in place; the toast the match model raised would repeat it.
  const toast = document.querySelector("#toast");
  if (toast) toast.hidden = true;
  update();
});

function identityWords(m, wasName) {
  const E = W.ERRORS;
  if (m.code === "not_found") return E.no_such_player;
  if ((m.code === "too_many_attempts" || m.code === "too_many_identities") && m.retry_after) {
    return `${E[m.code]} ${W.UI.name.retryIn(Math.ceil(m.retry_after / 60))}`;
  }
  return E[m.code] || (wasName ? E.bad_name : E.bad_token);
}
