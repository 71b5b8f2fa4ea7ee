#!/usr/bin/env node
// Write FILE.br beside each FILE (Node's built-in brotli), skipping files whose .br is
// newer and was made at the requested quality or better.  Called by
// tools/build_client.py; Python's stdlib has no brotli.
//
// Quality comes from KICKLINE_BR_QUALITY (default 11, the best).  Quality 11 costs about
// two minutes on the 9.6 MB wasm, once, and saves ~350 KB over quality 9; the test
// fixtures ask for a fast quality when nothing is built yet.
import { readFileSync, writeFileSync, statSync, existsSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

const quality = Number(process.env.KICKLINE_BR_QUALITY || 11);
for (const file of process.argv.slice(2)) {
  const out = file + ".br";
  const stamp = out + ".quality";
  const had = existsSync(stamp) ? Number(readFileSync(stamp, "utf8")) : 0;
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(file).mtimeMs && had >= quality) continue;
  const data = readFileSync(file);
  const br = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  writeFileSync(out, br);
  writeFileSync(stamp, String(quality));
}
