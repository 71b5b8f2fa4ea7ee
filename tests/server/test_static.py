"""Static files for the web client: types, cache lifetimes, compression, 304s, confinement."""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from websockets.datastructures import Headers

from kickline_server import static


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><title>k</title>" + "x" * 2000)
    (tmp_path / "sw.js").write_text("self.x = 1;")
    (tmp_path / "src" / "main.js").write_text("export const a = 1;\n" * 200)
    (tmp_path / "src" / "tiny.css").write_text("a{}")
    pyo = tmp_path / "build" / "pyodide" / "314.0.7"
    pyo.mkdir(parents=True)
    (pyo / "pyodide.asm.wasm").write_bytes(b"\0asm" + bytes(5000))
    (pyo / "pyodide.asm.wasm.br").write_bytes(b"BROTLI")
    (pyo / "pyodide.asm.wasm.gz").write_bytes(gzip.compress(b"\0asm" + bytes(5000)))
    app = tmp_path / "build" / "app"
    app.mkdir()
    (app / "kickline-0123456789ab.whl").write_bytes(b"PK" + bytes(100))
    (tmp_path / "build" / "manifest.json").write_text("{}")
    (tmp_path / "node_modules" / "x").mkdir(parents=True)
    (tmp_path / "node_modules" / "x" / "a.js").write_text("secret")
    (tmp_path / "package.json").write_text("{}")
    return tmp_path


def get(root: Path, path: str, **headers: str) -> tuple[int, Headers, bytes]:
    h = Headers([(k.replace("_", "-"), v) for k, v in headers.items()])
    r = anyio.run(static.plan, root, path, h)
    assert r is not None, path

    async def body() -> bytes:
        return b"".join([bytes(c) async for c in r.chunks(7)])  # odd sizes on purpose

    return r.status, r.headers, anyio.run(body)


def test_types_are_explicit(root: Path) -> None:
    assert get(root, "/")[1]["Content-Type"] == "text/html; charset=utf-8"
    assert get(root, "/src/main.js")[1]["Content-Type"] == "text/javascript; charset=utf-8"
    wasm = get(root, "/build/pyodide/314.0.7/pyodide.asm.wasm")[1]
    assert wasm["Content-Type"] == "application/wasm"
    assert get(root, "/build/manifest.json")[1]["Content-Type"] == "application/json"
    assert get(root, "/build/app/kickline-0123456789ab.whl")[1]["Content-Type"] == "application/zip"


def test_versioned_files_are_cached_for_a_year_others_revalidate(root: Path) -> None:
    for path in ("/build/pyodide/314.0.7/pyodide.asm.wasm", "/build/app/kickline-0123456789ab.whl"):
        assert get(root, path)[1]["Cache-Control"] == "public, max-age=31536000, immutable"
    for path in ("/", "/index.html", "/sw.js", "/src/main.js", "/build/manifest.json"):
        assert get(root, path)[1]["Cache-Control"] == "no-cache"


def test_precompressed_brotli_then_gzip_then_identity(root: Path) -> None:
    path = "/build/pyodide/314.0.7/pyodide.asm.wasm"
    status, h, body = get(root, path, Accept_Encoding="gzip, deflate, br")
    assert (status, h["Content-Encoding"], body) == (200, "br", b"BROTLI")
    assert h["Vary"] == "Accept-Encoding"
    _, h, body = get(root, path, Accept_Encoding="gzip, deflate")
    assert h["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == b"\0asm" + bytes(5000)
    _, h, body = get(root, path)
    assert "Content-Encoding" not in h and body == b"\0asm" + bytes(5000)
    assert int(h["Content-Length"]) == len(body)


def test_refused_encoding_is_not_used(root: Path) -> None:
    _, h, _ = get(root, "/build/pyodide/314.0.7/pyodide.asm.wasm", Accept_Encoding="br;q=0, gzip")
    assert h["Content-Encoding"] == "gzip"


def test_stale_precompressed_file_is_ignored(root: Path) -> None:
    wasm = root / "build" / "pyodide" / "314.0.7" / "pyodide.asm.wasm"
    for ext in (".br", ".gz"):
        side = wasm.with_name(wasm.name + ext)
        os.utime(side, ns=(1, 1))
    _, h, body = get(root, "/build/pyodide/314.0.7/pyodide.asm.wasm", Accept_Encoding="br, gzip")
    assert h["Content-Encoding"] == "gzip"  # compressed on the fly instead
    assert gzip.decompress(body) == wasm.read_bytes()


def test_text_is_gzipped_on_the_fly_small_files_are_not(root: Path) -> None:
    _, h, body = get(root, "/src/main.js", Accept_Encoding="gzip")
    assert h["Content-Encoding"] == "gzip"
    assert gzip.decompress(body) == (root / "src" / "main.js").read_bytes()
    _, h, _ = get(root, "/src/tiny.css", Accept_Encoding="gzip")
    assert "Content-Encoding" not in h


def test_etag_gives_304(root: Path) -> None:
    _, h, _ = get(root, "/src/main.js", Accept_Encoding="gzip")
    status, h2, body = get(root, "/src/main.js", Accept_Encoding="gzip", If_None_Match=h["ETag"])
    assert (status, body) == (304, b"")
    assert h2["ETag"] == h["ETag"]
    # The identity and gzip forms have different tags.
    _, plain, _ = get(root, "/src/main.js")
    assert plain["ETag"] != h["ETag"]


@pytest.mark.parametrize("path", [
    "/node_modules/x/a.js", "/package.json", "/../etc/passwd", "/src/../package.json",
    "/src/.hidden", "/nope.html", "/build/", "/src/%2e%2e/package.json", "/src\\main.js",
])
def test_only_client_files_are_served(root: Path, path: str) -> None:
    assert anyio.run(static.plan, root, path, Headers()) is None


def test_symlink_out_of_the_root_is_refused(root: Path,
                                            tmp_path_factory: pytest.TempPathFactory) -> None:
    outside = tmp_path_factory.mktemp("outside") / "x.js"
    outside.write_text("nope")
    (root / "src" / "link.js").symlink_to(outside)
    assert anyio.run(static.plan, root, "/src/link.js", Headers()) is None


def test_query_strings_are_ignored_and_sw_may_control_the_site(root: Path) -> None:
    status, h, _ = get(root, "/sw.js?v=2")
    assert status == 200
    assert h["Service-Worker-Allowed"] == "/"


# --- over the wire: streamed, bounded, cut off ------------------------------------------

BIG = 8 * 1024 * 1024


@pytest.fixture
def big_root(root: Path) -> Path:
    wasm = root / "build" / "pyodide" / "314.0.7" / "big.wasm"
    wasm.write_bytes(os.urandom(1024) * (BIG // 1024))
    return root


async def fetch(port: int, request: bytes) -> bytes:
    stream = await anyio.connect_tcp("127.0.0.1", port)
    async with stream:
        await stream.send(request)
        got = bytearray()
        with anyio.fail_after(30):
            try:
                while True:
                    got += await stream.receive(1 << 20)
            except (anyio.EndOfStream, anyio.BrokenResourceError):
                pass
    return bytes(got)


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


GET_BIG = b"GET /build/pyodide/314.0.7/big.wasm HTTP/1.1\r\nHost: x\r\n\r\n"


@pytest.mark.anyio
async def test_a_large_file_arrives_whole(serve: Any, server_config: Any, big_root: Path
                                          ) -> None:
    async with serve(server_config(client_dir=big_root)) as url:
        got = await fetch(_port(url), GET_BIG)
        head, _, body = got.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200 OK\r\n")
        assert f"Content-Length: {BIG}".encode() in head
        assert body == (big_root / "build" / "pyodide" / "314.0.7" / "big.wasm").read_bytes()
        got = await fetch(_port(url), GET_BIG.replace(b"GET", b"HEAD"))
        head, _, body = got.partition(b"\r\n\r\n")
        assert f"Content-Length: {BIG}".encode() in head and body == b""


@pytest.mark.anyio
async def test_clients_that_never_read_hold_no_copy_of_the_file(
    serve: Any, server_config: Any, big_root: Path
) -> None:
    import tracemalloc

    from kickline_server.budgets import Budgets

    config = server_config(client_dir=big_root, budgets=Budgets.unlimited())
    tracemalloc.start()
    try:
        async with serve(config) as url:
            port = _port(url)
            gate_seen = []
            idle = []
            for _ in range(20):
                s = await anyio.connect_tcp("127.0.0.1", port)
                await s.send(GET_BIG)
                idle.append(s)
            before = tracemalloc.get_traced_memory()[0]
            # Each download is under way (its head sent) and stuck on a client that
            # reads nothing; the server must still answer at once.
            for s in idle:
                gate_seen.append(await s.receive(64))
            healthz = await fetch(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert healthz.startswith(b"HTTP/1.1 200 ")
            held = tracemalloc.get_traced_memory()[0] - before
            for s in idle:
                await s.aclose()
    finally:
        tracemalloc.stop()
    assert all(g.startswith(b"HTTP/1.1 200 OK") for g in gate_seen)
    assert held < 20 * 1024 * 1024 // 4, held  # a whole copy each would be 160 MiB


@pytest.mark.anyio
async def test_a_stalled_download_is_cut_off(serve: Any, server_config: Any, big_root: Path
                                             ) -> None:
    from kickline_server.static import StaticLimits

    config = server_config(client_dir=big_root, static=StaticLimits(stall=0.2))
    async with serve(config) as url:
        s = await anyio.connect_tcp("127.0.0.1", _port(url))
        await s.send(GET_BIG)
        # Read nothing until the server has given up on us.
        for count in (b'"downloads": 1', b'"downloads": 0'):  # started, then cut off
            with anyio.fail_after(10):
                while count not in await fetch(_port(url),
                                               b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"):
                    pass
        got = 0
        with anyio.fail_after(10):
            try:
                while True:
                    got += len(await s.receive(1 << 20))
            except (anyio.EndOfStream, anyio.BrokenResourceError, ConnectionError):
                pass
        await s.aclose()
        assert got < BIG  # the body never completed
