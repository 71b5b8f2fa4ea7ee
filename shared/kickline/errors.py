"""The three ways a decision can be refused.  All are ``ValueError``s."""

from __future__ import annotations


class DecisionError(ValueError):
    """Base class; ``code`` is the stable identifier the protocol uses."""

    code = "error"


class MalformedDecision(DecisionError):
    """The text is not a decision at all (bad kind, wrong arguments)."""

    code = "malformed"


class IllegalDecision(DecisionError):
    """A well-formed decision that is not legal for this seat right now."""

    code = "illegal"


class StaleVersion(DecisionError):
    """The decision was made against a state version that is no longer current."""

    code = "stale"

    def __init__(self, expected: int, got: int) -> None:
        super().__init__(f"decision made on version {got}, state is at version {expected}")
        self.expected = expected
        self.got = got
