// View patches (protocol 2, docs/PROTOCOL.md): a patch is a list of [path, value]
// pairs; each sets the value at the path (map keys and list indexes from the root).
// applyPatch returns a new view and leaves the held one as it was: only the maps and
// lists on the patched paths are copied.  The server's twin is
// server/kickline_server/patch.py.

export function applyPatch(view, ops) {
  const out = { ...view };
  const copied = new Set([out]);
  for (const [path, value] of ops) {
    let node = out;
    for (let i = 0; i < path.length - 1; i++) {
      let child = node[path[i]];
      if (!copied.has(child)) {
        child = Array.isArray(child) ? child.slice() : { ...child };
        copied.add(child);
        node[path[i]] = child;
      }
      node = child;
    }
    node[path[path.length - 1]] = value;
  }
  return out;
}

// A protocol-2 client's prompts: each patched prompt is turned back into a whole one
// (view and every field), from the last whole prompt kept per match.  assemble returns
// null when the patch is of a view this client does not hold: ask again for the whole
// one (open the match with since = the last prompt's next).
export class Prompts {
  constructor() { this.last = new Map(); }

  assemble(msg) {
    if (msg.patch === undefined) {
      this.last.set(msg.match, msg);
      return msg;
    }
    const held = this.last.get(msg.match);
    if (!held || !held.view || held.version !== msg.base) return null;
    const whole = { ...held, ...msg, view: applyPatch(held.view, msg.patch) };
    delete whole.base;
    delete whole.patch;
    this.last.set(msg.match, whole);
    return whole;
  }

  // The events index to reopen a match from: the next of its last whole prompt.
  since(match) { return this.last.get(match)?.next ?? 0; }

  // The connection is gone: the next prompts of every match start whole again.
  forget() { this.last.clear(); }
}
