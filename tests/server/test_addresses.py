"""The client's address: X-Forwarded-For believed from trusted proxies only."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.exceptions import InvalidStatus

from kickline_server.addresses import TrustedProxies, address_key

pytestmark = pytest.mark.anyio

PROXY = TrustedProxies.parse("127.0.0.1, 10.0.0.0/8, ::1")


@pytest.mark.parametrize(("peer", "xff", "client"), [
    ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),  # not a proxy: the header is a lie
    ("127.0.0.1", [], "127.0.0.1"),  # a trusted proxy's own request
    ("127.0.0.1", ["198.51.100.1"], "198.51.100.1"),
    ("127.0.0.1", ["6.6.6.6, 198.51.100.1"], "198.51.100.1"),  # left part: the client's
    ("127.0.0.1", ["6.6.6.6, 198.51.100.1, 10.1.2.3"], "198.51.100.1"),  # two proxies
    ("127.0.0.1", ["6.6.6.6", "198.51.100.1"], "198.51.100.1"),  # two header lines
    ("127.0.0.1", ["10.0.0.5, 10.0.0.6"], "10.0.0.5"),  # all proxies: the leftmost
    ("127.0.0.1", ["nonsense, 10.0.0.6"], "10.0.0.6"),  # garbage: stop at the last real
    ("127.0.0.1", ["198.51.100.1:4711"], "198.51.100.1"),
    ("127.0.0.1", ["[2001:db8::1]:4711"], "2001:db8::1"),
    ("::1", ["2001:db8::7"], "2001:db8::7"),
    ("::ffff:127.0.0.1", ["198.51.100.1"], "198.51.100.1"),  # IPv4-mapped peer
    ("", ["198.51.100.1"], "?"),  # a Unix socket peer with no proxies trusted... unknown
])
def test_client_address(peer: str, xff: list[str], client: str) -> None:
    assert PROXY.client(peer, xff) == client


def test_no_trusted_proxies_means_the_header_is_ignored() -> None:
    assert TrustedProxies().client("127.0.0.1", ["198.51.100.1"]) == "127.0.0.1"


def test_a_bad_proxy_spec_is_one_line() -> None:
    with pytest.raises(ValueError, match=r"'10\.0\.0\.300' is not an IP address or CIDR"):
        TrustedProxies.parse("127.0.0.1,10.0.0.300")


def test_ipv6_clients_are_counted_per_64() -> None:
    assert address_key("2001:db8:1:2:3:4:5:6") == address_key("2001:db8:1:2:ffff::1")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("198.51.100.1") == "198.51.100.1"



async def test_the_per_address_limit_counts_forwarded_clients(
    serve: Any, server_config: Any, client: Any
) -> None:
    config = server_config(max_connections_per_address=1,
                           trusted_proxies=TrustedProxies.parse("127.0.0.1"))
    async with serve(config) as url:
        one = {"additional_headers": {"X-Forwarded-For": "198.51.100.1"}}
        two = {"additional_headers": {"X-Forwarded-For": "198.51.100.2"}}
        async with client(url, **one) as a, client(url, **two) as b:
            await a.hello()
            await b.hello()  # another client behind the same proxy: its own budget
            with pytest.raises(InvalidStatus) as e:
                async with client(url, **one):
                    pass
            assert e.value.response.status_code == 429


async def test_an_untrusted_peer_cannot_pick_its_address(
    serve: Any, server_config: Any, client: Any
) -> None:
    lie = {"additional_headers": {"X-Forwarded-For": "198.51.100.1"}}
    async with serve(server_config(max_connections_per_address=1)) as url, \
            client(url, **lie) as a:
        await a.hello()
        with pytest.raises(InvalidStatus):
            async with client(url, additional_headers={"X-Forwarded-For": "1.1.1.1"}):
                pass


def test_a_bad_trusted_proxy_stops_serve_with_one_line(tmp_path: Any) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "kickline_server.cli", "serve", "--data-dir", str(tmp_path),
         "--trusted-proxy", "127.0.0.1,proxy.example"],
        capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert done.stderr == ("kickline: trusted proxy 'proxy.example' is not an IP address "
                           "or CIDR (e.g. 127.0.0.1 or 10.0.0.0/8)\n")
