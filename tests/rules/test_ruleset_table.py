"""docs/korona-rulesets.md lists each ruleset's differing rules with both citations (issue 43
point 4): the table there is the one the rulesets make, so it cannot go stale."""

from __future__ import annotations

from pathlib import Path

from tableside.disciplines.korona.ruleset_table import markdown_table, rows

DOC = Path(__file__).resolve().parents[2] / "docs" / "korona-rulesets.md"


def test_the_docs_table_is_the_rulesets_table() -> None:
    text = DOC.read_text("utf-8")
    assert markdown_table() in text, "regenerate the table: ruleset_table.markdown_table()"


def test_the_table_names_lv_and_novus08_paragraphs_the_issue_found_called_silent() -> None:
    cited = {(t, k): (lv, novus) for t, k, _e, lv, novus in rows()}
    assert cited["remarks", "disturbed_opponent"][1] == "NOVUS08 19.1.10"
    assert cited["stroke_offences", "placing_touched_puck"][0].startswith("penalty: LV 13.2")
    assert cited["remarks", "cue_beyond_corner"][0].startswith("LV 13.4")
    assert cited["remarks", "hands_on_board"][0].startswith("LV 13.5")
    assert cited["cite", "into_lock_legal"][0] == "LV 14.5"
    assert cited["cite", "pairs_centre_restored"][0] == "LV 18.2 (14.5)"
