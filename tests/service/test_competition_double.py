"""A 16-pair double elimination run end to end through the API: calls create the match
streams, table judges play them (simulated), results flow back; the standings read model
rebuilt from zero equals the live one."""

from __future__ import annotations

from collections import Counter

from .competition_play import Comp, Tables, player, wait_results
from .harness import run_async

GUIDE = {"name": "Kuusalu pairs", "discipline": "mixed_pairs", "format": "double_elimination",
         "games_per_match": 1, "points": {"win": 4, "draw": 2, "loss": 0}}
TABLES = list(range(1, 9))


def test_sixteen_pairs_double_elimination(server, head, module_database_url):
    comp = Comp.create(head, GUIDE)
    comp.enter([(f"p{i:02d}", [player(f"Mees {i}"), player(f"Naine {i}", "F")])
                for i in range(1, 17)])
    comp.do({"type": "MakeDraw", "seed": 7})
    tables = Tables(server, head, module_database_url, seed=16)
    try:
        played = 0
        while not comp.settled()["placings"] or comp.settled()["waiting"]:
            comp.do({"type": "CallNextMatches", "free_tables": TABLES})
            played += tables.play_calls(comp)
            doc = wait_results(comp, played)
    finally:
        tables.close()
    assert_double_elimination(doc)
    comp.do({"type": "FinishCompetition"})
    assert_rebuild_equal(module_database_url)


def assert_double_elimination(doc: dict) -> None:
    """Everyone but the champion is out after exactly two losses; everyone is placed."""
    lost = Counter()
    for r in doc["results"].values():
        lost[r["b"] if r["a_games"] > r["b_games"] else r["a"]] += 1
    champion = doc["placings"][0][0]
    assert lost[champion] <= 1
    assert {e for e, k in lost.items() if k == 2} == {f"p{i:02d}" for i in range(1, 17)} - {
        champion}
    assert sum(len(g) for g in doc["placings"]) == 16
    assert all(not r["forfeit"] for r in doc["results"].values())


def assert_rebuild_equal(url: str) -> None:
    """Rows of the standings read model are the same bytes after a rebuild from zero."""
    import asyncpg
    from tableside.matches.registry import build_registry
    from tableside.projections.standings import rebuild_standings

    query = ("SELECT (SELECT string_agg(doc::text, '|' ORDER BY competition_id) FROM "
             "competition_view), (SELECT string_agg(row::text, '|' ORDER BY competition_id, "
             "rank) FROM competition_standings)")

    async def go():
        pool = await asyncpg.create_pool(url, min_size=1, max_size=2)
        try:
            live = await pool.fetchrow(query)
            await rebuild_standings(pool, build_registry())
            again = await pool.fetchrow(query)
        finally:
            await pool.close()
        return live, again

    live, again = run_async(go())
    assert live[0] and live == again
