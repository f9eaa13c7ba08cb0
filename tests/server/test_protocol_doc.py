"""docs/protocol.md's tables are those the server's models render, and the models are the wire.

The tables of messages and routes are written by ``python -m bidak.server.app.protocol_doc``; run it
after changing a message or an answer's model. Every message a test client receives is checked
against the server's models by the harness (``tests/server/harness.py``).
"""

from __future__ import annotations

import json
import typing
from dataclasses import replace
from typing import get_args

import pytest
from pydantic import TypeAdapter, ValidationError

from bidak.engine.hints import CubeHint, PlayHint, state_hint
from bidak.engine.review import review_mat
from bidak.match import Phase, Player
from bidak.server.analysis.schemas import Hint, Review
from bidak.server.app import protocol_doc as doc
from bidak.server.play.protocol import match_view
from bidak.server.play.schemas import SeatInfo
from bidak.server.play.talk import PHRASES
from bidak.server.play.wire import messages
from bidak.server.play.wire.messages import ServerMessage
from bidak.server.play.wire.table import Table
from tests.engine.test_review import BLUNDER
from tests.server.test_protocol import _moving


def test_the_protocol_doc_is_rendered_from_the_models() -> None:
    changes = doc.diff()
    assert not changes, "run `python -m bidak.server.app.protocol_doc`:\n" + changes


def test_every_json_answer_has_a_model() -> None:
    # The routes table names each answer's model; an untyped JSON answer fails to render.
    rendered = doc.http_routes()
    assert "`Hint`" in rendered and "`Review`" in rendered and "`Health`" in rendered


def test_the_wire_knows_every_phrase_and_seat_field() -> None:
    assert get_args(messages.Phrase) == PHRASES
    assert list(typing.get_type_hints(messages.Seat)) == list(SeatInfo.model_fields)


def test_a_table_is_a_table() -> None:
    table = match_view(_moving((6, 5)), Player.ZERO)
    for seat in (Player.ONE, None):
        TypeAdapter(Table).validate_python(match_view(_moving((6, 5)), seat))
    ServerMessage.validate_python({**_events(), "table": table})
    with pytest.raises(ValidationError):
        ServerMessage.validate_python({**_events(), "table": {**table, "extra": 1}})


def _events() -> dict[str, object]:
    return dict(
        messages.events_head(
            room="r", match="m", version=1, events=[], deadline=None, seed=None, now=1.0
        )
    )


def test_the_hint_kinds_keep_their_wire_names() -> None:
    # The client tells plays from cube advice by these words (web/js/table.js).
    assert get_args(Hint.model_fields["kind"].annotation) == (PlayHint.__name__, CubeHint.__name__)


def test_a_review_goes_out_as_the_engine_wrote_it() -> None:
    written = {"match_id": "m", "version": 1, **review_mat(BLUNDER, "1ply").to_json()}
    sent = Review.model_validate(written).model_dump(mode="json")
    assert json.dumps(sent) == json.dumps(written)


def test_a_hint_goes_out_as_the_engine_wrote_it() -> None:
    rolling = replace(_moving((6, 5)), phase=Phase.ROLL, dice=None)
    for state, kind in ((_moving((6, 5)), "PlayHint"), (rolling, "CubeHint")):
        advice = state_hint(state, "1ply")
        assert advice is not None and type(advice).__name__ == kind
        written = {"version": state.version, "kind": kind, "hint": advice.to_json()}
        sent = Hint.model_validate(written).model_dump(mode="json")
        assert json.dumps(sent) == json.dumps(written)
