"""The signed protocol of a pairs match says who did what and who bore what, each by name.

EKML §28(5): a pair's penalty puck goes to its player with the turn (example 1), or, when the
pair is not shooting, to its next shooter, who also misses that turn (example 2) — even when
the partner offended. §28(10): the 30 s limit binds the pair. The PDF is read with pdftotext.
"""

from __future__ import annotations

import shutil
import subprocess
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tableside.disciplines.korona import decide, fold, initial_state
from tableside.disciplines.korona.commands import (
    AssignOpeningShot,
    CreateMatch,
    GiveRemark,
    RecordStroke,
    ReportIncident,
    StrokeFacts,
)
from tableside.eventlog.source import Record
from tableside.match.exports.labels import code_words, words
from tableside.plugins.korona.exports.protocol_pdf import protocol_pdf
from tableside.plugins.korona.exports.sheet import protocol_sheet
from tableside.web.words import counted

PEETER, LIIS = "Peeter Saar", "Liis Kask"  # side A, opposite each other
JAAN, MARI = "Jaan Kask", "Mari Mets"  # side B; clockwise: Peeter, Jaan, Liis, Mari


def _record(commands) -> list[Record]:
    state, records, stream = initial_state(), [], uuid.uuid4()
    for cmd in commands:
        batch = decide(state, cmd)
        state = fold(batch, state)
        for e in batch:
            n = len(records) + 1
            records.append(Record(stream, n, n, type(e).__name__, e, datetime.now(UTC)))
    return records


def _pairs_match() -> list[Record]:
    return _record(
        [
            CreateMatch(
                match_id="m", side_a=(PEETER, LIIS), side_b=(JAAN, MARI), fmt="pairs", games=1
            ),
            AssignOpeningShot(method="lot", lot_winner="A"),
            RecordStroke(player=PEETER, facts=StrokeFacts(own_pocketed=1)),
            # Example 1: Liis touches a puck while Peeter has the turn: Peeter takes it.
            ReportIncident(code="touched_puck_handling", player=LIIS),
            # Jaan shoots; Peeter moves a puck during Jaan's turn: example 2, Liis (A's next
            # shooter) takes the penalty puck and misses that turn.
            ReportIncident(code="moved_puck_in_opponent_turn", player=PEETER),
            GiveRemark(player=MARI, reason="slow_play"),  # the 30 s limit, for Jaan and Mari
        ]
    )


def _text(lang: str, tmp_path: Path, records: list[Record] | None = None) -> str:
    """The PDF's text in drawing order (`pdftotext -raw`: a table row's cells one after the
    other, wrapped cells joined), whitespace made single spaces."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext missing: run `make pdf-tools` as root (poppler-utils)")
    pdf = tmp_path / f"pairs-{lang}.pdf"
    pdf.write_bytes(protocol_pdf(protocol_sheet(records or _pairs_match()), lang))
    raw = subprocess.run(
        ["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return " ".join(raw.split())


def _row(text: str, *cells: str) -> None:
    """A protocol row holding exactly these cells, in this order."""
    row = " ".join(" ".join(c.split()) for c in cells)
    assert row in text, f"no row {row!r} in\n{text}"


@pytest.mark.parametrize("lang", ["et", "lv", "en"])
def test_ekml_28_5_protocol_names_the_offender_and_the_penalised_player_apart(
    lang: str, tmp_path: Path
) -> None:
    text = _text(lang, tmp_path)
    w = words(lang)
    assert w["offender"] in text and w["borne_by"] in text
    touched = code_words(lang, "touched_puck_handling")
    moved = code_words(lang, "moved_puck_in_opponent_turn")
    # Example 1: Liis did it, Peeter bears it.
    _row(text, "1", w["penalty"], LIIS, PEETER, touched)
    # Example 2: Peeter did it, Liis bears the penalty puck and misses the turn.
    _row(text, "1", w["penalty"], PEETER, LIIS, moved)
    _row(text, "1", w["forfeit_turn"], PEETER, LIIS, moved)


@pytest.mark.parametrize("lang", ["et", "lv", "en"])
def test_ekml_28_10_the_30_s_limit_row_names_the_pair(lang: str, tmp_path: Path) -> None:
    text = _text(lang, tmp_path)
    _row(text, "1", words(lang)["time_limit"], "—", f"{JAAN} / {MARI}", "EKML §26(4)")
    assert " B EKML" not in text  # no side letter on a signed record


@pytest.mark.parametrize(("lang", "word"), [("et", "hoiatus"), ("lv", "brīdinājums")])
def test_novus08_19_protocol_calls_the_remark_hoiatus(lang: str, word: str, tmp_path: Path) -> None:
    records = _record(
        [
            CreateMatch(match_id="m", side_a=(PEETER,), side_b=(JAAN,), ruleset="NOVUS08"),
            AssignOpeningShot(method="lot", lot_winner="A"),
            GiveRemark(player=JAAN, reason="object_on_cushion"),
        ]
    )
    text = _text(lang, tmp_path, records)
    detail = code_words(lang, "object_on_cushion")
    _row(text, "1", word, JAAN, JAAN, f"{detail} (1)", "NOVUS08 19.1.4")


@pytest.mark.parametrize("lang", ["et", "lv", "en"])
def test_ekml_28_1_protocol_shows_the_seats_and_the_move_between_games(
    lang: str, tmp_path: Path
) -> None:
    records = _record(
        [
            CreateMatch(
                match_id="m", side_a=(PEETER, LIIS), side_b=(JAAN, MARI), fmt="pairs", games=3
            ),
            AssignOpeningShot(method="lot", lot_winner="A"),
            RecordStroke(player=PEETER, facts=StrokeFacts(own_pocketed=1)),
            ReportIncident(code="took_puck", player=PEETER),  # game 1 lost (§23(1)7)
        ]
    )
    text = _text(lang, tmp_path, records)
    w = words(lang)
    _row(text, w["seats"], w["game"], w["seats_order"], w["rule"])
    _row(text, "1", f"{PEETER} → {JAAN} → {LIIS} → {MARI}", "EKML §19(1)")
    # Everyone one seat on, clockwise: Mari comes to the opening seat (EKML §28(1)).
    _row(text, "2", f"{MARI} → {PEETER} → {JAAN} → {LIIS}", "EKML §28(1)")
    _row(text, w["seats_move"])


@pytest.mark.parametrize("lang", ["et", "lv", "en"])
def test_the_protocol_headings_keep_the_word_game_whole(lang: str, tmp_path: Path) -> None:
    """Issue 43 point 5: the en PDF broke "Game" as "Gam/e" in its narrow first column."""
    text = _text(lang, tmp_path)
    w = words(lang)
    _row(text, w["game"], w["opening"], w["winner"], w["reason"])
    _row(text, w["game"], w["kind"], w["offender"], w["borne_by"], w["detail"], w["rule"])


@pytest.mark.parametrize("lang", ["et", "lv", "en"])
def test_ekml_22_5_the_games_table_lists_every_game_the_third_remark_lost(
    lang: str, tmp_path: Path
) -> None:
    """The third remark loses the current game and the remaining ones (EKML §22(5), §26(2)):
    the games table lists all three, the unplayed two with nobody opening."""
    records = _record(
        [
            CreateMatch(match_id="m", side_a=(PEETER,), side_b=(JAAN,), games=3),
            AssignOpeningShot(method="lot", lot_winner="A"),
            *[GiveRemark(player=PEETER, reason="object_on_cushion") for _ in range(3)],
        ]
    )
    text = _text(lang, tmp_path, records)
    third = code_words(lang, "third_remark")
    _row(text, "1", PEETER, JAAN, third)
    _row(text, "2", "—", JAAN, third)
    _row(text, "3", "—", JAAN, third)


@pytest.mark.parametrize(
    ("lang", "n", "said"),
    [
        ("lv", 1, "1 notikums"),
        ("lv", 21, "21 notikums"),
        ("lv", 11, "11 notikumu"),
        ("lv", 30, "30 notikumu"),
        ("lv", 2, "2 notikumi"),
        ("et", 1, "1 sündmus"),
        ("et", 21, "21 sündmust"),
        ("en", 1, "1 event "),
        ("en", 21, "21 events"),
    ],
)
def test_the_protocols_counts_take_the_languages_plural(lang: str, n: int, said: str) -> None:
    """Issue 43 point 5: Latvian has three forms (CLDR zero, one, other), not "1 notikumi"."""
    assert counted(words(lang), "events_n", lang, n).startswith(said)


@pytest.mark.parametrize(("lang", "said"), [("lv", "2 seti"), ("et", "2 geimi"), ("en", "2 games")])
def test_ekml_22_5_the_games_the_third_remark_lost_are_counted_in_words(
    lang: str, said: str, tmp_path: Path
) -> None:
    records = _record(
        [
            CreateMatch(match_id="m", side_a=(PEETER,), side_b=(JAAN,), games=3),
            AssignOpeningShot(method="lot", lot_winner="A"),
            *[GiveRemark(player=PEETER, reason="object_on_cushion") for _ in range(3)],
        ]
    )
    text = _text(lang, tmp_path, records)
    _row(text, "—", PEETER, said, "EKML §22(5)")
