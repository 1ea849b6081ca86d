"""The engine's refusals in Icelandic (KSI 1.5.1: Icelandic is KSI's official language), and
through the same templates in Estonian and Latvian (`refusals_et_lv`: issue 43).

Pure data and one pure function: `words(message, "is")` gives the Icelandic of an English
refusal the engine raised, its figures and names carried over; a refusal without a catalogue
entry stays English (`tests/backgammon/test_refusals_is.py` finds every refusal the engine can
raise here, so none is missed). Terms as KSI's own text has them (the founders' KSI.md glossary):
viðureign (match), leikur (game), mótsstjóri (TD), dómnefnd (jury), eftirlitsmaður (monitor).
"""

from __future__ import annotations

import re

from tableside.disciplines.backgammon.refusals_et_lv import BALTIC

# English as the engine raises it, "{}" where a figure or name goes → Icelandic, "{0}", "{1}"…
ICELANDIC: dict[str, str] = {
    "0 to 15 checkers a side": "0 til 15 leikmenn á hvorri hlið",
    "1 to the match length in points": "1 stig upp í lengd viðureignarinnar",
    "a concession is waiting for an answer": "uppgjöf bíður svars",
    "a cube value is 2, 4, 8, 16 ...": "gildi tvöföldunarteningsins er 2, 4, 8, 16 …",
    "a double comes before rolling": "tvöfaldað er áður en kastað er",
    "a double is waiting for take or drop": "tvöföldun bíður þess að vera tekin eða hafnað",
    "a jury is three or five different people": "í dómnefnd sitja þrír eða fimm ólíkir menn",
    "a match is 1 to {} points": "viðureign er 1 til {0} stig",
    "a monitor's name; requested by A, B or the TD": (
        "nafn eftirlitsmanns; að beiðni A, B eða mótsstjóra"
    ),
    "a player doubles on his own turn": "keppandi tvöfaldar þegar hann á leik",
    "a report says what the monitor saw": "skýrsla segir hvað eftirlitsmaðurinn sá",
    "a ruling says what was decided and why": "úrskurður segir hvað var ákveðið og hvers vegna",
    "a scoresheet of a match in progress": "skorblað viðureignar sem er í gangi",
    "a side is 26 counts (off, points 1-24, bar)": (
        "hlið er 26 tölur (borið út, reitir 1-24, slá)"
    ),
    "a table 1 to {}, or none": "borð 1 til {0}, eða ekkert",
    "a winner's score of the match length, and why": (
        "skor sigurvegarans upp í lengd viðureignarinnar, og hvers vegna"
    ),
    "already accepted by rolling": "þegar samþykkt með því að kasta",
    "already permitted": "þegar leyft",
    "an appeal follows a ruling at once": "áfrýjun kemur strax á eftir úrskurði",
    "at least one pause": "að minnsta kosti ein pása",
    "both sides on one point": "báðar hliðar á sama reit",
    "conduct, aids or equipment": "framkoma, hjálpartæki eða búnaður",
    "device time runs forward": "tími tækisins gengur áfram",
    "dice are exchanged at the start of a game": "skipt er um teninga í upphafi leiks",
    "dice show 1 to 6, not {}": "teningar sýna 1 til 6, ekki {0}",
    "it is the opponent's turn": "andstæðingurinn á leik",
    "neither the TD nor a player sits on the jury": (
        "hvorki mótsstjóri né keppandi situr í dómnefnd"
    ),
    "no appeal to decide": "engin áfrýjun til að dæma í",
    "no clock in this match": "engin klukka í þessari viðureign",
    "no concession to answer": "engin uppgjöf til að svara",
    "no concession while checkers can still be hit": (
        "engin uppgjöf meðan enn er hægt að senda leikmenn heim"
    ),
    "no dispute waiting for a ruling": "engin deila bíður úrskurðar",
    "no double after an invalid roll": "engin tvöföldun eftir ógilt kast",
    "no double has been taken in this game": "engin tvöföldun hefur verið tekin í þessum leik",
    "no double to answer": "engin tvöföldun til að svara",
    "no early roll to reject": "ekkert ótímabært kast til að hafna",
    "no game is in progress": "enginn leikur er í gangi",
    "no illegal play of the opponent to answer": (
        "engin ólögleg færsla andstæðingsins til að svara"
    ),
    "no match has been created": "engin viðureign hefur verið stofnuð",
    "no match in progress": "engin viðureign í gangi",
    "no monitor has been appointed to this match": (
        "enginn eftirlitsmaður hefur verið skipaður í þessa viðureign"
    ),
    "no permission to end": "ekkert leyfi til að ljúka",
    "no player's time has run out": "tími engins keppanda er útrunninn",
    "no reported result to confirm": "engin tilkynnt úrslit til að staðfesta",
    "not the moment to roll": "ekki tímabært að kasta",
    "not this player's move": "þessi keppandi á ekki leik",
    "nothing to undo": "ekkert til að afturkalla",
    "only a finished match's result is corrected": (
        "aðeins úrslit lokinnar viðureignar eru leiðrétt"
    ),
    "only between games": "aðeins á milli leikja",
    "only entries of the current game can be undone": (
        "aðeins færslur yfirstandandi leiks er hægt að afturkalla"
    ),
    "only the player whose time runs presses": "aðeins keppandinn sem tíminn gengur á ýtir",
    "pauses are taken between games": "pásur eru teknar á milli leikja",
    "penalty points start at 5 minutes": "refsistig byrja við 5 mínútur",
    "players may not agree the result of a game": ("keppendur mega ekki semja um úrslit leiks"),
    "players may not agree the result of a match": (
        "keppendur mega ekki semja um úrslit viðureignar"
    ),
    "scoresheets are compared after a game": "skorblöð eru borin saman eftir leik",
    "side must be A or B, not {}": "hlið verður að vera A eða B, ekki {0}",
    "side must be A, B or empty": "hlið verður að vera A, B eða auð",
    "single, gammon or backgammon": "einfalt, gammon eða backgammon",
    "stop the clock to ask for a correction": "stöðvið klukkuna til að biðja um leiðréttingu",
    "testimony is heard in a dispute": "vitnisburður er heyrður í deilumáli",
    "the TD has been called": "mótsstjóri hefur verið kallaður til",
    "the board is frozen until the dispute is decided": (
        "borðið er fryst þar til skorið hefur verið úr deilunni"
    ),
    "the clock is already running": "klukkan gengur þegar",
    "the clock is running": "klukkan gengur",
    "the clock is stopped": "klukkan er stöðvuð",
    "the clock stops only in the eight cases": "klukkan stöðvast aðeins í tilvikunum átta",
    "the cube already shows {}": "tvöföldunarteningurinn sýnir þegar {0}",
    "the cube is on the opponent's side": "tvöföldunarteningurinn er hjá andstæðingnum",
    "the game in progress is played to its end": "leikurinn sem er í gangi er leikinn til enda",
    "the illegal play bore off the last checker: accept or correct it first": (
        "ólöglega færslan bar út síðasta leikmanninn: samþykkið hana eða leiðréttið fyrst"
    ),
    "the jury's decision is final": "ákvörðun dómnefndar er endanleg",
    "the jury's decision is final: it stays on the record": (
        "ákvörðun dómnefndar er endanleg: hún stendur í skráningunni"
    ),
    "the match already exists": "viðureignin er þegar til",
    "the match is over: it was played to its length": (
        "viðureigninni er lokið: hún var leikin til enda"
    ),
    "the match was played to its length": "viðureignin var leikin til enda",
    "the next round has started: the result stands": "næsta umferð er hafin: úrslitin standa",
    "the opening roll is made": "upphafskastið hefur verið kastað",
    "the reasons are reported to KSI": "ástæðurnar eru tilkynntar Kotrusambandinu",
    "the result has been reported": "úrslitin hafa verið tilkynnt",
    "the ruling stands: there is nothing to carry out": (
        "úrskurðurinn stendur: ekkert er til að framfylgja"
    ),
    "the score is level: neither player is behind": "staðan er jöfn: hvorugur keppandi er undir",
    "the set-up has already been settled": "þegar hefur verið skorið úr uppstillingunni",
    "the winner reports a finished match": "sigurvegarinn tilkynnir lokna viðureign",
    "this player has confirmed the score already": "þessi keppandi hefur þegar staðfest stöðuna",
    "time left for both players": "tími sem eftir er hjá báðum keppendum",
    "two different players": "tveir ólíkir keppendur",
    "votes within the jury's size": "atkvæði innan stærðar dómnefndarinnar",
    "who said it and what was said": "hver sagði það og hvað var sagt",
    "{} pause(s) each in a {}-point match": "{0} pása/pásur hvor í {1} stiga viðureign",
    "{} s of the forced wait are left": "{0} s af skyldubiðinni eru eftir",
    # board.physical_problem: why a reported play cannot be made on the board
    "{}/{} does not move a checker forward": "{0}/{1} færir ekki leikmann áfram",
    "no checker on {}": "enginn leikmaður á {0}",
    "{} is held by the opponent": "andstæðingurinn á {0}",
}
CATALOGUES = {
    "is": ICELANDIC,
    "et": {english: said[0] for english, said in BALTIC.items()},
    "lv": {english: said[1] for english, said in BALTIC.items()},
}


def _pattern(template: str) -> re.Pattern[str]:
    parts = (re.escape(p) for p in template.split("{}"))
    return re.compile("(.+?)".join(parts) + r"\Z", re.S)


_PATTERNS = {
    lang: [(_pattern(en), said) for en, said in words.items()] for lang, words in CATALOGUES.items()
}


def words(message: str, lang: str) -> str:
    """The refusal in `lang` where the catalogue has it; else as the engine said it."""
    for pattern, said in _PATTERNS.get(lang, ()):
        found = pattern.match(message)
        if found:
            return said.format(*found.groups())
    return message
