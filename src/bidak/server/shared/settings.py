"""Server settings from the environment (``BIDAK_*``), with defaults that need no configuration."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit

import platformdirs
from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_SECRET = "change-me-dev-secret"
MIN_DISTINCT = 12
"""Different characters a production secret has at least: 32 random URL-safe characters have
about 24, while "aaaa..." or "1234567890" repeated are not secrets."""


def default_database_url() -> str:
    folder = Path(platformdirs.user_data_dir("bidak", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'bidak.sqlite3'}"


SqliteSync = Literal["full", "moves", "normal"]
"""How a SQLite commit reaches the disk (``sqlite_sync``; ``bidak.server.shared.store.db``)."""


class Settings(BaseSettings):
    """Everything the server can be told. ``production`` refuses the default secret."""

    model_config = SettingsConfigDict(env_prefix="BIDAK_", extra="ignore", env_parse_none_str="off")

    environment: Literal["development", "production", "test"] = "development"
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    database_url: str = Field(default_factory=default_database_url)
    bus_url: str = "memory://"
    secret_key: str = DEFAULT_SECRET
    """Signs the short-lived tokens of :mod:`bidak.server.accounts.tokens`; changing it makes the
    tokens already sent invalid (sessions are not affected)."""
    public_url: str = ""
    """The address players use (https://your.site): invite and sign-in links, and the one
    origin whose pages may change anything (see :mod:`bidak.server.shared.security`). Required in
    production; empty (development): only loopback hosts and the address a request reached
    are served, so a forged ``Host`` header can name neither a link nor an origin."""
    checkin_tz: str = "Asia/Jakarta"
    """The time zone whose calendar days the daily check-in counts (the first players')."""
    smtp_url: str = ""
    """The mail server for sign-in links: ``smtp://user:password@host:587`` (STARTTLS when
    offered) or ``smtps://...:465``; empty: letters go to the server log (development only)."""
    mail_from: str = "Bidak <no-reply@localhost>"
    """The sender of the site's letters."""
    secure_cookies: bool = False
    """Mark cookies Secure on every response. Without it they are Secure when the request came
    over HTTPS, as uvicorn sees it (directly, or from a trusted proxy's X-Forwarded-Proto)."""
    bot_delay: float = Field(default=0.6, ge=0.0, le=10.0)
    """Seconds a bot waits before acting, so people can follow."""
    bot_budget: float = Field(default=3.0, gt=0.0, le=60.0)
    """Seconds a bot may think before it falls back to a quick answer."""
    max_message_bytes: int = Field(default=4096, ge=256, le=1_048_576)
    metrics: Literal["local", "open"] | None = None
    """``/metrics`` in Prometheus' format (:mod:`bidak.server.shared.metrics`): ``local`` for
    requests from this machine through no proxy, ``open`` for anyone; None (``off``, the
    default): not served."""
    max_body_bytes: int = Field(default=65_536, ge=1024, le=16_777_216)
    """Largest HTTP request body; a larger one is answered 413 before it is read (the largest
    the site's pages send is a few hundred bytes)."""
    body_timeout: float = Field(default=10.0, gt=0.0, le=600.0)
    """Seconds a request's body has to arrive whole; a slower one is answered 408 and closed."""
    max_header_bytes: int = Field(default=16_384, ge=1024, le=1_048_576)
    """Largest request line and headers together; past it 431 and the connection is closed."""
    max_headers: int = Field(default=100, ge=10, le=10_000)
    """Most headers a request may have; past it 431 and the connection is closed."""
    header_timeout: float = Field(default=10.0, gt=0.0, le=600.0)
    """Seconds a request's line and headers have to arrive whole, from its first byte (or from
    the connection's opening); a slower client is answered 408 and disconnected."""
    sqlite_sync: SqliteSync = "moves"
    """How a SQLite file's commits reach the disk: ``full`` syncs the write-ahead log at every
    commit (an accepted move survives a power cut); ``normal`` only at checkpoints (it survives
    the server's crash, and a power cut or a crash of the machine may lose the last seconds of
    commits, whole transactions, never half of one), for a third of the CPU of a commit;
    ``moves`` (the default) leaves only the moves of live matches under way to the checkpoints
    and syncs every other commit (a match's end and its ratings, correspondence moves, coins,
    sign-in tokens, accounts) at once (``docs/performance.md``, "What a SQLite commit costs").
    PostgreSQL ignores it."""
    ws_deflate: bool = False
    """Compress WebSocket messages (permessage-deflate) when the browser offers it. Off by
    default: it costs server time for small messages (``docs/performance.md``)."""
    rate_per_second: float = Field(default=20.0, gt=0.0)
    rate_burst: int = Field(default=40, ge=1)
    guests_per_minute: float = Field(default=30.0, gt=0.0)
    """New guests one client address may create a minute, in bursts of as many (a whole
    school or a mobile network's shared address makes its first visits within that)."""
    rooms_per_minute: float = Field(default=12.0, gt=0.0)
    """Rooms one player may create a minute, in bursts of as many."""
    room_misses_per_minute: float = Field(default=10.0, gt=0.0)
    """Unknown room codes one client address may ask for a minute, in bursts of as many; past
    that it may look up no room until the allowance refills (rooms/lookups.py)."""
    hints_per_minute: float = Field(default=30.0, gt=0.0)
    """Engine hints one player may ask for a minute, in bursts of as many (a person asks at
    most once a decision, a few a minute)."""
    reviews_per_minute: float = Field(default=6.0, gt=0.0)
    """Match reviews one player may have the engine work out a minute (a review kept from
    before costs nothing and is not counted)."""
    player_rate_per_second: float = Field(default=30.0, gt=0.0)
    """WebSocket messages a second one player may send over all their connections."""
    player_rate_burst: int = Field(default=60, ge=1)
    """Messages one player may send at once over all their connections."""
    sockets_per_session: int = Field(default=8, ge=1, le=1000)
    """WebSockets one browser session may hold open; opening one more closes its oldest."""
    redis_prefix: str = Field(default="bidak:", max_length=64)
    """What every Redis key of this site begins with (limits and open sockets), so several
    sites, or test runs, can share one Redis."""
    hint_workers: int = Field(default=1, ge=1, le=64)
    """Threads for the engine's hints (the bots and the reviews have their own)."""
    review_workers: int = Field(default=1, ge=1, le=64)
    """Threads for match reviews, which take seconds to minutes each."""
    analysis_waiting: int = Field(default=4, ge=0, le=1000)
    """Hints, and reviews, that may wait for a thread; more are refused with 503 at once."""
    arena_every_minutes: int = Field(default=60, ge=0, le=24 * 60)
    """The site's arena schedule: one arena starts every so many minutes, on the clock (0: no
    site arenas). Each appears in the lobby, with a countdown, one period before it starts."""
    arena_minutes: Literal[30, 60] = 30
    """How long a site arena lasts."""
    arena_length: Literal[1, 3] = 1
    """The match length of site arenas."""
    arena_move_seconds: Literal[30, 45, 90] = 30
    """A site arena's move clock."""
    knockout_every_minutes: int = Field(default=0, ge=0, le=7 * 24 * 60)
    """The site's knockout schedule: one public knockout starts every so many minutes, on the
    clock (0: none, the default). Each appears in the lobby one period before it starts, and
    players join it there; fewer than 4 at its start cancel it."""
    knockout_players: Literal[4, 8, 16, 32, 64] = 16
    """How many players a site knockout takes at most."""
    knockout_length: Literal[3, 5, 7, 9, 11] = 3
    """The match length of a site knockout's rounds."""
    knockout_round_minutes: int = Field(default=30, ge=1, le=24 * 60)
    """A site knockout round's deadline, after its start (the absent then forfeit)."""
    knockout_move_seconds: Literal[30, 45, 90] = 45
    """A site knockout's move clock."""
    tournament_lease_seconds: float = Field(default=10.0, ge=1.0, le=600.0)
    """How long a process holds a tournament without renewing it: when it dies, another
    process takes its tournaments over after this long (it renews every second)."""
    tournament_grace_seconds: float = Field(default=20.0, ge=0.0, le=600.0)
    """An arena match's clock waits for both players to open its table, at most this long from
    its pairing; then the one who has not come forfeits it (neither: both lose it). 0: the
    match starts at once, whoever is there (the old way)."""
    instance_id: str = ""
    """A name for this process in logs (several processes may share a database and a bus)."""
    sweep_seconds: float = Field(default=5.0, gt=0.0, le=600.0)
    """How often a process looks for clocks that ran out where no process acted (a process
    died), and how late such a clock must be before another process acts on it."""
    vacation_days: int = Field(default=15, ge=0, le=366)
    """The vacation days each player has every calendar year: they stop the player's
    correspondence clocks (docs/correspondence.md)."""
    digest_hour: int = Field(default=7, ge=0, le=23)
    """The hour (UTC, 0-23) the daily e-mail digest of games waiting on a player goes out to
    those who switched it on (docs/correspondence.md, "Notifications: e-mail")."""
    vapid_private_key: str = ""
    """The site's VAPID private key for Web Push (the P-256 scalar, base64url, 43 characters);
    empty: the first process makes one and keeps it in the database (docs/operating.md)."""
    vapid_subject: str = ""
    """Whom push services may contact about the site's pushes (``mailto:`` or ``https://``);
    empty: the sender of ``BIDAK_MAIL_FROM``."""
    push_delay_seconds: float = Field(default=20.0, ge=0.0, le=3600.0)
    """How long after a notification its Web Push waits: a player who reads it in the page
    meanwhile, or is at the match's table, is not pushed."""
    push_services: str = ".googleapis.com .mozilla.com .push.apple.com .notify.windows.com"
    """The push services' hosts (suffixes, space-separated) the site sends Web Push to; ``*``:
    any https host (an endpoint is a URL a browser gives; the site posts nowhere else)."""
    push_allow_http: bool = False
    """Take plain-HTTP push endpoints on this machine (127.0.0.1, localhost): tests only."""
    gc_freeze_seconds: float | None = Field(default=1.0, gt=0.0, le=3600.0)
    """How often what is alive is frozen out of Python's cyclic collector, which otherwise
    stalls every table under load (:mod:`bidak.server.shared.collector`, ``docs/performance.md``);
    None (``BIDAK_GC_FREEZE_SECONDS=off``) keeps the interpreter's own collector."""

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, url: str) -> str:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        try:
            backend = make_url(url).get_backend_name()
        except ArgumentError:
            backend = ""
        if backend not in ("sqlite", "postgresql"):
            raise ValueError(
                f"BIDAK_DATABASE_URL {url!r} is not a database Bidak can use: give"
                " sqlite:///path/to/file.sqlite3 or postgresql://user@host:port/database"
            )
        return url

    @field_validator("public_url")
    @classmethod
    def _public_origin(cls, url: str) -> str:
        from bidak.server.shared.security import origin_of

        if url.strip():
            try:
                origin_of(url)
            except ValueError as error:
                raise ValueError(f"BIDAK_PUBLIC_URL: {error}") from None
        return url.strip()

    @field_validator("bus_url")
    @classmethod
    def _known_bus(cls, url: str) -> str:
        from bidak.server.shared.bus import SCHEMES

        if not url.startswith(SCHEMES):
            raise ValueError(
                f"BIDAK_BUS_URL {url!r} is not a bus Bidak can use: give memory:// or"
                " redis://host:port/db"
            )
        return url

    @field_validator("checkin_tz")
    @classmethod
    def _known_zone(cls, zone: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"BIDAK_CHECKIN_TZ {zone!r} is not a time zone: give one such as Asia/Jakarta"
            ) from None
        return zone

    @field_validator("vapid_private_key")
    @classmethod
    def _vapid_key(cls, key: str) -> str:
        import base64
        import binascii

        key = key.strip()
        if key:
            try:
                raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
            except (binascii.Error, ValueError):
                raw = b""
            if len(raw) != 32:
                raise ValueError(
                    "BIDAK_VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes in base64url"
                    " (43 characters); leave it unset to have one made and kept in the database"
                )
        return key

    @field_validator("smtp_url")
    @classmethod
    def _known_smtp(cls, url: str) -> str:
        if url:
            SmtpConfig.from_url(url)  # raises ValueError saying what is wrong
        return url

    @model_validator(mode="after")
    def _refuse_default_secret_in_production(self) -> Settings:
        secret = self.secret_key
        if self.environment == "production" and (
            DEFAULT_SECRET in secret or len(secret) < 32 or len(set(secret)) < MIN_DISTINCT
        ):
            raise ValueError(
                "BIDAK_SECRET_KEY must be set to a random value of at least 32 characters"
                " in production (for example: python3 -c 'import secrets;"
                " print(secrets.token_urlsafe(32))')"
            )
        return self

    @model_validator(mode="after")
    def _refuse_no_public_url_in_production(self) -> Settings:
        # Without it the site would have to take its own address from each request's Host
        # header, which the client writes: links in letters would go wherever a request said.
        if self.environment == "production" and not self.public_url:
            raise ValueError(
                "BIDAK_PUBLIC_URL must be set in production to the address players use"
                " (https://your.site): sign-in links and the allowed origin are built from it"
            )
        return self


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int
    implicit_tls: bool
    username: str | None
    password: str | None

    @classmethod
    def from_url(cls, url: str) -> SmtpConfig:
        """Read ``smtp://`` or ``smtps://`` URLs; anything else is a ValueError saying why."""
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError(
                "BIDAK_SMTP_URL must look like smtp://user:password@host:587 or"
                " smtps://user:password@host:465"
            )
        implicit = parts.scheme == "smtps"
        try:
            port = parts.port or (465 if implicit else 587)
        except ValueError:
            raise ValueError("BIDAK_SMTP_URL has a port that is not a number") from None
        return cls(
            host=parts.hostname,
            port=port,
            implicit_tls=implicit,
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password is not None else None,
        )

    def safe(self) -> str:
        """The server's address for logs, without the password."""
        scheme = "smtps" if self.implicit_tls else "smtp"
        user = f"{self.username}@" if self.username else ""
        return f"{scheme}://{user}{self.host}:{self.port}"
