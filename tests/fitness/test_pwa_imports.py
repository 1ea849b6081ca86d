"""The PWA's modules import downwards only (issue 15): no part imports its face's entry module
(the module a page loads; a panel is handed what it needs instead), and the import graph has
no cycles. A dynamic `import("/js/x.js")` is an edge like a static one: a module loaded later
is still a module that must not import back (issue 31: audit-replay.js <-> audit-bg.js)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PWA = Path(__file__).resolve().parents[2] / "pwa"
IMPORT = re.compile(r"""(?:^|\n)\s*(?:import|export)\b[^"';]*?from\s*["']/js/([\w-]+\.js)["']""")
DYNAMIC = re.compile(r"""\bimport\(\s*["'`]/js/([\w-]+\.js)["'`]\s*\)""")
ENTRY = re.compile(r"""<script[^>]*type=["']module["'][^>]*src=["']/js/([\w-]+\.js)["']""")


def graph() -> dict[str, set[str]]:
    """Each module's imports of other modules of ours, static and dynamic."""
    return {p.name: imports(p.read_text()) for p in (PWA / "js").glob("*.js")}


def imports(source: str) -> set[str]:
    """The modules of ours one module's source imports: `import … from` and `import()`."""
    return {*IMPORT.findall(source), *DYNAMIC.findall(source)}


def entries() -> set[str]:
    """The modules the pages load."""
    return {m for page in PWA.glob("*.html") for m in ENTRY.findall(page.read_text())}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every module that can reach itself, with the path that does."""
    found = []
    for start in sorted(edges):
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in edges.get(node, ()):
                if nxt == start:
                    found.append([*path, start])
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    return found


def reach(edges: dict[str, set[str]], entry: str) -> set[str]:
    """The entry module and everything it imports, directly or not."""
    seen, todo = {entry}, [entry]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


FACES = sorted(entries())


def test_the_graph_is_read():
    assert {"admin-app.js", "spectator-app.js", "screen-app.js"} <= entries()
    assert "admin-state.js" in graph()["admin-app.js"]
    assert imports('const m = await import("/js/audit-bg.js");') == {"audit-bg.js"}
    assert "audit-bg.js" in graph()["audit-app.js"]  # loaded only for a backgammon record
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b", "a"], ["b", "a", "b"]]


@pytest.mark.parametrize("entry", FACES)
def test_no_part_imports_its_face_entry_module(entry):
    edges = graph()
    assert {m for m in reach(edges, entry) if entry in edges[m]} == set()


@pytest.mark.parametrize("entry", FACES)
def test_no_import_cycles_in_a_face(entry):
    edges = graph()
    mine = reach(edges, entry)
    assert cycles({m: edges[m] & mine for m in mine}) == []
