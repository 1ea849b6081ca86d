"""The protocol's printed words in Estonian, Latvian and English (the federations' terms), and
Icelandic (the faces' terms)."""

from __future__ import annotations

import re
from datetime import datetime

from tableside.web.words import catalogue

_EN = {
    "judge": "Table judge",
    "title": "Match protocol",
    "event": "Event",
    "table": "Table",
    "rules": "Rules",
    "match": "Match",
    "side_a": "Side A",
    "side_b": "Side B",
    "games": "Games",
    "game": "Game",
    "opening": "Opening shot",
    "seats": "Seats",
    "seats_order": "Clockwise from the opening seat",
    "seats_move": (
        "Between games everyone moves one seat clockwise, then sets out the partner's pucks."
    ),
    "winner": "Winner",
    "reason": "How",
    "result": "Result",
    "games_won": "Games won",
    "points": "Points",
    "sanctions": "Remarks and penalties",
    "kind": "Kind",
    "player": "Player",
    "offender": "Committed by",
    "borne_by": "Borne by",
    "detail": "Detail",
    "rule": "Rule",
    "none": "None.",
    "corrections": "Corrections",
    "signature": "Table judge's signature",
    "signed_at": "Time of signing",
    "not_signed": "Not signed yet",
    "drawn": "drawn",
    "annulled": "annulled",
    "remark": "remark",
    "remark.NOVUS08": "warning (hoiatus)",
    "warning": "warning",
    "penalty": "penalty puck",
    "removed": "removed",
    "time_limit": "30 s limit",
    "forfeit_turn": "misses next turn",
    "games_lost": "remaining games lost",
    "of": "of",
    "receipt": "Signed receipt (scan to check it, offline)",
    "verification": "Verification",
    "events_n": "{n} events stored in this match's hash chain",
    "events_n.one": "{n} event stored in this match's hash chain",
    "games_n": "{n} games",
    "games_n.one": "{n} game",
    "events_n.zero": "{n} events stored in this match's hash chain",
    "head": "Chain head (hash of event {n})",
}
_ET = {
    "judge": "Lauakohtunik",
    "title": "Mänguprotokoll",
    "event": "Võistlus",
    "table": "Laud",
    "rules": "Reeglid",
    "match": "Mäng",
    "side_a": "Pool A",
    "side_b": "Pool B",
    "games": "Geimid",
    "game": "Geim",
    "opening": "Avalöök",
    "seats": "Kohad",
    "seats_order": "Päripäeva avalöögi kohast",
    "seats_move": (
        "Geimide vahel liiguvad kõik ühe koha võrra päripäeva ja asetavad seejärel partneri seibid."
    ),
    "winner": "Võitja",
    "reason": "Kuidas",
    "result": "Tulemus",
    "games_won": "Võidetud geimid",
    "points": "Punktid",
    "sanctions": "Märkused ja karistused",
    "kind": "Liik",
    "player": "Mängija",
    "offender": "Rikkuja",
    "borne_by": "Karistatu",
    "detail": "Täpsustus",
    "rule": "Reegel",
    "none": "Puuduvad.",
    "corrections": "Parandused",
    "signature": "Lauakohtuniku allkiri",
    "signed_at": "Allkirjastamise aeg",
    "not_signed": "Veel allkirjastamata",
    "drawn": "viik",
    "annulled": "tühistatud",
    "remark": "märkus",
    "remark.NOVUS08": "hoiatus",
    "warning": "hoiatus",
    "penalty": "trahviseib",
    "removed": "eemaldatud",
    "time_limit": "30 s piirang",
    "forfeit_turn": "jääb löögist ilma",
    "games_lost": "ülejäänud geimid kaotatud",
    "of": "/",
    "receipt": "Allkirjastatud kviitung (skaneeri ja kontrolli, ka võrguta)",
    "verification": "Kontroll",
    "events_n": "{n} sündmust mängu räsiahelas",
    "events_n.one": "{n} sündmus mängu räsiahelas",
    "events_n.zero": "{n} sündmust mängu räsiahelas",
    "games_n": "{n} geimi",
    "games_n.one": "{n} geim",
    "head": "Ahela pea (sündmuse {n} räsi)",
}
_LV = {
    "judge": "Galda tiesnesis",
    "title": "Spēles protokols",
    "event": "Sacensības",
    "table": "Galds",
    "rules": "Noteikumi",
    "match": "Spēle",
    "side_a": "Puse A",
    "side_b": "Puse B",
    "games": "Seti",
    "game": "Sets",
    "opening": "Pirmais sitiens",
    "seats": "Vietas",
    "seats_order": "Pulksteņrādītāja virzienā no pirmā sitiena vietas",
    "seats_move": (
        "Starp setiem visi pārsēžas par vienu vietu pulksteņrādītāja virzienā un tad saliek"
        " partnera kauliņus."
    ),
    "winner": "Uzvarētājs",
    "reason": "Kā",
    "result": "Rezultāts",
    "games_won": "Uzvarētie seti",
    "points": "Punkti",
    "sanctions": "Piezīmes un sodi",
    "kind": "Veids",
    "player": "Spēlētājs",
    "offender": "Pārkāpējs",
    "borne_by": "Sodītais",
    "detail": "Sīkāk",
    "rule": "Noteikums",
    "none": "Nav.",
    "corrections": "Labojumi",
    "signature": "Galda tiesneša paraksts",
    "signed_at": "Parakstīšanas laiks",
    "not_signed": "Vēl nav parakstīts",
    "drawn": "neizšķirts",
    "annulled": "anulēts",
    "remark": "piezīme",
    "remark.NOVUS08": "brīdinājums",
    "warning": "brīdinājums",
    "penalty": "soda kauliņš",
    "removed": "izslēgts",
    "time_limit": "30 s ierobežojums",
    "forfeit_turn": "izlaiž gājienu",
    "games_lost": "atlikušie seti zaudēti",
    "of": "/",
    "receipt": "Parakstīta kvīts (noskenējiet, lai pārbaudītu, arī bezsaistē)",
    "verification": "Pārbaude",
    "events_n": "{n} notikumi spēles jaucējkodu ķēdē",
    "events_n.one": "{n} notikums spēles jaucējkodu ķēdē",
    "events_n.zero": "{n} notikumu spēles jaucējkodu ķēdē",
    "games_n": "{n} seti",
    "games_n.one": "{n} sets",
    "games_n.zero": "{n} setu",
    "head": "Ķēdes galva (notikuma {n} jaucējkods)",
}
# Icelandic in the faces' own terms (spectator.is.json, audit.is.json: "leikskýrsla",
# "viðureign", "leikur", "tafla", "keðja"), for a korona match read on an Icelandic face.
_IS = {
    "judge": "Borðdómari",
    "title": "Leikskýrsla",
    "event": "Mót",
    "table": "Borð",
    "rules": "Reglur",
    "match": "Viðureign",
    "side_a": "Hlið A",
    "side_b": "Hlið B",
    "games": "Leikir",
    "game": "Leikur",
    "opening": "Upphafsskot",
    "seats": "Sæti",
    "seats_order": "Réttsælis frá sæti upphafsskotsins",
    "seats_move": (
        "Milli leikja færast allir um eitt sæti réttsælis og raða síðan töflum meðspilarans."
    ),
    "winner": "Sigurvegari",
    "reason": "Hvernig",
    "result": "Úrslit",
    "games_won": "Unnir leikir",
    "points": "Stig",
    "sanctions": "Athugasemdir og refsingar",
    "kind": "Tegund",
    "player": "Leikmaður",
    "offender": "Brotlegur",
    "borne_by": "Ber refsinguna",
    "detail": "Nánar",
    "rule": "Regla",
    "none": "Engar.",
    "corrections": "Leiðréttingar",
    "signature": "Undirskrift borðdómara",
    "signed_at": "Undirritað",
    "not_signed": "Ekki undirritað enn",
    "drawn": "jafntefli",
    "annulled": "ógilt",
    "remark": "athugasemd",
    "remark.NOVUS08": "viðvörun (hoiatus)",
    "warning": "viðvörun",
    "penalty": "refsitafla",
    "removed": "fjarlægður",
    "time_limit": "30 s mörk",
    "forfeit_turn": "missir næsta skot",
    "games_lost": "leikir sem eftir voru tapaðir",
    "of": "af",
    "receipt": "Undirrituð kvittun (skannaðu til að athuga hana, líka án nets)",
    "verification": "Staðfesting",
    "events_n": "{n} atburðir geymdir í keðju viðureignarinnar",
    "events_n.one": "{n} atburður geymdur í keðju viðureignarinnar",
    "games_n": "{n} leikir",
    "games_n.one": "{n} leikur",
    "head": "Haus keðjunnar (tætigildi atburðar {n})",
}
WORDS = {"en": _EN, "et": _ET, "lv": _LV, "is": _IS}


def words(lang: str) -> dict[str, str]:
    """The labels of one language (English for anything else)."""
    return WORDS.get(lang, _EN)


_NOTE = {"en": "note", "et": "märkus", "lv": "piezīme", "is": "athugasemd"}
_FILLED = re.compile(r"(\w+) is silent; (.+?) applied, by the guide")
_SILENT = re.compile(r"(\w+) is silent(?!;)")
_SANCTION = re.compile(r"; sanction: (.+?), by the guide")
_NO_SANCTION = re.compile(r"(\w+) names no sanction")


def citation(lang: str, rule: str) -> str:
    """A rule citation in the reader's language: EKML's "märkus" (a paragraph's note) reads
    "note" / "piezīme"; a silence the guide filled from another text in the reader's words;
    the paragraph stays as cited (the faces' `citation` in i18n.js)."""
    said = face_words(lang)
    rule = _SANCTION.sub(lambda m: "; " + said["term.sanction_filled"].format(rule=m[1]), rule)
    rule = _NO_SANCTION.sub(lambda m: said["term.no_sanction"].format(ruleset=m[1]), rule)
    filled = said["term.guide_filled"]
    rule = _FILLED.sub(lambda m: filled.format(ruleset=m[1], rule=m[2]), rule)
    silent = face_words(lang)["term.silent"]
    rule = _SILENT.sub(lambda m: silent.format(ruleset=m[1]), rule)
    return rule.replace("märkus", _NOTE.get(lang, _NOTE["en"]))


def face_words(lang: str) -> dict[str, str]:
    """The faces' shared catalogue (pwa/i18n/<lang>.json) in any language a face speaks,
    Icelandic included (English for anything else): what a page the server writes says."""
    return catalogue("", lang)


def _codes(lang: str) -> dict[str, str]:
    """The engine's codes in words (codes.<lang>.json), Icelandic included."""
    return catalogue("codes", lang)


def console_words(lang: str) -> dict[str, str]:
    """The console's catalogue (admin.<lang>.json): what a printed standings table calls its
    columns, formats and tie-breaks, in the words the TD's screen uses (Icelandic included:
    the console speaks it, and links its standings in it)."""
    return catalogue("admin", lang)


def codes(lang: str) -> dict[str, str]:
    """Every code of the engine in words (codes.<lang>.json, without the `code.` prefix)."""
    return {k.removeprefix("code."): v for k, v in _codes(lang).items() if k.startswith("code.")}


def code_words(lang: str, code: str) -> str:
    """A code (a foul, a reason, a card, a scope…) in words; anything that is not a code (a
    reason a head judge typed, a count) as written."""
    return _codes(lang).get(f"code.{code}", code)


def when(at: str) -> str:
    """An instant as the exports print it: the server's own time zone (the hall's), day
    first; "" if unknown."""
    try:
        return datetime.fromisoformat(at).astimezone().strftime("%d.%m.%Y %H:%M")
    except ValueError:
        return ""
