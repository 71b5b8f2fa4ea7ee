#!/usr/bin/env node
// Run a Python script under Pyodide (CPython 3.14, 32-bit WebAssembly) in Node, with the
// kickline rules wheel installed, the way `python script.py ARGS` runs it on CPython:
// stdout and stderr pass straight through and the process exits with the script's code.
//
//   node tools/pyodide_run.mjs [--wheel PATH] [--timings] [--] SCRIPT.py [ARGS...]
//
// Pyodide comes from client/node_modules/pyodide (`npm ci` in client/), never a CDN, so
// this works offline.  Without --wheel, the single kickline wheel in client/build/ (from
// `python tools/build_wheel.py`) is installed.  The script's directory and the current
// directory are mounted at their own paths, so the script can read files beside it and
// relative paths resolve as they would on CPython.  --timings reports on stderr where
// the time went.
//
// Exit codes: the script's own; 1 for an uncaught exception (traceback on stderr);
// 2 when this runner itself cannot start (bad arguments, no Pyodide, no wheel).

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PYODIDE_DIR = path.join(REPO_ROOT, "client", "node_modules", "pyodide");
const WHEEL_DIR = path.join(REPO_ROOT, "client", "build");

// Runs inside Pyodide.  Mirrors what CPython does for `python script.py`: argv, sys.path[0]
// = the script's directory, __main__, SystemExit semantics, and a traceback that starts at
// the script rather than at this bootstrap.
const BOOTSTRAP = `
def _kickline_run(script, argv):
    import os, runpy, sys

    sys.argv = [script, *argv]
    # Pyodide starts with "" (the working directory) on sys.path; \`python script.py\`
    # does not, and keeping it could import kickline from a source tree, not the wheel.
    sys.path[:] = [os.path.dirname(script), *(p for p in sys.path if p)]
    code = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException as exc:
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != script:
            tb = tb.tb_next
        sys.excepthook(type(exc), exc, tb if tb is not None else exc.__traceback__)
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
    # What a POSIX shell would see: sys.exit(256) is 0, sys.exit(-1) is 255.
    return code & 0xFF

_kickline_run
`;

const USAGE = "usage: node tools/pyodide_run.mjs [--wheel PATH] [--timings] [--] SCRIPT.py [ARGS...]";

function usage(message) {
  process.stderr.write(`pyodide_run: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { wheel: null, timings: false, script: null, args: [] };
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      i++;
      break;
    } else if (arg === "--wheel") {
      if (i + 1 >= argv.length) usage("--wheel needs a path");
      opts.wheel = argv[++i];
    } else if (arg.startsWith("--wheel=")) {
      opts.wheel = arg.slice("--wheel=".length);
    } else if (arg === "--timings") {
      opts.timings = true;
    } else if (arg === "-h" || arg === "--help") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (arg.startsWith("-")) {
      usage(`unknown option ${arg}`);
    } else {
      break;
    }
  }
  if (i >= argv.length) usage("no script given");
  opts.script = path.resolve(argv[i]);
  opts.args = argv.slice(i + 1);
  return opts;
}

function defaultWheel() {
  const found = existsSync(WHEEL_DIR)
    ? readdirSync(WHEEL_DIR).filter((f) => /^kickline-.*-py3-none-any\.whl$/.test(f))
    : [];
  if (found.length !== 1) {
    usage(
      found.length === 0
        ? `no kickline wheel in ${WHEEL_DIR}; run: python tools/build_wheel.py`
        : `several kickline wheels in ${WHEEL_DIR}; pass --wheel`,
    );
  }
  return path.join(WHEEL_DIR, found[0]);
}

// Pass raw bytes through synchronously: on Linux, process.stdout/stderr writes to pipes
// and files complete before returning, so nothing is lost when the process exits.
function rawWriter(stream) {
  return {
    write(buffer) {
      stream.write(Buffer.from(buffer)); // copy: Pyodide reuses its buffer
      return buffer.length;
    },
  };
}

// Whether `p` is one of `dirs` or lies inside one of them.
const within = (p, dirs) => dirs.some((d) => p === d || p.startsWith(d + path.sep));

// Make host directories visible inside Pyodide's file system at the same paths.  An
// ancestor mount already covers its descendants (and a second, nested mount onto a
// non-empty directory would fail), so mount the shortest paths first and skip the rest.
function mountHostDirs(pyodide, dirs) {
  const mounted = [];
  for (const dir of [...new Set(dirs)].sort((a, b) => a.length - b.length)) {
    if (within(dir, mounted)) continue;
    try {
      pyodide.mountNodeFS(dir, dir);
      mounted.push(dir);
    } catch {
      // Only possible for a path that already exists non-empty in Pyodide's own file
      // system ("/", "/lib"...); the script is then copied in below instead.
    }
  }
  return mounted;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(opts.script)) usage(`no such script: ${opts.script}`);
  const wheel = path.resolve(opts.wheel ?? defaultWheel());
  if (!existsSync(wheel)) usage(`no such wheel: ${wheel}`);
  const entry = path.join(PYODIDE_DIR, "pyodide.mjs");
  if (!existsSync(entry)) usage(`Pyodide not installed at ${PYODIDE_DIR}; run: make setup`);

  const t0 = performance.now();
  const { loadPyodide } = await import(pathToFileURL(entry).href);
  const pyodide = await loadPyodide({
    indexURL: PYODIDE_DIR + path.sep,
    // Anything Pyodide prints while starting goes to stderr, keeping stdout the script's.
    stdout: (line) => process.stderr.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
    // Forward only what a test may want to pin (PYTHONHASHSEED...), not the whole host env.
    env: Object.fromEntries(
      Object.entries(process.env).filter(([k]) => /^(PYTHON|KICKLINE_)/.test(k)),
    ),
  });
  const t1 = performance.now();
  pyodide.setStdout(rawWriter(process.stdout));
  pyodide.setStderr(rawWriter(process.stderr));

  // A plain Uint8Array view: Pyodide rejects Node's Buffer subclass.  The extract dir
  // must be explicit: unpackArchive defaults to the working directory, not site-packages.
  const wheelBytes = readFileSync(wheel);
  pyodide.unpackArchive(
    new Uint8Array(wheelBytes.buffer, wheelBytes.byteOffset, wheelBytes.byteLength),
    "wheel",
    { extractDir: pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')") },
  );
  const mounted = mountHostDirs(pyodide, [path.dirname(opts.script), process.cwd()]);
  if (!within(opts.script, mounted)) {
    pyodide.FS.mkdirTree(path.dirname(opts.script));
    pyodide.FS.writeFile(opts.script, readFileSync(opts.script));
  }
  if (within(process.cwd(), mounted)) {
    pyodide.FS.chdir(process.cwd());
  }
  // unpackArchive wrote into site-packages behind the import system's back.
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  const t2 = performance.now();

  const run = pyodide.runPython(BOOTSTRAP);
  const code = run(opts.script, pyodide.toPy(opts.args));
  run.destroy();
  const t3 = performance.now();

  if (opts.timings) {
    const ms = (a, b) => `${Math.round(b - a)} ms`;
    process.stderr.write(
      `pyodide_run: loadPyodide ${ms(t0, t1)}, install+mount ${ms(t1, t2)}, ` +
        `script ${ms(t2, t3)}\n`,
    );
  }
  process.exitCode = code;
}

main().catch((err) => {
  process.stderr.write(`pyodide_run: ${err?.stack ?? err}\n`);
  process.exit(2);
});
