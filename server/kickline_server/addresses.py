"""Who is on the other end: the client's address, believed through trusted proxies only.

Behind a reverse proxy every connection comes from the proxy, so every per-address
budget would count all players as one.  The proxy names the real client in
``X-Forwarded-For`` — but so can anyone, so the header is read **only when the peer is
a proxy the operator listed** (``--trusted-proxy``, addresses or CIDRs), and then
from the right: each proxy appends the address it saw, so the rightmost entry that is
not itself a trusted proxy is the client.  Everything left of it was written by the
client and is ignored.

:func:`client_address` is the one function every budget uses to name a client;
:func:`address_key` is what they count under (an IPv6 client usually holds a whole /64,
so its budget is per /64).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

UNKNOWN = "?"
"""The address of a peer the socket cannot name (a Unix socket)."""


def peer_ip(text: str) -> IPAddress | None:
    """An address as a proxy may write it: bare, ``[v6]``, ``v4:port`` or ``[v6]:port``."""
    text = text.strip()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """The reverse proxies whose ``X-Forwarded-For`` is believed (none by default)."""

    networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def parse(cls, spec: str | Iterable[str] | None) -> TrustedProxies:
        """From ``"127.0.0.1, 10.0.0.0/8, ::1"`` (or a list of such items); raises
        ``ValueError`` with one line naming the item that is not an address or CIDR."""
        if spec is None:
            return cls()
        items = spec.split(",") if isinstance(spec, str) else list(spec)
        networks = []
        for item in (i.strip() for i in items):
            if not item:
                continue
            try:
                networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ValueError(f"trusted proxy {item!r} is not an IP address or CIDR "
                                 "(e.g. 127.0.0.1 or 10.0.0.0/8)") from None
        return cls(tuple(networks))

    def trusts(self, ip: IPAddress | None) -> bool:
        return ip is not None and any(ip.version == n.version and ip in n
                                      for n in self.networks)

    def client(self, peer: str, forwarded_for: Sequence[str] = ()) -> str:
        """The client's address: ``peer`` itself unless ``peer`` is trusted, else the
        rightmost untrusted hop of the ``X-Forwarded-For`` header values."""
        current = peer_ip(peer)
        if current is None:
            return peer or UNKNOWN
        if not self.trusts(current):
            return str(current)
        hops = [hop for value in forwarded_for for hop in value.split(",")]
        for hop in reversed(hops):
            ip = peer_ip(hop)
            if ip is None:  # not an address: no proxy of ours wrote that, stop here
                break
            current = ip
            if not self.trusts(ip):
                break
        return str(current)


class _HasRequest(Protocol):
    @property
    def remote_address(self) -> object: ...

    @property
    def request(self) -> object: ...


def client_address(conn: _HasRequest, trusted: TrustedProxies) -> str:
    """The client's address for a websockets server connection (during or after the
    handshake): the one every per-address budget counts under :func:`address_key`."""
    remote = conn.remote_address
    peer = str(remote[0]) if isinstance(remote, tuple) and remote else ""
    if not trusted.networks:
        return str(peer_ip(peer) or peer or UNKNOWN)
    headers = getattr(conn.request, "headers", None)
    forwarded = headers.get_all("X-Forwarded-For") if headers is not None else []
    return trusted.client(peer, forwarded)


def address_key(address: str) -> str:
    """What a per-address budget counts under: the address, or for IPv6 its /64 (one
    home or phone usually holds a whole /64, and can pick any address inside it)."""
    ip = peer_ip(address)
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return address
