"""A jury is chosen from the event's people, told apart as people (issue 53, KSI 1.3.2): three or
five neutral backgammon players, the TD of the tournament not among them — a name the event does
not know (no staff account, no entrant of its backgammon competitions) is refused over the real
server with a code every face words, and nothing is stored; the event's own people, however
their names are written, sit on it under the names the event knows them by."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from support.competition_play import event_people
from support.harness import Api

from backgammon.test_bg_table_device import Recording, _record, appealed

CODES = Path(__file__).resolve().parents[2] / "pwa" / "i18n"
JURORS = ("Ragna Sif", "Sæmundur Þór", "Tinna")


def _decide(head: Api, match: Recording, jury: tuple[str, ...], lang: str) -> dict:
    command = {"type": "DecideAppeal", "jury": list(jury), "overturn_votes": 1}
    body = {"command_id": str(uuid.uuid4()), "expected_version": match.version, "command": command}
    path = f"/api/backgammon/matches/{match.id}/commands?lang={lang}"
    r = head.http.post(path, json=body, headers=head.headers())
    return {"status": r.status_code, **r.json()}


def test_ksi_1_3_2_a_juror_not_of_the_event_is_refused_with_a_code_every_face_words(
    server, head: Api
) -> None:
    event_people(head, JURORS)
    match = appealed(head)
    stranger = ("Ragna Sif", "Sæmundur Þór", "Zóphónías Úlfur")  # nobody the event knows
    for lang in ("is", "en", "et", "lv"):
        refused = _decide(head, match, stranger, lang)
        assert refused["status"] == 422, refused
        assert refused["rule"] == "KSI 1.3.2" and refused["field"] == "jury", refused
        assert refused["code"] == "bg_juror_not_of_event", refused
        words = json.loads((CODES / f"codes.{lang}.json").read_text())
        said = words["code.bg_juror_not_of_event"].format(name="Zóphónías Úlfur")
        assert refused["detail"] == said, refused  # in the reader's language, naming him
    assert _record(head, match.id)[-1]["type"] == "BgAppealLodged"  # no half-write


def test_ksi_1_3_2_the_events_people_sit_on_the_jury_by_identity_under_the_events_names(
    server, head: Api
) -> None:
    event_people(head, JURORS)
    match = appealed(head)
    written = ("RAGNA  SIF", "saemundur thor", " tinna ")
    decided = _decide(head, match, written, "is")
    assert decided["status"] == 201, decided
    stored = _record(head, match.id)[-1]
    assert stored["type"] == "BgAppealDecided", stored
    assert tuple(stored["event"]["jury"]) == JURORS, stored  # as the event knows them
    assert stored["event"]["rule"] == "KSI 5.2"


def test_ksi_1_3_2_the_tds_and_the_players_are_the_events_people_but_never_neutral(
    server, head: Api
) -> None:
    """An official (a staff account) or an entrant is of the event, so it is the engine's
    neutrality that refuses the TD and the match's own players, whatever the spelling."""
    event_people(head, (*JURORS, "Ása Jónsdóttir"))
    match = appealed(head)
    for jury in (("Asa Jonsdottir", *JURORS[:2]), ("HEAD", *JURORS[:2])):
        refused = _decide(head, match, jury, "is")
        assert refused["status"] == 422 and refused["code"] == "bg_jury_not_neutral", refused
