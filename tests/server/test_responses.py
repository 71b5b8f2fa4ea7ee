"""The server's own HTTP responses: each header once, the type given up front."""

from __future__ import annotations

import pytest

from kickline_server.responses import JSON, response


def test_a_response_has_one_of_each_header_and_its_extras() -> None:
    r = response(200, '{"a":1}\n', JSON, [("Content-Disposition", "attachment")])
    names = [name.lower() for name, _ in r.headers.raw_items()]
    assert sorted(names) == sorted(set(names))  # nothing twice
    assert r.headers.get_all("Content-Type") == [JSON]
    assert r.headers["Content-Length"] == "8" and r.body == b'{"a":1}\n'
    assert r.headers["Connection"] == "close" and r.reason_phrase == "OK"
    assert r.headers["Content-Disposition"] == "attachment"


def test_no_content_carries_no_body_headers() -> None:
    r = response(204, headers=[("Set-Cookie", "k=v")])
    assert "Content-Type" not in r.headers and "Content-Length" not in r.headers
    assert r.headers["Set-Cookie"] == "k=v"


def test_a_second_content_type_cannot_be_added() -> None:
    with pytest.raises(ValueError, match="Content-Type"):
        response(200, "x", headers=[("Content-Type", "text/html")])
