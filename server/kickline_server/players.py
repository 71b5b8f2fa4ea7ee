"""The players' desk: who a connection is, and everything about accounts.

:meth:`Players.hello` turns a ``hello`` into an account (see ``docs/PROTOCOL.md``,
Identity): a token; a one-time transfer code; a name and password; a name alone (a new
account); or nothing, when the browser sent our HttpOnly cookie with the websocket
upgrade.  The other messages here are the account's own: ``profile``, ``history``,
``leaderboard``, ``set_password``, ``transfer`` (a one-time link and its QR code),
``signout_everywhere``.

**The cookie.**  The server speaks websocket and answers only GETs, so the cookie is
set by ``GET /session?ticket=...``: ``welcome.cookie`` carries a ticket (signed,
single use, valid for :attr:`PlayerLimits.ticket_ttl` seconds) and the page fetches that
URL once; the answer sets ``kickline_token`` (HttpOnly, SameSite=Lax, Path=/, a year,
``Secure`` when the page came over TLS).  The ticket, not the token, is what appears in a
URL, and it is worth nothing once used or a minute old.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any, Final

import anyio.to_thread
import segno

from .accounts import (
    Account,
    AccountError,
    Attempts,
    check_name,
    check_password,
    hash_password,
    name_key,
    new_player_id,
    verify_password,
)
from .identity import Claim, Tokens, _b64, _unb64
from .protocol import BadRequest, Code, Message
from .ratings import POLICY
from .results import Record
from .store import Store, unpack
from .transport import Connection

log = logging.getLogger(__name__)

COOKIE: Final = "kickline_token"
MODES: Final = ("training", "standard", "advanced")


@dataclass(frozen=True, slots=True)
class PlayerLimits:
    password_tries: int = 5
    """Wrong passwords per account within ``password_window``."""
    address_tries: int = 20
    """Wrong passwords per address within ``password_window``."""
    password_window: float = 900.0
    transfer_ttl: float = 600.0
    ticket_ttl: float = 60.0
    history_page: int = 20
    leaderboard_size: int = 100
    leaderboard_active: float = 90 * 86_400.0
    """Seconds since a player's last rated match for them to stay on the leaderboard."""


class Players:
    """Accounts, identities and profiles (see the module docstring)."""

    def __init__(self, store: Store, tokens: Tokens, *, limits: PlayerLimits = PlayerLimits(),
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.tokens = tokens
        self.limits = limits
        self.clock = clock
        self.by_account = Attempts(limit=limits.password_tries, window=limits.password_window)
        self.by_address = Attempts(limit=limits.address_tries, window=limits.password_window)
        self._tickets_used: OrderedDict[str, float] = OrderedDict()
        self.on_register: Callable[[str], Awaitable[None]] | None = None
        """Told each new account's player id (tournaments: the first one organises)."""

    # -- hello ----------------------------------------------------------------------

    async def hello(self, conn: Connection, msg: Message) -> tuple[Account, str]:
        """The account a ``hello`` proves and a fresh token for it; raises
        :class:`AccountError` (nothing changed) when it proves none."""
        if "token" in msg:
            return await self._by_token(msg["token"])
        if "transfer" in msg:
            return await self._by_transfer(msg["transfer"])
        if "name" in msg and "password" in msg:
            return await self._sign_in(msg["name"], msg["password"], address_of(conn))
        if "name" in msg:
            return await self._register(msg["name"])
        cookie = cookie_token(conn)
        if cookie is not None:
            return await self._by_token(cookie)
        raise AccountError(Code.NO_IDENTITY, "say who you are: a name for a new player, or "
                           "a name and password, or a transfer link")

    async def _by_token(self, token: str) -> tuple[Account, str]:
        claim = self.tokens.verify(token)
        if claim is None:
            legacy = self.tokens.legacy(token)
            if legacy is None:
                raise AccountError(Code.BAD_TOKEN, "this token was not issued by this "
                                   "server; say hello with a name instead")
            claim = Claim(legacy.player, 0, "")
            account: Account | None = (await self.store.account(legacy.player)
                                       or await self._adopt(legacy))
        else:
            account = await self.store.account(claim.player)
        if account is None:
            raise AccountError(Code.BAD_TOKEN, "this token's player is not known here; say "
                               "hello with a name instead")
        if claim.epoch != account.epoch:
            raise AccountError(Code.SIGNED_OUT, "this device was signed out (sign out "
                               "everywhere); sign in with your password or a transfer link")
        return account, self.tokens.sign(account.player, account.epoch)

    async def _adopt(self, legacy: Any) -> Account:
        """An account for a player of the release before accounts: same player id, so
        their matches stay theirs; their old name if it is free and allowed."""
        try:
            wanted = check_name(legacy.name)
        except AccountError:
            wanted = "Player"
        suffix = ""
        for _ in range(20):
            name = (wanted[: 20 - len(suffix)] + suffix).strip()
            account = Account(legacy.player, name, self.clock(), legacy=True)
            if await self.store.create_account(account):
                log.info("made an account for a player from before accounts: %s", name)
                return account
            existing = await self.store.account(legacy.player)
            if existing is not None:
                return existing
            suffix = " " + secrets.token_hex(2)
        raise AccountError(Code.INTERNAL, "could not find a free name; say hello with one")

    async def _by_transfer(self, code: str) -> tuple[Account, str]:
        state, player = await self.store.take_transfer(_digest(code), self.clock())
        if state == "used":
            raise AccountError(Code.TRANSFER_USED, "this link was already used; make a new "
                               "one on the device where you are signed in")
        if state == "expired":
            raise AccountError(Code.TRANSFER_EXPIRED, "this link has expired; make a new one "
                               "on the device where you are signed in")
        account = None if player is None else await self.store.account(player)
        if account is None:
            raise AccountError(Code.TRANSFER_UNKNOWN, "this is not a transfer link of this "
                               "server")
        log.info("an identity moved to another device by a transfer link")
        return account, self.tokens.sign(account.player, account.epoch)

    async def _register(self, raw_name: str) -> tuple[Account, str]:
        name = check_name(raw_name)
        if await self.store.account_by_name(name_key(name)) is not None:
            raise _taken(name)
        account = Account(new_player_id(), name, self.clock())
        if not await self.store.create_account(account):
            raise _taken(name)
        if self.on_register is not None:
            await self.on_register(account.player)
        return account, self.tokens.sign(account.player, account.epoch)

    async def _sign_in(self, raw_name: str, password: str, address: str) -> tuple[Account, str]:
        now = self.clock()
        self.by_address.check(address, now)
        account = await self.store.account_by_name(name_key(raw_name))
        if account is None:
            raise AccountError(Code.NOT_FOUND, f"there is no player called {raw_name!r} here")
        self.by_account.check(account.player, now)
        if account.password is None:
            raise AccountError(Code.NO_PASSWORD, "this player has no password; use a "
                               "transfer link from a device where you are signed in")
        ok = await anyio.to_thread.run_sync(verify_password, password, account.password)
        if not ok:
            self.by_account.failed(account.player, now)
            self.by_address.failed(address, now)
            raise AccountError(Code.WRONG_PASSWORD, "wrong password")
        self.by_account.succeeded(account.player)
        return account, self.tokens.sign(account.player, account.epoch)

    # -- the cookie ---------------------------------------------------------------------

    def ticket(self, account: Account) -> str:
        """A single-use ticket for ``GET /session`` (see the module docstring)."""
        payload = _b64(json.dumps({"p": account.player, "e": account.epoch,
                                   "x": self.clock() + self.limits.ticket_ttl,
                                   "n": secrets.token_hex(6)},
                                  separators=(",", ":")).encode())
        key = self.tokens.ring.keys[self.tokens.ring.current]
        mac = _b64(hmac.new(key, f"t1.{payload}".encode(), hashlib.sha256).digest())
        return f"t1.{payload}.{mac}"

    def redeem_ticket(self, ticket: str) -> str | None:
        """The token a ticket stands for, once; ``None`` if forged, stale or used."""
        parts = ticket.split(".")
        if len(ticket) > 512 or len(parts) != 3 or parts[0] != "t1":
            return None
        key = self.tokens.ring.keys[self.tokens.ring.current]
        want = _b64(hmac.new(key, f"t1.{parts[1]}".encode(), hashlib.sha256).digest())
        if not hmac.compare_digest(want, parts[2]):
            return None
        try:
            data = json.loads(_unb64(parts[1]))
            player, epoch, expires = str(data["p"]), int(data["e"]), float(data["x"])
        except (ValueError, KeyError, TypeError):
            return None
        now = self.clock()
        while self._tickets_used and next(iter(self._tickets_used.values())) < now:
            self._tickets_used.popitem(last=False)
        if expires < now or ticket in self._tickets_used:
            return None
        self._tickets_used[ticket] = expires
        return self.tokens.sign(player, epoch)

    # -- account messages -------------------------------------------------------------

    async def set_password(self, conn: Connection, msg: Message) -> Message:
        account = await self._mine(conn)
        if account.password is not None:
            old = msg.get("old")
            now = self.clock()
            self.by_account.check(account.player, now)
            self.by_address.check(address_of(conn), now)
            if old is None or not await anyio.to_thread.run_sync(
                    verify_password, old, account.password):
                self.by_account.failed(account.player, now)
                self.by_address.failed(address_of(conn), now)
                raise BadRequest(Code.WRONG_PASSWORD, "to change your password, give the "
                                 "current one as 'old'", msg["id"])
        new = msg.get("password")
        if new is None:
            hashed = None
        else:
            try:
                check_password(new)
            except AccountError as exc:
                raise BadRequest(exc.code, exc.message, msg["id"]) from exc
            hashed = await anyio.to_thread.run_sync(hash_password, new)
        await self.store.put_account(account.with_password(hashed))
        return {"t": "ack", "re": msg["id"], "has_password": hashed is not None}

    async def transfer(self, conn: Connection, msg: Message) -> Message:
        """A one-time link that signs another device in as this player, and its QR."""
        account = await self._mine(conn)
        origin = str(msg.get("origin", ""))
        if not origin.startswith(("http://", "https://")) or len(origin) > 200 or any(
                c in origin for c in " #?\"'<>"):
            raise BadRequest(Code.BAD_FIELD, "transfer: 'origin' is the page's origin, "
                             "like https://example.org", msg["id"])
        code = secrets.token_urlsafe(16)
        expires = self.clock() + self.limits.transfer_ttl
        await self.store.put_transfer(_digest(code), account.player, expires)
        link = f"{origin.rstrip('/')}/#/transfer/{code}"
        code_image = segno.make(link, error="m")
        style: dict[str, Any] = {"scale": 4, "border": 2, "dark": "#000", "light": "#fff"}
        return {"t": "ack", "re": msg["id"], "link": link, "expires": expires,
                "qr": code_image.svg_inline(**style),
                # The same as an image URL: a page shows it in an <img>, no markup.
                "qr_uri": code_image.svg_data_uri(**style)}

    async def signout_everywhere(self, conn: Connection, msg: Message) -> tuple[Account, str]:
        """Bump the account's epoch: every token issued before stops working.  Returns
        the account and a fresh token for this connection."""
        account = (await self._mine(conn)).signed_out_everywhere()
        await self.store.put_account(account)
        return account, self.tokens.sign(account.player, account.epoch)

    async def _mine(self, conn: Connection) -> Account:
        assert conn.player is not None
        account = await self.store.account(conn.player)
        if account is None:  # deleted under us: the connection's identity is gone
            raise BadRequest(Code.BAD_TOKEN, "your account is not known here")
        return account

    # -- profiles -----------------------------------------------------------------------

    async def find(self, msg: Message, default: str | None) -> Account:
        """The account a message names (``player`` id or ``name``), else ``default``'s."""
        if "player" in msg:
            found = await self.store.account(msg["player"]) if len(msg["player"]) <= 64 else None
        elif "name" in msg:
            found = await self.store.account_by_name(name_key(msg["name"]))
        else:
            found = None if default is None else await self.store.account(default)
        if found is None:
            raise BadRequest(Code.NOT_FOUND, "no such player here", msg["id"])
        return found

    async def profile(self, conn: Connection, msg: Message) -> Message:
        account = await self.find(msg, conn.player)
        now = self.clock()
        standings = await self.store.standings(account.player)
        raws = await self.store.history(account.player, limit=100)
        records = [Record(unpack(r)) for r in raws]
        entries = [e for e in (r.entry_for(account.player) for r in records) if e]
        ratings = {}
        for mode in sorted(set(MODES) | set(standings)):
            st = standings.get(mode)
            if st is None:
                continue
            rd = st.current_rd(now)
            ratings[mode] = {
                "rating": round(st.rating, 2), "rd": round(rd, 2),
                "provisional": rd > POLICY.provisional_rd, "rated": st.rated,
                "wins": st.wins, "draws": st.draws, "losses": st.losses,
                "history": [[e["at"], e["rating"]] for e in reversed(entries)
                            if e["mode"] == mode and e["rating"] is not None],
            }
        totals = {k: sum(st.__getattribute__(k) for st in standings.values())
                  for k in ("wins", "draws", "losses")}
        opponents: list[dict[str, Any]] = []
        for e in entries:
            opp = e["opponent"]
            if opp and opp["player"] and opp["player"] not in {o["player"] for o in opponents}:
                opponents.append({"player": opp["player"], "name": opp["name"]})
        me = conn.player == account.player
        return {"t": "ack", "re": msg["id"], "player": account.player, "name": account.name,
                "created": account.created, "me": me,
                "has_password": account.password is not None if me else None,
                "ratings": ratings, "totals": totals,
                "recent": entries[: self.limits.history_page],
                "opponents": opponents[:10]}

    async def history(self, conn: Connection, msg: Message) -> Message:
        account = await self.find(msg, conn.player)
        limit = min(int(msg.get("limit", self.limits.history_page)), 100)
        before = msg.get("before")
        raws = await self.store.history(account.player, limit=limit,
                                        before=None if before is None else float(before))
        entries = [Record(unpack(r)).entry_for(account.player) for r in raws]
        return {"t": "ack", "re": msg["id"], "player": account.player, "name": account.name,
                "matches": [e for e in entries if e]}

    async def leaderboard(self, conn: Connection, msg: Message) -> Message:
        mode = msg["mode"]
        if not isinstance(mode, str) or not 0 < len(mode) <= 40:
            raise BadRequest(Code.BAD_FIELD, "leaderboard: 'mode' names a mode", msg["id"])
        now = self.clock()
        out: list[dict[str, Any]] = []
        for player, st in await self.store.leaderboard(mode, limit=4 * self.limits.
                                                       leaderboard_size):
            if st.rated_at is None or now - st.rated_at > self.limits.leaderboard_active:
                continue
            if st.provisional(now):
                continue
            account = await self.store.account(player)
            if account is None:
                continue
            out.append({"rank": len(out) + 1, "player": player, "name": account.name,
                        "rating": round(st.rating, 2), "rd": round(st.current_rd(now), 2),
                        "rated": st.rated, "wins": st.wins, "draws": st.draws,
                        "losses": st.losses})
            if len(out) >= self.limits.leaderboard_size:
                break
        return {"t": "ack", "re": msg["id"], "mode": mode, "players": out}


def _digest(code: str) -> str:
    """Transfer codes are kept hashed: a copy of the store signs nobody in."""
    return hashlib.sha256(code.encode()).hexdigest()


def _taken(name: str) -> AccountError:
    return AccountError(Code.NAME_TAKEN, f"the name {name!r} is taken; choose another, or "
                        "sign in with its password or a transfer link")


def cookie_token(conn: Connection) -> str | None:
    """The token in our cookie on the websocket upgrade request, if any."""
    request = getattr(conn.ws, "request", None)
    raw = None if request is None else request.headers.get("Cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # a malformed Cookie header is the browser's business, not an error
        return None
    morsel = jar.get(COOKIE)
    return None if morsel is None else morsel.value


def address_of(conn: Connection) -> str:
    """The client's address (through trusted proxies: ``addresses.client_address``), the
    key the per-address limit on wrong passwords counts under."""
    return conn.address


def set_cookie(token: str, *, secure: bool, clear: bool = False) -> str:
    """The ``Set-Cookie`` header value for our cookie."""
    parts = [f"{COOKIE}={'' if clear else token}", "Path=/", "HttpOnly", "SameSite=Lax",
             f"Max-Age={0 if clear else 365 * 86_400}"]
    if secure:
        parts.append("Secure")
    return "; ".join(parts)
