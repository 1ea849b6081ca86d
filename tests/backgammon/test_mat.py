"""Jellyfish .mat export and import: round trip, a file GNU Backgammon wrote, and (when gnubg is
installed) GNU Backgammon importing what we export."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from tableside.disciplines.backgammon import RuleViolation, decide, fold, initial_state
from tableside.disciplines.backgammon import commands as c
from tableside.disciplines.backgammon import events as ev
from tableside.disciplines.backgammon.mat import (
    MatFormatError,
    export_mat,
    import_mat,
    parse_moves,
)
from tableside.disciplines.backgammon.simulate import play_match

from .gnubg_oracle import GNUBG

DATA = Path(__file__).parent / "data"


def replay(commands: list) -> list[ev.Event]:
    state, events = initial_state(), []
    for cmd in commands:
        batch = decide(state, cmd)
        state = fold(batch, state)
        events += batch
    return events


def results(events: list[ev.Event]) -> list[tuple]:
    return [(e.winner, e.points, e.score) for e in events if type(e) is ev.GameEnded]


def test_round_trip_keeps_every_game_and_the_text() -> None:
    for seed in range(12):
        events = list(play_match(random.Random(seed), 1 + seed % 9))
        text = export_mat(events)
        again = replay(import_mat(text))
        assert results(again) == results(events), seed
        assert export_mat(again) == text, seed


def test_export_writes_the_jellyfish_lines() -> None:
    commands = [
        c.CreateMatch(match_id="m", player_a="a", player_b="b", length=5),
        c.StartGame(),
        c.RollOpening(die_a=2, die_b=3),
        c.Play(side="B", moves=((24, 21), (13, 11))),
        c.Double(side="A"),
        c.Take(side="B"),
        c.Roll(side="A", dice=(1, 6)),
        c.Play(side="A", moves=((13, 7), (8, 7))),
        c.Double(side="B"),
        c.Drop(side="A"),
    ]
    text = export_mat(replay(commands))
    assert text == (
        "\n 5 point match\n\n Game 1\n"
        " a : 0                          b : 0\n"
        "  1)                             32: 24/21 13/11\n"
        "  2)  Doubles => 2                Takes\n"
        "  3) 61: 13/7 8/7                 Doubles => 4\n"
        "  4)  Drops                       Wins 2 points\n"
    )


def test_a_premature_double_is_written_where_it_takes_effect() -> None:
    commands = [
        c.CreateMatch(match_id="m", player_a="a", player_b="b", length=5),
        c.StartGame(),
        c.RollOpening(die_a=3, die_b=1),
        c.Double(side="B"),  # while A is still moving (KSI 4.4.5)
        c.Play(side="A", moves=((8, 5), (6, 5))),
        c.Take(side="A"),
    ]
    events = replay(commands)
    text = export_mat(events)
    assert "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Takes\n" in text
    assert results(replay(import_mat(text))) == results(events)


def test_a_match_gnubg_wrote_imports_with_every_play_legal() -> None:
    events = replay(import_mat((DATA / "gnubg_5pt.mat").read_text(), "g"))
    assert results(events)[-1][2] == (7, 3)
    assert next(e for e in events if type(e) is ev.MatchEnded).winner == "A"
    plays = [e for e in events if type(e) is ev.PlayRecorded]
    assert len(plays) > 100 and all(p.legal for p in plays)


def test_move_notation() -> None:
    assert parse_moves("13/8* 24/18/13 6/off bar/22 8/5(2) 6/0") == (
        (13, 8),
        (24, 18),
        (18, 13),
        (6, 0),
        (25, 22),
        (8, 5),
        (8, 5),
        (6, 0),
    )
    with pytest.raises(MatFormatError):
        parse_moves("13-8", 4)


def test_not_a_match_is_refused() -> None:
    with pytest.raises(MatFormatError):
        import_mat("hello\n")
    with pytest.raises(MatFormatError):
        import_mat(" 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 x/5\n")


def test_ksi_1_2_1_an_impossible_record_is_refused_by_the_engine_naming_line_and_game() -> None:
    with pytest.raises(MatFormatError) as refused:
        import_mat(" 3 point match\n\n Game 1\n a : 0      b : 0\n  1) 31: 9/6 7/6\n")
    assert (refused.value.line, refused.value.game, refused.value.rule) == (5, 1, "KSI 1.2.1")
    assert str(refused.value).startswith("line 5, game 1: KSI 1.2.1: ")


FOREIGN = """; [Event "Another club's night"]

 3 point match

 Game 1
 Ása : 0                        Bjarni : 0
  1) 31: 8/5 6/5                  64: 24/18 13/9
  2) 62: 24/18 13/11
                                  Wins 1 point

 Game 2
 Ása : 0                        Bjarni : 1
  1) 52: 13/8 13/11               66: 24/18(2) 13/7(2)
      Wins 2 points
"""


def test_ksi_4_5_a_foreign_match_with_a_resignation_in_contact_is_imported_and_marked() -> None:
    """Resigning while contact remains is refused on a KSI board (4.5); in a match from another
    event it is history: imported as it was, marked as played under other rules, and the
    resignations cite no KSI paragraph."""
    events = replay(import_mat(FOREIGN, "f"))
    created = events[0]
    assert type(created) is ev.MatchCreated and created.other_rules and created.rule == ""
    assert [(e.winner, e.points, e.score) for e in events if type(e) is ev.GameEnded] == [
        ("B", 1, (0, 1)),
        ("A", 2, (2, 1)),
    ]
    conceded = [e for e in events if type(e) is ev.ConcessionOffered]
    assert len(conceded) == 2 and all(e.rule == "" for e in conceded)
    # a KSI match refuses the same resignation
    ksi = replay(import_mat(FOREIGN.split(" Game 2")[0].replace("Wins 1 point", ""), "k"))
    assert not ksi[0].other_rules


def _gnubg_results(path: Path) -> list[dict]:
    script = path.with_suffix(".py")
    script.write_text(
        "import gnubg, json\n"
        f"gnubg.command('import mat {path}')\n"
        "m = gnubg.match(0, 0, 0, 0)\n"
        "out = [[g['info']['score-X'], g['info']['score-O'], g['info']['points-won']]"
        " for g in m['games']]\n"
        f"json.dump([m['match-info']['match-length'], out], open('{path}.json', 'w'))\n"
    )
    subprocess.run([GNUBG, "-t", "-q", "-p", str(script)], capture_output=True, timeout=300)
    return json.loads(Path(f"{path}.json").read_text())


@pytest.mark.skipif(GNUBG is None, reason="gnubg is not installed")
def test_gnubg_imports_what_we_export() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for seed in (3, 5, 8):
            events = list(play_match(random.Random(seed), 7))
            path = Path(tmp) / f"m{seed}.mat"
            path.write_text(export_mat(events))
            length, games = _gnubg_results(path)
            ours = [(e.score, e.points) for e in events if type(e) is ev.GameEnded]
            assert length == 7
            assert [g[2] for g in games] == [p for _, p in ours], seed
            starts = [list(e.score) for e in events if type(e) is ev.GameStarted]
            assert [g[:2] for g in games] == starts, seed


LINES = [
    " 3 point match",
    " 1 point match",
    " Game 1",
    " Game 2",
    " a : 0                          b : 0",
    "  1) 31: 8/5 6/5                 Doubles => 2",
    "  1)                             42: 8/4 6/4",
    "  2)  Takes                      66: 24/18 24/18 13/7 13/7",
    "  2)  Drops                       Wins 1 point",
    "      Wins 3 points",
    "                                  Wins 0 points",
    "  3) 00: 25/0",
    "  3) 55: bar/20* 20/off 6/5(9)",
    "  4) 21: 13/x 1//",
    "; comment",
    "",
]


@settings(max_examples=300, deadline=None)
@given(lines=hs.lists(hs.sampled_from(LINES) | hs.text(max_size=40), max_size=12))
def test_any_text_is_a_match_or_a_named_refusal(lines: list[str]) -> None:
    with contextlib.suppress(MatFormatError, RuleViolation):
        replay(import_mat("\n".join(lines)))


def test_a_match_played_under_other_rules_says_so_in_its_export_and_reads_back_so() -> None:
    """The mark survives the file: an export of a match from another event says it was played
    under other rules, and importing that export marks the match again (no KSI refusal)."""
    events = replay(import_mat(FOREIGN, "f"))
    text = export_mat(events)
    assert text.splitlines()[0].startswith("; Played under other rules")
    again = replay(import_mat(text, "again"))
    assert again[0].other_rules and results(again) == results(events)
    assert export_mat(again) == text
