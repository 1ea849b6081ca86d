"""PURE: the season's ranking list by the documented method (decision 0170) — a points table
(placing × event level) and a Weng–Lin rating (`openskill`'s Plackett–Luce), each change
explained by the event and matches that moved it; and the check of a team's board order
against a list (EKML §29(2)). No I/O, no clock, no randomness (tests/fitness/test_pure_cores.py).
"""
