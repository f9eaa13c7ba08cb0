"""HTTP bodies of the player's own account: who I am, a new name, my matches."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Access(BaseModel):
    """The player's accessibility settings (docs/client.md, "Accessibility"), kept per account."""

    model_config = ConfigDict(extra="forbid")

    motion: bool = Field(default=False, description="reduced motion (whatever the system says)")
    contrast: bool = Field(default=False, description="high contrast")
    large: bool = Field(default=False, description="larger checkers and point numbers")
    shapes: bool = Field(
        default=False,
        description="checkers that differ by more than hue: light and dark, the opponent's marked",
    )

    def stored(self) -> str | None:
        """As ``players.access`` keeps it: the switches on, comma-separated, or None."""
        on = [name for name, value in self.model_dump().items() if value]
        return ",".join(on) or None

    @classmethod
    def of(cls, stored: str | None) -> Access:
        """From ``players.access`` (a name it does not know, from a later version, is left out)."""
        names = set((stored or "").split(","))
        return cls(**{name: True for name in cls.model_fields if name in names})


class Me(BaseModel):
    id: str
    name: str
    coins: int
    email_linked: bool
    email: str | None = Field(default=None, description="the linked address, partly masked")
    rating: float = 1500.0
    signed_out: bool = Field(
        default=False,
        description="this browser came with a session that has ended (signed out elsewhere):"
        " it is now this new guest",
    )
    moderator: bool = Field(default=False, description="may open the moderators' queue")
    talk_muted: bool = Field(
        default=False, description="a moderator muted this player's table talk (no phrase is sent)"
    )
    access: Access = Field(default_factory=Access, description="the accessibility settings")


class Rename(BaseModel):
    name: str = Field(max_length=200)
    """Checked by :func:`bidak.server.accounts.names.clean_name` (2 to 24 characters once
    cleaned)."""


class HistoryItem(BaseModel):
    room: str
    match_id: str
    kind: str
    seat: int = Field(description="your seat in the match (0 or 1)")
    opponent: str
    bot: str | None = Field(None, description="the bot's level, in practice matches")
    length: int
    score: list[int] = Field(description="your score first")
    finished: bool
    won: bool | None
    updated_at: str
