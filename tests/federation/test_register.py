"""The players' register (issue 49, point 5; decision 0171) on a real PostgreSQL: names under
the rule of every name (RFC 8266 §2, UTS #39 §4), a rename that keeps the id and the history."""

from __future__ import annotations

import asyncpg
import pytest
from support.federation_read import read_side_database
from tableside.federation.register.players import NoSuchPlayer, add_player, names_of, player, rename
from tableside.names import NameRefused


@pytest.fixture(scope="module")
def federation_url(pg_server_url: str) -> str:
    return read_side_database(pg_server_url)


@pytest.fixture
async def conn(federation_url: str):
    connection = await asyncpg.connect(federation_url)
    yield connection
    await connection.close()


async def test_rfc_8266_a_register_name_is_stored_in_the_nickname_profile(conn) -> None:
    added = await add_player(conn, "  Kalle\u3000 Kask ", "registrar", club="Kalev", licence="L-1")
    assert added.name == "Kalle Kask"
    assert (await player(conn, added.federation_id)) == added
    with pytest.raises(NameRefused) as refused:
        await add_player(conn, "Kal\u200ble", "registrar")
    assert (refused.value.rule, refused.value.code) == ("RFC 8266 §2", "name_character")


async def test_uts_39_a_look_alike_of_a_registered_name_is_refused(conn) -> None:
    await add_player(conn, "Mari Tamm", "registrar")
    with pytest.raises(NameRefused) as refused:
        await add_player(conn, "M\u0430ri Tamm", "registrar")  # a Cyrillic а
    assert (refused.value.rule, refused.value.code) == ("UTS #39 §4", "name_lookalike")
    twin = await add_player(conn, "Mari Tamm", "registrar", club="Tartu")  # two of one name
    assert twin.name == "Mari Tamm"
    before = await conn.fetchval("SELECT count(*) FROM register_players")
    with pytest.raises(NameRefused):
        await rename(conn, twin.federation_id, "Mari T\u0430mm", "registrar")
    assert await conn.fetchval("SELECT count(*) FROM register_players") == before
    assert (await player(conn, twin.federation_id)).name == "Mari Tamm"  # nothing half-written


async def test_a_rename_keeps_the_id_and_every_name(conn) -> None:
    added = await add_player(conn, "Liis Lepp", "registrar", player_class="youth")
    renamed = await rename(conn, added.federation_id, "Liis Lepik", "registrar")
    assert (renamed.federation_id, renamed.name, renamed.player_class) == (
        added.federation_id,
        "Liis Lepik",
        "youth",
    )
    assert await names_of(conn, added.federation_id) == ["Liis Lepp", "Liis Lepik"]
    with pytest.raises(asyncpg.InsufficientPrivilegeError):
        await conn.execute(
            "DELETE FROM register_names WHERE federation_id = $1", added.federation_id
        )


async def test_an_unknown_player_is_named_in_the_refusal(conn) -> None:
    with pytest.raises(NoSuchPlayer) as refused:
        await rename(conn, 987654, "Nobody", "registrar")
    assert (refused.value.code, refused.value.params) == ("register_no_player", {"id": "987654"})
