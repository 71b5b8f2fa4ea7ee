"""Retention: what the server keeps of finished matches, and the task that purges the rest.

Nothing used to be deleted: every finished match (about 51 KB with its log), every
invite code and every Redis key stayed forever.  Now one background task, owned by the
server's task group, runs :meth:`~.store.Store.purge` every ``every`` seconds:

* a finished match's **snapshot and full log** (what a replay needs) go ``keep_logs``
  after it ended — once the recorder has written its record;
* its **record** (players, result, ratings, date: what histories, profiles and the
  leaderboard show) stays longer: ``keep_records`` (0 keeps records forever);
* **invite codes** go with their match, and a code whose match was never stored goes a
  day after it was made; expired **transfer codes** go a day after they expired;
* **quarantined** matches are never purged (they wait for their operator).

Each pass deletes at most ``batch`` of each kind in one write, so a purge never holds
the store for long; a run repeats passes until one finds less than a batch.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import anyio
from anyio.abc import TaskStatus

from .errlog import Throttled
from .store import Purged, Store, StoreError

log = logging.getLogger(__name__)
_trouble = Throttled(log, interval=3600.0)

DAY = 86_400.0


@dataclass(frozen=True, slots=True)
class Retention:
    keep_logs: float = 90 * DAY
    """Seconds a finished match's snapshot and full log are kept after it ended."""
    keep_records: float = 0.0
    """Seconds a finished match's record is kept (0: forever).  Longer than
    ``keep_logs``, or records would outlive nothing."""
    codes_grace: float = DAY
    """Seconds an invite code whose match was never stored is kept."""
    every: float = 3600.0
    """Seconds between purges."""
    batch: int = 500
    max_passes: int = 200
    """Passes per run at most (a backlog is worked off over several runs)."""


async def purge_once(store: Store, policy: Retention, now: float) -> Purged:
    """One run: passes until a pass purges less than a batch of everything."""
    total = Purged()
    records_before = now - policy.keep_records if policy.keep_records > 0 else None
    for _ in range(policy.max_passes):
        got = await store.purge(logs_before=now - policy.keep_logs,
                                records_before=records_before,
                                codes_before=now - policy.codes_grace, now=now,
                                limit=policy.batch)
        total += got
        if max(got.matches, got.records, got.codes) < policy.batch:
            break
        await anyio.sleep(0)  # let the matches' writes in between passes
    return total


async def run(store: Store, policy: Retention, *, clock: Callable[[], float] = time.time,
              task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
    """The purge task: a first run at start, then one every ``policy.every`` seconds."""
    task_status.started()
    while True:
        try:
            got = await purge_once(store, policy, clock())
        except StoreError as exc:
            _trouble.error("purge", "the retention purge could not reach the store; it "
                           "will try again", exc, level=logging.WARNING)
        else:
            if got.total:
                log.info("retention: purged the logs of %d finished matches, %d records, "
                         "%d invite codes, %d transfer codes", got.matches, got.records,
                         got.codes, got.transfers)
        await anyio.sleep(policy.every)
