"""The server's log lines: text for a terminal, JSON (``--log-format json``) for a
collector, with the match, player and tournament a line is about.

Those ids come from context variables, set where the work happens (an actor sets
``MATCH`` for its whole task; a connection sets ``PLAYER`` once it said hello; the
tournament package sets ``TOURNAMENT``), so a log call anywhere below them carries
them without passing anything: ``log.warning("store unavailable")`` inside an actor
comes out with ``"match": "..."``.  The cost is paid only when a line is written.
"""

from __future__ import annotations

import logging
import sys
from contextvars import ContextVar
from typing import Any, Final

from pythonjsonlogger.json import JsonFormatter

MATCH: ContextVar[str | None] = ContextVar("kickline_match", default=None)
PLAYER: ContextVar[str | None] = ContextVar("kickline_player", default=None)
TOURNAMENT: ContextVar[str | None] = ContextVar("kickline_tournament", default=None)

FORMATS: Final = ("text", "json")
TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s%(ids)s"


class ContextIds(logging.Filter):
    """Copies the context's ids onto each record (``match``, ``player``, ``tournament``,
    unless the call gave them) and a text suffix ``ids`` for the text format."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = []
        for name, var in (("match", MATCH), ("player", PLAYER), ("tournament", TOURNAMENT)):
            value = getattr(record, name, None) or var.get()
            setattr(record, name, value)
            if value is not None:
                text.append(f"{name}={value}")
        record.ids = f" [{' '.join(text)}]" if text else ""
        return True


class _Json(JsonFormatter):
    def add_fields(self, log_record: dict[str, Any], record: logging.LogRecord,
                   message_dict: dict[str, Any]) -> None:
        super().add_fields(log_record, record, message_dict)
        log_record.pop("ids", None)
        for name in ("match", "player", "tournament"):
            if log_record.get(name) is None:
                log_record.pop(name, None)


def setup(level: str = "INFO", fmt: str = "text") -> None:
    """Configure the root logger once, for a server process: one handler on stderr."""
    if fmt not in FORMATS:
        raise ValueError(f"log format is one of {', '.join(FORMATS)}")
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(ContextIds())
    if fmt == "json":
        handler.setFormatter(_Json(
            "%(asctime)s %(levelname)s %(name)s %(message)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
            timestamp=False))
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
