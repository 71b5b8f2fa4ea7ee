"""The tournaments' GET routes: exports, the join QR code, the entry-link sheet.

    /tournaments/<id>/event.trf        TRF-16 (tournament/trf.py), for pairing programs
    /tournaments/<id>/standings.csv    standings with the event's tiebreaks
    /tournaments/<id>/standings.json
    /tournaments/<id>/pairings.csv     every round's boards, results, byes, match ids
    /tournaments/<id>/pairings.json    (each match's verifiable record: /record/<match>.json)
    /tournaments/<id>/join.svg         QR code of the event's join link
    /tournaments/<id>/sheet.html       the organiser's printable sheet of entry links (QR)

Everything but the sheet is public, as the event's page is. The sheet holds the entry
links (whoever has one takes that roster line), so it is served only to an organiser,
recognised by the identity cookie the client sets (``/session``).
"""

from __future__ import annotations

import html
import json
from collections.abc import Awaitable, Callable
from http.cookies import SimpleCookie
from typing import Any

import segno
from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from .players import COOKIE
from .responses import response
from .store import StoreError
from .tournament.export import (
    pairings_csv,
    pairings_json,
    standings_csv,
    standings_json,
    trf_text,
)
from .tournaments import Tournaments

PREFIX = "/tournaments/"


def origin(request: Request) -> str:
    """The address the browser used (behind a proxy: its forwarded scheme)."""
    scheme = request.headers.get("X-Forwarded-Proto", "http").split(",")[0].strip()
    host = request.headers.get("Host", "localhost")
    return f"{'https' if scheme == 'https' else 'http'}://{host}"


def join_link(request: Request, tid: str, token: str | None = None) -> str:
    return f"{origin(request)}/#/ej/{tid}" + (f"/{token}" if token else "")


def _cookie(request: Request) -> str | None:
    raw = request.headers.get("Cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # a malformed Cookie header: no identity, not an error
        return None
    morsel = jar.get(COOKIE)
    return None if morsel is None else morsel.value


def _file(body: str, kind: str, name: str | None = None) -> Response:
    headers = [("Cache-Control", "no-cache")]
    if name is not None:
        headers.append(("Content-Disposition", f'attachment; filename="{name}"'))
    return response(200, body, kind, headers)


async def respond(conn: ServerConnection, request: Request, path: str,
                  tournaments: Tournaments, who: Callable[[str], Awaitable[str | None]]
                  ) -> Response:
    """The answer to ``path`` (which starts with :data:`PREFIX`). ``who`` turns a token
    into the player id it proves (``None``: not a token of ours, or signed out)."""
    tid, _, what = path[len(PREFIX):].partition("/")
    if not tid or not all(c.isalnum() for c in tid) or len(tid) > 32:
        return response(404, "no such event\n")
    try:
        host = await tournaments.get(tid)
    except StoreError:
        return response(503, "the server cannot reach its data right now\n")
    if host is None or host.t.settings is None:
        return response(404, "no such event\n")
    t = host.t
    stem = f"kickline-{tid}"
    if what == "event.trf":
        return _file(trf_text(t), "text/plain; charset=ascii", f"{stem}.trf")
    if what == "standings.csv":
        return _file(standings_csv(t), "text/csv; charset=utf-8",
                     f"{stem}-standings.csv")
    if what == "pairings.csv":
        return _file(pairings_csv(t), "text/csv; charset=utf-8", f"{stem}-pairings.csv")
    if what in ("standings.json", "pairings.json"):
        data: Any = standings_json(t) if what == "standings.json" else pairings_json(t)
        return _file(json.dumps(data, separators=(",", ":")) + "\n",
                     "application/json", f"{stem}-{what}")
    if what == "join.svg":
        svg = segno.make(join_link(request, tid), error="m").svg_inline(
            scale=6, border=2, dark="#000", light="#fff")
        return _file(svg, "image/svg+xml")
    if what == "sheet.html":
        token = _cookie(request)
        player = await who(token) if token else None
        if player is None or not await tournaments.is_organiser(player):
            return response(403, "the entry-link sheet is for the event's organisers: "
                                "open it from the event's page while signed in\n")
        return _file(sheet(request, host.t), "text/html; charset=utf-8")
    return response(404, "no such export\n")


def sheet(request: Request, t: Any) -> str:
    """A printable page: one card per unclaimed roster line, its name, QR and link."""
    cards = []
    for e in sorted(t.entries.values(), key=lambda e: e.pid):
        if not e.token:
            continue
        link = join_link(request, t.id, e.token)
        qr = segno.make(link, error="m").svg_inline(scale=4, border=2, dark="#000",
                                                    light="#fff")
        cards.append(f'<div class="card"><h2>{html.escape(e.name)}</h2>{qr}'
                     f'<p>{html.escape(link)}</p></div>')
    name = html.escape(t.s.name)
    body = "".join(cards) or "<p>Every roster line has been claimed.</p>"
    return ("<!doctype html><html lang=en><meta charset=utf-8>"
            f"<title>{name}: entry links</title><style>"
            "body{font:14px system-ui,sans-serif;margin:12mm}"
            ".card{display:inline-block;width:62mm;margin:3mm;padding:3mm;border:1px solid #000;"
            "vertical-align:top;break-inside:avoid;text-align:center}"
            ".card h2{font-size:16px;margin:0 0 2mm}.card p{word-break:break-all;font-size:9px}"
            "</style>"
            f"<h1>{name}</h1><p>Each player scans their own code (or opens the link) "
            "while signed in to take their place in the event.</p>"
            f"{body}</html>")
