"""api.js against the real API: the QR link's token, the bearer header, problem details."""

from __future__ import annotations

import json
import uuid

from tableside.settings import PWA_DIR

from .harness import BLANK, open_blank

CALL = """async ([method, url]) => {
  const api = await import('/js/api.js');
  try {
    return { ok: await api.request(method, url) };
  } catch (error) {
    return { status: error.status, title: error.title, line: api.describe(error) };
  }
}"""


def open_page(page, query: str = "") -> None:
    open_blank(page)
    if query:  # the blank page again, with a link's query and fragment
        page.goto(BLANK + query)
        page.wait_for_selector("html[data-ready=true]")
    page.evaluate("import('/js/api.js').then(() => true)")  # loaded while still online


def test_token_from_the_qr_link_is_kept_and_hidden(page, head_api) -> None:
    issued = head_api.judge_token(7)
    link = issued["link"]
    open_page(page, link[link.index("?") :])  # what the QR code holds after /judge
    page.evaluate("import('/js/api.js').then((api) => api.tokenFromLink())")
    assert page.evaluate("location.hash") == ""  # not left in the address bar or history
    assert page.evaluate("location.search") == "?table=7"
    whoami = page.evaluate(CALL, ["GET", "/api/whoami"])
    assert whoami["ok"] == {"role": "table_judge", "name": "table-7-judge", "table": 7}


def test_refusals_become_readable_lines(page) -> None:
    open_page(page)
    missing = page.evaluate(CALL, ["GET", f"/api/matches/{uuid.uuid4()}"])
    assert missing["status"] == 404 and missing["title"]
    # a coded refusal reads in the page's words for its code, as every face says it (0130)
    codes = json.loads((PWA_DIR / "i18n" / "codes.en.json").read_text("utf-8"))
    assert missing["line"] == codes["code.no_match"]
    page.evaluate("import('/js/api.js').then((api) => api.setToken('tj_not-a-real-token'))")
    refused = page.evaluate(CALL, ["GET", "/api/whoami"])
    assert refused["status"] == 401


def test_no_server_is_said_plainly(page, context) -> None:
    open_page(page)
    context.set_offline(True)
    gone = page.evaluate(CALL, ["GET", "/api/tables"])
    assert gone == {
        "status": 0,
        "title": "No connection to the server.",
        "line": "No connection to the server.",
    }
