"""Serving the web client's files: types, cache lifetimes, compression, conditional GETs,
and bodies streamed from disk with bounded memory.

* **Types** come from an explicit table (``application/wasm`` for Pyodide, module
  scripts as ``text/javascript``), never from the host's ``mimetypes`` database.
* **Cache lifetimes**: a file whose path carries a version or a content hash
  (``/build/pyodide/<version>/...``, ``/build/app/<name>-<12 hex>.<ext>``) never changes,
  so browsers may keep it a year (``immutable``).  Everything else is ``no-cache`` with
  an ``ETag``: the browser asks each time and usually gets a bodiless 304.
* **Compression**: a precompressed ``FILE.br`` / ``FILE.gz`` beside the file (written
  at build time by ``tools/build_client.py``) is sent when the browser accepts it;
  other text files up to ``StaticLimits.memo_file`` are gzipped once (in a worker
  thread) into a cache shared by every request and bounded in total bytes.
* **Bounded memory**: :func:`plan` decides the answer without reading a body;
  :class:`Reply` streams a file from disk in ``chunk``-sized reads, each written only
  once the client has taken the one before (the gate awaits the socket's drain), so
  a client that never reads holds one chunk and a socket buffer, not a 9 MiB copy.
  Reading the whole wasm into memory per request took 40 unread requests from 41 MB
  to 697 MB and stalled the event loop for 1.7 s (the campaign in issue 13).
* Only the client's own files are reachable: ``index.html``, ``sw.js``, ``src/``,
  ``build/``; not ``node_modules/`` or ``package.json``.

A reverse proxy can serve ``client/build/`` (and the rest of ``client/``) itself, with
the same headers; see ``deploy/README.md``.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import anyio
import anyio.to_thread
from websockets.datastructures import Headers

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


@dataclass(frozen=True, slots=True)
class StaticLimits:
    """How static files are served (every field a keyword argument; the timing ones are
    ``kickline serve`` flags)."""

    chunk: int = 64 * 1024
    """Bytes read from disk and written at a time."""
    memo_bytes: int = 8 * 1024 * 1024
    """Total bytes of gzipped files kept in memory, shared by every request."""
    memo_file: int = 1024 * 1024
    """Largest file gzipped on the fly; a larger one without a precompressed sibling is
    sent uncompressed."""
    stall: float = 20.0
    """Seconds a client may take to accept one chunk before it is cut off."""
    min_rate: float = 16 * 1024
    """Bytes per second a download must average, after ``grace`` seconds, or it is cut
    off (a 9 MiB body gets 60 s + 9 MiB / 16 KiB/s ≈ 10 minutes)."""
    grace: float = 60.0


@dataclass(frozen=True, slots=True)
class Found:
    path: Path
    rel: str


@dataclass(frozen=True, slots=True)
class Reply:
    """A static answer: a status line and headers, then ``length`` bytes of body from
    ``data`` (held: a shared cache entry, or empty) or streamed from ``path``."""

    status: int
    reason: str
    headers: Headers
    length: int
    data: bytes = b""
    path: Path | None = None

    def head(self) -> bytes:
        """The status line and headers; the connection closes after the body."""
        lines = [f"HTTP/1.1 {self.status} {self.reason}"]
        lines += [f"{k}: {v}" for k, v in self.headers.raw_items()]
        lines.append("Connection: close")
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    async def chunks(self, size: int) -> AsyncIterator[bytes | memoryview]:
        """The body, ``size`` bytes at a time; a file is read in a worker thread, one
        chunk ahead of nothing (the caller writes each before asking for the next)."""
        if self.path is None:
            view = memoryview(self.data)[: self.length]
            for at in range(0, len(view), size):
                yield view[at:at + size]
            return
        f = await anyio.to_thread.run_sync(self.path.open, "rb")
        try:
            left = self.length
            while left > 0:
                block = await anyio.to_thread.run_sync(f.read, min(size, left))
                if not block:  # the file shrank under us: end, short (the client sees it)
                    return
                left -= len(block)
                yield block
        finally:
            f.close()


class _Memo:
    """Gzipped files shared by every request, bounded in total bytes (LRU)."""

    def __init__(self) -> None:
        self.entries: OrderedDict[tuple[str, int, int], bytes] = OrderedDict()
        self.total = 0

    def get(self, key: tuple[str, int, int]) -> bytes | None:
        data = self.entries.get(key)
        if data is not None:
            self.entries.move_to_end(key)
        return data

    def put(self, key: tuple[str, int, int], data: bytes, limit: int) -> None:
        if key in self.entries or len(data) > limit:
            return
        self.entries[key] = data
        self.total += len(data)
        while self.total > limit:
            _, old = self.entries.popitem(last=False)
            self.total -= len(old)


_memo = _Memo()


def _gzip(path: Path) -> bytes:
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


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


async def plan(root: Path, url_path: str, request_headers: Headers | None = None, *,
               head: bool = False, limits: StaticLimits = StaticLimits()) -> Reply | None:
    """The answer to a GET (or ``head``) of ``url_path`` (``None``: not a client file,
    so 404), without reading the body unless it is gzipped into the shared cache."""
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
    body_path: Path | None = path
    size = st.st_size
    data = b""
    if suffix in COMPRESSIBLE:
        for enc, ext in (("br", ".br"), ("gzip", ".gz")):
            side = path.with_name(path.name + ext)
            if enc in accepts and side.is_file():
                side_st = side.stat()
                if side_st.st_mtime_ns >= st.st_mtime_ns:
                    encoding, body_path, size = enc, side, side_st.st_size
                    break
        if (encoding is None and "gzip" in accepts and 1024 < st.st_size <= limits.memo_file):
            key = (str(path), st.st_size, st.st_mtime_ns)
            zipped = _memo.get(key)
            if zipped is None:
                zipped = await anyio.to_thread.run_sync(_gzip, path)
                _memo.put(key, zipped, limits.memo_bytes)
            encoding, body_path, size, data = "gzip", None, len(zipped), zipped
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
        return Reply(304, "Not Modified", headers, 0)
    if encoding:
        headers["Content-Encoding"] = encoding
    headers["Content-Length"] = str(size)
    if head:
        return Reply(200, "OK", headers, 0)
    return Reply(200, "OK", headers, size, data, body_path)
