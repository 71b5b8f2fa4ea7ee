"""The lobby list and the players' seats each process publishes in Redis: seen by the
others, gone with a process that stops, lapsed with one that dies."""

from __future__ import annotations

import anyio
import pytest

from kickline_server.listing import Listing

pytestmark = pytest.mark.anyio

OPEN = {"match": "m1", "game": "toy", "config": {}, "players": ["a", None]}
SEAT = {"match": "m1", "seat": 0, "status": "waiting", "game": "toy", "config": {},
        "rated": False}


async def test_a_process_part_is_seen_by_the_others_until_it_stops_or_dies(
    redis_url: str, key_prefix: str
) -> None:
    a = Listing(redis_url, "a", prefix=key_prefix, ttl=0.5)
    b = Listing(redis_url, "b", prefix=key_prefix, ttl=0.5)
    await a.publish({"open": [OPEN], "live": []})
    await a.publish_seats({"pa": [SEAT], "pb": []}, whole=True)
    assert await b.others() == [{"open": [OPEN], "live": []}]
    assert await b.seats_elsewhere("pa") == [SEAT] and await b.seats_elsewhere("pb") == []
    assert await a.others() == []  # its own part is not "another's"
    await a.publish_seats({"pa": []}, whole=False)  # pa's match ended
    assert await b.seats_elsewhere("pa") == []

    # a dies: nothing renews its part, which lapses with its TTL.
    await a.publish_seats({"pa": [SEAT]}, whole=False)
    with anyio.fail_after(10):
        while await b.others() or await b.seats_elsewhere("pa"):
            await anyio.sleep(0.05)

    # a stops cleanly: gone at once.
    await a.publish({"open": [OPEN], "live": []})
    await a.publish_seats({"pa": [SEAT]}, whole=True)
    assert await b.seats_elsewhere("pa") == [SEAT]
    await a.leave()
    assert await b.others() == [] and await b.seats_elsewhere("pa") == []
    await b.leave()
