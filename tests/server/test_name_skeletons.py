"""Names read as a person reads them (issue 23, change 5): look-alikes of the reserved words and
of a bot's label are refused, and no two players wear names that look alike. Renames, races
between renames, generated guest names and migration 0010, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from bidak.server.accounts import player_queries
from bidak.server.accounts.names import NameRefused, clean_name, skeleton
from bidak.server.play.storage import Store
from bidak.server.shared.store.db import Database
from tests.server.backends import database_url, postgres_url
from tests.server.harness import running_server, server_settings
from tests.server.test_unread_columns import _downgrade

__all__ = ["database_url", "postgres_url"]

LOOK_ALIKES = [
    "ʙᴏᴛ (expert)",
    "Вот (expert)",
    "ᏴᎾᎢ (expert)",
    "Bøt (expert)",
    "ƀot (expert)",
    "ʙɪᴅᴀᴋ",
    "ᴀdmin",
    "ᴍoderator",
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alikes_of_reserved_words_and_bot_labels_are_refused(name: str) -> None:
    with pytest.raises(NameRefused) as refused:
        clean_name(name)
    assert refused.value.code == "name_reserved"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Budi Santoso", "BUDI SANTOSO"),
        ("Budi Santoso", "Вudі Ѕаntоѕо"),  # Cyrillic look-alikes
        ("Ayşe", "Ayse"),
        ("Søren", "Soren"),
        ("Ana Lee", "ᴀna Lee"),
    ],
)
def test_look_alike_names_share_a_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


@pytest.mark.parametrize(("one", "other"), [("Budi", "Budiman"), ("Ana", "Anna"), ("李", "季")])
def test_different_names_keep_different_skeletons(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    db = Database(database_url)
    await db.migrate()
    try:
        yield Store(db)
    finally:
        await db.close()


@pytest.mark.anyio
async def test_a_rename_to_another_players_name_is_refused_over_http(
    database_url: str, tmp_path: Path
) -> None:
    async with running_server(server_settings(tmp_path, database_url=database_url)) as running:
        page = {"Origin": running.base}
        async with (
            httpx.AsyncClient(base_url=running.base, headers=page) as ana,
            httpx.AsyncClient(base_url=running.base, headers=page) as mallory,
        ):
            assert (await ana.patch("/api/me", json={"name": "Ana Lee"})).status_code == 200
            mine = (await mallory.get("/api/me")).json()
            for copy in ["Ana Lee", "ANA LEE", "Аna Lее", "ᴀna Lee"]:
                refused = await mallory.patch("/api/me", json={"name": copy})
                assert refused.status_code == 422, (copy, refused.text)
                assert refused.json()["detail"]["code"] == "name_taken"
            assert (await mallory.get("/api/me")).json() == mine
            # Her own name in another case is hers to take.
            again = await ana.patch("/api/me", json={"name": "ana lee"})
            assert again.status_code == 200 and again.json()["name"] == "ana lee"


@pytest.mark.anyio
async def test_two_renames_to_one_name_at_once_give_one_success(store: Store) -> None:
    for round_ in range(5):
        one, _ = await store.create_guest()
        other, _ = await store.create_guest()
        name = f"Racer {round_}"
        results = await asyncio.gather(
            store.rename(one.id, name), store.rename(other.id, name), return_exceptions=True
        )
        refused = [r for r in results if isinstance(r, NameRefused)]
        assert len(refused) == 1, results
        assert refused[0].code == "name_taken"
        holders = await store.players([one.id, other.id])
        assert sorted(p.name for p in holders.values()).count(name) == 1


@pytest.mark.anyio
async def test_a_generated_guest_name_that_is_taken_is_drawn_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = player_queries.guest_name
    monkeypatch.setattr(
        player_queries,
        "guest_name",
        lambda attempt=0: "Swift Otter 42" if attempt < 2 else real(attempt),
    )
    first, _ = await store.create_guest()
    second, _ = await store.create_guest()
    assert first.name == "Swift Otter 42"
    assert second.name != first.name and len(second.name.split()[-1]) == 3
    with pytest.raises(NameRefused):
        await store.create_guest("swift otter 42")


AT = datetime(2026, 1, 1, 8, 0, 0, 123456, tzinfo=UTC)  # microseconds, as stored times have
BEFORE = {
    # id: (name, created how many minutes after AT, deleted, skeleton expected)
    "p1": ("Ana Lee", 5, False, True),  # the oldest holder of "ana lee": keeps it
    "p2": ("ANA LEE", 1, True, False),  # older, but deleted: holds nothing
    "p3": ("Аna Lee", 9, False, False),  # a later holder (Cyrillic А): NULL until renamed
    "p4": ("Budi", 3, False, True),
    "p5": ("Cici", 20, False, False),  # met first, but younger: gives the skeleton up
    "p6": ("CICI", 15, False, True),
}


def _columns(connection: Connection) -> set[str]:
    return {column["name"] for column in inspect(connection).get_columns("players")}


async def _migrated(url: str) -> None:
    db = Database(url)
    try:
        await db.migrate("0009")
        async with db.engine.begin() as connection:
            for player_id, (name, minutes, deleted, _) in BEFORE.items():
                await connection.execute(
                    text(
                        "INSERT INTO players (id, name, created_at, deleted_at)"
                        " VALUES (:i, :n, :t, :d)"
                    ),
                    {
                        "i": player_id,
                        "n": name,
                        "t": AT + timedelta(minutes=minutes),
                        "d": AT if deleted else None,
                    },
                )
        await db.migrate()
        async with db.engine.connect() as connection:
            rows = await connection.execute(text("SELECT id, name, skeleton FROM players"))
            after = {row.id: (row.name, row.skeleton) for row in rows}
        assert set(after) == set(BEFORE), "no player is lost"
        for player_id, (name, _, _, keeps) in BEFORE.items():
            assert after[player_id][0] == name, "no name is changed"
            assert after[player_id][1] == (skeleton(name) if keeps else None), player_id
        store = Store(db)
        newcomer, _ = await store.create_guest()
        with pytest.raises(NameRefused):
            await store.rename(newcomer.id, "ana lee")
        await store.rename("p3", "Ana Lee Two")  # the later holder renames and gets one
        async with db.engine.begin() as connection:
            await connection.run_sync(_downgrade, "0009")
        async with db.engine.connect() as connection:
            assert "skeleton" not in await connection.run_sync(_columns)
            count = (await connection.execute(text("SELECT count(*) FROM players"))).scalar()
            assert count == len(BEFORE) + 1
    finally:
        await db.close()


@pytest.mark.anyio
async def test_migration_0010_gives_the_oldest_holder_the_name_on_sqlite(tmp_path: Path) -> None:
    await _migrated(f"sqlite:///{tmp_path / 'm.db'}")


@pytest.mark.anyio
async def test_migration_0010_gives_the_oldest_holder_the_name_on_postgres(
    postgres_url: str,
) -> None:
    await _migrated(postgres_url)
