"""A published event's name corrected from the console (issue 54, point 9; decision 0191):
"Rename" was offered on a published event and refused. Now the console offers "Correct the
published name" with a reason; the spectators' page says what was corrected, when, why and by
whom, and links the superseded edition's PDF and results file, each marked superseded."""

from __future__ import annotations

import pytest
from support.competition_play import Comp, published_round_robin
from support.harness import Api, wait_for

from .admin_helpers import admin_login
from .harness import screenshot

TYPO, RIGHT = "Jaan Kaks", "Jaan Kask"
WHY = "misspelt on the entry form"


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def published(head_api: Api) -> Comp:
    return published_round_robin(
        head_api, "Külakarikas", ["Mari Tamm", TYPO, "Liis Mets", "Peeter Kuusk"]
    )


def test_the_console_corrects_a_published_name_and_the_spectators_page_marks_the_edition(
    page, published: Comp
) -> None:
    admin_login(page, "head", "head-secret-1")
    page.goto(f"/admin#c={published.id}")
    page.wait_for_selector("[data-competition-name]")
    row = page.locator("tr", has=page.locator("text=" + TYPO))
    assert row.locator("[data-action=withdraw]").count() == 0  # nothing offered to refuse
    row.locator("[data-action=correct_published]").click()
    page.fill("[data-rename=e2]", RIGHT)
    page.fill("[data-reason=e2]", WHY)
    page.click("[data-reason=e2] ~ button[type=submit]")
    wait_for(lambda: published.doc()["edition"] == 2, 15, 0.2)
    screenshot(page, "published-correction-console")

    page.goto(f"/?competition={published.id}")
    note = page.wait_for_selector("[data-corrected='2']")
    said = note.inner_text()
    assert TYPO in said and RIGHT in said and WHY in said and "head" in said, said
    assert "edition 2" in page.locator("[data-status=final]").inner_text()
    links = page.locator("[data-superseded='1'] a[data-superseded-file]")
    assert links.count() == 2
    for i in range(2):
        href = links.nth(i).get_attribute("href")
        assert "edition=1" in href, href
        got = page.request.get(href)
        assert got.status == 200, href
        if href.split("?")[0].endswith(".csv"):
            assert TYPO in got.text() and "superseded by edition 2" in got.text()
    screenshot(page, "published-correction-spectator")
