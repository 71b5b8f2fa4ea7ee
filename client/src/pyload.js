// Starting Python with the rules: shared by the browser worker (worker.js) and the
// build step that finds which stdlib modules the client needs (tools/stdlib_modules.mjs),
// so the trimmed stdlib is measured on exactly the code path the browser runs.

// Install the rules wheel and the preview module, and return the preview's functions.
export async function startRules(pyodide, wheelBytes, previewSource) {
  pyodide.unpackArchive(wheelBytes, "wheel");
  pyodide.FS.mkdirTree("/home/pyodide/client");
  pyodide.FS.writeFile("/home/pyodide/client/kpreview.py", previewSource);
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/client')");
  const mod = pyodide.pyimport("kpreview");
  return {
    legal: (viewJson) => JSON.parse(mod.legal(viewJson)),
    consequence: (viewJson, decision) => JSON.parse(mod.consequence(viewJson, decision)),
    verify: (configJson, seed, logJson, seat, contribJson = "null") => JSON.parse(mod.verify(configJson, seed, logJson, seat, contribJson)),
    odds: (viewJson) => JSON.parse(mod.odds(viewJson)),
    local: (fn, argsJson) => JSON.parse(mod.local(fn, argsJson)),
    hosted: {
      start: (id, config, setup) => JSON.parse(mod.local_new(id, config, setup)),
      decide: (id, decision, plan) => JSON.parse(mod.local_decide(id, decision, plan)),
      jump: (id, changes) => JSON.parse(mod.local_jump(id, changes)),
      log: (id) => JSON.parse(mod.local_log(id)),
    },
  };
}

// A minimal lock file: the client loads no Pyodide packages, so it need not fetch the
// 120 KB package list.  `info` must match the runtime (copied at build time).
export function lockContents(info) {
  return JSON.stringify({ info, packages: {} });
}
