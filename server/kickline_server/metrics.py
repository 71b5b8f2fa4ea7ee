"""The server's Prometheus metrics (``GET /metrics``, text format).

Counters and histograms are updated where things happen, at a cost of about a
microsecond each (``bench/metrics_cost.py`` measures it against a decision's ~1 ms);
gauges (live matches, connections, queue sizes) are set once a second by
:func:`~.app` from the server's own state, never on the hot path.

With ``--workers N`` the worker processes share ``PROMETHEUS_MULTIPROC_DIR`` (set by
the parent before any worker imports this module), so whichever worker answers a
scrape reports the sum over all of them (gauges: ``livesum``).
"""

from __future__ import annotations

import os
from typing import Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

MULTIPROCESS: Final = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

_LATENCY_BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                           1.0, 2.5, 5.0)

DECISIONS = Counter("kickline_decisions", "Decisions handled by the match actors "
                    "(applied or refused); rate() gives decisions per second")
DECISION_SECONDS = Histogram(
    "kickline_decision_seconds",
    "A decision's round trip inside the server: from reaching its match's inbox to its "
    "answer queued for the sender (including the durable write)",
    buckets=_LATENCY_BUCKETS)
PERSIST_SECONDS = Histogram("kickline_persist_seconds",
                            "One durable write of a match's snapshot and log entries",
                            buckets=_LATENCY_BUCKETS)
ERRORS = Counter("kickline_errors", "Error messages sent to clients, by code", ["code"])
FINISHED = Counter("kickline_matches_finished", "Matches finished, by reason (anything but "
                   "'played' is a forfeit, a resignation or a cancellation)", ["reason"])
STORE_RETRIES = Counter("kickline_store_retries",
                        "Durable writes retried because the store could not be reached")
LEASES_LOST = Counter("kickline_leases_lost",
                      "Matches this process stopped running because another took the lease")
ADOPTED = Counter("kickline_matches_adopted",
                  "Unfinished matches this process took over (at start, or from a process "
                  "that went away)")
ROUTED = Counter("kickline_routed_messages", "Messages passed between server processes "
                 "through Redis, by direction", ["direction"])



def _gauge(name: str, text: str) -> Gauge:
    # livesum: in multiprocess mode, the sum over the workers alive (ignored otherwise).
    return Gauge(name, text, multiprocess_mode="livesum")


LIVE_MATCHES = _gauge("kickline_live_matches", "Matches running in this process")
CONNECTIONS = _gauge("kickline_connections", "Open websocket connections")
QUICK_WAITING = _gauge("kickline_quick_waiting", "Players waiting for a quick match here")
INBOX_QUEUED = _gauge("kickline_inbox_queued", "Commands waiting in the actors' inboxes")
SEND_QUEUED = _gauge("kickline_send_queued", "Messages waiting in the send queues")
RETRYING = _gauge("kickline_actors_retrying",
                  "Match actors whose durable write is failing right now")

def error(code: str) -> None:
    ERRORS.labels(code).inc()


def exposition() -> tuple[bytes, str]:
    """The metrics page (body, content type): this process's metrics, or every worker's
    summed in multiprocess mode."""
    if MULTIPROCESS:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST
