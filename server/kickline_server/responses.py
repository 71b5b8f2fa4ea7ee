"""HTTP responses the server builds itself: one function, so each has one of each header.

websockets' ``conn.respond`` makes a ``text/plain`` response, and its :class:`Headers`
is a multi-map: setting ``Content-Type`` again *adds* a second one (a record download
went out as both ``text/plain`` and ``application/json``, and browsers differ on which
wins).  Every route (players', tournaments', the operator's, the gate's refusals) builds
its answer here instead, with the type and extra headers given up front.
"""

from __future__ import annotations

import email.utils
import http
from collections.abc import Iterable

from websockets.datastructures import Headers
from websockets.http11 import Response

TEXT = "text/plain; charset=utf-8"
JSON = "application/json"


def response(status: int, body: str | bytes = b"", content_type: str = TEXT,
             headers: Iterable[tuple[str, str]] = ()) -> Response:
    """A whole response: ``body`` (text is sent as UTF-8) of ``content_type``, with
    ``Date``, ``Content-Length`` and ``Connection: close`` (each request is its own
    connection here), then ``headers`` (e.g. ``Retry-After``, ``Set-Cookie``), which
    must not repeat those."""
    data = body.encode() if isinstance(body, str) else body
    extra = list(headers)
    fixed = {"date", "connection", "content-length", "content-type"}
    clash = [name for name, _ in extra if name.lower() in fixed]
    if clash:
        raise ValueError(f"{clash[0]} is set by response() itself")
    fields = [("Date", email.utils.formatdate(usegmt=True)), ("Connection", "close")]
    if status not in (204, 304):  # those carry no body, so no length or type either
        fields += [("Content-Length", str(len(data))), ("Content-Type", content_type)]
    elif data:
        raise ValueError(f"a {status} response has no body")
    return Response(status, http.HTTPStatus(status).phrase, Headers([*fields, *extra]), data)
