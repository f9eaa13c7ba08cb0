"""JSON for rule sets, events and states: plain dicts of str, int, bool, list and ``None``.

Each ``*_to_json`` has a ``*_from_json`` that gives back an equal value. Reading checks every field,
so malformed input raises :class:`~bidak.errors.InvalidMatchData` (a ``BidakError``), never
``KeyError`` or ``TypeError``. Positions are written as GNU Backgammon Position IDs (which hold the
bar) seen by the player the state says (see :class:`~bidak.match.state.MatchState`).

>>> from bidak.match.events import Doubled
>>> from bidak.match.player import Player
>>> event_to_json(Doubled(Player.ONE, 4))
{'type': 'doubled', 'player': 1, 'value': 4}
>>> event_from_json({'type': 'doubled', 'player': 1, 'value': 4})
Doubled(player=<Player.ONE: 1>, value=4)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from enum import Enum
from typing import Any, Final, TypeVar

from bidak.errors import BidakError, InvalidMatchData
from bidak.match.checks import MAX_CUBE
from bidak.match.events import EVENT_TYPES, Event, GameEnd
from bidak.match.player import Player
from bidak.match.ruleset import STRIKES_TO_LOSE, OpeningRule, RuleSet, TimeoutPolicy
from bidak.match.state import MatchState, Phase
from bidak.rules import Position, Variant

JSON = dict[str, Any]
E = TypeVar("E", bound=Enum)
T = TypeVar("T")

# -- writing ------------------------------------------------------------------------------------
#
# The writers are called for every state and event the server stores or sends, so they read the
# fields directly instead of walking ``dataclasses.fields`` with a generic encoder. A player is
# written as its number, other enums as their value (read as ``_value_``: the ``value`` property
# costs more than the rest of a field); a ``GameEnd`` is a ``str`` and is written as itself.
# Tuples become lists.


def rules_to_json(rules: RuleSet) -> JSON:
    """The fields of ``rules`` in the order they are declared.

    >>> rules_to_json(RuleSet(length=3))["variant"]
    'standard'
    >>> list(rules_to_json(RuleSet())) == [field.name for field in fields(RuleSet)] == list(_RULES)
    True
    """
    return {
        "length": rules.length,
        "cube": rules.cube,
        "variant": rules.variant._value_,
        "opening": rules.opening._value_,
        "timeout_policy": rules.timeout_policy._value_,
    }


def _player_json(player: Player | None) -> int | None:
    return None if player is None else player._value_


def _pair_json(pair: tuple[T, T] | None) -> list[T] | None:
    return None if pair is None else list(pair)


def _steps_json(steps: tuple[tuple[int, int, bool], ...]) -> list[list[int | bool]]:
    return [list(step) for step in steps]


_Writer = Callable[[Any], object]

_EVENT_WRITERS: Final[dict[str, _Writer | None]] = {
    "rules": rules_to_json,
    "game": None,
    "score": list,
    "crawford": None,
    "dice": list,
    "starter": _player_json,
    "player": _player_json,
    "winner": _player_json,
    "steps": _steps_json,
    "notation": None,
    "value": None,
    "stakes": None,
    "points": None,
    "kind": None,
    "strikes": None,
    "left": None,
    "on": None,
}
"""How each event field is written (``None``: as it is); the names are those of the readers."""

JSON_NAMES: Final[dict[str, str]] = {"stakes": "level", "resign_stakes": "resign_level"}
"""Fields whose JSON name (in stored logs and on the wire) is older than their Python name; every
other field is written under its own name."""


_PYTHON_NAMES: Final[dict[str, str]] = {wire: field for field, wire in JSON_NAMES.items()}


def _json_name(field: str) -> str:
    return JSON_NAMES.get(field, field)


_EVENT_LAYOUTS: Final[dict[type[Event], tuple[tuple[str, _Writer | None], ...]]] = {
    kind: tuple((field.name, _EVENT_WRITERS[field.name]) for field in fields(kind))
    for kind in EVENT_TYPES
}
"""The fields of each event type in order, each with its writer."""


def event_to_json(event: Event) -> JSON:
    """``{"type": ...}`` then the event's fields in the order they are declared."""
    body: JSON = {"type": event.type}
    for name, write in _EVENT_LAYOUTS[type(event)]:
        value = getattr(event, name)
        body[_json_name(name)] = value if write is None else write(value)
    return body


def state_to_json(state: MatchState) -> JSON:
    """Every field of ``state`` a new state is built from, in the order they are declared.

    >>> from bidak.match.machine import new_match
    >>> names = [field.name for field in fields(MatchState) if field.init]
    >>> list(state_to_json(new_match(RuleSet()))) == [_json_name(n) for n in names] == list(_STATE)
    True
    """
    return {
        "rules": rules_to_json(state.rules),
        "position": state.position.position_id,
        "score": list(state.score),
        "game": state.game,
        "crawford": state.crawford,
        "post_crawford": state.post_crawford,
        "phase": state.phase._value_,
        "turn": _player_json(state.turn),
        "dice": _pair_json(state.dice),
        "cube": state.cube,
        "cube_owner": _player_json(state.cube_owner),
        "resign_level": state.resign_stakes,
        "resigner": _player_json(state.resigner),
        "strikes": list(state.strikes),
        "struck": list(state.struck),
        "autoplay": list(state.autoplay),
        "winner": _player_json(state.winner),
        "version": state.version,
    }


# -- reading ------------------------------------------------------------------------------------

Reader = Callable[[object], Any]


def _fail(what: str, value: object) -> InvalidMatchData:
    return InvalidMatchData(f"{what}: {value!r} is not valid")


def _int(low: int, high: int) -> Reader:
    def read(value: object) -> int:
        if type(value) is not int or not low <= value <= high:
            raise _fail(f"a whole number {low}..{high}", value)
        return value

    return read


def _bool(value: object) -> bool:
    if type(value) is not bool:
        raise _fail("true or false", value)
    return value


def _str(value: object) -> str:
    if type(value) is not str:
        raise _fail("a string", value)
    return value


def _enum(kind: type[E]) -> Reader:
    members: dict[object, E] = {member.value: member for member in kind}

    def read(value: object) -> E:
        try:
            return members[value]  # the usual case, without the enum machinery
        except (KeyError, TypeError):
            pass
        try:
            return kind(value)
        except ValueError:
            raise _fail(f"a {kind.__name__}", value) from None

    return read


_PLAYER_NUMBER = _enum(Player)


def _player(value: object) -> Player:
    if type(value) is not int:
        raise _fail("a player (0 or 1)", value)
    return _PLAYER_NUMBER(value)  # type: ignore[no-any-return]


def _optional(read: Reader) -> Reader:
    def read_optional(value: object) -> object:
        return None if value is None else read(value)

    return read_optional


def _pair(read: Reader) -> Reader:
    def read_pair(value: object) -> tuple[Any, Any]:
        if not isinstance(value, list) or len(value) != 2:
            raise _fail("a pair", value)
        return read(value[0]), read(value[1])

    return read_pair


def _steps(value: object) -> tuple[tuple[int, int, bool], ...]:
    if not isinstance(value, list) or len(value) > 4:
        raise _fail("up to four steps", value)
    steps = []
    for step in value:
        if not isinstance(step, list) or len(step) != 3:
            raise _fail("a step [start, end, hit]", step)
        steps.append((_int(0, 25)(step[0]), _int(0, 25)(step[1]), _bool(step[2])))
    return tuple(steps)


def _cube(value: object) -> int:
    if type(value) is not int or value < 1 or value > MAX_CUBE or value & (value - 1):
        raise _fail("a cube value 1, 2, 4, ..., 64", value)
    return value


def _position(value: object) -> Position:
    try:
        return Position.from_position_id(_str(value))
    except BidakError as error:
        raise InvalidMatchData(f"position: {error}") from None


_DIE = _int(1, 6)
_DICE = _pair(_DIE)
_SCORE = _pair(_int(0, 10_000))
_COUNT = _int(0, 1_000_000_000)

_RULES: Final[dict[str, Reader]] = {
    "length": _int(1, 25),
    "cube": _bool,
    "variant": _enum(Variant),
    "opening": _enum(OpeningRule),
    "timeout_policy": _enum(TimeoutPolicy),
}


def _object(
    value: object,
    schema: Mapping[str, Reader],
    what: str,
    tag: str | None = None,
    defaults: Mapping[str, object] | None = None,
) -> dict[str, Any]:
    """The fields of ``value`` read by ``schema``; exactly these keys (and ``tag``) are allowed,
    except that a key of ``defaults`` may be missing (data written before that field existed)
    and is then read as its default. The result is keyed by Python names (:data:`JSON_NAMES`)."""
    if not isinstance(value, dict):
        raise InvalidMatchData(f"{what} must be a JSON object, not {type(value).__name__}")
    if defaults and not defaults.keys() <= value.keys():
        value = {**defaults, **value}
    keys = value.keys() - {tag}
    if keys != schema.keys():
        missing, extra = sorted(schema.keys() - keys), sorted(map(str, keys - schema.keys()))
        raise InvalidMatchData(f"{what}: missing fields {missing}, unknown fields {extra}")
    read: dict[str, Any] = {}
    for name, reader in schema.items():
        try:
            read[_PYTHON_NAMES.get(name, name)] = reader(value[name])
        except InvalidMatchData as error:
            raise InvalidMatchData(f"{what} field {name!r}, {error}") from None
    return read


def rules_from_json(data: object) -> RuleSet:
    return RuleSet(**_object(data, _RULES, "rule set"))


def _rules(value: object) -> RuleSet:
    return rules_from_json(value)


_EVENT_FIELDS: Final[dict[str, Reader]] = {
    "rules": _rules,
    "game": _int(1, 10_000),
    "score": _SCORE,
    "crawford": _bool,
    "dice": _DICE,
    "starter": _player,
    "player": _player,
    "winner": _player,
    "steps": _steps,
    "notation": _str,
    "value": _cube,
    "stakes": _int(1, 3),
    "points": _int(1, 3 * MAX_CUBE),
    "kind": _enum(GameEnd),
    "strikes": _int(1, 1_000_000),
    "left": _optional(_int(0, STRIKES_TO_LOSE)),
    "on": _bool,
}
_EVENT_DEFAULTS: Final[dict[str, dict[str, object]]] = {"timed_out": {"left": None}}
"""Event fields that older logs do not have, with the value they are read as."""
_EVENT_SCHEMAS: Final[dict[str, tuple[type[Event], dict[str, Reader]]]] = {
    kind.type: (kind, {_json_name(field.name): _EVENT_FIELDS[field.name] for field in fields(kind)})
    for kind in EVENT_TYPES
}


def event_from_json(data: object) -> Event:
    if not isinstance(data, dict):
        raise InvalidMatchData(f"an event must be a JSON object, not {type(data).__name__}")
    name = data.get("type")
    if not isinstance(name, str) or name not in _EVENT_SCHEMAS:
        raise InvalidMatchData(f"unknown event type {name!r}")
    kind, schema = _EVENT_SCHEMAS[name]
    return kind(**_object(data, schema, name, tag="type", defaults=_EVENT_DEFAULTS.get(name)))


_STATE: Final[dict[str, Reader]] = {
    "rules": _rules,
    "position": _position,
    "score": _SCORE,
    "game": _int(0, 10_000),
    "crawford": _bool,
    "post_crawford": _bool,
    "phase": _enum(Phase),
    "turn": _optional(_player),
    "dice": _optional(_DICE),
    "cube": _cube,
    "cube_owner": _optional(_player),
    "resign_level": _int(0, 3),
    "resigner": _optional(_player),
    "strikes": _pair(_COUNT),
    "struck": _pair(_bool),
    "autoplay": _pair(_bool),
    "winner": _optional(_player),
    "version": _COUNT,
}


_STATE_DEFAULTS: Final[dict[str, object]] = {"strikes": [0, 0], "struck": [False, False]}
"""State fields that states stored by older versions may lack: no strikes yet."""


def state_from_json(data: object) -> MatchState:
    state = MatchState(**_object(data, _STATE, "state", defaults=_STATE_DEFAULTS))
    _check_consistent(state)
    return state


def _check_consistent(state: MatchState) -> None:
    """Refuse combinations no log can produce (a hand-edited or truncated state)."""
    phase = state.phase
    problems = [
        (phase in (Phase.ROLL, Phase.MOVE, Phase.DOUBLED, Phase.RESIGN_OFFERED))
        and state.turn is None,
        phase in (Phase.OPENING, Phase.MATCH_OVER) and state.turn is not None,
        phase is Phase.MOVE and state.dice is None,
        phase in (Phase.ROLL, Phase.DOUBLED, Phase.OPENING) and state.dice is not None,
        phase is Phase.RESIGN_OFFERED and state.resigner is None,
        phase not in (Phase.RESIGN_OFFERED, Phase.BETWEEN_GAMES) and state.resigner is not None,
        (state.resigner is None) != (state.resign_stakes == 0),
        (phase is Phase.MATCH_OVER) != (state.winner is not None),
    ]
    if any(problems):
        raise InvalidMatchData(f"state: these fields do not fit phase {phase.value}")
