"""Database rows. They are storage types only: the wire and the core have their own types."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Every table's base: JSON columns for ``dict[str, Any]`` fields."""

    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON}


class PlayerRow(Base):
    """A person: a guest until an e-mail is linked."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    skeleton: Mapped[str | None] = mapped_column(String(96), unique=True, index=True, default=None)
    """The name as a person reads it (:func:`bidak.server.accounts.names.skeleton`): unique, so
    no two players wear names that look alike. None for a deleted or retired account, and for
    a player who shared a look-alike name with an older one when the column came (migration
    0010) until they rename."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    email: Mapped[str | None] = mapped_column(String(254), unique=True, default=None)
    """Normalised (:func:`bidak.server.mail.addresses.normalise`); set once confirmed."""
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    """When the account was deleted (its name is then "deleted player")."""
    merged_into: Mapped[str | None] = mapped_column(String(32), default=None, index=True)
    """The account a retired guest's finished matches moved to at a sign-in (its tournament
    places are read through this: :func:`bidak.server.community.queries.tournament_results`)."""
    coins: Mapped[int] = mapped_column(Integer, default=0)
    """The balance: a cache of the sum of the player's ledger entries, changed only in the
    transaction that appends the entry explaining it (:mod:`bidak.server.wallet.queries`)."""
    checkin_streak: Mapped[int] = mapped_column(Integer, default=0)
    """The streak day the last daily check-in counted as."""
    checkin_day: Mapped[str | None] = mapped_column(String(10), default=None)
    """The site day (ISO date) of the last daily check-in."""
    board: Mapped[str | None] = mapped_column(String(32), default=None)
    """The board theme the player sees (None: the default)."""
    checkers: Mapped[str | None] = mapped_column(String(32), default=None)
    """The checker set everybody sees this player's checkers in (None: the seat's default)."""
    rating: Mapped[float] = mapped_column(Float, default=1500.0)
    """FIBS-style rating (:mod:`bidak.ratings`), changed only with a rated match's end."""
    experience: Mapped[int] = mapped_column(Integer, default=0)
    """The sum of the lengths of the rated matches played."""
    moderator: Mapped[bool] = mapped_column(Boolean, default=False)
    """Granted and revoked by the operator (``bidak mod``), each time an audit entry."""
    talk_muted: Mapped[bool] = mapped_column(Boolean, default=False)
    """A moderator muted the player's table talk."""
    rated_ban: Mapped[bool] = mapped_column(Boolean, default=False)
    """Banned from rated play: the player's rated results no longer move any rating, and they
    play unrated games only (``bidak.fairplay.doors``)."""
    play_ban: Mapped[bool] = mapped_column(Boolean, default=False)
    """Banned from play: no quick match, tournament, challenge or seat at another's room."""
    held: Mapped[bool] = mapped_column(Boolean, default=False)
    """The account took in a restricted guest at a sign-in and carries its restrictions until
    a moderator decides (it stands in the moderators' queue)."""
    access: Mapped[str | None] = mapped_column(String(64), default=None)
    """The player's accessibility settings (issue 40), kept for every browser they sign in on:
    the switches on, comma-separated (``motion,contrast,large,shapes``); None when none is."""
    puzzles_shared: Mapped[bool] = mapped_column(Boolean, default=True)
    """The player's banked positions may become puzzles for everybody (anonymous); switched off,
    their puzzles leave the pool and the cards banked from then on are not offered."""
    puzzle_rating: Mapped[float] = mapped_column(Float, default=1500.0)
    """The solver's Glicko-2 puzzle rating (:mod:`bidak.training.glicko`), with its deviation and
    volatility; moved only with an answer, in its transaction."""
    puzzle_deviation: Mapped[float] = mapped_column(Float, default=350.0)
    puzzle_volatility: Mapped[float] = mapped_column(Float, default=0.06)
    corr_rating: Mapped[float] = mapped_column(Float, default=1500.0)
    """The FIBS rating of correspondence play, apart from the live one (docs/correspondence.md)."""
    corr_experience: Mapped[int] = mapped_column(Integer, default=0)
    auto_roll: Mapped[bool] = mapped_column(Boolean, default=False)
    """In correspondence matches a forced roll or a single legal play is applied for the
    player (off by default: docs/correspondence.md)."""


class SessionRow(Base):
    """A browser's login: the SHA-256 of its cookie token (the token itself is never stored)."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    id: Mapped[str | None] = mapped_column(String(32), unique=True, default=None)
    """A name for the session in the list of signed-in browsers (not a secret, not the token)."""
    last_seen: Mapped[float | None] = mapped_column(Float, default=None)
    device: Mapped[str | None] = mapped_column(String(64), default=None)
    """A coarse label of the browser, e.g. "Chrome on Android"."""


class RoomRow(Base):
    """A table: practice (a human and a bot) or friend (two humans and an invite code)."""

    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    creator_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    seat0_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None, index=True)
    seat1_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None, index=True)
    """Both indexed: 'Your games' and its badge read a player's rooms every 30 s a page."""
    bot_level: Mapped[str | None] = mapped_column(String(16), default=None)
    move_seconds: Mapped[int | None] = mapped_column(Integer, default=None)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    match_id: Mapped[str | None] = mapped_column(String(32), default=None, index=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the match's end moves the two players' ratings (quick matches; friend rooms
    whose creator asked for it)."""
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    """Kept out of the list of live games."""
    rematch_by: Mapped[str | None] = mapped_column(String(32), default=None)
    """Who offered a rematch after the match (the offer stands for a minute)."""
    rematch_at: Mapped[float | None] = mapped_column(Float, default=None)
    rematch_room: Mapped[str | None] = mapped_column(String(32), default=None)
    """The room of the rematch, once accepted."""
    came0: Mapped[bool] = mapped_column(Boolean, default=False)
    came1: Mapped[bool] = mapped_column(Boolean, default=False)
    """A tournament room: whether the player of each seat opened the table (its match starts
    when both have)."""
    days_per_move: Mapped[int | None] = mapped_column(Integer, default=None)
    """A correspondence room's allowance in days (``move_seconds`` holds it in seconds); None
    for a live room."""


class MatchRow(Base):
    """A match: its rules, the latest state (a cache of the event log), dice proof and clock."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_code: Mapped[str] = mapped_column(ForeignKey("rooms.code"), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    seed: Mapped[str] = mapped_column(String(64))
    seed_hash: Mapped[str] = mapped_column(String(64))
    dice_drawn: Mapped[int] = mapped_column(Integer, default=0)
    deadline: Mapped[float | None] = mapped_column(Float, default=None)
    deadline_version: Mapped[int | None] = mapped_column(Integer, default=None)
    lease_until: Mapped[float | None] = mapped_column(Float, default=None)
    """A correspondence timeout is being applied by one process until then (its lease)."""
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class VacationRow(Base):
    """A player's vacation: their correspondence clocks stop from ``start`` to ``end``."""

    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    start: Mapped[float] = mapped_column(Float)
    end: Mapped[float] = mapped_column(Float)


class NotificationRow(Base):
    """One notification of a player (issue 38), stored once under its unique ``key``."""

    __tablename__ = "notifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(96), unique=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    room: Mapped[str | None] = mapped_column(String(32), nullable=True)
    at: Mapped[float] = mapped_column(Float)
    read: Mapped[bool] = mapped_column(Boolean, default=False)


class EventRow(Base):
    """One event of a match; (match, version) is unique, which makes one writer win a race."""

    __tablename__ = "events"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class LedgerRow(Base):
    """One change of a balance, never updated or deleted. ``key`` is unique: the same request
    sent twice is stored once."""

    __tablename__ = "ledger"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    amount: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(120), unique=True)
    item: Mapped[str | None] = mapped_column(String(32), default=None)
    note: Mapped[str | None] = mapped_column(String(200), default=None)
    balance_after: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OwnedRow(Base):
    """A cosmetic a player bought (the free ones are everybody's and not listed); when, is the
    ``at`` of the ledger entry that paid for it."""

    __tablename__ = "owned"
    __table_args__ = (UniqueConstraint("entry_id"),)

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    item: Mapped[str] = mapped_column(String(32), primary_key=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("ledger.id"))


class RatedMatchRow(Base):
    """A rated match's end: both ratings before and their changes. One row per match (the
    primary key): the same end processed twice changes the ratings once."""

    __tablename__ = "rated_matches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    winner_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    loser_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    length: Mapped[int] = mapped_column(Integer)
    winner_before: Mapped[float] = mapped_column(Float)
    loser_before: Mapped[float] = mapped_column(Float)
    winner_change: Mapped[float] = mapped_column(Float)
    loser_change: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    correspondence: Mapped[bool] = mapped_column(Boolean, default=False)
    """A correspondence match: the changes are of the correspondence rating."""


class UnratedMatchRow(Base):
    """A match of a rated room that moved no rating, and why (``reason``): ``guest`` (a player
    had no linked e-mail address), ``pair_limit`` (the same two had moved each other's
    ratings :data:`~bidak.server.play.rated_queries.PAIR_LIMIT` times in the day before) or
    ``banned`` (one is banned from rated play). With who won: a tournament's match is decided by
    its end, rated or not."""

    __tablename__ = "unrated_matches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    winner_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    loser_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    reason: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class QueueRow(Base):
    """A player waiting for a quick match with these options (one entry per player)."""

    __tablename__ = "quick_queue"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    length: Mapped[int] = mapped_column(Integer)
    move_seconds: Mapped[int] = mapped_column(Integer)
    cube: Mapped[bool] = mapped_column(Boolean)
    since: Mapped[float] = mapped_column(Float)
    """When they started waiting (epoch seconds, the server's clock)."""
    offered: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether they were offered a practice match for waiting long."""


class MuteRow(Base):
    """``player_id`` muted ``muted_id``: no table talk from them, no quick match with them."""

    __tablename__ = "mutes"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    muted_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReviewedRow(Base):
    """A player's PR in a finished match, from the deepest review asked for (for profiles)."""

    __tablename__ = "reviewed"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    depth: Mapped[int] = mapped_column(Integer)
    """The review's ply (1, 2 or 3)."""
    pr: Mapped[float] = mapped_column(Float)


class EmailLinkRow(Base):
    """A one-time link sent by e-mail: only the SHA-256 of its token is kept."""

    __tablename__ = "email_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    email: Mapped[str] = mapped_column(String(254))
    """The address the letter went to, or, for a change, the address to link next ("" removes)."""
    expires_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, default=None)


class TournamentRow(Base):
    """An arena or a knockout (:mod:`bidak.tournament`). Exactly one process runs it at a time:
    the holder of its lease (``lease_owner`` until ``lease_until``, renewed on every step)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """Also the invite: 128 random bits, as a room's code."""
    kind: Mapped[str] = mapped_column(String(16))
    """``arena`` or ``knockout``."""
    name: Mapped[str] = mapped_column(String(80))
    creator_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)
    """None: run by the site (the schedule)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    starts_at: Mapped[float] = mapped_column(Float, index=True)
    ends_at: Mapped[float | None] = mapped_column(Float, default=None)
    """An arena's end (no pairing after it)."""
    lengths: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``{"rounds": [3, 5, 7]}``: the match length per round (an arena: one)."""
    move_seconds: Mapped[int] = mapped_column(Integer)
    max_players: Mapped[int] = mapped_column(Integer)
    round_seconds: Mapped[float | None] = mapped_column(Float, default=None)
    """A knockout round's deadline, after its start; an absent player then forfeits."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open``, ``running``, ``finished`` or ``cancelled``."""
    bracket: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    round_deadline: Mapped[float | None] = mapped_column(Float, default=None)
    winner_id: Mapped[str | None] = mapped_column(String(32), default=None)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    """Only those with the link see it (a player's knockout)."""
    schedule_key: Mapped[str | None] = mapped_column(String(64), unique=True, default=None)
    """A site arena's slot in the schedule: every process may create it, it is stored once."""
    lease_owner: Mapped[str | None] = mapped_column(String(64), default=None)
    lease_until: Mapped[float | None] = mapped_column(Float, default=None)


class EntrantRow(Base):
    """A player in a tournament, with their arena score and where they are."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    """At joining: the seeding and the pairing use it."""
    joined_at: Mapped[float] = mapped_column(Float)
    score: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    played: Mapped[int] = mapped_column(Integer, default=0)
    last_opponent: Mapped[str | None] = mapped_column(String(32), default=None)
    room_code: Mapped[str | None] = mapped_column(String(32), default=None)
    """The room of the match they play now (None: free)."""
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    ready_round: Mapped[int | None] = mapped_column(Integer, default=None)
    """The knockout round they came to (checked in for)."""
    absences: Mapped[int] = mapped_column(Integer, default=0)
    """Arena: matches in a row the player forfeited by not coming to the table (two pause them)."""


class TournamentMatchRow(Base):
    """A match of a tournament, planned before its room is made (so a process that dies in
    between leaves a plan the next one carries out) and decided once."""

    __tablename__ = "tournament_matches"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "slot"),)

    room_code: Mapped[str] = mapped_column(String(32), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int | None] = mapped_column(Integer, default=None)
    slot: Mapped[int | None] = mapped_column(Integer, default=None)
    """A knockout match's place in the bracket (None in an arena)."""
    seat0_id: Mapped[str] = mapped_column(String(32))
    seat1_id: Mapped[str] = mapped_column(String(32))
    length: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    winner_id: Mapped[str | None] = mapped_column(String(32), default=None)
    how: Mapped[str | None] = mapped_column(String(16), default=None)
    """``played`` or ``forfeit``, once decided."""


class ReportRow(Base):
    """A player's report of another, about a match. ``open_key`` is ``reporter:match`` while the
    report is open and NULL once closed: one open report per reporter and match."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    reported_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    reason: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(String(500), default=None)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    open_key: Mapped[str | None] = mapped_column(String(80), unique=True, default=None)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    closed_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)


class ActionRow(Base):
    """An audit entry: what a moderator (``by_id``; None for the operator's ``bidak mod``) did to
    a player, when and why. Never updated or deleted."""

    __tablename__ = "actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    by_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)
    kind: Mapped[str] = mapped_column(String(16))
    note: Mapped[str] = mapped_column(String(500))
    detail: Mapped[str | None] = mapped_column(String(200), default=None)
    """What changed, where it says more than the kind (a rename's old name, a refund's sum)."""
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RefundRow(Base):
    """A rating loss given back to ``player_id`` after their opponent in ``match_id`` was banned
    from rated play; the match is the key, so a loss is refunded at most once."""

    __tablename__ = "refunds"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    amount: Mapped[float] = mapped_column(Float)
    action_id: Mapped[int] = mapped_column(ForeignKey("actions.id"))


class FiguresRow(Base):
    """One player's figures in a reviewed rated match (:class:`bidak.fairplay.MatchFigures`)
    and whether they left it (auto-play finished most of it while they were away)."""

    __tablename__ = "figures"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    depth: Mapped[int] = mapped_column(Integer)
    decisions: Mapped[int] = mapped_column(Integer)
    loss: Mapped[float] = mapped_column(Float)
    squares: Mapped[float] = mapped_column(Float)
    times: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    seconds_squared: Mapped[float] = mapped_column(Float)
    left: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CardRow(Base):
    """A decision of a reviewed match that lost at least ``bidak.training.BANK_LOSS``, kept for
    the player who made it, once (the unique place), with its FSRS schedule and next ``due``."""

    __tablename__ = "cards"
    __table_args__ = (UniqueConstraint("player_id", "match_id", "game", "turn", "kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"))
    game: Mapped[int] = mapped_column(Integer)
    turn: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    """``checker`` or ``cube``."""
    seat: Mapped[int] = mapped_column(Integer)
    xgid: Mapped[str] = mapped_column(String(80))
    played: Mapped[str] = mapped_column(String(40))
    best: Mapped[str] = mapped_column(String(40))
    loss: Mapped[float] = mapped_column(Float)
    depth: Mapped[int] = mapped_column(Integer)
    """The ply of the review the card was taken from (a deeper one replaces its figures)."""
    phase: Mapped[str] = mapped_column(String(16))
    theme: Mapped[str] = mapped_column(String(16))
    analysis: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The engine's ranking of the plays (checker) or its three equities (cube)."""
    schedule: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The card's FSRS state, as ``fsrs.Card.to_dict()`` gives it."""
    due: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)


class DrillRow(Base):
    """One answer in the daily drill: the equity it lost, its grade and the day (for streaks)."""

    __tablename__ = "drills"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    at: Mapped[float] = mapped_column(Float)
    day: Mapped[str] = mapped_column(String(10))
    loss: Mapped[float] = mapped_column(Float)
    grade: Mapped[int] = mapped_column(Integer)


class PuzzleRow(Base):
    """A banked card with one clear answer (:func:`bidak.training.puzzles.is_puzzle`), offered to
    every solver but its source, with its own Glicko-2 rating."""

    __tablename__ = "puzzles"
    __table_args__ = (Index("ix_puzzles_theme_rating", "theme", "rating"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"), unique=True)
    source_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    """Whose card it is: never shown; the opt-out removes their puzzles by it."""
    kind: Mapped[str] = mapped_column(String(8))
    theme: Mapped[str] = mapped_column(String(16))
    gap: Mapped[float] = mapped_column(Float)
    """How much the best choice beats the second best."""
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    """Out of the pool for good: its player opted out (the answers to it stay)."""


class PuzzleAnswerRow(Base):
    """A solver's one answer to a puzzle (unique: a retry finds it) and both ratings' moves."""

    __tablename__ = "puzzle_answers"
    __table_args__ = (UniqueConstraint("player_id", "puzzle_id", name="uq_puzzle_answers_once"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id"))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    answer: Mapped[str] = mapped_column(String(40))
    """The play's Position ID or the cube choice."""
    loss: Mapped[float] = mapped_column(Float)
    right: Mapped[bool] = mapped_column(Boolean)
    solver_before: Mapped[float] = mapped_column(Float)
    solver_after: Mapped[float] = mapped_column(Float)
    puzzle_before: Mapped[float] = mapped_column(Float)
    puzzle_after: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)
