"""The paragraphs the engine cites. The rules of play are not in the KSI text: KSI 1.2.1 makes
the approved rules of play binding, so what comes from them cites KSI 1.2.1."""

from __future__ import annotations

PLAY = "KSI 1.2.1"  # the rules of play (opening roll, legal moves, scoring, cube ownership)
BAR_FIRST = "KSI 4.2.1"
ILLEGAL = "KSI 4.2.3.1"
ILLEGAL_NO_CLOCK = "KSI 4.2.3.2"
ILLEGAL_CLOCK = "KSI 4.2.3.3"
SETUP = "KSI 4.2.4"
RANDOM = "KSI 4.1.1"
LEGAL_ROLL = "KSI 4.1.4.1"
EARLY_ROLL = "KSI 4.1.5.1"
CUBE_START = "KSI 4.4.1"
DOUBLE = "KSI 4.4.2"
TAKE_DROP = "KSI 4.4.3"
CRAWFORD = "KSI 4.4.4"
PREMATURE = "KSI 4.4.5"
WRONG_CUBE = "KSI 4.4.6"
FINISH = "KSI 4.5"
RESULT = "KSI 4.6"
SCORING = "KSI 4.7"
LATE = "KSI 2.2.4"
