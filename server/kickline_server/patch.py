"""View patches: what changed between two views of one seat, as a list of operations.

A patch is a list of ``[path, value]`` pairs: ``path`` is a list of map keys and list
indexes from the root, ``value`` replaces what is at that path.  Applying one sets the
values in order (``client/src/patch.js`` does it in the browser; :func:`apply_patch`
here).  Maps with the same keys and lists of the same length are compared member by
member, so a change deep in the 18 players' entries costs one small operation, not
the whole list; anything else that differs is replaced whole.  A view whose map keys
changed at the top yields ``None``: send the whole view instead.

A member that is the very same object on both sides is skipped at once (a list's such
items without a Python step: ``compress`` over ``map(is_not, ...)``, done in C); the
others are compared with ``==`` (also in C), so the Python walk only descends into the
few members that changed (~2 of 18 players per decision in a Kickline match, whose views
share unchanged parts).
"""

from __future__ import annotations

from itertools import compress, count
from operator import is_not
from typing import Any

Patch = list[list[Any]]

_SMALL = 4
"""Lists this short or shorter are replaced whole rather than patched item by item."""


_last: dict[Any, tuple[Any, Any, Patch]] = {}
"""Per top-level key, the last pair of different values compared and their operations.
The seats' views of one state share their common parts (``kickline.view``), and so do
the views before them, so the second seat's patch finds most of its work done."""


def diff(old: dict[str, Any], new: dict[str, Any]) -> Patch | None:
    """The operations that turn ``old`` into ``new`` (both plain data); ``None`` if their
    top-level keys differ."""
    if old.keys() != new.keys():
        return None
    ops: Patch = []
    last = _last
    for key, value in new.items():
        was = old[key]
        if was is value:
            continue
        seen = last.get(key)
        if seen is not None and seen[0] is was and seen[1] is value:
            ops += seen[2]
        elif was != value:
            mine: Patch = []
            _diff_value(was, value, [key], mine)
            ops += mine
            last[key] = (was, value, mine)
    return ops


def _diff_value(was: Any, value: Any, path: list[Any], ops: Patch) -> None:
    if type(was) is dict and type(value) is dict and was.keys() == value.keys():
        for key, b in value.items():
            a = was[key]
            if a is not b and a != b:
                _diff_value(a, b, [*path, key], ops)
    elif (type(was) is list and type(value) is list and len(was) == len(value)
          and len(value) > _SMALL):
        # Only the items that are not the very same object are looked at in Python.
        for i in compress(count(), map(is_not, was, value)):
            a, b = was[i], value[i]
            if a != b:
                _diff_value(a, b, [*path, i], ops)
    else:
        ops.append([path, value])


def apply_patch(view: dict[str, Any], ops: Patch) -> dict[str, Any]:
    """``view`` with ``ops`` applied, as a new value (``view`` itself is not changed;
    only the containers on the patched paths are copied)."""
    out = dict(view)
    copied: set[int] = {id(out)}
    for path, value in ops:
        node: Any = out
        for key in path[:-1]:
            child = node[key]
            if id(child) not in copied:
                child = dict(child) if isinstance(child, dict) else list(child)
                copied.add(id(child))
                node[key] = child
            node = child
        node[path[-1]] = value
    return out
