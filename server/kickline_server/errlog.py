"""Logging failures that a flood can repeat: one line per kind, at most once per interval.

A client can make the server fail the same way thousands of times a second (a frame
that trips a bug, a storm of connects past the file-descriptor limit).  A traceback per
failure turns that into a disk-filling flood (27.7 MB in 5 s, measured), so failures
caused from outside are logged through :class:`Throttled`: one ERROR line naming the
exception and where it was raised, then silence for ``interval`` seconds for that kind,
then one line saying how many were left out.  The full traceback goes to DEBUG, under
the same throttle, for a developer who asks for it.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass


def one_line(exc: BaseException) -> str:
    """``Type: message (at file.py:line in function)``: the innermost frame."""
    text = f"{type(exc).__name__}: {exc}".strip()
    if len(text) > 300:
        text = text[:297] + "..."
    tb = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else None
    if tb:
        last = tb[-1]
        text += f" (at {last.filename.rsplit('/', 1)[-1]}:{last.lineno} in {last.name})"
    return text


@dataclass(slots=True)
class _Kind:
    next_at: float
    dropped: int = 0


class Throttled:
    """Logs each kind of failure at most once per ``interval`` seconds."""

    def __init__(self, logger: logging.Logger, *, interval: float = 10.0,
                 max_kinds: int = 256, clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.interval = interval
        self.max_kinds = max_kinds
        self.clock = clock
        self._kinds: dict[str, _Kind] = {}

    def allow(self, kind: str) -> int | None:
        """``None`` to stay quiet; else how many of this kind were left out before."""
        now = self.clock()
        k = self._kinds.get(kind)
        if k is not None and now < k.next_at:
            k.dropped += 1
            return None
        if k is None and len(self._kinds) >= self.max_kinds:
            # Bounded memory: forget the kinds whose quiet time is over.
            self._kinds = {key: v for key, v in self._kinds.items() if v.next_at > now}
            if len(self._kinds) >= self.max_kinds:
                return None
        dropped = 0 if k is None else k.dropped
        self._kinds[kind] = _Kind(now + self.interval)
        return dropped

    def error(self, kind: str, what: str, exc: BaseException | None = None, *,
              level: int = logging.ERROR) -> None:
        """One line: ``what``, the exception (if any) and how many were left out."""
        dropped = self.allow(kind)
        if dropped is None:
            return
        line = what if exc is None else f"{what}: {one_line(exc)}"
        if dropped:
            line += f" (and {dropped} more like it since the last such line, not logged)"
        self.logger.log(level, "%s", line)
        if exc is not None and self.logger.isEnabledFor(logging.DEBUG):
            self.logger.debug("%s", "".join(traceback.format_exception(exc)))
