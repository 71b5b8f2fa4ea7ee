"""What an operator asks the server over HTTP, on its own port beside the websocket.

* ``GET /healthz``: liveness, always 200 while the process serves requests.
* ``GET /readyz``: readiness, 200 only while the store answers (pinged every second),
  no match actor is stuck retrying a write, and the server is not draining; else 503
  with the reasons.  A load balancer sends new players only to ready processes.
* ``GET /metrics``: Prometheus text format (:mod:`.metrics`).
* ``GET /status`` (HTML) and ``/status.json``: the operator's status page, behind HTTP
  Basic auth with ``--admin-password`` (user ``admin``); 404 when none is set.

:meth:`Ops.watch` is the one task behind them: it pings the store and sets the gauges,
once a second, so nothing here costs the decision path anything.
"""

from __future__ import annotations

import base64
import contextlib
import gc
import hmac
import html
import json
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.abc import TaskStatus
from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from . import gcpolicy, metrics
from .actor import Stats
from .lobby import Lobby
from .responses import TEXT, response
from .store import Store, StoreError


@dataclass(slots=True)
class Health:
    store_ok: bool = True
    store_error: str | None = None
    store_ms: float | None = None
    draining: bool = False
    starting: bool = False
    """Set while the server resumes its matches (it listens meanwhile)."""
    started: float = field(default_factory=time.time)

    def not_ready(self, stats: Stats) -> list[str]:
        why = []
        if self.starting:
            why.append("starting: resuming the unfinished matches")
        if self.draining:
            why.append("draining: this server is shutting down")
        if not self.store_ok:
            why.append(f"the store does not answer: {self.store_error}")
        if stats.retrying:
            why.append(f"{stats.retrying} matches are retrying a write to the store")
        return why


class Ops:
    """The operator endpoints of one server process."""

    def __init__(self, lobby: Lobby, store: Store, stats: Stats, *, node: str,
                 store_kind: str, admin_password: str | None,
                 connections: Callable[[], int], ping_every: float = 1.0,
                 ping_timeout: float = 2.0,
                 gc_policy: tuple[gcpolicy.GcPolicy, gcpolicy.GcCounts] | None = None
                 ) -> None:
        self.lobby = lobby
        self.store = store
        self.stats = stats
        self.node = node
        self.store_kind = store_kind
        self.admin_password = admin_password
        self.connections = connections
        self.ping_every = ping_every
        self.ping_timeout = ping_timeout
        self.gc_policy = gc_policy
        """The collector's policy and what it did, when the server runs it."""
        self.health = Health()
        self.nodes: Callable[[], Awaitable[list[dict[str, Any]]]] | None = None
        """The processes sharing the store (``cluster.Node.nodes``), if any."""
        self.cluster: list[dict[str, Any]] = []

    async def watch(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        rounds = 0
        while True:
            await self._ping()
            self._gauges()
            if self.nodes is not None and rounds % 5 == 0:
                with contextlib.suppress(Exception):  # best effort: a page, not a check
                    self.cluster = await self.nodes()
            rounds += 1
            await anyio.sleep(self.ping_every)

    async def _ping(self) -> None:
        h = self.health
        t0 = time.perf_counter()
        try:
            with anyio.fail_after(self.ping_timeout):
                await self.store.ping()
        except (StoreError, TimeoutError) as exc:
            h.store_ok, h.store_error, h.store_ms = False, str(exc) or "timed out", None
            return
        h.store_ok, h.store_error = True, None
        h.store_ms = round((time.perf_counter() - t0) * 1000, 2)

    def _gauges(self) -> None:
        lobby = self.lobby
        metrics.LIVE_MATCHES.set(len(lobby.actors))
        metrics.CONNECTIONS.set(self.connections())
        metrics.QUICK_WAITING.set(len(lobby.matchmaker.tickets))
        metrics.INBOX_QUEUED.set(sum(a.queued for a in list(lobby.actors.values())))
        metrics.SEND_QUEUED.set(sum(c.queued for c in list(lobby.conns)))
        metrics.RETRYING.set(self.stats.retrying)

    # -- HTTP --

    def respond(self, conn: ServerConnection, request: Request, path: str) -> Response | None:
        """The answer for an operator path, or ``None`` if ``path`` is not one."""
        if path == "/readyz":
            why = self.health.not_ready(self.stats)
            body = json.dumps({"ready": not why, "why": why}) + "\n"
            return _response(503 if why else 200, body, "application/json")
        if path == "/metrics":
            data, ctype = metrics.exposition()
            return _response(200, data, ctype)
        if path in ("/status", "/status.json"):
            refused = self._refuse(request.headers)
            if refused is not None:
                return refused
            status = self.status()
            if path == "/status.json":
                return _response(200, json.dumps(status, indent=1) + "\n", "application/json")
            return _response(200, _page(status), "text/html; charset=utf-8")
        return None

    def _refuse(self, headers: Headers) -> Response | None:
        if not self.admin_password:
            return _response(404, "the status page needs --admin-password\n")
        given = headers.get("Authorization", "")
        if given.startswith("Basic "):
            try:
                user, _, password = base64.b64decode(given[6:]).decode().partition(":")
            except (ValueError, UnicodeDecodeError):
                user = password = ""
            if user == "admin" and hmac.compare_digest(password.encode(),
                                                       self.admin_password.encode()):
                return None
        return response(401, "the status page is for the server's admin\n", TEXT, [
            ("Cache-Control", "no-store"),
            ("WWW-Authenticate", 'Basic realm="kickline status", charset="UTF-8"')])

    def status(self) -> dict[str, Any]:
        lobby = self.lobby
        by_status: dict[str, int] = {}
        for actor in list(lobby.actors.values()):
            by_status[actor.core.status] = by_status.get(actor.core.status, 0) + 1
        h = self.health
        return {
            "node": self.node, "pid": os.getpid(), "started": round(h.started),
            "uptime_s": round(time.time() - h.started),
            "ready": not h.not_ready(self.stats), "why_not_ready": h.not_ready(self.stats),
            "matches": {"live": len(lobby.actors), **by_status},
            "connections": self.connections(),
            "quick_waiting": len(lobby.matchmaker.tickets),
            "store": {"kind": self.store_kind, "ok": h.store_ok, "ping_ms": h.store_ms,
                      "error": h.store_error, "retrying_matches": self.stats.retrying,
                      "retries": self.stats.retries},
            "processes": {str(n.get("id")): {k: v for k, v in n.items() if k != "id"}
                          for n in self.cluster},
            **({"gc": self._gc()} if self.gc_policy is not None else {}),
        }

    def _gc(self) -> dict[str, Any]:
        """The collector's policy and what it did (``gcpolicy.GcCounts``), and the objects
        frozen now: live ones, and any garbage cycle among them, which only a full
        collection (``--gc-full-every``) frees; against the live matches, a count that
        keeps growing is such garbage.  Counting them walks the frozen list, ~8 ms at
        1 000 live matches: here, on the admin's page, and not in /metrics."""
        assert self.gc_policy is not None
        policy, counts = self.gc_policy
        return {"every_s": policy.every, "decisions": policy.decisions,
                "full_every_s": policy.full_every, "ticks": counts.ticks,
                "ticks_by_decisions": counts.by_decisions, "full": counts.full,
                "full_collected": counts.full_collected,
                "frozen": gc.get_freeze_count()}


def _response(status: int, body: str | bytes, ctype: str = TEXT) -> Response:
    return response(status, body, ctype, [("Cache-Control", "no-store")])


def _page(status: dict[str, Any]) -> str:
    """The status as a plain HTML page (no script: it reads on any phone)."""

    def rows(d: dict[str, Any], prefix: str = "") -> list[str]:
        out = []
        for k, v in d.items():
            if isinstance(v, dict):
                out.extend(rows(v, f"{prefix}{k} "))
            else:
                out.append(f"<tr><th>{html.escape(prefix + str(k))}</th>"
                           f"<td>{html.escape(json.dumps(v))}</td></tr>")
        return out

    body = "\n".join(rows(status))
    return ("<!doctype html><html lang=en><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width'>"
            "<meta http-equiv=refresh content=5><title>Kickline status</title>"
            "<style>body{font:15px system-ui;margin:1em}th{text-align:left;padding-right:1em}"
            "</style><h1>Kickline status</h1><table>\n" + body + "\n</table></html>\n")
