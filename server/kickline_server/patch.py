"""View patches: what changed between two views of one seat, as a list of operations.

A patch is a list of ``[path, value]`` pairs: ``path`` is a list of map keys and list
indexes from the root, ``value`` replaces what is at that path.  Applying one sets the
values in order (``client/src/patch.js`` does it in the browser; :func:`apply_patch`
here).  Maps with the same keys and lists of the same length are compared member by
member, so a change deep in the 18 players' entries costs one small operation, not
the whole list; anything else that differs is replaced whole.  A view whose map keys
changed at the top yields ``None``: send the whole view instead.

A member that is the very same object on both sides is skipped at once (a list's such
items without a Python step: ``compress`` over ``map(is_not, ...)``, done in C).  The
others are compared with ``!=`` when they are scalars and walked when they are maps or
lists, without comparing them whole first: the walk finds what ``!=`` would, and a
changed member compared first was compared twice (for a changed player entry, ~5,000
instructions each time).  Whether two maps hold the same keys is read off the walk (the
same length, and every key of the new one found in the old), not compared as key sets.
So the Python walk only descends into the few members that changed (~2 of 18 players per
decision in a Kickline match, whose views share unchanged parts).
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
    if len(old) != len(new):
        return None
    ops: Patch = []
    last = _last
    try:
        for key, value in new.items():
            was = old[key]
            if was is value:
                continue
            seen = last.get(key)
            if seen is not None and seen[0] is was and seen[1] is value:
                ops += seen[2]
                continue
            mine: Patch = []
            _diff_value(was, value, [key], mine)
            ops += mine
            last[key] = (was, value, mine)
    except KeyError:
        return None  # the same number of keys, not the same keys
    return ops


def _diff_value(was: Any, value: Any, path: list[Any], ops: Patch) -> None:
    """Append the operations that turn ``was`` into ``value`` (not the same object)."""
    kind = type(value)
    if kind is dict and type(was) is dict and len(was) == len(value):
        # Same length and every key of ``value`` in ``was``: the same keys.  Containers
        # are walked without comparing them first (the walk finds what an ``!=`` would,
        # and members that are the very same object cost one ``is``).
        mine: Patch = []
        try:
            for key, b in value.items():
                a = was[key]
                if a is b:
                    continue
                if type(b) in _CONTAINERS:
                    _diff_value(a, b, [*path, key], mine)
                elif a != b:
                    mine.append([[*path, key], b])
        except KeyError:
            ops.append([path, value])
            return
        ops += mine
    elif (kind is list and type(was) is list and len(was) == len(value)
          and len(value) > _SMALL):
        # Only the items that are not the very same object are looked at in Python.
        for i in compress(count(), map(is_not, was, value)):
            b = value[i]
            if type(b) in _CONTAINERS:
                _diff_value(was[i], b, [*path, i], ops)
            elif was[i] != b:
                ops.append([[*path, i], b])
    elif was != value:
        ops.append([path, value])


_CONTAINERS = frozenset((dict, list))


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
