"""Suite-wide options (at the top so that tests/ itself never lands on sys.path and
shadows the kickline package with tests/kickline): the slow tests run under `make test`
and CI, not on a bare pytest."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

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


@pytest.fixture
def progress(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """``progress("400/2000 matches")`` writes a line to the terminal at once, through
    pytest's output capture, so a test that runs for minutes is never minutes of
    silence.  Each line names the test and the seconds since it started."""
    plugins = request.config.pluginmanager
    reporter, capture = plugins.get_plugin("terminalreporter"), plugins.get_plugin(
        "capturemanager")
    start = time.monotonic()

    def say(message: str) -> None:
        if reporter is None or capture is None:
            return
        with capture.global_and_fixture_disabled():  # as capsys.disabled() does
            reporter.write_line(f"  {request.node.name}: {message} "
                                f"({time.monotonic() - start:.0f} s)", flush=True)
    return say
