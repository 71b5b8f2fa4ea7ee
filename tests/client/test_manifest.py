"""The client is installable: its web app manifest is linked from the page, served with
its type, asks for standalone display, and every icon it names exists at the size it
claims (a phone that finds one missing or mis-sized shows no home-screen icon)."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import anyio
from websockets.datastructures import Headers

from kickline_server import static

CLIENT = Path(__file__).resolve().parents[2] / "client"


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


def test_the_manifest_makes_the_client_installable() -> None:
    page = (CLIENT / "index.html").read_text()
    link = re.search(r'<link rel="manifest" href="([^"]+)"', page)
    assert link, "index.html links no manifest"
    served = anyio.run(static.plan, CLIENT, link.group(1), Headers())
    assert served is not None and served.status == 200
    assert served.headers["Content-Type"].startswith("application/manifest+json")
    man = json.loads((CLIENT / link.group(1).lstrip("/")).read_text())
    assert man["display"] == "standalone" and man["start_url"] == "/" and man["name"]
    purposes = set()
    for icon in man["icons"]:
        w, h = (int(x) for x in icon["sizes"].split("x"))
        assert png_size(CLIENT / icon["src"].lstrip("/")) == (w, h), icon
        purposes.add(icon.get("purpose", "any"))
    sizes = {icon["sizes"] for icon in man["icons"]}
    assert {"192x192", "512x512"} <= sizes and "maskable" in purposes
