"""The one error a tournament command can end in."""

from __future__ import annotations


class Refused(Exception):
    """A command that cannot be carried out: ``code`` is the protocol's error code, and
    ``message`` says in plain words what is wrong and what to do instead. Raised before
    anything changes, so a refused command leaves the event as it was."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
