"""The paragraphs the engine cites. The rules of play are not in the KSI text: KSI 1.2.1 makes
the approved rules of play binding, so what comes from them cites KSI 1.2.1."""

from __future__ import annotations

# Where the rules are silent (a match moved to another table) the TD judges (KSI 1.1).
TD_JUDGEMENT = "KSI 1.1"
RULES_APPLY = "KSI 1.2.2"  # these tournament rules apply to the match created
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
PAUSES = "KSI 2.2.2"
SLOW_CLOCK = "KSI 2.3.1.1"
CLOCK_START = "KSI 3.5.5"
CLOCK_RARB = "KSI 3.5.6"
EARLY_PICKUP = "KSI 4.1.5.2"
CLOCK_STOP = "KSI 4.3.2"
WRONG_CLAIM = "KSI 4.3.2.8"
TIME_OUT = "KSI 4.3.3"
COMPLETE_CLOCK = "KSI 4.1.6.2"
DISPUTE = "KSI 5.1"
APPEAL = "KSI 5.2"
JURY = "KSI 1.3.2"
MONITOR = "KSI 1.3.3"
MONITOR_REQUEST = "KSI 1.7.4"
EXPULSION = "KSI 1.2.4"  # conduct: a breach of 1.2.1-1.2.3 (the rules, the tournament rules)
EXPULSION_AIDS = "KSI 1.7.3"  # aids, signals, outside help (1.7.1-1.7.2)
EXPULSION_EQUIPMENT = "KSI 1.2.3.2"  # equipment mistreated
EVIDENCE = "KSI 5.4"
REPORT = "KSI 5.6"
SPECTATORS_BARRED = "KSI 1.6.4"  # a player asks the TD to bar spectators from the match
OBJECTION = "KSI 5.5"  # a formal objection to KSI after the jury
# A recorder's slip undone, a match created or not yet created: the record itself, which no
# KSI paragraph is about (3.8 is a third party appointed to record or film the match). These
# cite no paragraph rather than a wrong one.
RECORD = ""
CLOCK_USE = "KSI 3.5.1"  # whether a match is played with a clock
SLOW_PENALTY = "KSI 2.3.1.2"
CLOCK_REPLACED = "KSI 3.7.2"
DICE_EXCHANGE = "KSI 4.1.3"
