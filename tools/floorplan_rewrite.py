"""Rewrite old module paths to the floor plan of issues 15 and 31 (see docs/floorplan.md).

    python tools/floorplan_rewrite.py            # every tracked text file
    python tools/floorplan_rewrite.py FILE ...   # only these

Rewrites dotted paths (`tableside.app.hub` → `tableside.live.hub`, imports, `module:attr`
strings, `-m tableside.x`) and file paths (`backend/tableside/app/hub.py`). Idempotent: new
paths are never rewritten again (the one rule to keep it so: nothing imports the bare
`tableside.competition` package; its pure rules are `tableside.competition.rules`).
Run it after merging a branch that still speaks of the old layout.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

APP = {
    "server": "__init__ asgi lifespan competition_lifespan security_headers"
    " openapi_errors checkpoints",
    "web": "problems guards ratelimit consistency health context bodies availability auth",
    "staff": "accounts auth_dto passwords staff_routes login_routes lockouts",
    "live": "live feed hub audience socket_auth",
    "eventlog": "listener",
    "match.http": "read_routes judge_routes command_routes export_routes audit_routes"
    " spectator_routes dto command_auth responses",
}
APP_RENAMED = {
    "competition_routes": "competition.http.routes",
    "competition_reads": "competition.http.reads",
    "competition_dto": "competition.http.dto",
    "competition_live": "competition.live",
}
PURE_COMPETITION = set(
    [
        "berger",
        "bracket_view",
        "brackets",
        "clock",
        "club_standings",
        "commands",
        "decide",
        "decide_draw",
        "decide_entrants",
        "decide_import",
        "decide_play",
        "decide_review",
        "entrants",
        "errors",
        "events",
        "evolve",
        "guide",
        "interop",
        "matches",
        "placings",
        "records",
        "results",
        "rulesets",
        "standings",
        "state",
        "swiss",
        "swiss_search",
        "swiss_weights",
        "tables",
        "teams",
        "tiebreaks",
        "walkovers",
    ]
)
SLICE_COMPETITION = {  # the slice's own modules (all but its pure rules), as of issue 31
    "bgflow",
    "federation_report",
    "hall",
    "hall_queue",
    "results_file",
    "standings_pdf",
    "service",
    "processor",
    "matchflow",
    "docs",
    "projection",
    "live",
    "http",
    "rules",
}
PWA = {"assets", "routes", "worker", "web_routes"}


def _module_map() -> dict[str, str]:
    """Old dotted path (after `tableside.`) → new, for whole modules and packages."""
    mapping = {
        f"app.{name}": f"{home}.{name}" for home, names in APP.items() for name in names.split()
    }
    mapping["app.__init__"] = "server"
    mapping.update({f"app.{old}": new for old, new in APP_RENAMED.items()})
    mapping.update(
        {f"competition.{name}": f"competition.rules.{name}" for name in PURE_COMPETITION}
    )
    mapping.update({f"projections.{name}": f"eventlog.{name}" for name in ["runner", "source"]})
    mapping["projections.standings"] = "competition.projection"
    mapping.update(
        {
            "app": "server",
            "competitions": "competition",
            "projections": "match.projections",
            "store": "eventlog",
            "rules": "disciplines.korona",
            "matches": "match",
            "exports": "match.exports",
            "backgammon_match": "match.backgammon",
            "commands": "cli",
            "web.assets": "server.pwa.assets",
            "web.routes": "server.pwa.routes",
            "web.worker": "server.pwa.worker",
            "staff.auth": "web.auth",
            "eventlog.folder": "match.projections.folder",
            "eventlog.rebuild": "match.projections.rebuild",
            "web.responses": "match.http.responses",
            "match.registry": "server.registry",
        }
    )
    mapping.update(SLICES_MOVED)
    return mapping


# Issue 31: each discipline's match slice beside the other's under plugins/ (decision 0075).
SLICES_MOVED = {
    **{
        f"match.{name}": f"plugins.korona.{name}"
        for name in ("folding", "views", "history", "commands", "service", "live_feed")
    },
    "match.projections": "plugins.korona.projections",
    "match.exports.sheet": "plugins.korona.exports.sheet",
    **{
        f"match.http.{name}": f"plugins.korona.http.{name}"
        for name in ("command_auth", "judge_routes", "read_routes")
    },
    **{
        f"match.exports.{name}": f"plugins.backgammon.exports.{name}"
        for name in ("bg_pdf", "bg_report", "bg_sheet", "bg_words")
    },
    "match.backgammon": "plugins.backgammon",
    "match.backgammon.projection": "plugins.backgammon.projections.matches",
    **{
        f"match.backgammon.{name}": f"plugins.backgammon.http.{name}"
        for name in ("routes", "reads", "access")
    },
    "competition.bgflow": "plugins.backgammon.competition_flow",
    "competition.federation_report": "plugins.backgammon.federation_report",
    # Issue 44 (decision 0149): a discipline's word on a competition is its sport, in its slice.
    "competition.rules.backgammon": "plugins.backgammon.competition_rules",
}
# Modules split by issue 31: the names that left (old module → name → new module); the rest
# of each stays where it was (or goes where SLICES_MOVED sends the whole module).
SYMBOLS_MOVED = {
    "match.service": {"MatchNotFound": "match.errors"},
    "competition.matchflow": {
        name: "plugins.korona.competition_flow"
        for name in (
            "create_command",
            "_create",
            "_side",
            "start_match",
            "start_boards",
            "_start_board",
            "match_result",
            "META",
        )
    },
    "competition.http.reads": {
        "get_federation_report": "plugins.backgammon.http.federation_routes",
        "get_people": "plugins.backgammon.http.people",  # decision 0149
    },
    "competition.rules.guide": {  # decision 0149
        **{
            name: "plugins.backgammon.competition_rules"
            for name in ("backgammon_guide", "BackgammonSettings", "MATCH_POINT")
        },
        "BACKGAMMON_DEFAULTS": "plugins.backgammon.competition_rules",
        "opening_rule": "plugins.korona.competition_rules",
    },
    "match.http.command_routes": {
        "create_match": "plugins.korona.http.command_routes",
        "post_command": "plugins.korona.http.command_routes",
    },
    "match.http.dto": {
        "CreateMatchRequest": "plugins.korona.http.dto",
        "CommandRequest": "plugins.korona.http.dto",
    },
    "match.http.export_routes": {"protocol_pdf_file": "plugins.korona.http.export_routes"},
    "match.exports.pdf": {"protocol_pdf": "plugins.korona.exports.protocol_pdf"},
}


MAP = _module_map()
DOTTED = re.compile(r"\btableside((?:\.\w+)+)")
SLASHED = re.compile(r"\bbackend/tableside((?:/\w+)+)(\.py|/)?")
FROM_IMPORT = re.compile(r"from tableside\.(app|web|competition) import (\([\w\s,]+\)|[\w ,]+)")


def map_path(dotted: str) -> str:
    """`.app.hub.Hub` → `.live.hub.Hub`; unknown or already-new paths come back unchanged
    (a path moved twice, e.g. by issue 15 and issue 31, is followed to its last home)."""
    for _ in range(4):
        moved = _map_once(dotted)
        if moved == dotted:
            break
        dotted = moved
    return dotted


def _map_once(dotted: str) -> str:
    parts = dotted.lstrip(".").split(".")
    for cut in range(len(parts), 0, -1):
        new = MAP.get(".".join(parts[:cut]))
        if new is not None:
            return "." + ".".join([new, *parts[cut:]])
    return dotted


SPLIT_IMPORT = re.compile(r"from tableside\.([\w.]+) import (\([\w\s,]+\)|[\w ,]+)")


def _split_import(match: re.Match) -> str:
    """`from <split module> import a, b` or `from <package> import <moved module>`: one line
    per home the names now have."""
    module, names_text = match.group(1), match.group(2)
    if module not in SYMBOLS_MOVED:  # an older path of a split module (issue 15's `app.…`)
        mapped = map_path("." + module).lstrip(".")
        module = mapped if mapped in SYMBOLS_MOVED else module
    moved = SYMBOLS_MOVED.get(module, {})
    names = [n.strip() for n in names_text.strip("()").split(",") if n.strip()]
    rest = map_path("." + module).lstrip(".")
    homes: dict[str, list[str]] = {}
    for name in names:
        bare, _, alias = (part.strip() for part in name.partition(" as "))
        home, as_name = moved.get(bare, rest), name
        if bare not in moved and f"{module}.{bare}" in MAP:  # a module that moved
            home, _, new = map_path(f".{module}.{bare}").lstrip(".").rpartition(".")
            as_name = new if new == (alias or bare) else f"{new} as {alias or bare}"
        homes.setdefault(home, []).append(as_name)
    if list(homes) == [module] or (not moved and list(homes) == [rest]):
        return match.group(0)
    return "\n".join(f"from tableside.{home} import {', '.join(ns)}" for home, ns in homes.items())


def _from_import(match: re.Match) -> str:
    """`from tableside.app import accounts` names its module: route by the names imported."""
    package, names_text = match.group(1), match.group(2)
    names = [n.strip() for n in names_text.strip("()").split(",") if n.strip()]
    bare = [n.split(" as ")[0].strip() for n in names]
    if package == "competition" and SLICE_COMPETITION.isdisjoint(bare):
        return match.group(0).replace(
            "from tableside.competition import", "from tableside.competition.rules import"
        )
    if package == "competition":
        return match.group(0)
    if package == "web":
        home = "server.pwa" if set(bare) <= PWA else "web"
        return f"from tableside.{home} import {names_text}"
    return "\n".join(_app_import(name) for name in names)


def _app_import(name: str) -> str:
    """One `from … import` line for a name of the old `tableside.app` package."""
    bare, _, alias = (part.strip() for part in name.partition(" as "))
    if f"app.{bare}" not in MAP:
        return f"from tableside.server import {name}"
    home, _, module = MAP[f"app.{bare}"].rpartition(".")
    if module == bare:
        return f"from tableside.{home} import {name}"
    return f"from tableside.{home} import {module} as {alias or bare}"


FROM_TOP = re.compile(r"^from tableside import ([\w ,]+)$", re.M)
TOP_HOMES = {"competition": "competition import rules", "rules": "disciplines import korona"}
IMPORT_AS = re.compile(r"^import tableside\.competition as ", re.M)


def _from_top(match: re.Match) -> str:
    """`from tableside import competition, rules` → one import per moved package, same names."""
    names = [n.strip() for n in match.group(1).split(",") if n.strip()]
    kept = [n for n in names if n not in TOP_HOMES]
    lines = [f"from tableside.{TOP_HOMES[n]} as {n}" for n in names if n in TOP_HOMES]
    if kept:
        lines.insert(0, f"from tableside import {', '.join(kept)}")
    return "\n".join(lines)


def _slashed(match: re.Match) -> str:
    dotted = match.group(1).replace("/", ".")
    new = map_path(dotted)
    return "backend/tableside" + new.replace(".", "/") + (match.group(2) or "")


def rewrite(text: str) -> str:
    """The text with every old module path replaced by its new one."""
    text = FROM_TOP.sub(_from_top, text)
    text = IMPORT_AS.sub("import tableside.competition.rules as ", text)
    text = FROM_IMPORT.sub(_from_import, text)
    text = SPLIT_IMPORT.sub(_split_import, text)
    text = DOTTED.sub(lambda m: "tableside" + map_path(m.group(1)), text)
    return SLASHED.sub(_slashed, text)


SUFFIXES = {".py", ".toml", ".cfg", ".ini", ".md", ".sh", ".yml", ".yaml", ".txt", ".json", ""}


def _default_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout
    skip = {"tools/floorplan_rewrite.py", "tests/fitness/test_doc_paths.py"}  # it names old paths
    return [
        Path(p)
        for p in listed.splitlines()
        if Path(p).suffix in SUFFIXES
        and p not in skip
        and not p.startswith("docs/decisions/")
        and Path(p).is_file()
    ]


def main(argv: list[str]) -> int:
    files = [Path(a) for a in argv] or _default_files()
    changed = 0
    for path in files:
        old = path.read_text(encoding="utf-8")
        new = rewrite(old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            changed += 1
    print(f"floorplan_rewrite: {changed} of {len(files)} files rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
