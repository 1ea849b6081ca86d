"""A judge's entry in words, for the protocol's corrections row: what an undo took back
("Mari Tamm pocketed 2, striker in a pocket"), as the pad's Undo sheet says it.

The words are the spectators' log's (`ev.*` in pwa/i18n/spectator.<lang>.json, the faces'
`spectator-words.js` for the same entries), counted by the one plural rule on the server
(`web/words.counted`); a code in words through the codes' catalogue."""

from __future__ import annotations

from collections.abc import Mapping

from tableside.disciplines.korona import events as ev
from tableside.match.exports.labels import code_words
from tableside.web.words import catalogue, counted, fill


def _stroke(w: Mapping[str, str], lang: str, e: ev.StrokeRecorded) -> str:
    f = e.facts
    n, theirs = f.own_pocketed, f.opponent_pocketed
    if n:
        text = counted(w, "ev.stroke.pocketed", lang, n, player=e.player, count=n)
    else:
        text = fill(w["ev.stroke.none"], {"player": e.player})
    if theirs:
        text += counted(w, "ev.stroke.opponent", lang, theirs, count=theirs)
    if f.striker in ("pocket", "over"):
        text += w[f"ev.stroke.striker_{f.striker}"]
    return text + ("" if e.legal else w["ev.stroke.foul"])


def _incident(w: Mapping[str, str], lang: str, e: ev.IncidentReported, ruleset: str) -> str:
    key = "ev.IncidentReported.remark" if e.kind == "remark" else "ev.IncidentReported"
    said = w.get(f"{key}.{ruleset}", w[key])  # NOVUS08's remark is its hoiatus
    return fill(said, {"what": code_words(lang, e.code), "player": e.player or "—"})


def entry_words(lang: str, event: object, names: Mapping[str, str], ruleset: str = "") -> str:
    """`event` (the first event of a judge's entry) in `lang`; `names` the sides' names by
    letter; "" for an entry these words do not cover (the row then names only its number)."""
    w = catalogue("spectator", lang)
    if isinstance(event, ev.StrokeRecorded):
        return _stroke(w, lang, event)
    if isinstance(event, ev.IncidentReported):
        return _incident(w, lang, event, ruleset)
    if isinstance(event, ev.OpeningShotAssigned):
        side = names.get(event.side, event.side)
        method = code_words(lang, event.method)
        return fill(w["ev.OpeningShotAssigned"], {"name": side, "method": method})
    return ""
