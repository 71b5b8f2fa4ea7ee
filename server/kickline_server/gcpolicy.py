"""The server owns the cyclic collector's long pauses: short collections of what is new,
everything older frozen out of them.

CPython's collector pauses the process for as long as it takes to walk every tracked
object of the generation it collects.  With 1 000 live matches a server holds ~100 000
tracked objects (match states, views, connections, tasks) that live for minutes; one
full collection walks them all, ~100 ms of CPU (docs/BENCHMARKS.md), and even the
young collections grew to tens of milliseconds (the young list fills with the objects
replacing old ones, whose deaths keep the young count low).

So a server process (``kickline serve``) runs :func:`keep`: every ``every`` seconds it
collects what is not frozen (the objects made since the last tick and still alive: a
pause bounded by one tick's allocations, not by the number of live matches), then
freezes the survivors (``gc.freeze()``: out of every later collection).  A tick also
comes once ``decisions`` decisions were made since the last one (the match actors call
:func:`decided`): what a tick walks is what the decisions since the last one left alive
(~90 tracked objects a Kickline decision), and a busy event loop runs the timed tick
late, by as long as its backlog (at 1 000 paced matches on a starved core the ticks came
every 0.17-0.3 s instead of 0.1 and walked accordingly more), so counting decisions
bounds the pause however late the loop is.  Objects that
die after being frozen are still freed at once by reference counting; what freezing
delays is only garbage *cycles* made wholly of frozen objects.  Measured under load
(docs/BENCHMARKS.md), the server's cycles are made at the end of a task group (anyio's
``task_done`` keeps a ``CancelledError`` whose traceback holds its own frame): those
are young when made, so the next tick collects them, and what they held (a finished
match's actor and core, a closed connection) is then freed by reference counting even
if it was frozen.  Anything else is swept by a full collection (``gc.unfreeze()``,
collect all, freeze again) every ``full_every`` seconds: the one long pause, rare and
bounded in time between, in exchange for a bound on what frozen cycles can hold.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import anyio


@dataclass(frozen=True, slots=True)
class GcPolicy:
    """How :func:`keep` runs the collector (``kickline serve --gc-every``,
    ``--gc-full-every``)."""

    every: float = 0.1
    """Seconds between the server's own collections of what is not frozen, each
    followed by a freeze.  Shorter: shorter pauses (each walks one tick's surviving
    allocations), a little more CPU (objects that would have died before a later tick
    are walked once)."""
    full_every: float = 3600.0
    """Seconds between full collections (frozen objects included): the safety net for
    garbage cycles among frozen objects.  ``0``: never."""
    decisions: int = 50
    """A tick also comes after this many decisions since the last one (``0``: on time
    only).  At 1 000 decisions a second that is every 0.05 s, ~4 500 objects a tick."""

    def __post_init__(self) -> None:
        if not self.every > 0:
            raise ValueError(f"GcPolicy.every={self.every} must be above 0 seconds")
        if self.decisions < 0:
            raise ValueError(f"GcPolicy.decisions={self.decisions} must be 0 (time only) "
                             "or a number of decisions")
        if self.full_every < 0:
            raise ValueError(f"GcPolicy.full_every={self.full_every} must be 0 (never) "
                             "or a number of seconds")


@dataclass(slots=True)
class GcCounts:
    """What :func:`keep` did (for ``/status`` and the benchmarks)."""

    ticks: int = 0
    by_decisions: int = 0
    """Of the ticks, those that came after ``GcPolicy.decisions`` decisions."""
    full: int = 0
    full_collected: int = 0
    """Objects the full collections found unreachable: frozen garbage cycles, which
    only they can free (zero when nothing the server does leaves such cycles)."""


def collect_and_freeze(full: bool = False) -> int:
    """One tick: collect what is not frozen (``full``: everything, frozen included),
    then freeze the survivors.  Returns the objects found unreachable."""
    if full:
        gc.unfreeze()
    found = gc.collect()
    gc.freeze()
    return found


@dataclass(slots=True)
class _Due:
    """Decisions left before a tick is due.  Process-wide, as the collector is: set by
    the :func:`keep` running, counted down by :func:`decided`."""

    every: int = 0  # 0: no keep() counts decisions
    left: int = 0
    counts: GcCounts | None = None


_due = _Due()


def decided() -> None:
    """A match made a decision: a tick now if ``GcPolicy.decisions`` were made since the
    last one (nothing unless :func:`keep` runs with ``decisions``)."""
    due = _due
    if due.every:
        due.left -= 1
        if due.left <= 0:
            collect_and_freeze()
            due.left = due.every
            if due.counts is not None:
                due.counts.ticks += 1
                due.counts.by_decisions += 1


async def keep(policy: GcPolicy, counts: GcCounts | None = None,
               clock: Callable[[], float] = time.monotonic,
               sleep: Callable[[float], Awaitable[None]] = anyio.sleep) -> None:
    """Run the collector per ``policy`` until cancelled.  The automatic collections stay
    on (a burst between ticks is still collected), and walk only what is not frozen.
    ``clock`` and ``sleep`` are the schedule's (tests step it without waiting)."""
    counts = counts if counts is not None else GcCounts()
    last_full = clock()
    _due.every = _due.left = policy.decisions
    _due.counts = counts
    try:
        while True:
            await sleep(policy.every)
            full = bool(policy.full_every) and clock() - last_full >= policy.full_every
            found = collect_and_freeze(full)
            _due.left = _due.every
            counts.ticks += 1
            if full:
                last_full = clock()
                counts.full += 1
                counts.full_collected += found
    finally:
        if _due.counts is counts:  # (not if another keep() has started since)
            _due.every = _due.left = 0
            _due.counts = None


async def returning(fn: Callable[..., Awaitable[None]], *args: Any) -> None:
    """Run ``fn(*args)`` as a task that its task group ends by cancelling it (a watchdog,
    a timer), and end that task by returning when the cancellation comes, not by raising.

    anyio's ``task_done`` takes a cancelled task's ``CancelledError`` into a local of its
    own frame, a reference cycle (frame, traceback, error).  The cycle is young and the
    next tick frees it, unless a tick ran between the task's end and its ``task_done``
    (two passes of the event loop): the error is then frozen, and only a full collection
    frees the cycle and all it holds (the task's frames, and the connection or match they
    reference).  Ticks every loop pass left one such cycle per closed connection and per
    finished match; a task that returns leaves none (tests/server/test_gcpolicy.py)."""
    try:
        await fn(*args)
    except anyio.get_cancelled_exc_class():
        return
