"""Helpers for the TD console tests: a competition made through the guide form, its entry list
filled and everyone checked in."""

from __future__ import annotations


def checked_in(page, name: str, fmt: str, players: int, prefix: str) -> None:
    """On the signed-in console: a new competition `name` in format `fmt` with `players`
    entrants (`<prefix> 1` …) from the entry list, all checked in."""
    page.fill("#f-name", name)
    page.select_option("#f-format", fmt)
    page.click("[data-create]")
    page.wait_for_selector("[data-competition-name]")
    people = (f"{prefix} {i}; 1990; M; Tartu" for i in range(1, players + 1))
    page.fill("#f-entry-list", "\n".join(people))
    page.click("[data-entry-list] button[type=submit]")
    page.wait_for_function(f"document.querySelectorAll('[data-entrant]').length === {players}")
    page.click("[data-check-in-all]")
    page.wait_for_function(
        f"document.querySelectorAll('[data-status=checked_in]').length === {players}"
    )


def admin_login(page, user: str, password: str) -> None:
    """Sign in on the TD's console; returns once the console is signed in."""
    page.goto("/admin")
    page.wait_for_selector("[data-login]")
    page.fill("#login-user", user)
    page.fill("#login-pass", password)
    page.click("[data-login] button[type=submit]")
    page.wait_for_selector("[data-password]")
