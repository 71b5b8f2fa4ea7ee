"""Serving the web client's files: types, cache lifetimes, compression, conditional GETs.

* **Types** come from an explicit table (``application/wasm`` for Pyodide, module
  scripts as ``text/javascript``), never from the host's ``mimetypes`` database.
* **Cache lifetimes**: a file whose path carries a version or a content hash
  (``/build/pyodide/<version>/...``, ``/build/app/<name>-<12 hex>.<ext>``) never changes,
  so browsers may keep it a year (``immutable``).  Everything else is ``no-cache`` with
  an ``ETag``: the browser asks each time and usually gets a bodiless 304.
* **Compression**: a precompressed ``FILE.br`` / ``FILE.gz`` beside the file (written
  at build time by ``tools/build_client.py``) is sent when the browser accepts it;
  other text files are gzipped once and kept in memory.
* Only the client's own files are reachable: ``index.html``, ``sw.js``, ``src/``,
  ``build/``; not ``node_modules/`` or ``package.json``.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from websockets.datastructures import Headers
from websockets.http11 import Response

TYPES: Final[dict[str, str]] = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".map": "application/json",
}
COMPRESSIBLE: Final = (".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".wasm",
                       ".zip", ".py", ".svg", ".txt", ".map")
ALLOWED_TOP: Final = ("index.html", "sw.js", "src", "build")
YEAR: Final = "public, max-age=31536000, immutable"
REVALIDATE: Final = "no-cache"
_VERSIONED = re.compile(r"^build/(?:pyodide/[0-9][0-9A-Za-z.+-]*/|app/[\w.]+-[0-9a-f]{12}\.)")
_MEMO_LIMIT = 64
_memo: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()


@dataclass(frozen=True, slots=True)
class Found:
    path: Path
    rel: str


def resolve(root: Path, url_path: str) -> Found | None:
    """The file a URL path names inside ``root``, or ``None`` (outside, hidden, absent)."""
    rel = url_path.split("?", 1)[0].lstrip("/") or "index.html"
    if "\\" in rel or "\x00" in rel:
        return None
    parts = rel.split("/")
    if parts[0] not in ALLOWED_TOP or any(p in ("", ".", "..") or p.startswith(".")
                                          for p in parts):
        return None
    try:
        base = root.resolve()
        target = (base / rel).resolve()
        target.relative_to(base)
    except (ValueError, OSError):
        return None
    if not target.is_file():
        return None
    return Found(target, rel)


def cache_control(rel: str) -> str:
    return YEAR if _VERSIONED.match(rel) else REVALIDATE


def _accepts(accept_encoding: str) -> set[str]:
    out = set()
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        q = params.strip()
        if q.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            continue
        out.add(name.strip().lower())
    return out


def _gzip_memo(path: Path, size: int, mtime: int) -> bytes:
    key = (str(path), size, mtime)
    data = _memo.get(key)
    if data is None:
        data = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        _memo[key] = data
        while len(_memo) > _MEMO_LIMIT:
            _memo.popitem(last=False)
    else:
        _memo.move_to_end(key)
    return data


def respond(root: Path, url_path: str, request_headers: Headers | None = None) -> Response | None:
    """The response for a GET of ``url_path`` (``None``: not a client file, so 404)."""
    found = resolve(root, url_path)
    if found is None:
        return None
    req = request_headers if request_headers is not None else Headers()
    path = found.path
    suffix = path.suffix.lower()
    ctype = TYPES.get(suffix, "application/octet-stream")
    st = path.stat()
    accepts = _accepts(req.get("Accept-Encoding", ""))
    encoding: str | None = None
    body_path = path
    if suffix in COMPRESSIBLE:
        for enc, ext in (("br", ".br"), ("gzip", ".gz")):
            side = path.with_name(path.name + ext)
            if enc in accepts and side.is_file() and side.stat().st_mtime_ns >= st.st_mtime_ns:
                encoding, body_path = enc, side
                break
    if encoding is None and suffix in COMPRESSIBLE and "gzip" in accepts and st.st_size > 1024:
        encoding = "gzip"
        body = _gzip_memo(path, st.st_size, st.st_mtime_ns)
    else:
        body = body_path.read_bytes()
    tag = hashlib.sha256(f"{found.rel}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:20]
    etag = f'"{tag}{"-" + encoding if encoding else ""}"'
    headers = Headers([
        ("Content-Type", ctype),
        ("Cache-Control", cache_control(found.rel)),
        ("ETag", etag),
        ("X-Content-Type-Options", "nosniff"),
    ])
    if suffix in COMPRESSIBLE:
        headers["Vary"] = "Accept-Encoding"
    if found.rel == "sw.js":
        headers["Service-Worker-Allowed"] = "/"
    inm = req.get("If-None-Match")
    if inm is not None and etag in [t.strip() for t in inm.split(",")]:
        headers["Content-Length"] = "0"
        return Response(304, "Not Modified", headers, b"")
    if encoding:
        headers["Content-Encoding"] = encoding
    headers["Content-Length"] = str(len(body))
    return Response(200, "OK", headers, body)
