"""The demo's match kept for a person (issue 34, point 5): which demo run is newest, when its
current Swiss round was paired (the store's own time for that event, so every worker agrees),
and `GET /api/demo`, which the TD console reads to show the countdown beside table 5."""

from __future__ import annotations

import uuid

import anyio.to_thread
from litestar import get
from litestar.exceptions import NotFoundException

from tableside.competition.service import CompetitionNotFound, CompetitionService, now
from tableside.demo.director import GUIDE, HOLD_SECONDS, Hold, held_for_person
from tableside.web.context import AppSettings, Store
from tableside.web.problems import coded

DEMO_IDS = uuid.UUID("6f1d8a0e-5b7c-4e0a-9c1e-2d3b4a5f6e70")  # uuid5 namespace of demo events
HUMAN_TABLE = 5  # left to a person: the simulated tables are 1–4


def run_id(n: int) -> uuid.UUID:
    """The competition id of the demo's n-th run."""
    return uuid.uuid5(DEMO_IDS, f"competition-{n}")


def newest_run(service: CompetitionService):
    """(n, id, state) of the newest demo run, or None if the demo never ran here."""
    n, last = 1, None
    while True:
        try:
            _, state = service.state(run_id(n))
        except CompetitionNotFound:
            return last
        last, n = (n, run_id(n), state), n + 1


_PAIRED: dict[tuple[uuid.UUID, int], str] = {}  # (run, round) → when paired: it never changes


def paired_at(store, comp_id: uuid.UUID, round_no: int) -> str:
    """When the competition's round was paired, by the store's clock ("" if never)."""
    key = (comp_id, round_no)
    if key not in _PAIRED:
        times = [
            s.recorded_at
            for s in store.read(comp_id)
            if type(s.event).__name__ == "RoundPaired" and s.event.round == round_no
        ]
        if not times:
            return ""
        _PAIRED[key] = times[-1].isoformat()
    return _PAIRED[key]


def current_hold(store, comp_id: uuid.UUID, state, seconds: int = HOLD_SECONDS) -> Hold | None:
    """The match kept for a person in this run now, with the end of its countdown."""
    return held_for_person(state, paired_at(store, comp_id, state.current_round), now(), seconds)


def kept_for_visitor(store, seconds: int, comp_id: uuid.UUID, state) -> tuple[tuple[str, int], ...]:
    """The demo run's match kept for a person, paired with table 5, while its countdown runs:
    the hall keeps it from every other table on every call path (decision 0137); nothing for
    any other competition."""
    if state is None or state.finished or state.guide is None:
        return ()
    number = state.guide.name.removeprefix(f"{GUIDE.name} #")
    if not number.isdigit() or run_id(int(number)) != comp_id:
        return ()
    hold = current_hold(store, comp_id, state, seconds)
    return () if hold is None else ((hold.match_id, HUMAN_TABLE),)


def _demo(store, seconds: int) -> dict | None:
    newest = newest_run(CompetitionService(store))
    if newest is None:
        return None
    n, comp_id, state = newest
    hold = None if state.finished else current_hold(store, comp_id, state, seconds)
    return {
        "competition_id": str(comp_id),
        "run": n,
        "name": state.guide.name if state.guide else "",
        "finished": state.finished,
        "table": HUMAN_TABLE,
        "held": None
        if hold is None
        else {"match_id": hold.match_id, "until": hold.until, "called": hold.called},
    }


@get("/api/demo", summary="The demo's run and the match kept for a person")
async def demo_now(store: Store, settings: AppSettings) -> dict:
    """The newest demo run (numbered) and the match kept for table 5 with the end of its
    countdown and whether it is called there already (a simulated table takes it at the
    countdown's end all the same, decision 0190); 404 where no demo ever ran."""
    found = await anyio.to_thread.run_sync(_demo, store, settings.demo_hold_seconds)
    if found is None:
        raise NotFoundException("No demo has run on this server", extra=coded("no_demo"))
    return found


DEMO_ROUTES = [demo_now]
