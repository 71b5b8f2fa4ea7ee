"""The embedded store: SQLite from the standard library, one file in the data dir.

The database runs in WAL mode.  With the default ``synchronous=NORMAL`` a commit is
durable when the process dies (``kill -9`` included) but the last commits may be lost
if the machine loses power; ``FULL`` adds an fsync per commit and survives power loss.
Blocking calls run in worker threads, one at a time (a lock guards the connection),
and writes (saves, leases, invite codes) are group-committed: the writes that arrive
while a transaction is being written go together into the next one (each undone alone
if it fails: inside its own savepoint, or, for a save, which refuses before it writes,
by writing the batch again with savepoints should it ever fail later), so many matches
share one commit and one trip to a worker thread.

A save returns only after its transaction committed, and each match's log rows +
snapshot change together, so a ``kill -9`` leaves either the old or the new match
state, never a mix.  One server process owns a data directory (the app holds a lock
file), so leases here only fence a stale actor inside it.

Saves (a match's log entries and snapshot: one per decision) are committed on the event
loop's own thread when nothing else needs it (:attr:`SqliteStore.inline_when`): the first
save of a loop pass yields once, so that the saves the same pass makes join it, then
commits them all in one transaction and wakes them.  With ``synchronous=NORMAL`` a commit
is an append to the WAL (no fsync), ~50 µs of CPU a save, the same CPU the worker thread
spent on this process's one core; what goes is the hop there and back (the batch waited
for a worker, then for a pass of the loop to be told) and, at 1 000 live matches, the
worker's fight with the loop for the GIL (the worker's sqlite calls each give it up, and
each took back waited for the loop's switch interval: commits of 0.9 ms of CPU took up to
0.3 s).  ``FULL`` (an fsync per commit) keeps its commits in the worker thread, and so
does a save that finds the connection busy in a thread.  Durability is unchanged: a save
still returns only after its transaction committed.

WAL checkpoints (copying committed pages into the database file, with an fsync) run in
a thread of their own on a second connection, every ``checkpoint_every`` seconds, in
``PASSIVE`` mode, which never blocks a writer; by default SQLite would run one inside
whichever commit crossed 1 000 pages, so every match in that batch (and the ones
queued behind it) waited for it: tens of ms every second or two at 1 000 live matches.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.lowlevel
import anyio.to_thread

from .accounts import Account
from .migrations import migrate_sqlite
from .ratings import Standing
from .store import (
    Build,
    LeaseLost,
    LogConflict,
    LogGap,
    Purged,
    Quarantined,
    Stored,
    StoreUnavailable,
    TransferState,
    pack,
    unpack,
)

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY, snapshot BLOB NOT NULL, log_len INTEGER NOT NULL,
    finished INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS log (
    match TEXT NOT NULL, idx INTEGER NOT NULL, entry BLOB NOT NULL,
    PRIMARY KEY (match, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS leases (match TEXT PRIMARY KEY, owner TEXT NOT NULL,
    until REAL NOT NULL);
CREATE TABLE IF NOT EXISTS codes (code TEXT PRIMARY KEY, match TEXT NOT NULL);
"""


@dataclass(slots=True)
class _Write:
    """One write waiting for the next group commit."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    result: Any = None
    done: bool = False
    error: Exception | None = None
    checks_first: bool = False
    """``fn`` refuses (``LeaseLost``, ``LogGap``) only before its first write, so it
    needs no savepoint of its own to be undone: a save."""


class _Redo(Exception):
    """A write without a savepoint failed after it had written: the batch is rolled
    back and written again, each write in its savepoint."""


class _Batches:
    """Writes waiting for the next group commit: the first writer to find none being
    written commits every write waiting; the others wait for it, then look again (a
    write that came while a batch was being written goes into the next)."""

    def __init__(self) -> None:
        self.pending: deque[_Write] = deque()
        self.flushing = False
        # Who waits for the batch being written: a bare future each, where an
        # anyio.Event per batch and asyncio's Event.wait (each asks for the running
        # loop: a getpid() on CPython 3.11) cost a save ~2-3 µs more.
        self._waiting: list[asyncio.Future[None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    async def run(self, job: _Write,
                  commit: Callable[[list[_Write]], Awaitable[None]], *,
                  gather: bool = False) -> Any:
        """``job``'s result once a ``commit`` of a batch holding it is done; with
        ``gather``, a committing writer first lets the loop run once, so that the writes
        the same loop pass makes join its batch."""
        self.pending.append(job)
        while not job.done:
            if self.flushing:  # a batch is being written: wait for it, then look again
                assert self._loop is not None  # the writing one's
                written = self._loop.create_future()
                self._waiting.append(written)
                await written  # a cancelled waiter cancels its own future only
                continue
            self.flushing = True
            self._loop = asyncio.get_running_loop()  # once a batch, not once a waiter
            batch: list[_Write] = []
            try:
                if gather:
                    await anyio.lowlevel.cancel_shielded_checkpoint()
                batch = list(self.pending)
                self.pending.clear()
                await commit(batch)
            except BaseException:
                # The commit did not run (cancelled while it waited for a worker thread,
                # say, as a match stops): the other writes it took were not written.
                # They fail, and their writers (waiting below) retry; left undone, each
                # would find its write neither pending nor done and commit empty batches
                # forever, on the loop's thread without a cancellable wait.
                for j in batch:
                    if not j.done:
                        j.error = StoreUnavailable("not written: the group commit it "
                                                   "joined did not run")
                        j.done = True
                raise
            finally:
                self.flushing = False
                waiting, self._waiting = self._waiting, []
                for written in waiting:
                    if not written.done():
                        written.set_result(None)
        if job.error is not None:
            raise job.error
        return job.result


class SqliteStore:
    """:class:`~.store.Store` on one SQLite file."""

    leases_expire = False  # one process per data directory: nobody else can take over

    def __init__(self, path: Path | str, *, synchronous: str = "NORMAL", threads: int = 4,
                 checkpoint_every: float = 1.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        self.clock = clock
        self._limiter = anyio.CapacityLimiter(threads)
        self._lock = threading.Lock()
        self._writes = _Batches()  # group commits in a worker thread
        self._saves = _Batches()  # saves' group commits on the loop's thread
        self.inline_when: Callable[[], bool] | None = (
            (lambda: True) if synchronous in ("OFF", "NORMAL") else None)
        """Saves commit on the event loop's thread while this says so (``None``: never,
        as with ``FULL``, whose commits wait for an fsync).  The server sets it to "no bot
        is thinking in a thread": a thread busy with Python work would make the loop wait
        for the GIL at each of the commit's sqlite calls."""
        self.inline_commits = 0  # commits made on the loop's thread (tests, benchmarks)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError("synchronous must be OFF, NORMAL, FULL or EXTRA")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.executescript(_SCHEMA)
        try:
            self.migrated = migrate_sqlite(self._db)
        except BaseException:
            self._db.close()
            raise
        self.checkpoints = 0  # checkpoints that copied pages (for tests and benchmarks)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if checkpoint_every > 0:
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoints, args=(checkpoint_every, synchronous),
                name="kickline-sqlite-checkpoint", daemon=True)
            self._checkpointer.start()

    def _checkpoints(self, every: float, synchronous: str) -> None:
        """The checkpointer thread: until :meth:`aclose`."""
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute(f"PRAGMA synchronous={synchronous}")
            while not self._stop.wait(every):
                try:
                    _busy, _frames, copied = db.execute(
                        "PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error:
                    continue  # disk trouble: the commits report it; try again later
                if copied > 0:
                    self.checkpoints += 1
        finally:
            db.close()

    def _locked(self, fn: Callable[..., T], *args: Any) -> T:
        with self._lock:
            return fn(*args)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            return await anyio.to_thread.run_sync(self._locked, fn, *args,
                                                  limiter=self._limiter)
        except sqlite3.OperationalError as exc:  # locked, disk full, I/O error
            raise StoreUnavailable(str(exc)) from exc

    def _commit(self, batch: list[_Write]) -> None:
        """Holding the lock (in a worker thread, or on the loop's): one transaction for
        ``batch``.  Each write is undone alone if it fails, so the others commit: inside
        a savepoint of its own, but for saves, which refuse before they write (two
        statements fewer a decision).  Should one fail once it has written (a bug), the
        batch is rolled back and written again with a savepoint for every write."""
        db = self._db
        try:
            try:
                self._transaction(batch, savepoints=False)
            except _Redo:
                db.execute("ROLLBACK")
                for j in batch:
                    j.result = j.error = None
                self._transaction(batch, savepoints=True)
        except sqlite3.Error as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            for j in batch:
                j.error = StoreUnavailable(str(exc))
        finally:
            for j in batch:
                j.done = True

    def _transaction(self, batch: list[_Write], *, savepoints: bool) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        for j in batch:
            if j.checks_first and not savepoints:
                try:
                    j.result = j.fn(*j.args)
                except (LeaseLost, LogGap) as exc:  # refused before writing anything
                    j.error = exc
                except sqlite3.OperationalError:
                    raise  # the disk or the database: the whole batch fails
                except Exception as exc:
                    raise _Redo from exc
                continue
            db.execute("SAVEPOINT one")
            try:
                j.result = j.fn(*j.args)
            except sqlite3.OperationalError:
                raise  # the disk or the database: the whole batch fails
            except Exception as exc:  # this write's refusal (or its build's bug)
                j.error = exc
                db.execute("ROLLBACK TO one")
            db.execute("RELEASE one")
        db.execute("COMMIT")

    async def ping(self) -> None:
        """Answer a trivial query (``/readyz``); :class:`StoreUnavailable` if it cannot."""
        await self._run(lambda: self._db.execute("SELECT 1").fetchone())

    async def migrate(self) -> list[int]:
        # Done on opening (nothing may read the old schema first): report it once.
        applied, self.migrated = self.migrated, []
        return applied

    async def schema_version(self) -> int:
        return await self._run(lambda: int(
            self._db.execute("PRAGMA user_version").fetchone()[0]))

    def _save(self, match_id: str, snapshot: bytes | None, entries: Sequence[bytes],
              start: int, finished: bool, owner: str) -> None:
        db = self._db
        # The lease and the stored log's length in one statement (a save per decision:
        # each statement costs ~5 µs of the server's CPU).
        row = db.execute("SELECT leases.owner, matches.log_len FROM leases LEFT JOIN matches"
                         " ON matches.id = leases.match WHERE leases.match = ?",
                         (match_id,)).fetchone()
        if row is None or row[0] != owner:
            raise LeaseLost(f"{owner} does not hold the lease of {match_id}")
        stored = row[1]
        n = 0 if stored is None else stored
        if n < start:
            raise LogGap(f"log of {match_id} has {n} entries, asked to write at {start}")
        if snapshot is None and stored is None:
            raise LogGap(f"{match_id} has no snapshot yet: its first save needs one")
        # Nothing is refused past here (``_Write.checks_first``).
        if n > start:  # entries written before are written again (none past ``log_len``)
            db.execute("DELETE FROM log WHERE match = ? AND idx >= ?", (match_id, start))
        db.executemany("INSERT INTO log (match, idx, entry) VALUES (?, ?, ?)",
                       [(match_id, start + i, e) for i, e in enumerate(entries)])
        ended = self.clock() if finished else None
        if snapshot is None:
            db.execute("UPDATE matches SET log_len = ?, finished = ?,"
                       " ended = COALESCE(ended, ?) WHERE id = ?",
                       (start + len(entries), int(finished), ended, match_id))
        else:
            db.execute(
                "INSERT INTO matches (id, snapshot, log_len, finished, ended)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET"
                " snapshot = excluded.snapshot, log_len = excluded.log_len,"
                " finished = excluded.finished, ended = COALESCE(matches.ended, excluded.ended)",
                (match_id, snapshot, start + len(entries), int(finished), ended))
        if finished:
            db.execute("INSERT OR IGNORE INTO unrecorded (match) SELECT ? WHERE NOT EXISTS"
                       " (SELECT 1 FROM results WHERE match = ?)", (match_id, match_id))

    async def _write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in the next group commit; its result once committed."""
        result: T = await self._writes.run(_Write(fn, args), self._commit_in_thread)
        return result

    async def _commit_in_thread(self, batch: list[_Write]) -> None:
        await self._run(self._commit, batch)

    async def save(self, match_id: str, snapshot: bytes | None, entries: Sequence[bytes],
                   start: int, *, finished: bool, owner: str) -> None:
        args = (match_id, snapshot, list(entries), start, finished, owner)
        if self.inline_when is None or not self.inline_when():
            await self._writes.run(_Write(self._save, args, checks_first=True),
                                   self._commit_in_thread)
        else:
            await self._saves.run(_Write(self._save, args, checks_first=True),
                                  self._commit_inline, gather=True)

    async def _commit_inline(self, batch: list[_Write]) -> None:
        """Commit on the event loop's thread, unless a thread has the connection."""
        if self._lock.acquire(blocking=False):
            try:
                self._commit(batch)
            finally:
                self._lock.release()
            self.inline_commits += 1
        else:  # a thread has the connection: commit there, after it
            await self._run(self._commit, batch)

    def _load(self, match_id: str) -> Stored | None:
        row = self._db.execute("SELECT snapshot, log_len FROM matches WHERE id = ?",
                               (match_id,)).fetchone()
        if row is None:
            return None
        rows = self._db.execute(
            "SELECT entry FROM log WHERE match = ? AND idx < ? ORDER BY idx",
            (match_id, row[1])).fetchall()
        return Stored(bytes(row[0]), [bytes(r[0]) for r in rows])

    async def load(self, match_id: str) -> Stored | None:
        return await self._run(self._load, match_id)

    def _unfinished(self) -> list[str]:
        rows = self._db.execute("SELECT id FROM matches WHERE finished = 0 ORDER BY id")
        return [r[0] for r in rows.fetchall()]

    async def unfinished(self) -> list[str]:
        return await self._run(self._unfinished)

    def _acquire(self, match_id: str, owner: str, ttl: float) -> bool:
        now = self.clock()
        cur = self._db.execute(
            "INSERT INTO leases (match, owner, until) VALUES (?, ?, ?)"
            " ON CONFLICT (match) DO UPDATE SET owner = excluded.owner, until = excluded.until"
            " WHERE leases.owner = excluded.owner OR leases.until < ?",
            (match_id, owner, now + ttl, now))
        return cur.rowcount == 1

    async def acquire(self, match_id: str, owner: str, ttl: float) -> bool:
        return await self._write(self._acquire, match_id, owner, ttl)

    def _release(self, match_id: str, owner: str) -> None:
        self._db.execute("DELETE FROM leases WHERE match = ? AND owner = ?", (match_id, owner))

    async def release(self, match_id: str, owner: str) -> None:
        await self._write(self._release, match_id, owner)

    def _claim_code(self, code: str, match_id: str) -> bool:
        cur = self._db.execute("INSERT OR IGNORE INTO codes (code, match, at) VALUES (?, ?, ?)",
                               (code, match_id, self.clock()))
        return cur.rowcount == 1

    async def claim_code(self, code: str, match_id: str) -> bool:
        return await self._write(self._claim_code, code, match_id)

    def _find_code(self, code: str) -> str | None:
        row = self._db.execute("SELECT match FROM codes WHERE code = ?", (code,)).fetchone()
        return None if row is None else str(row[0])

    async def find_code(self, code: str) -> str | None:
        return await self._run(self._find_code, code)

    # -- players --

    def _create_account(self, account: Account) -> bool:
        cur = self._db.execute(
            "INSERT OR IGNORE INTO accounts (player, name_key, data) VALUES (?, ?, ?)",
            (account.player, account.key, pack(account.plain())))
        return cur.rowcount == 1

    async def create_account(self, account: Account) -> bool:
        return await self._write(self._create_account, account)

    def _put_account(self, account: Account) -> None:
        self._db.execute("UPDATE accounts SET data = ? WHERE player = ? AND name_key = ?",
                         (pack(account.plain()), account.player, account.key))

    async def put_account(self, account: Account) -> None:
        await self._write(self._put_account, account)

    def _account(self, column: str, value: str) -> Account | None:
        row = self._db.execute(f"SELECT data FROM accounts WHERE {column} = ?",
                               (value,)).fetchone()
        return None if row is None else Account.from_plain(unpack(row[0]))

    async def account(self, player: str) -> Account | None:
        return await self._run(self._account, "player", player)

    async def account_by_name(self, key: str) -> Account | None:
        return await self._run(self._account, "name_key", key)

    def _standings(self, player: str) -> dict[str, Standing]:
        rows = self._db.execute("SELECT mode, data FROM standings WHERE player = ?",
                                (player,)).fetchall()
        return {str(m): Standing.from_plain(unpack(d)) for m, d in rows}

    async def standings(self, player: str) -> dict[str, Standing]:
        return await self._run(self._standings, player)

    def _record(self, match_id: str, mode: str, players: list[str], at: float,
                build: Build) -> tuple[bytes, bool]:
        db = self._db
        row = db.execute("SELECT record FROM results WHERE match = ?", (match_id,)).fetchone()
        if row is not None:
            return bytes(row[0]), False
        current = [self._standings(p).get(mode, Standing()) for p in players]
        record, new = build(current)
        db.execute("INSERT INTO results (match, at, record) VALUES (?, ?, ?)",
                   (match_id, at, record))
        for p, st in zip(players, new, strict=True):
            db.execute("INSERT INTO history (player, at, match) VALUES (?, ?, ?)",
                       (p, at, match_id))
            db.execute("INSERT INTO standings (player, mode, rating, data) VALUES (?, ?, ?, ?)"
                       " ON CONFLICT (player, mode) DO UPDATE SET rating = excluded.rating,"
                       " data = excluded.data", (p, mode, st.rating, pack(st.plain())))
        db.execute("DELETE FROM unrecorded WHERE match = ?", (match_id,))
        return record, True

    async def record_result(self, match_id: str, mode: str, players: Sequence[str],
                            at: float, build: Build) -> tuple[bytes, bool]:
        return await self._write(self._record, match_id, mode, list(players), at, build)

    def _result(self, match_id: str) -> bytes | None:
        row = self._db.execute("SELECT record FROM results WHERE match = ?",
                               (match_id,)).fetchone()
        return None if row is None else bytes(row[0])

    async def result(self, match_id: str) -> bytes | None:
        return await self._run(self._result, match_id)

    def _history(self, player: str, limit: int, before: float | None) -> list[bytes]:
        rows = self._db.execute(
            "SELECT r.record FROM history h JOIN results r ON r.match = h.match"
            " WHERE h.player = ? AND h.at < ? ORDER BY h.at DESC, h.match DESC LIMIT ?",
            (player, float("inf") if before is None else before, limit)).fetchall()
        return [bytes(r[0]) for r in rows]

    async def history(self, player: str, *, limit: int = 20,
                      before: float | None = None) -> list[bytes]:
        return await self._run(self._history, player, limit, before)

    async def unrecorded(self) -> list[str]:
        return await self._run(lambda: [str(r[0]) for r in self._db.execute(
            "SELECT match FROM unrecorded ORDER BY match").fetchall()])

    def _leaderboard(self, mode: str, limit: int) -> list[tuple[str, Standing]]:
        rows = self._db.execute(
            "SELECT player, data FROM standings WHERE mode = ? ORDER BY rating DESC,"
            " player LIMIT ?", (mode, limit)).fetchall()
        return [(str(p), Standing.from_plain(unpack(d))) for p, d in rows]

    async def leaderboard(self, mode: str, *, limit: int) -> list[tuple[str, Standing]]:
        return await self._run(self._leaderboard, mode, limit)

    def _put_transfer(self, code: str, player: str, expires: float) -> None:
        # Forget codes long past their expiry (a day later: a late replay is still told
        # "used" or "expired" rather than "unknown").
        self._db.execute("DELETE FROM transfers WHERE expires < ?", (expires - 2 * 86_400,))
        self._db.execute("INSERT INTO transfers (code, player, expires) VALUES (?, ?, ?)",
                         (code, player, expires))

    async def put_transfer(self, code: str, player: str, expires: float) -> None:
        await self._write(self._put_transfer, code, player, expires)

    def _take_transfer(self, code: str, now: float) -> tuple[TransferState, str | None]:
        row = self._db.execute("SELECT player, expires, used FROM transfers WHERE code = ?",
                               (code,)).fetchone()
        if row is None:
            return "unknown", None
        player, expires, used = row
        if used is not None:
            return "used", None
        if expires < now:
            return "expired", None
        self._db.execute("UPDATE transfers SET used = ? WHERE code = ?", (now, code))
        return "ok", str(player)

    async def take_transfer(self, code: str, now: float) -> tuple[TransferState, str | None]:
        return await self._write(self._take_transfer, code, now)

    # -- tournaments --

    def _create_tournament(self, tid: str, created: float) -> bool:
        cur = self._db.execute("INSERT OR IGNORE INTO tournaments (id, created) VALUES (?, ?)",
                               (tid, created))
        return cur.rowcount == 1

    async def create_tournament(self, tid: str, created: float) -> bool:
        return await self._write(self._create_tournament, tid, created)

    def _append_events(self, tid: str, start: int, events: list[bytes]) -> None:
        db = self._db
        row = db.execute("SELECT events FROM tournaments WHERE id = ?", (tid,)).fetchone()
        n = 0 if row is None else int(row[0])
        if row is None:
            db.execute("INSERT INTO tournaments (id, created) VALUES (?, ?)",
                       (tid, self.clock()))
        if n < start:
            raise LogGap(f"event {tid} has {n} entries, asked to write at {start}")
        if n > start:
            # A retried write of what is there changes nothing; anything else is a
            # conflict (another writer was first).
            there = [bytes(r[0]) for r in db.execute(
                "SELECT event FROM tournament_events WHERE tournament = ? AND idx >= ? "
                "AND idx < ? ORDER BY idx", (tid, start, n))]
            if there != events:
                raise LogConflict(f"event {tid} has {n} entries, asked to write at {start}")
            return
        db.execute("DELETE FROM tournament_events WHERE tournament = ? AND idx >= ?",
                   (tid, start))
        db.executemany("INSERT INTO tournament_events (tournament, idx, event) VALUES (?, ?, ?)",
                       [(tid, start + i, e) for i, e in enumerate(events)])
        db.execute("UPDATE tournaments SET events = ? WHERE id = ?", (start + len(events), tid))

    async def append_events(self, tid: str, start: int, events: Sequence[bytes]) -> None:
        await self._write(self._append_events, tid, start, list(events))

    def _tournament_events(self, tid: str) -> list[bytes]:
        rows = self._db.execute(
            "SELECT e.event FROM tournament_events e JOIN tournaments t ON t.id = e.tournament"
            " WHERE e.tournament = ? AND e.idx < t.events ORDER BY e.idx", (tid,)).fetchall()
        return [bytes(r[0]) for r in rows]

    async def tournament_events(self, tid: str) -> list[bytes]:
        return await self._run(self._tournament_events, tid)

    def _tournament_length(self, tid: str) -> int:
        row = self._db.execute("SELECT events FROM tournaments WHERE id = ?",
                               (tid,)).fetchone()
        return 0 if row is None else int(row[0])

    async def tournament_length(self, tid: str) -> int:
        return await self._run(self._tournament_length, tid)

    def _tournament_ids(self, unfinished: bool) -> list[str]:
        where = " WHERE finished = 0" if unfinished else ""
        rows = self._db.execute(f"SELECT id FROM tournaments{where} ORDER BY created DESC, id")
        return [str(r[0]) for r in rows.fetchall()]

    async def tournament_ids(self, *, unfinished: bool) -> list[str]:
        return await self._run(self._tournament_ids, unfinished)

    def _exec(self, sql: str, *args: Any) -> None:
        self._db.execute(sql, args)

    async def finish_tournament(self, tid: str) -> None:
        await self._write(self._exec, "UPDATE tournaments SET finished = 1 WHERE id = ?", tid)

    def _organisers(self) -> set[str]:
        return {str(r[0]) for r in self._db.execute("SELECT player FROM organisers")}

    async def organisers(self) -> set[str]:
        return await self._run(self._organisers)

    async def grant_organiser(self, player: str) -> None:
        await self._write(self._exec, "INSERT OR IGNORE INTO organisers (player) VALUES (?)",
                          player)

    async def revoke_organiser(self, player: str) -> None:
        await self._write(self._exec, "DELETE FROM organisers WHERE player = ?", player)

    def _count_accounts(self, at_most: int) -> int:
        return int(self._db.execute("SELECT count(*) FROM (SELECT 1 FROM accounts LIMIT ?)",
                                    (at_most,)).fetchone()[0])

    async def count_accounts(self, at_most: int) -> int:
        return await self._run(self._count_accounts, at_most)

    # -- hardening: quarantine and retention --

    def _quarantine(self, match_id: str, reason: str, players: list[str], at: float) -> None:
        self._db.execute("INSERT OR REPLACE INTO quarantine (match, reason, at, players)"
                         " VALUES (?, ?, ?, ?)", (match_id, reason, at, " ".join(players)))
        self._db.execute("UPDATE matches SET finished = 2 WHERE id = ?", (match_id,))
        self._db.execute("DELETE FROM leases WHERE match = ?", (match_id,))

    async def quarantine(self, match_id: str, reason: str, players: Sequence[str],
                         at: float) -> None:
        await self._write(self._quarantine, match_id, reason, list(players), at)

    def _quarantined(self, match_id: str | None) -> list[Quarantined]:
        sql = "SELECT match, reason, at, players FROM quarantine"
        rows = (self._db.execute(sql + " ORDER BY at, match") if match_id is None
                else self._db.execute(sql + " WHERE match = ?", (match_id,)))
        return [Quarantined(m, r, a, tuple(p.split())) for m, r, a, p in rows.fetchall()]

    async def quarantined(self) -> list[Quarantined]:
        return await self._run(self._quarantined, None)

    async def quarantine_of(self, match_id: str) -> Quarantined | None:
        found = await self._run(self._quarantined, match_id)
        return found[0] if found else None

    def _purge(self, logs_before: float, records_before: float | None, codes_before: float,
               now: float, limit: int) -> Purged:
        db = self._db
        ids = [r[0] for r in db.execute(
            "SELECT id FROM matches WHERE finished = 1 AND ended < ?"
            " AND id NOT IN (SELECT match FROM unrecorded) ORDER BY ended LIMIT ?",
            (logs_before, limit)).fetchall()]
        for mid in ids:
            for table, column in (("log", "match"), ("codes", "match"), ("leases", "match"),
                                  ("matches", "id")):
                db.execute(f"DELETE FROM {table} WHERE {column} = ?", (mid,))
        records = 0
        if records_before is not None:
            old = [r[0] for r in db.execute(
                "SELECT match FROM results WHERE at < ? ORDER BY at LIMIT ?",
                (records_before, limit)).fetchall()]
            for mid in old:
                db.execute("DELETE FROM history WHERE match = ?", (mid,))
                db.execute("DELETE FROM results WHERE match = ?", (mid,))
            records = len(old)
        codes = db.execute(
            "DELETE FROM codes WHERE rowid IN (SELECT rowid FROM codes WHERE at < ?"
            " AND match NOT IN (SELECT id FROM matches) LIMIT ?)", (codes_before, limit)
        ).rowcount
        transfers = db.execute("DELETE FROM transfers WHERE expires < ?",
                               (now - 86_400,)).rowcount
        return Purged(len(ids), records, codes, transfers)

    async def purge(self, *, logs_before: float, records_before: float | None,
                    codes_before: float, now: float, limit: int = 500) -> Purged:
        result: Purged = await self._write(self._purge, logs_before, records_before,
                                           codes_before, now, limit)
        return result

    async def aclose(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            await anyio.to_thread.run_sync(self._checkpointer.join)
        await self._run(self._db.close)
