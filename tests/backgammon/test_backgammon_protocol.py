"""A backgammon match's protocol PDF and its read model over a real server (issue 12): the
issue's 7-point match (a lateness penalty, a pause, a dropped double, a gammon, the Crawford
game, a 30 s penalty, +5 min for a wrong claim, a ruling and its appeal, a flag) recorded
through the API, reported and confirmed; the PDF's text in Icelandic, English, Estonian and
Latvian; the staff's list and the jury's finder; a rebuild that gives the same rows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest
from match.test_exports import _poppler
from msgspec.structs import replace
from support.competition_play import event_people
from support.harness import Api
from support.words import WORD, raw_codes
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.plugins.backgammon.exports import bg_sheet
from tableside.plugins.backgammon.exports.bg_words import BG_WORDS

from backgammon.test_backgammon_http import HttpTable, _create
from backgammon.test_scenario import _play_until_flag, scenario_seed  # tests/backgammon

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "exports"
JURY = ("Jón", "Gunna", "Siggi")
RULING = "The roll stands: the dice landed flat"
# What happens before the flag: a forced 30 s wait (KSI 4.1.5.2, at the flag's time less
# 30 min), +5 min for a wrong game-over claim (4.3.2.8), the TD called, a ruling with a
# witness, an appeal the jury rejects (5.2).
BEFORE_FLAG = (
    c.ClaimEarlyPickup(offender="A", at_ms=0),
    c.RuleGameOverClaim(claimant="B", right=False),
    c.CallTD(side="A", reason="a cocked die?"),
    c.GiveRuling(text=RULING, favours="B", testimony=("Dóra",)),
    c.Appeal(side="A"),
    c.DecideAppeal(jury=JURY, overturn_votes=1, td="Tómas"),
)


class ProtocolTable(HttpTable):
    """The scenario's match over HTTP, with the officials' commands before the flag."""

    def do(self, cmd: c.Command) -> tuple:
        if isinstance(cmd, c.ReportFlag) and not getattr(self, "extras", False):
            self.extras = True
            for extra in BEFORE_FLAG:
                if isinstance(extra, c.ClaimEarlyPickup):
                    extra = replace(extra, at_ms=cmd.at_ms - 30 * 60_000)
                super().do(extra)
        return super().do(cmd)


@pytest.fixture(scope="module")
def played(head: Api) -> ProtocolTable:
    """The match, then the winner's report and the TD's confirmation (KSI 4.6)."""
    ProtocolTable.api = head
    event_people(head, JURY)  # a jury of the event's people (KSI 1.3.2)
    table = _play_until_flag(scenario_seed(), ProtocolTable)
    assert table.state.over and table.state.winner == "B"
    table.do(c.ReportResult(side="B"))
    table.do(c.ConfirmResult())
    return table


def _record(head: Api, match_id: str) -> list[dict]:
    r = head.get(f"/api/matches/{match_id}/record")
    assert r.status_code == 200, r.text
    return r.json()


def _pdf_text(server, match_id: str, lang: str, **query) -> str:
    _poppler()
    path = f"/api/backgammon/matches/{match_id}/protocol.pdf"
    r = Api(server.base).get(path, lang=lang, **query)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/pdf"
    assert "attachment" in r.headers["content-disposition"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pdf = ARTIFACTS / f"backgammon-protocol-{lang}{'-moves' if query else ''}.pdf"
    pdf.write_bytes(r.content)
    out = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    )
    return " ".join(out.stdout.split())  # a line that wraps at the margin reads on


def _name(side: str) -> str:
    return {"A": "Ása", "B": "Bjarni"}[side]  # as HttpTable creates the match


def _facts(table: ProtocolTable, w: dict[str, str]) -> list[str]:
    """What the protocol must say about this match, in the words of one language."""
    events = table.events
    drop = next(e for e in events if type(e) is ev.DoubleDropped)
    dropped = next(e for e in events if type(e) is ev.GameEnded and e.by == "drop")
    gammon = next(e for e in events if type(e) is ev.GameEnded and e.kind == "gammon")
    flag = next(e for e in events if type(e) is ev.FlagFell)
    score = table.state.score
    return [
        "Ása — Bjarni",
        w["length_value"].format(n=7),
        w["clock_on"],
        f"{w['game']} {table.state.games} · {w['crawford']}",
        w["drop"].format(player=_name(drop.side)),
        w["wins"].format(player=_name(gammon.winner), how=w["end_gammon_play"], cube=gammon.cube),
        w["wins"].format(player=_name(dropped.winner), how=w["end_single_drop"], cube=dropped.cube),
        w["penalty_start"].format(player="Bjarni", points=1, minutes=5, a=1, b=0) + " (KSI 2.2.4)",
        w["pause"].format(player="Ása", own=1, pooled=0) + " (KSI 2.2.2)",
        w["forced_wait"].format(seconds=30, player="Ása") + " (KSI 4.1.5.2)",
        w["time_added"].format(seconds=300, player="Ása") + " (KSI 4.3.2.8)",
        w["clock_stop_4"],
        w["flag"].format(player=_name(flag.side)) + " (KSI 4.3.3)",
        w["td_called"].format(player="Ása", reason="a cocked die?") + " (KSI 5.1)",
        w["ruling_heard"].format(text=RULING, testimony="Dóra") + " (KSI 5.4)",
        w["appeal"].format(player="Ása") + " (KSI 5.2)",
        w["appeal_upheld"].format(jury=", ".join(JURY), votes=1, size=3) + " (KSI 5.2)",
        w["match_ended"].format(player="Bjarni", a=score[0], b=score[1]) + " (KSI 4.3.3)",
        w["reported"].format(player="Bjarni") + " (KSI 4.6)",
        w["confirmed"] + " (KSI 4.6)",
    ]


@pytest.mark.parametrize("lang", ["is", "en", "et", "lv"])
def test_the_protocol_pdf_tells_the_match_in_words(played, head, server, lang: str) -> None:
    w = BG_WORDS[lang]
    text = _pdf_text(server, played.match_id, lang)
    for fact in _facts(played, w):
        assert fact in text, (fact, text)
    assert text.count(w["crawford"]) == 1  # exactly one Crawford game
    games = [e for e in played.events if type(e) is ev.GameStarted]
    for game in games:
        assert f"{w['game']} {game.game_no}" in text
    record = _record(head, played.match_id)
    assert w["head"].format(n=len(record)) in text
    assert record[-1]["hash"] in text  # the chain head, to verify the record against
    assert not re.search(r"\bBg[A-Z]\w+", text)  # no event type names
    typed = {RULING, "a cocked die?"}  # what the TD typed prints as typed
    ids = frozenset({played.match_id, "tableside audit verify GET /api/matches/verify", *typed})
    assert not raw_codes(text, "en" if lang == "is" else lang, ids=ids)
    assert not _english_in(text, lang)


def _english_in(text: str, lang: str) -> set[str]:
    """Words of the English protocol that the other language's protocol never uses."""
    if lang == "en":
        return set()
    english = {x.lower() for v in BG_WORDS["en"].values() for x in WORD.findall(v)}
    theirs = {x.lower() for v in BG_WORDS[lang].values() for x in WORD.findall(v)}
    named = WORD.findall(f"{RULING} a cocked die? tableside audit verify GET api matches")
    common = {"ása", "bjarni", *(x.lower() for x in named)}
    return {x for x in WORD.findall(text) if x.lower() in english - theirs - common}


def test_with_moves_each_game_lists_them_as_the_mat_export_does(played, head, server) -> None:
    mat = head.get(f"/api/backgammon/matches/{played.match_id}/match.mat").text
    plays = re.findall(r"\b\d\d: (?:\d+/\d+\*? ?)+", mat)  # e.g. "61: 8/2 24/23"
    assert len(plays) > 20
    text = _pdf_text(server, played.match_id, "is", moves="true")
    for play in plays[:5] + plays[-5:]:
        assert play.strip() in text, play
    assert BG_WORDS["is"]["moves"] in text and "Doubles => 2" in text
    plain = _pdf_text(server, played.match_id, "is")
    assert BG_WORDS["is"]["moves"] not in plain and plays[0].strip() not in plain


def test_the_same_record_gives_the_same_bytes(played, server) -> None:
    path = f"/api/backgammon/matches/{played.match_id}/protocol.pdf"
    first, again = (Api(server.base).get(path, lang="is").content for _ in range(2))
    assert first == again and first.startswith(b"%PDF")


def test_a_protocol_of_no_match_is_404_and_a_strange_language_400(played, server) -> None:
    anyone = Api(server.base)
    r = anyone.get(f"/api/backgammon/matches/{uuid.uuid4()}/protocol.pdf")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("application/problem+json")
    r = anyone.get(f"/api/backgammon/matches/{played.match_id}/protocol.pdf", lang="fr")
    assert r.status_code == 400


def _last_position(head: Api, match_id: str) -> int:
    return _record(head, match_id)[-1]["position"]


def test_the_staff_list_pages_newest_first(played, head, server) -> None:
    newer = [_create(head, length=5)[0] for _ in range(2)]
    position = _last_position(head, newer[-1])
    first = head.get("/api/backgammon/matches", limit=2, min_position=position)
    assert first.status_code == 200, first.text
    page = first.json()
    assert [row["match_id"] for row in page["items"]] == newer[::-1]
    assert page["items"][0] == page["items"][0] | {
        "players": ["Ása", "Bjarni"],
        "length": 5,
        "score": [0, 0],
        "status": "playing",
        "winner": None,
        "discipline": "backgammon",
    }
    rest = head.get("/api/backgammon/matches", before=page["next"]).json()
    row = next(r for r in rest["items"] if r["match_id"] == played.match_id)
    assert row["score"] == list(played.state.score) and row["status"] == "over"
    assert row["winner"] == "B" and row["confirmed"] and row["length"] == 7
    assert row["players"] == ["Ása", "Bjarni"] and row["games"] == played.state.games
    assert row["started_at"] < row["updated_at"]
    positions = [r["position"] for r in page["items"] + rest["items"]]
    assert positions == sorted(positions, reverse=True) and rest["next"] is None
    assert Api(server.base).get("/api/backgammon/matches").status_code == 401


def test_the_jury_finds_backgammon_matches(played, head) -> None:
    position = _last_position(head, played.match_id)
    head.get("/api/backgammon/matches", min_position=position)  # the read model has it

    def found(**query) -> list[str]:
        r = head.get("/api/audit/matches", **query)
        assert r.status_code == 200, r.text
        return [row["match_id"] for row in r.json()["items"]]

    rows = head.get("/api/audit/matches", player="ASA BJ").json()["items"]
    row = next(r for r in rows if r["match_id"] == played.match_id)
    assert row["discipline"] == "backgammon" and row["side_a"] == ["Ása"]
    assert row["status"] == "ended"  # the finder's word for a finished match
    assert row["score"] == list(played.state.score) and row["length"] == 7
    assert played.match_id in found(q=played.match_id[:8])
    assert played.match_id in found(status="over") and played.match_id in found(status="ended")
    assert played.match_id not in found(status="playing")
    assert played.match_id not in found(table=1)
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    earlier = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    assert played.match_id not in found(**{"from": later})
    assert played.match_id in found(**{"from": earlier, "to": later})
    assert not found(player="nobody-plays-here")


def _rows(url: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT * FROM backgammon_matches ORDER BY match_id").fetchall()


def test_a_rebuild_gives_the_same_rows(played, head, module_database_url) -> None:
    position = _last_position(head, played.match_id)
    head.get("/api/backgammon/matches", min_position=position)
    before = _rows(module_database_url)
    assert len(before) >= 1
    env = {**os.environ, "DATABASE_URL": module_database_url}
    done = subprocess.run(
        [sys.executable, "-m", "tableside.cli", "projections", "rebuild", "backgammon"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "rebuilt backgammon" in done.stdout
    assert _rows(module_database_url) == before


def test_every_line_the_protocol_can_print_has_words_in_every_language() -> None:
    source = Path(bg_sheet.__file__).read_text("utf-8")
    table = source[source.index("_SECTIONS: dict") :]
    codes = set(re.findall(r'"([a-z_]+)"', table)) - {"game", "penalties", "pauses"}
    codes -= {"clock_events", "officials", "result"}  # the sections, not codes
    codes |= {f"clock_stop_{case}" for case in range(1, 9)}  # KSI 4.3.2.1-8
    codes |= {f"penalty_{r}" for r in ("start", "pause", "slow_play")}  # 2.2.4, 2.3.1.2
    codes |= {f"end_{k}_play" for k in ("single", "gammon", "backgammon")}
    codes |= {f"end_{k}_concession" for k in ("single", "gammon", "backgammon")}
    assert "double" in codes and "ruling_heard" in codes
    placeholders = {k: set(re.findall(r"\{(\w+)\}", v)) for k, v in BG_WORDS["en"].items()}
    for lang, words in BG_WORDS.items():
        assert not codes - set(words), (lang, codes - set(words))
        assert set(words) == set(BG_WORDS["en"]), lang
        for key, text in words.items():
            assert set(re.findall(r"\{(\w+)\}", text)) == placeholders[key], (lang, key)


@pytest.mark.parametrize("lang", ["is", "en"])
def test_a_match_played_under_other_rules_says_so_in_the_protocol(head, server, lang) -> None:
    """Issue 44: a match imported from another event (a resignation in contact: not a KSI
    board) is marked, and its protocol says so in the reader's language."""
    from backgammon.test_mat import FOREIGN

    body = {"command_id": str(uuid.uuid4()), "text": FOREIGN}
    r = head.http.post("/api/backgammon/matches/import", json=body, headers=head.headers())
    assert r.status_code == 201, r.text
    text = " ".join(_pdf_text(server, r.json()["match_id"], lang).split())
    assert BG_WORDS[lang]["other_rules"] in text, text
