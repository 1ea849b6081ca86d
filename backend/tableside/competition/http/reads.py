"""Competition reads (public, no login) from the `standings` read model, and interop:
a round's pairings in (CSV / XLSX, head judge), results out as CSV or XLSX (1/2/3 codes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal
from uuid import UUID

import anyio.to_thread
import asyncpg
import msgspec
from litestar import Request, Response, get, post
from litestar.datastructures import State
from litestar.exceptions import NotFoundException
from litestar.params import FromPath, Parameter

from tableside.competition import hall, hall_queue, results_file
from tableside.competition.docs import competition_doc, standings_rows
from tableside.competition.http.routes import caller, meta, store
from tableside.competition.rules import commands as cc
from tableside.competition.rules import interop
from tableside.competition.rules.errors import CompetitionRuleError
from tableside.competition.rules.state import Competition, Correction
from tableside.competition.runtime import CompetitionRuntime, Competitions
from tableside.competition.service import CompetitionNotFound, stamped
from tableside.competition.standings_pdf import standings_pdf
from tableside.eventlog.digest import command_digest
from tableside.match.http.export_routes import pdf_attachment
from tableside.match.receipts import record_notice
from tableside.rule_error import RuleError
from tableside.web.consistency import MinPosition, settled_on
from tableside.web.context import Pool, Services
from tableside.web.downloads import FaceLanguage, Language, attachment, said_disputed
from tableside.web.guards import FILE_LIMIT, signed_in
from tableside.web.problems import coded

Doc = dict[str, Any]
# An earlier edition of a corrected event's published results (decision 0191).
Edition = Annotated[
    int | None, Parameter(ge=1, le=10_000, description="an earlier edition of the results")
]
_LIST = """
SELECT competition_id, name, format, finished, version FROM competition_view
WHERE NOT coalesce((doc->>'removed')::boolean, false) ORDER BY name, competition_id
"""
_DOC = "SELECT doc::text FROM competition_view WHERE competition_id = $1"
_ROWS = "SELECT row::text FROM competition_standings WHERE competition_id = $1 ORDER BY rank"


async def _doc(pool: asyncpg.Pool, comp_id: UUID, min_position: int) -> Doc:
    await settled_on(pool, "standings", min_position)
    text = await pool.fetchval(_DOC, comp_id)
    if text is None:
        raise NotFoundException(f"No competition {comp_id}", extra=coded("no_competition"))
    return msgspec.json.decode(text)


@get("/api/hall", summary="What every table of the hall holds now")
async def get_hall(
    pool: Pool, competitions: Competitions, min_position: MinPosition = 0
) -> list[Doc]:
    """Every held table, whoever holds it: a match not ended (of any competition, or a walk-up
    match) or a competition's call with no result yet; a table not listed is free."""
    await settled_on(pool, "tables", min_position)
    held = await hall.holders(pool, competitions.state_of, competitions.flows)
    return [msgspec.to_builtins(h) for h in held]


@get("/api/hall/queue", summary="The hall's call queue: every match waiting for a table")
async def get_hall_queue(
    pool: Pool, competitions: Competitions, min_position: MinPosition = 0
) -> list[Doc]:
    """Every waiting match of every competition not finished: the first each competition
    will call, then the second of each…; those that can be called now (no player at a
    table, EKML §17(3)) first."""
    await settled_on(pool, "standings", min_position)
    found = await hall_queue.waiting(pool, competitions.state_of)
    return [msgspec.to_builtins(w) for w in found]


@get("/api/competitions", summary="Competitions")
async def list_competitions(pool: Pool) -> list[Doc]:
    """Every competition: id, name, format, finished, version."""
    rows = await pool.fetch(_LIST)
    return [
        {
            "competition_id": str(r[0]),
            "name": r[1],
            "format": r[2],
            "finished": r[3],
            "version": r[4],
        }
        for r in rows
    ]


@get("/api/competitions/{competition_id:uuid}", summary="A competition as it stands")
async def get_competition(
    pool: Pool, competition_id: FromPath[UUID], min_position: MinPosition = 0
) -> Doc:
    """Guide, entrants, rounds, bracket, calls, waiting matches, protests, placings."""
    return await _doc(pool, competition_id, min_position)


@get("/api/competitions/{competition_id:uuid}/standings", summary="Standings")
async def get_standings(
    pool: Pool, competition_id: FromPath[UUID], min_position: MinPosition = 0
) -> Doc:
    """Ranked rows (points, games, pucks, tie-breaks), the final placings, and who withdrew."""
    doc = await _doc(pool, competition_id, min_position)
    rows = await pool.fetch(_ROWS, competition_id)
    return {
        "version": doc["version"],
        "finished": doc["finished"],
        "tie_breaks": doc["guide"]["tie_breaks"],
        "placings": doc["placings"],
        "rows": [msgspec.json.decode(r[0]) for r in rows],
        "withdrew": doc.get("withdrew", []),  # who withdrew, when, how ruled (EKML §32(3))
    }


@get("/api/competitions/{competition_id:uuid}/standings.pdf", summary="Standings as PDF")
async def get_standings_pdf(
    request: Request,
    ctx: Services,
    competitions: Competitions,
    competition_id: FromPath[UUID],
    lang: FaceLanguage = "en",
    min_position: MinPosition = 0,
    edition: Edition = None,
) -> Response[bytes]:
    """The standings table and the final placings, as the console shows them, on A4 (at
    least as new as `min_position`: the console passes what it shows, so a PDF taken just
    after 'Finish and publish' is the published one); `edition`: an earlier edition of the
    published results, marked superseded."""
    if edition is not None:  # an earlier edition, marked superseded (decision 0191)
        then, superseded = await _edition(competitions, competition_id, edition)
        doc = {**competition_doc(then, 0, 0), "superseded_by": msgspec.to_builtins(superseded)}
        table = standings_rows(then)
    else:
        doc = await _doc(ctx.pool, competition_id, min_position)
        rows = await ctx.pool.fetch(_ROWS, competition_id)
        table = [msgspec.json.decode(r[0]) for r in rows]
    name = f"standings-{competition_id}-{lang}{_edition_suffix(edition)}.pdf"
    said = await record_notice(ctx, lang)
    return await pdf_attachment(request, name, standings_pdf, doc, table, lang, said)


@get("/api/competitions/{competition_id:uuid}/bracket", summary="Bracket")
async def get_bracket(
    pool: Pool, competition_id: FromPath[UUID], min_position: MinPosition = 0
) -> Doc:
    """Every bracket and play-off match as it stands, and the placings."""
    doc = await _doc(pool, competition_id, min_position)
    return {"version": doc["version"], "slots": doc["bracket"], "placings": doc["placings"]}


@get("/api/competitions/{competition_id:uuid}/rounds", summary="Paired rounds")
async def get_rounds(
    pool: Pool, competition_id: FromPath[UUID], min_position: MinPosition = 0
) -> Doc:
    """Round-robin or Swiss rounds: pairings, tables, byes, which have results."""
    doc = await _doc(pool, competition_id, min_position)
    return {"version": doc["version"], "rounds": doc["rounds"], "results": doc["results"]}


@get("/api/competitions/{competition_id:uuid}/entrants", summary="Entrants")
async def get_entrants(
    pool: Pool, competition_id: FromPath[UUID], min_position: MinPosition = 0
) -> Doc:
    """Entrants with their status and members."""
    doc = await _doc(pool, competition_id, min_position)
    return {"version": doc["version"], "entrants": doc["entrants"]}


@get(
    "/api/competitions/{competition_id:uuid}/results.csv",
    summary="Results as CSV",
    media_type="text/csv",
)
async def export_results(
    state: State,
    competitions: Competitions,
    competition_id: FromPath[UUID],
    lang: Language | None = None,
    edition: Edition = None,
) -> Response[bytes]:
    """Round, table, names, games, the 1/2/3 code Swiss Master reads, what each row is
    (played, forfeit, bye) and its points, headed in the event's language (or `lang`);
    `edition`: an earlier edition of the published results, marked superseded."""
    comp, superseded = await _edition(competitions, competition_id, edition)
    data = results_file.results_csv(comp, lang, superseded)
    return said_disputed(
        attachment(data, "text/csv", f"results{_edition_suffix(edition)}.csv"), state
    )


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@get(
    "/api/competitions/{competition_id:uuid}/results.xlsx",
    summary="Results as XLSX",
    media_type=XLSX,
)
async def export_results_xlsx(
    state: State,
    competitions: Competitions,
    competition_id: FromPath[UUID],
    lang: Language | None = None,
    edition: Edition = None,
) -> Response[bytes]:
    """The rows of `results.csv` as a workbook (text as string cells, never formulas)."""
    comp, superseded = await _edition(competitions, competition_id, edition)
    xlsx = await anyio.to_thread.run_sync(results_file.results_xlsx, comp, lang, superseded)
    return said_disputed(attachment(xlsx, XLSX, f"results{_edition_suffix(edition)}.xlsx"), state)


async def _edition(
    competitions: CompetitionRuntime, comp_id: UUID, edition: int | None
) -> tuple[Competition, Correction | None]:
    """(the competition as `edition` had it, the correction that superseded it); the
    current state and None without an edition asked for, or for the current one."""
    now = await _state(competitions, comp_id)
    if edition is None or edition == now.edition:
        return now, None
    if not 1 <= edition < now.edition:
        raise NotFoundException(
            f"the results have no edition {edition} (the newest is {now.edition})",
            extra=coded("no_such_edition", edition=edition, newest=now.edition),
        )
    then = await anyio.to_thread.run_sync(competitions.service.edition, comp_id, edition)
    return then, now.corrections[edition - 1]


def _edition_suffix(edition: int | None) -> str:
    return "" if edition is None else f"-edition-{edition}"


async def _state(competitions: CompetitionRuntime, comp_id: UUID) -> Competition:
    try:
        return await anyio.to_thread.run_sync(competitions.state_of, comp_id)
    except CompetitionNotFound:
        raise NotFoundException(
            f"No competition {comp_id}", extra=coded("no_competition")
        ) from None


@post(
    "/api/competitions/{competition_id:uuid}/rounds/import",
    status_code=201,
    summary="Import a round's pairings (CSV or XLSX body)",
    guards=[signed_in("head_judge")],
    request_max_body_size=FILE_LIMIT,
)
async def import_round(
    request: Request,
    pool: Pool,
    competitions: Competitions,
    competition_id: FromPath[UUID],
    expected_version: Annotated[int, Parameter(ge=0, le=10**9)],
    command_id: UUID,
    kind: Annotated[Literal["csv", "xlsx"], Parameter(query="format")] = "csv",
    sheet: Annotated[str, Parameter(max_length=80)] = "EKSPORT",
) -> Any:
    """Head judge: the body is the file (Swiss Master's `EKSPORT` sheet for XLSX)."""
    principal = caller(request, "head_judge")
    data = await request.body()
    comp = await _state(competitions, competition_id)
    try:
        boards = (
            interop.pairings_from_xlsx(data, comp, sheet)
            if kind == "xlsx"
            else interop.pairings_from_csv(data, comp)
        )
    except CompetitionRuleError as exc:
        raise RuleError(exc.rule, exc.message, "body", exc.code, exc.params) from None
    except Exception as exc:  # an unreadable file is the sender's problem, never a 500
        raise RuleError(
            interop.RULE, f"cannot read the file: {exc}", "body", code="file_unreadable"
        ) from None
    asked = cc.ImportRound(tuple((b.a, b.b, b.table) for b in boards), "")
    work = _execute(
        competitions,
        competition_id,
        stamped(asked),
        expected_version,
        command_id,
        meta(principal, ""),
    )
    digest = command_digest("competition.command", competition_id, asked)
    return await store(pool, competitions, command_id, competition_id, work, digest)


def _execute(
    competitions: CompetitionRuntime,
    comp_id: UUID,
    command: cc.ImportRound,
    version: int,
    command_id: UUID,
    m: dict[str, str],
) -> Callable[..., object]:
    def work(digest: bytes | None = None) -> object:
        return competitions.service.execute(
            comp_id, command, expected_version=version, command_id=command_id, meta=m, digest=digest
        )

    return work


COMPETITION_READ_ROUTES = [
    get_hall,
    get_hall_queue,
    list_competitions,
    get_competition,
    get_standings,
    get_standings_pdf,
    get_bracket,
    get_rounds,
    get_entrants,
    export_results,
    export_results_xlsx,
    import_round,
]
