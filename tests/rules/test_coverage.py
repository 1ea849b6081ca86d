"""Every paragraph issue 3 names has a test case whose id starts with it (a gap fails here)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

PACKAGE = __name__.rpartition(".")[0]

EKML = [
    "20_7",
    "20_8",
    "20_14",
    "20_20",
    "20_24",
    "21_1",
    "21_4",
    "21_5",
    "21_6",
    "21_7",
    "21_8",
    "21_9",
    *[f"22_{n}" for n in range(1, 6)],
    *[f"23_1_{n}" for n in range(1, 11)],
    *[f"24_1_{n}" for n in range(1, 20)],
    "24_1_6_note1",
    "24_1_6_note2",
    *[f"24_{n}" for n in range(2, 10)],
    *[f"25_1_{n}" for n in range(1, 8)],
    "26_1",
    "26_2",
    "26_4",
    "27_2",
    "27_3",
    "27_4",
    "27_5",
    "27_6",
    "27_6_stalemate",
    "27_6_note",
    "28_1",
    "28_3",
    "28_4",
    "28_5",
    "28_6",
    "28_7",
    "28_10",
    "31_1_1",
    "31_1_2",
    "31_2",
    "31_3",
    "32_1",
    "32_2",
    "12_3_5",
    "9_11",
    "9_5",
]
NOVUS08 = [
    "16_1_1",
    "16_1_2",
    "16_1_10",
    "16_1_11",
    "17_1_20",
    "17_3",
    "18_1_6",
    "18_1_7",
    "19_1",
    "19_1_11",
    "20_5",
    "20_6",
    "21_1",
    "21_6",
    "22_1_2",
    "22_2",
    "23_1",
    "13_6",
    "13_8",
    "8_1_4",
]
LV = ["15_2", "15_3", "17_1", "17_2", "18_2", "14_5", "14_3_6"]
REQUIRED = [f"ekml_{p}" for p in EKML] + [f"novus08_{p}" for p in NOVUS08] + [f"lv_{p}" for p in LV]


def _ids() -> list[str]:
    ids: list[str] = []
    for info in pkgutil.iter_modules(importlib.import_module(PACKAGE).__path__):
        module = importlib.import_module(f"{PACKAGE}.{info.name}")
        ids += [c.id for c in getattr(module, "CASES", [])]
        ids += [
            name[5:]
            for name, _ in inspect.getmembers(module, inspect.isfunction)
            if name.startswith("test_")
        ]
    return ids


def test_every_required_paragraph_has_a_case() -> None:
    ids = _ids()
    missing = [p for p in REQUIRED if not any(i == p or i.startswith(p + "_") for i in ids)]
    assert not missing, missing
