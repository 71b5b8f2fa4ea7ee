"""Suite-wide options (at the top so that tests/ itself never lands on sys.path and
shadows the kickline package with tests/kickline): the slow tests run under `make test`
and CI, not on a bare pytest."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # `make test` (and so CI) sets KICKLINE_SLOW=1; a developer's quick `pytest` run
    # skips the thousands-of-matches harness unless asked for it.
    if os.environ.get("KICKLINE_SLOW") == "1" or os.environ.get("CI"):
        return
    skip = pytest.mark.skip(reason="slow: set KICKLINE_SLOW=1 (make test does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
