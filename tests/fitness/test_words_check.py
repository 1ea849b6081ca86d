"""The check that a reader sees words, not codes (tests/support/words.py), checked itself: it
must flag English on an Estonian page and must not read a hash's letters as a word."""

from __future__ import annotations

from support.words import raw_codes


def test_english_on_an_estonian_page_is_found() -> None:
    assert raw_codes("Mängijad add", "et") == ["English: add"]


def test_a_hash_on_the_page_reads_no_english_word() -> None:
    # a chain head seen in a CI run's protocol: 'add' inside it was once read as English
    head = "3d68461030e40069c5add167a108d99fcdd71c0e"
    assert raw_codes(f"Mängijad {head} {head[:20]} {head[20:]}", "et") == []
