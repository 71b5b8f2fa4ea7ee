"""The engine package's layout: its modules follow the rulebook's parts, and imports only
point down, so a module can be read knowing only the ones beneath it."""

from __future__ import annotations

import ast
from pathlib import Path

import kickline.engine

ENGINE = Path(kickline.engine.__file__).parent

# Bottom to top: a module may import only modules listed before it.
LAYERS = [
    "frames", "dice", "turn", "turnovers", "ball", "abilities", "sends", "shots", "cards",
    "offense", "defense", "gambits", "resolve", "coaching", "clock", "shootout", "machine",
]
# The rest of the package the engine may read: none of these imports the engine back.
BENEATH = {"board", "decisions", "errors", "roster", "rulings", "state"}


def _imports(path: Path) -> tuple[set[str], set[str]]:
    """(engine modules, package modules) that ``path`` imports."""
    inner: set[str] = set()
    outer: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                inner.add(node.module)
            else:
                inner.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 2:
            outer.update([node.module] if node.module else [a.name for a in node.names])
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names = [node.module] if isinstance(node, ast.ImportFrom) else [
                a.name for a in node.names]
            assert not any(n and n.split(".")[0] == "kickline" for n in names), path.name
    return inner, outer


def test_every_engine_module_has_its_place_in_the_layers() -> None:
    found = {p.stem for p in ENGINE.glob("*.py")} - {"__init__"}
    assert found == set(LAYERS)


def test_engine_imports_point_down() -> None:
    for name in LAYERS:
        inner, outer = _imports(ENGINE / f"{name}.py")
        below = set(LAYERS[:LAYERS.index(name)])
        assert inner <= below, f"{name} imports {sorted(inner - below)} from above it"
        assert outer <= BENEATH, f"{name} imports {sorted(outer - BENEATH)}"


def test_the_package_face_reads_the_machine_only_from_beneath() -> None:
    inner, outer = _imports(ENGINE / "__init__.py")
    assert inner <= set(LAYERS) and outer <= BENEATH
