"""The reads behind profiles, the leaderboard and the live games list, and the review record."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, and_, bindparam, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from bidak.server.community.tables import ReviewedRow
from bidak.server.play import RoomKind
from bidak.server.play.tables import MatchRow, RatedMatchRow, RoomRow
from bidak.server.shared.store.models import PlayerRow
from bidak.server.tournaments.tables import EntrantRow, TournamentMatchRow, TournamentRow
from bidak.tournament import places
from bidak.tournament.knockout import from_json

_PLAYERS = cast(Table, PlayerRow.__table__)
_RATED = cast(Table, RatedMatchRow.__table__)
_REVIEWED = cast(Table, ReviewedRow.__table__)
_ROOMS = cast(Table, RoomRow.__table__)
_MATCHES = cast(Table, MatchRow.__table__)
_TOURNAMENTS = cast(Table, TournamentRow.__table__)
_ENTRANTS = cast(Table, EntrantRow.__table__)
_TOUR_MATCHES = cast(Table, TournamentMatchRow.__table__)
# Built once: an ``in_`` of a list built per call leaves a reference cycle behind
# (docs/architecture.md, "Storage").
_NAMES = select(_PLAYERS.c.id, _PLAYERS.c.name).where(
    _PLAYERS.c.id.in_(bindparam("ids", expanding=True))
)
_SEATED = select(_PLAYERS.c.id, _PLAYERS.c.name, _PLAYERS.c.rating).where(
    _PLAYERS.c.id.in_(bindparam("ids", expanding=True))
)
_LISTED = _ROOMS.c.kind.in_(
    [RoomKind.QUICK.value, RoomKind.FRIEND.value, RoomKind.TOURNAMENT.value]
)

LEADERS = 100
MIN_EXPERIENCE = 50
ACTIVE_DAYS = 60


@dataclass(frozen=True)
class RatedLine:
    """One rated match in a profile, from the profile's player's side."""

    match_id: str
    opponent_id: str
    opponent: str
    won: bool
    length: int
    change: float
    at: datetime


@dataclass(frozen=True)
class TournamentLine:
    """One finished tournament in a profile: where the player finished, among how many."""

    tournament_id: str | None
    """None for a player's private knockout (its id is its invite)."""
    name: str
    kind: str
    place: int
    players: int
    at: float
    """Its start (epoch seconds)."""


TROPHY_PLACES = 3
"""The places that win a trophy (a cosmetic badge on the profile): the first three."""


@dataclass(frozen=True)
class Profile:
    """What a player's public profile shows."""

    id: str
    name: str
    rating: float
    experience: int
    member_since: datetime
    played: int
    won: int
    streak: int
    """Consecutive rated results up to the last one: +n wins, -n losses, 0 before any."""
    recent: list[RatedLine]
    average_pr: float | None
    reviewed: int
    tournaments: list[TournamentLine]
    """The finished tournaments the player played in, newest first."""
    trophies: dict[tuple[str, int], int]
    """(kind, place) -> how many times: the first three places of every finished tournament."""
    guest: bool = False
    """No linked e-mail address: the player's matches are unrated."""


def profile(connection: Connection, player_id: str, recent: int = 20) -> Profile | None:
    """The player's profile (rating, rated results with the ``recent`` last ones, average PR
    over their reviewed matches), read in the caller's transaction; None if there is no such
    player."""
    player = connection.execute(select(_PLAYERS).where(_PLAYERS.c.id == player_id)).first()
    if player is None:
        return None
    mine = or_(_RATED.c.winner_id == player_id, _RATED.c.loser_id == player_id)
    played = connection.execute(select(func.count()).select_from(_RATED).where(mine)).scalar_one()
    won = connection.execute(
        select(func.count()).select_from(_RATED).where(_RATED.c.winner_id == player_id)
    ).scalar_one()
    rows = connection.execute(
        select(_RATED).where(mine).order_by(_RATED.c.at.desc(), _RATED.c.match_id).limit(200)
    ).all()
    streak = 0
    for row in rows:
        win = row.winner_id == player_id
        if streak == 0 or (streak > 0) == win:
            streak += 1 if win else -1
        else:
            break
    others = {r.loser_id if r.winner_id == player_id else r.winner_id for r in rows[:recent]}
    names = {r.id: r.name for r in connection.execute(_NAMES, {"ids": list(others)})}
    lines = []
    for row in rows[:recent]:
        win = row.winner_id == player_id
        other = row.loser_id if win else row.winner_id
        lines.append(
            RatedLine(
                row.match_id,
                other,
                names.get(other, ""),
                win,
                row.length,
                row.winner_change if win else row.loser_change,
                row.at,
            )
        )
    pr = connection.execute(
        select(func.avg(_REVIEWED.c.pr), func.count()).where(_REVIEWED.c.player_id == player_id)
    ).first()
    assert pr is not None
    return Profile(
        player.id,
        player.name,
        player.rating,
        player.experience,
        player.created_at,
        int(played),
        int(won),
        streak,
        lines,
        None if pr[0] is None else float(pr[0]),
        int(pr[1]),
        *tournament_results(connection, player_id, recent),
        guest=player.email is None,
    )


_THEMSELVES = select(_PLAYERS.c.id).where(
    or_(_PLAYERS.c.id == bindparam("player"), _PLAYERS.c.merged_into == bindparam("player"))
)
"""The player (``player``, bound when run) and the guests merged into their account."""


def _tournament_results() -> Any:
    me, other = _ENTRANTS.alias("me"), _ENTRANTS.alias("other")
    better = (
        select(func.count())
        .select_from(other)
        .where(
            other.c.tournament_id == me.c.tournament_id,
            other.c.played > 0,
            or_(
                other.c.score > me.c.score,
                and_(other.c.score == me.c.score, other.c.wins > me.c.wins),
            ),
        )
        .scalar_subquery()
    )
    field = (
        select(func.count())
        .select_from(other)
        .where(other.c.tournament_id == me.c.tournament_id, other.c.played > 0)
        .scalar_subquery()
    )
    return (
        select(
            _TOURNAMENTS.c.id,
            _TOURNAMENTS.c.name,
            _TOURNAMENTS.c.kind,
            _TOURNAMENTS.c.private,
            _TOURNAMENTS.c.starts_at,
            _TOURNAMENTS.c.bracket,
            me.c.player_id,
            better.label("better"),
            field.label("field"),
        )
        .select_from(me.join(_TOURNAMENTS, _TOURNAMENTS.c.id == me.c.tournament_id))
        .where(
            me.c.player_id.in_(_THEMSELVES),
            _TOURNAMENTS.c.status == "finished",
            or_(_TOURNAMENTS.c.kind != "arena", me.c.played > 0),
        )
        .order_by(_TOURNAMENTS.c.starts_at.desc(), _TOURNAMENTS.c.id)
        .limit(500)
    )


_TOURNAMENT_RESULTS = _tournament_results()
"""Built once, the player bound when run: built anew for each profile, its two aliases of the
entrants' table left about 330 objects in reference cycles a request, for a cyclic collector
the server keeps off (:mod:`bidak.server.shared.collector`)."""


def tournament_results(
    connection: Connection, player_id: str, recent: int = 20
) -> tuple[list[TournamentLine], dict[tuple[str, int], int]]:
    """The player's finished tournaments (the ``recent`` last ones) and their trophies (over
    all of them). An arena's place is the standings' rank (score, then wins; equal ones share
    it), counted among those who played; a knockout's comes from its bracket
    (:func:`bidak.tournament.places`). An arena the player joined but never played in is no
    result. The places of guests merged into the player's account at a sign-in are the
    player's too (the tournament keeps the guest's name in its standings and bracket); where
    both played one tournament, the better place counts."""
    rows = connection.execute(_TOURNAMENT_RESULTS, {"player": player_id}).all()
    best: dict[str, TournamentLine] = {}  # by tournament, in the rows' order
    for row in rows:
        if row.kind == "arena":
            place, players = int(row.better) + 1, int(row.field)
        else:
            if row.bracket is None:
                continue
            bracket = from_json(row.bracket)
            found = places(bracket).get(row.player_id)
            if found is None:
                continue
            place, players = found, len(bracket.seeds)
        kept = best.get(row.id)
        if kept is None or place < kept.place:
            best[row.id] = TournamentLine(
                None if row.private else row.id,
                row.name,
                row.kind,
                place,
                players,
                float(row.starts_at),
            )
    lines = list(best.values())
    trophies: dict[tuple[str, int], int] = {}
    for line in lines:
        if line.place <= TROPHY_PLACES:
            key = (line.kind, line.place)
            trophies[key] = trophies.get(key, 0) + 1
    return lines[:recent], trophies


def _active_players() -> Any:
    """Who played a rated match since the parameter ``since``."""
    last = (
        select(_RATED.c.winner_id.label("player_id"), _RATED.c.at)
        .union_all(select(_RATED.c.loser_id.label("player_id"), _RATED.c.at))
        .subquery()
    )
    return (
        select(last.c.player_id)
        .group_by(last.c.player_id)
        .having(func.max(last.c.at) >= bindparam("since"))
    )


# The leaderboard's statements are built once, with parameters: built per call, the subquery's
# union left about 90 objects in reference cycles behind each time (docs/architecture.md,
# "Storage").
_ELIGIBLE = and_(_PLAYERS.c.experience >= MIN_EXPERIENCE, _PLAYERS.c.id.in_(_active_players()))
_TOP = (
    select(_PLAYERS.c.id, _PLAYERS.c.name, _PLAYERS.c.rating, _PLAYERS.c.experience)
    .where(_ELIGIBLE)
    .order_by(_PLAYERS.c.rating.desc(), _PLAYERS.c.experience.desc(), _PLAYERS.c.id)
    .limit(bindparam("size"))
)
_MINE = select(_PLAYERS.c.rating, _PLAYERS.c.experience).where(
    _PLAYERS.c.id == bindparam("viewer"), _ELIGIBLE
)
_AHEAD = (
    select(func.count())
    .select_from(_PLAYERS)
    .where(
        _ELIGIBLE,
        or_(
            _PLAYERS.c.rating > bindparam("rating"),
            and_(
                _PLAYERS.c.rating == bindparam("rating"),
                _PLAYERS.c.experience > bindparam("experience"),
            ),
        ),
    )
)


def leaderboard(
    connection: Connection, viewer_id: str | None, since: datetime, size: int = LEADERS
) -> tuple[list[dict[str, Any]], int | None]:
    """The top ``size`` by rating (ties: more experience first) of players with enough
    experience who played a rated match since ``since``, and the viewer's own rank (None when
    the viewer is not eligible)."""
    rows = connection.execute(_TOP, {"since": since, "size": size}).all()
    top = [
        {"rank": index, "id": r.id, "name": r.name, "rating": r.rating, "experience": r.experience}
        for index, r in enumerate(rows, start=1)
    ]
    rank = None
    if viewer_id is not None:
        me = connection.execute(_MINE, {"since": since, "viewer": viewer_id}).first()
        if me is not None:
            ahead = connection.execute(
                _AHEAD, {"since": since, "rating": me.rating, "experience": me.experience}
            ).scalar_one()
            rank = int(ahead) + 1
    return top, rank


def live(connection: Connection, limit: int = 50) -> list[dict[str, Any]]:
    """Matches being played now, newest first: quick matches and friend rooms not private."""
    rows = connection.execute(
        select(
            _ROOMS.c.code,
            _ROOMS.c.kind,
            _ROOMS.c.seat0_id,
            _ROOMS.c.seat1_id,
            _MATCHES.c.id,
            _MATCHES.c.state,
            _MATCHES.c.created_at,
        )
        .join(_MATCHES, _MATCHES.c.id == _ROOMS.c.match_id)
        .where(
            _MATCHES.c.finished.is_(False),
            _LISTED,
            _ROOMS.c.private.is_(False),
        )
        .order_by(_MATCHES.c.created_at.desc())
        .limit(limit)
    ).all()
    ids = {i for r in rows for i in (r.seat0_id, r.seat1_id) if i}
    players = {p.id: p for p in connection.execute(_SEATED, {"ids": list(ids)})}
    games = []
    for r in rows:
        seats = [players.get(i) if i else None for i in (r.seat0_id, r.seat1_id)]
        state = r.state
        games.append(
            {
                "room": r.code,
                "kind": r.kind,
                "match_id": r.id,
                "players": [
                    {"id": p.id, "name": p.name, "rating": p.rating} if p else None for p in seats
                ],
                "length": state.get("rules", {}).get("length"),
                "score": state.get("score"),
                "started_at": r.created_at,
            }
        )
    return games


def record_review(connection: Connection, match_id: str, prs: dict[str, float], depth: int) -> None:
    """Keep each player's PR in a finished match from the deepest review asked for."""
    for player_id, pr in prs.items():
        found = connection.execute(
            select(_REVIEWED.c.depth).where(
                _REVIEWED.c.match_id == match_id, _REVIEWED.c.player_id == player_id
            )
        ).first()
        if found is None:
            connection.execute(
                insert(_REVIEWED).values(match_id=match_id, player_id=player_id, depth=depth, pr=pr)
            )
        elif found.depth < depth:
            connection.execute(
                update(_REVIEWED)
                .where(_REVIEWED.c.match_id == match_id, _REVIEWED.c.player_id == player_id)
                .values(depth=depth, pr=pr)
            )


_IN_A_SEAT = or_(
    _TOUR_MATCHES.c.seat0_id.in_(_THEMSELVES), _TOUR_MATCHES.c.seat1_id.in_(_THEMSELVES)
)
_TOUR_PLAYED = (
    select(func.count())
    .select_from(_TOUR_MATCHES)
    .where(_IN_A_SEAT, _TOUR_MATCHES.c.winner_id.is_not(None))
)
_TOUR_WON = (
    select(func.count())
    .select_from(_TOUR_MATCHES)
    .where(_IN_A_SEAT, _TOUR_MATCHES.c.winner_id.in_(_THEMSELVES))
)


def tournament_matches(connection: Connection, player_id: str) -> tuple[int, int]:
    """(tournament matches decided, won) of the player, a guest's unrated ones included (and
    those of guests merged into the account)."""
    played = connection.execute(_TOUR_PLAYED, {"player": player_id}).scalar_one()
    won = connection.execute(_TOUR_WON, {"player": player_id}).scalar_one()
    return int(played), int(won)
