// A small MessagePack codec: the subset the Kickline protocol uses (maps, arrays,
// strings, integers, floats, booleans, nil; bin decodes to Uint8Array).  One file with
// no dependencies keeps the first screen to a handful of requests; the npm codec ships
// as many ES modules.

const te = new TextEncoder();
const td = new TextDecoder();

export function encode(value) {
  const out = [];
  write(out, value);
  return Uint8Array.from(out);
}

function pushBytes(out, bytes) { for (const b of bytes) out.push(b); }
function u16(out, n) { out.push((n >> 8) & 0xff, n & 0xff); }
function u32(out, n) { out.push((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff); }

function write(out, v) {
  if (v === null || v === undefined) { out.push(0xc0); return; }
  if (v === true) { out.push(0xc3); return; }
  if (v === false) { out.push(0xc2); return; }
  if (typeof v === "number") {
    if (Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 32) {
      if (v >= 0) {
        if (v < 128) out.push(v);
        else if (v < 256) out.push(0xcc, v);
        else if (v < 65536) { out.push(0xcd); u16(out, v); }
        else { out.push(0xce); u32(out, v); }
      } else if (v >= -32) out.push(v & 0xff);
      else if (v >= -128) out.push(0xd0, v & 0xff);
      else if (v >= -32768) { out.push(0xd1); u16(out, v & 0xffff); }
      else { out.push(0xd2); u32(out, v >>> 0); }
      return;
    }
    const dv = new DataView(new ArrayBuffer(8));
    dv.setFloat64(0, v);
    out.push(0xcb);
    pushBytes(out, new Uint8Array(dv.buffer));
    return;
  }
  if (typeof v === "string") {
    const b = te.encode(v);
    if (b.length < 32) out.push(0xa0 | b.length);
    else if (b.length < 256) out.push(0xd9, b.length);
    else if (b.length < 65536) { out.push(0xda); u16(out, b.length); }
    else { out.push(0xdb); u32(out, b.length); }
    pushBytes(out, b);
    return;
  }
  if (Array.isArray(v)) {
    if (v.length < 16) out.push(0x90 | v.length);
    else if (v.length < 65536) { out.push(0xdc); u16(out, v.length); }
    else { out.push(0xdd); u32(out, v.length); }
    for (const x of v) write(out, x);
    return;
  }
  if (typeof v === "object") {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    if (keys.length < 16) out.push(0x80 | keys.length);
    else { out.push(0xde); u16(out, keys.length); }
    for (const k of keys) { write(out, k); write(out, v[k]); }
    return;
  }
  throw new TypeError(`msgpack: cannot encode ${typeof v}`);
}

export function decode(buf) {
  const bytes = buf instanceof Uint8Array ? buf : new Uint8Array(buf);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  const str = (n) => { const s = td.decode(bytes.subarray(p, p + n)); p += n; return s; };
  const arr = (n) => { const a = new Array(n); for (let i = 0; i < n; i++) a[i] = read(); return a; };
  const map = (n) => { const o = {}; for (let i = 0; i < n; i++) { const k = read(); o[k] = read(); } return o; };
  const bin = (n) => { const b = bytes.slice(p, p + n); p += n; return b; };
  function read() {
    const b = bytes[p++];
    if (b < 0x80) return b;
    if (b < 0x90) return map(b & 0x0f);
    if (b < 0xa0) return arr(b & 0x0f);
    if (b < 0xc0) return str(b & 0x1f);
    if (b >= 0xe0) return b - 256;
    let v;
    switch (b) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: v = dv.getUint8(p); p += 1; return bin(v);
      case 0xc5: v = dv.getUint16(p); p += 2; return bin(v);
      case 0xc6: v = dv.getUint32(p); p += 4; return bin(v);
      case 0xca: v = dv.getFloat32(p); p += 4; return v;
      case 0xcb: v = dv.getFloat64(p); p += 8; return v;
      case 0xcc: v = dv.getUint8(p); p += 1; return v;
      case 0xcd: v = dv.getUint16(p); p += 2; return v;
      case 0xce: v = dv.getUint32(p); p += 4; return v;
      case 0xcf: v = Number(dv.getBigUint64(p)); p += 8; return v;
      case 0xd0: v = dv.getInt8(p); p += 1; return v;
      case 0xd1: v = dv.getInt16(p); p += 2; return v;
      case 0xd2: v = dv.getInt32(p); p += 4; return v;
      case 0xd3: v = Number(dv.getBigInt64(p)); p += 8; return v;
      case 0xd9: v = dv.getUint8(p); p += 1; return str(v);
      case 0xda: v = dv.getUint16(p); p += 2; return str(v);
      case 0xdb: v = dv.getUint32(p); p += 4; return str(v);
      case 0xdc: v = dv.getUint16(p); p += 2; return arr(v);
      case 0xdd: v = dv.getUint32(p); p += 4; return arr(v);
      case 0xde: v = dv.getUint16(p); p += 2; return map(v);
      case 0xdf: v = dv.getUint32(p); p += 4; return map(v);
      default: throw new Error(`msgpack: unsupported type byte 0x${b.toString(16)}`);
    }
  }
  return read();
}
