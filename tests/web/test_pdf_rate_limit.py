"""Anonymous protocol PDFs are bounded per client (#50: 300 were drawn at 8.9/s, each an
fpdf2 render in a worker thread): past TABLESIDE_PDF_PER_MINUTE a client is answered 429
with Retry-After and the code `too_many_pdfs`, before anything is drawn."""

from __future__ import annotations

import pytest
from support.harness import Api, Server


@pytest.fixture(scope="module")
def limited(module_database_url: str):
    srv = Server(module_database_url, env={"TABLESIDE_PDF_PER_MINUTE": "5"}).start()
    yield srv
    srv.stop()


def test_a_client_past_its_pdfs_a_minute_is_answered_429(limited) -> None:
    head = Api(limited.base).login()
    made = head.create(4, ["Mari"], ["Ott"])
    assert made.status_code == 201, made.text
    match = made.json()["match_id"]
    anonymous = Api(limited.base)
    statuses = [anonymous.get(f"/api/matches/{match}/protocol.pdf").status_code for _ in range(8)]
    assert statuses[:5] == [200] * 5, statuses
    assert 429 in statuses[5:], statuses
    refused = anonymous.get(f"/api/matches/{match}/protocol.pdf")
    assert refused.status_code == 429 and refused.headers["retry-after"], refused.text
    assert refused.json()["code"] == "too_many_pdfs", refused.text
