"""Fuzzing the WebSocket: whatever a client sends, the server answers and the match stays put.

One real server runs a friend match that waits on Bob. Hypothesis sends batches of random and
malformed frames (bytes, broken JSON, wrong shapes, unknown types, intents with wrong values,
stale versions, actions out of turn, oversized messages) from four connections: Alice and Bob at
the table, Eve watching and Mallory who never joined. For every frame the sender gets exactly
one answer: an ``error`` (a ``pong`` for a ping, a ``snapshot`` for a join of the real room);
nothing is logged at ERROR, the connection stays open, and the stored match does not change.

Hypothesis drives a plain function; the server and clients live on an event loop in a thread
of their own for the whole module (:mod:`tests.server.fuzz_table`), and each example runs there
as a coroutine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from bidak.server.play.protocol import ClientMessage, Intent, Join, Ping
from bidak.server.play.room import canonical_code
from tests.server.fuzz_table import LIMIT, ErrorLog, LoopThread, Table, open_table
from tests.server.harness import Client, friend_room, running_server, server_settings
from tests.server.scripted import Script

REPLY_WAIT = 10.0


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    loop = LoopThread()
    stack = contextlib.AsyncExitStack()
    try:
        opened = loop.run(open_table(stack, tmp_path_factory.mktemp("fuzz"), loop))
        with opened.log.watching("", "uvicorn"):
            yield opened
    finally:
        loop.run(stack.aclose())
        loop.close()


# -- what to send ---------------------------------------------------------------------------------

CLIENT_TYPES = ["join", "intent", "ping"]
ACTION_TYPES = [
    "roll",
    "double",
    "take",
    "drop",
    "play",
    "resign",
    "accept_resign",
    "reject_resign",
    "forfeit",
    "autoplay",
]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
numbers = (
    st.integers(-5, 30) | st.integers(-(2**64), 2**64) | st.sampled_from([1.5, "3", None, True])
)
steps = st.lists(
    st.lists(numbers, min_size=0, max_size=4) | json_values, min_size=0, max_size=8
) | st.lists(st.just([24, 18]), min_size=5, max_size=700)  # huge: refused or too large


def well_formed_bodies() -> st.SearchStrategy[dict[str, Any]]:
    """Action bodies the schema accepts: refused only by the rules (turn, seat, steps)."""
    bare = ["roll", "double", "take", "drop", "accept_resign", "reject_resign", "forfeit"]
    points = st.integers(0, 25)
    return st.one_of(
        st.sampled_from(bare).map(lambda kind: {"type": kind}),
        st.builds(
            lambda steps: {"type": "play", "steps": steps},
            st.lists(st.lists(points, min_size=2, max_size=2), max_size=4),
        ),
        st.builds(lambda level: {"type": "resign", "level": level}, st.sampled_from([1, 2, 3])),
        st.builds(lambda on: {"type": "autoplay", "on": on}, st.booleans()),
    )


def malformed_bodies() -> st.SearchStrategy[Any]:
    """Known or unknown action types with fields of the wrong kind, range or size."""
    return (
        st.builds(
            lambda kind, extra: {"type": kind, **extra},
            st.sampled_from(ACTION_TYPES) | st.text(max_size=12),
            st.fixed_dictionaries(
                {},
                optional={
                    "steps": steps,
                    "level": st.sampled_from([0, 1, 2, 3, 4, "1", None, 2.0]),
                    "on": st.sampled_from([True, False, "yes", 1, None]),
                    "player": st.integers(-1, 2),
                    "extra": json_values,
                },
            ),
        )
        | json_values
    )


def intents(version: int, *, valid: bool) -> st.SearchStrategy[dict[str, Any]]:
    """Intents at the current version, none, a stale or future one (``valid``: the schema takes
    them, only the rules can refuse them), or else with bad versions, fields and bodies."""
    versions = (
        st.none() | st.just(version) | st.integers(version - 3, version + 3) | st.integers(0, 2**70)
    )
    if valid:
        return st.builds(
            lambda action, extra: {"type": "intent", "action": action, **extra},
            well_formed_bodies(),
            st.fixed_dictionaries({}, optional={"version": versions}),
        )
    wrong_versions = st.integers(-(2**40), -1) | st.sampled_from(["1", 1.5, [], {}])
    return st.builds(
        lambda action, extra: {"type": "intent", "action": action, **extra},
        malformed_bodies() | well_formed_bodies(),
        st.fixed_dictionaries(
            {}, optional={"version": versions | wrong_versions, "room": st.text(max_size=10)}
        ),
    )


def joins(room: str) -> st.SearchStrategy[Any]:
    return st.builds(
        lambda code, extra: {"type": "join", "room": code, **extra},
        st.sampled_from([room, room.upper(), room + " "]) | st.text(max_size=70) | json_values,
        st.fixed_dictionaries(
            {}, optional={"since": numbers | json_values, "seat": st.integers(0, 1)}
        ),
    )


def shapes() -> st.SearchStrategy[Any]:
    """JSON with a known or unknown ``type`` and whatever fields: wrong shapes."""
    return (
        st.builds(
            lambda kind, rest: {"type": kind, **rest},
            st.sampled_from(CLIENT_TYPES) | st.text(max_size=10) | json_values,
            st.dictionaries(
                st.sampled_from(["room", "action", "version", "since", "x"]), json_values
            ),
        )
        | json_values
    )


def broken_json() -> st.SearchStrategy[str]:
    return st.sampled_from(
        [
            "",
            "{",
            '{"type":"intent"',
            "{'type': 'ping'}",
            "NaN",
            '{"type":"ping"}{"type":"ping"}',
            '{"type":"ping",}',
            '{"type": "intent", "action": {"type": "roll"}, "version": 1e999}',
            "[" * 2000 + "]" * 2000,
            '{"a":' * 600 + "1" + "}" * 600,  # nested past the parser's limit
            '"\\ud800"',
            '{"type":"join","room":"\\u0000"}',
        ]
    ) | st.text(max_size=300)


def oversized() -> st.SearchStrategy[str]:
    return st.builds(
        lambda fill, extra: json.dumps(
            {"type": "ping", "pad": fill * (LIMIT // len(fill.encode()) + extra)}
        ),
        st.sampled_from(["x", "é", "☃", "\U0001f3b2"]),
        st.integers(0, 40_000),
    )


def frames(table: Table) -> st.SearchStrategy[str | bytes]:
    """Anything from broken bytes to big JSON, and intents of the wrong shape."""
    malformed = st.one_of(
        intents(table.version, valid=False),
        joins(table.room),
        shapes(),
        st.just({"type": "ping"}),
    ).map(json.dumps)
    return st.one_of(malformed, broken_json(), oversized(), st.binary(max_size=300))


def batches(
    table: Table, frame: st.SearchStrategy[str | bytes]
) -> st.SearchStrategy[list[tuple[str, str | bytes]]]:
    """Frames from any of the four clients, less those that would really act."""
    pair = st.tuples(st.sampled_from(sorted(table.clients)), frame)
    return st.lists(
        pair.filter(lambda sent: not changes_the_match(table, *sent)), min_size=1, max_size=8
    )


# -- what must come back ---------------------------------------------------------------------------


def changes_the_match(table: Table, who: str, frame: str | bytes) -> bool:
    """Whether the server would accept ``frame`` from ``who`` as a real action (not fuzz)."""
    if isinstance(frame, bytes) or len(frame.encode("utf-8")) > LIMIT:
        return False
    try:
        message = ClientMessage.validate_json(frame)
    except ValidationError:
        return False
    if not isinstance(message, Intent) or table.seats[who] is None:
        return False
    allowed = message.action.type in table.allowed[who]
    # Giving up does not depend on the position, so it is never refused as stale (protocol.md).
    never_stale = message.action.type in {"forfeit", "resign", "autoplay"}
    return allowed and (never_stale or message.version in (None, table.version))


def expected_answer(table: Table, frame: str | bytes) -> str:
    if isinstance(frame, bytes) or len(frame.encode("utf-8")) > LIMIT:
        return "error"
    try:
        message = ClientMessage.validate_json(frame)
    except ValidationError:
        return "error"
    if isinstance(message, Ping):
        return "pong"
    if isinstance(message, Join) and canonical_code(message.room) == table.room:
        return "snapshot"
    return "error"


async def _reconnect(table: Table, who: str) -> None:
    """After a failure closed a connection, open a new one so later examples still run."""
    client = table.clients[who]
    if client.ws is not None and client.ws.state is websockets.protocol.State.OPEN:
        return
    client.ws = None
    if who == "mallory":
        await client.connect()
    else:
        await client.join(table.room)


async def exchange(table: Table, batch: list[tuple[str, str | bytes]]) -> list[str]:
    """Send ``batch``, check every answer and that nothing changed; the error codes seen."""
    codes: list[str] = []
    if table.mallory_joined:  # Mallory should keep trying without having joined
        await table.clients["mallory"].ws.close()
        table.mallory_joined = False
    for who in table.clients:
        await _reconnect(table, who)
    for who, frame in batch:
        client = table.clients[who]
        await client.ws.send(frame)
        try:
            answer = json.loads(await asyncio.wait_for(client.ws.recv(), REPLY_WAIT))
        except websockets.ConnectionClosed as closed:
            # A connection that keeps sending oversized frames is closed (1009): that is the
            # rule (docs/security.md), not a failure; the next frame goes on a new connection.
            if len(frame) > LIMIT and closed.rcvd is not None and closed.rcvd.code == 1009:
                codes.append("too_large")
                await _reconnect(table, who)
                continue
            raise AssertionError(f"the server closed {who}'s connection: {closed}") from None
        expected = expected_answer(table, frame)
        assert answer["type"] == expected, (who, frame[:200], answer)
        if expected == "error":
            assert isinstance(answer["code"], str) and isinstance(answer["message"], str)
            codes.append(answer["code"])
        if expected == "snapshot":
            table.mallory_joined |= who == "mallory"
            assert answer["version"] == table.version and answer["match"] == table.match
    row = await table.running.services.store.match(table.match)
    assert row is not None and row.version == table.version, "the match changed"
    assert len(await table.running.services.store.events(table.match)) == table.events
    assert not table.log.records, [record.getMessage() for record in table.log.records]
    return codes


# -- the tests -------------------------------------------------------------------------------------

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _run(table: Table, batch: list[tuple[str, str | bytes]]) -> None:
    for code in table.loop.run(exchange(table, batch)):
        event(f"error: {code}")


@FUZZ
@given(data=st.data())
def test_no_frame_breaks_the_server_or_changes_the_match(table: Table, data: st.DataObject) -> None:
    _run(table, data.draw(batches(table, frames(table)), label="batch"))


@FUZZ
@given(data=st.data())
def test_intents_the_rules_refuse_change_nothing(table: Table, data: st.DataObject) -> None:
    """Well-formed intents out of turn, from the wrong seat, at a stale version, with steps
    that are not a legal play: each is refused with an error and nothing is stored."""
    refused = intents(table.version, valid=True).map(json.dumps)
    _run(table, data.draw(batches(table, refused), label="batch"))


def test_each_kind_of_refusal_has_its_own_code(table: Table) -> None:
    bob_steps = {"type": "play", "steps": [[1, 2], [2, 3]]}
    cases: list[tuple[str, str | bytes, str]] = [
        ("alice", b"\x00\xff binary", "bad_message"),
        ("alice", json.dumps({"type": "ping", "pad": "x" * LIMIT}), "too_large"),
        (
            "alice",
            json.dumps({"type": "intent", "action": bob_steps | {"steps": [[24, 18]] * 700}}),
            "too_large",
        ),
        (
            "alice",
            json.dumps({"type": "intent", "action": bob_steps | {"steps": [[24, 18]] * 5}}),
            "bad_message",
        ),
        ("alice", json.dumps({"type": "intent", "action": {"type": "roll"}}), "illegal"),
        (
            "bob",
            json.dumps(
                {"type": "intent", "action": {"type": "roll"}, "version": table.version - 1}
            ),
            "stale",
        ),
        (
            "bob",
            json.dumps({"type": "intent", "action": bob_steps, "version": table.version + 1}),
            "stale",
        ),
        ("bob", json.dumps({"type": "intent", "action": {"type": "take"}}), "illegal"),
        ("eve", json.dumps({"type": "intent", "action": {"type": "roll"}}), "not_seated"),
        ("mallory", json.dumps({"type": "intent", "action": {"type": "roll"}}), "not_joined"),
        ("mallory", json.dumps({"type": "join", "room": table.room + "x"}), "not_found"),
        ("mallory", json.dumps({"type": "dance"}), "bad_message"),
    ]
    for who, frame, code in cases:
        assert not changes_the_match(table, who, frame)
        assert table.loop.run(exchange(table, [(who, frame)])) == [code], (who, frame[:80])
    health = table.loop.run(table.clients["alice"].http.get("/api/health"))
    assert health.status_code == 200


@pytest.mark.anyio
async def test_a_burst_past_the_rate_limit_is_refused_message_by_message(tmp_path: Path) -> None:
    rate, burst = 4.0, 10
    config = server_settings(tmp_path, rate_per_second=rate, rate_burst=burst)
    async with running_server(config) as running:
        with ErrorLog().watching("", "uvicorn") as log:
            async with Client(running) as alice, Client(running) as bob:
                _, room = await friend_room(alice, bob)
                await running.services.rooms.settle()
                await alice.join(room["code"])  # one message: burst - 1 tokens left
                await bob.join(room["code"])
                assert alice.table is not None and bob.table is not None
                mover = alice if alice.table["turn"] == 0 else bob
                assert mover.table is not None and mover.table["allowed"]
                action = Script(5).choose(mover.table)
                assert action is not None
                real = json.dumps({"type": "intent", "action": action, "version": mover.version})
                version = mover.version

                # 20 pings and then a real action, all at once: the action is past the limit.
                frames = [json.dumps({"type": "ping"})] * 20 + [real]
                for frame in frames:
                    await mover.ws.send(frame)
                answers = [await mover.receive(timeout=REPLY_WAIT) for _ in frames]
                kinds = [a["type"] if a["type"] != "error" else a["code"] for a in answers]
                assert kinds[: burst - 1] == ["pong"] * (burst - 1), kinds
                assert kinds[-1] == "rate_limited", "the action was refused, not queued"
                assert kinds.count("pong") <= burst, kinds  # at most one token came back
                assert set(kinds[burst:]) == {"rate_limited"}, kinds
                row = await running.services.store.match(room["match_id"])
                assert row is not None and row.version == version

                # The connection is still open; once the bucket refills the same action counts.
                await asyncio.sleep(1.5 / rate)
                await mover.ws.send(real)
                answer = await mover.until(lambda m: m["type"] in ("events", "error"))
                assert answer["type"] == "events" and answer["version"] > version, answer
        assert not log.records, [record.getMessage() for record in log.records]
