"""The docs name today's tree (issue 31): every path or module a document names in backticks or
links to exists, and nothing points outside the repository; the backend's docstrings and
comments the same for the modules and paths they name.

A path in backticks is a path in today's tree, written from the repository's root, from
`backend/tableside/`, or from a slice (`rules/team_calls.py` is found as
`competition/rules/team_calls.py`); `file.attr` names something in `file.py`. A name from the
past (a folder that was moved) is written without backticks. What exists only at run time
(`./var/`, `test-artifacts/`) and the founders' documents kept outside the repository
(cited by name, `ARCHITECTURE.md`, never by path) are not checked, nor URLs (`/js/x.js`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted(
    [*(ROOT / "docs").rglob("*.md"), ROOT / "README.md", *ROOT.glob("*/README.md")],
    key=lambda p: str(p),
)
SKIPPED = {".git", ".venv", "node_modules", "__pycache__", "var", "test-artifacts"}
SOURCE = r"py|js|css|html|json|sql|md|toml|cfg|sh|webmanifest"
TICKED = re.compile(r"`([^`\s]+)`")
CODE = re.compile(r"`[^`\n]*`")
LINKED = re.compile(r"\]\(([^)\s#]+)[^)]*\)")
OUTSIDE = re.compile(r"/work/|(?:\.\./)+shared/")
FILE = re.compile(rf"[\w./-]*[\w-]\.(?:{SOURCE})")  # a file by its name or path
FOLDER = re.compile(r"[a-z_]+(?:/[\w-]+)*/")  # a folder: `match/projections/`
ATTR = re.compile(r"((?:[a-z_]+/)+[a-z_]+)\.\w+")  # `eventlog/stream_folds.StreamFolds`
MODULE = re.compile(r"tableside(?:\.[a-z_]\w*)+\.\w+")  # `tableside.web.auth`, `….x`
RUN_TIME = ("./var/", "var/", "test-artifacts/", "node_modules/", "tableside-")


def tree() -> tuple[set[str], set[str]]:
    """Every path in the repository (files and folders, relative, folders ending in /) and
    every file's name."""
    paths, names = set(), set()
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED and not d.endswith(".egg-info")]
        rel = Path(folder).relative_to(ROOT)
        paths.update(f"{rel / d}/" for d in dirs)
        paths.update(str(rel / f) for f in files)
        names.update(files)
    return paths, names


PATHS, NAMES = tree()


def exists(name: str, doc: Path) -> bool:
    """A path (or folder) is in the tree from the root, from the doc's folder, or as the
    tail of a path (a slice-relative name); a bare file name is some file's name."""
    if "/" not in name.rstrip("/"):
        return (
            name.rstrip("/") in NAMES or name in PATHS or any(p.endswith(f"/{name}") for p in PATHS)
        )
    near = (doc.parent / name).resolve()
    if near.is_relative_to(ROOT) and near.exists():
        return True
    name = name.removeprefix("./")
    return name in PATHS or any(p.endswith(f"/{name}") for p in PATHS)


def module_exists(dotted: str) -> bool:
    """`tableside.a.b` is a module or package, or one name inside one."""
    parts = dotted.split(".")
    for k in range(len(parts), 1, -1):
        base = "backend/" + "/".join(parts[:k])
        if f"{base}.py" in PATHS or f"{base}/__init__.py" in PATHS:
            return len(parts) - k <= 1
    return False


def stale(doc: Path, links: bool = True) -> list[str]:
    """What `doc` names that is not in the tree, or that lies outside the repository (with
    `links=False`, a source file: its markdown-like links and bare file names are not read)."""
    text = doc.read_text()
    found = [f"outside the repository: {m.group(0)}" for m in OUTSIDE.finditer(text)]
    for m in LINKED.finditer(CODE.sub("", text)) if links else ():  # code is no link: `a[i](x)`
        target = m.group(1)
        if not re.match(r"[a-z]+:", target) and not target.startswith("/"):
            where = (doc.parent / target).resolve()
            if not where.is_relative_to(ROOT):
                found.append(f"link outside the repository: {target}")
            elif not where.exists():
                found.append(f"broken link: {target}")
    for m in TICKED.finditer(text):
        name = m.group(1).rstrip(".,;:")
        if name.startswith((*RUN_TIME, "/")) or "{" in name or "*" in name or "NNNN" in name:
            continue
        if MODULE.fullmatch(name):
            ok = module_exists(name)
        elif FILE.fullmatch(name) and (links or "/" in name):
            ok = name[0].isupper() or exists(name, doc)  # ARCHITECTURE.md: the founders'
        elif FOLDER.fullmatch(name) and "/" in name:
            ok = exists(name, doc)
        elif ATTR.fullmatch(name):
            ok = exists(ATTR.fullmatch(name).group(1) + ".py", doc)
        else:
            continue
        if not ok:
            found.append(name)
    return found


def test_the_check_sees_a_stale_path(tmp_path):
    doc = ROOT / "docs" / "decisions" / "README.md"
    assert exists("eventlog/runner.py", doc) and exists("rules/team_calls.py", doc)
    assert exists("plugins/korona/projections/", doc) and exists("labels.py", doc)
    assert not exists("store/chain.py", doc) and not exists("app/", doc)
    assert module_exists("tableside.web.auth") and module_exists("tableside.eventlog.EventStore")
    assert not module_exists("tableside.store.verify")
    assert OUTSIDE.search("see `../shared/FLOORPLAN.md`")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_doc_names_is_in_the_tree(doc: Path):
    assert stale(doc) == []


def test_every_decision_is_in_the_index_once():
    """One file per decision, each a line of `docs/decisions/README.md`, no number twice."""
    folder = ROOT / "docs" / "decisions"
    files = sorted(p.name for p in folder.glob("[0-9][0-9][0-9][0-9]-*.md"))
    listed = LINKED.findall((folder / "README.md").read_text())
    assert sorted(listed) == files
    numbers = [name[:4] for name in files]
    assert len(set(numbers)) == len(numbers)


def test_every_path_the_code_names_is_in_the_tree():
    """The backend's docstrings and comments name today's modules too."""
    code = sorted((ROOT / "backend" / "tableside").rglob("*.py"))
    found = [f"{p.relative_to(ROOT)}: {name}" for p in code for name in stale(p, links=False)]
    assert found == []
