"""Fair play over HTTP: reporting an opponent, one's own audit entries, and the moderators'
queue, cases and actions (every ``/api/mod/`` route refuses non-moderators with 403)."""

from __future__ import annotations

import math
from typing import Literal

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from bidak.fairplay import Signal
from bidak.server.accounts import GUEST_TRIES, NameRefused, PlayerDep, clean_name, guest_name
from bidak.server.fairplay.action_queries import Action
from bidak.server.fairplay.deps import FairPlayDep, ModeratorDep
from bidak.server.fairplay.queries import Report
from bidak.server.fairplay.service import Case, FairPlayError

router = APIRouter(tags=["fair play"])

Reason = Literal["engine", "name", "talk", "leaving"]
Kind = Literal[
    "warn", "dismiss", "rename", "mute", "unmute", "ban", "unban", "ban_play", "unban_play"
]


class ReportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    match_id: str = Field(max_length=32)
    reason: Reason = Field(
        description="engine: engine help; name: an abusive name; talk: abusive talk; leaving"
    )
    note: str | None = Field(None, max_length=500)


class ReportOut(BaseModel):
    id: int
    match_id: str
    reason: Reason
    at: str


class MyActionOut(BaseModel):
    """An audit entry about the visitor: what a moderator did, when and why."""

    kind: str = Field(description="warn, dismiss, rename, mute, unmute, ban, unban, grant, revoke")
    note: str = Field(description="why, in the moderator's words")
    detail: str | None = Field(description="a rename's old name, a ban's refunds")
    at: str


class ActionOut(MyActionOut):
    id: int
    by: str | None = Field(description="the moderator's name (null: the operator)")


class SignalOut(BaseModel):
    matches: int
    decisions: int
    pr: float
    bound: float = Field(description="PR + 2 standard errors")
    threshold: float
    cv: float | None = Field(description="the think times' SD / mean (null: too few)")
    enough: bool
    flagged: bool
    strength: float | None = Field(description="threshold - bound (null: too few decisions)")
    percentile: float = Field(description="the share of people's match PRs below this PR")


class PlayerOut(BaseModel):
    id: str
    name: str
    rating: float
    moderator: bool
    muted: bool
    banned: bool = Field(description="banned from rated play")
    banned_play: bool = Field(False, description="banned from play")
    held: bool = Field(
        False, description="carries a merged guest's restrictions until a moderator decides"
    )


class CaseOut(BaseModel):
    player: PlayerOut
    signal: SignalOut
    open_reports: int
    reasons: list[Reason] = Field(description="of the open reports")
    newest_report: str | None
    leaver: bool


class ReportLine(BaseModel):
    id: int
    reporter: str
    match_id: str
    reason: Reason
    note: str | None
    at: str
    open: bool


class MatchLine(BaseModel):
    match_id: str
    pr: float
    decisions: int
    think_mean: float | None = Field(description="seconds per timed decision")
    think_cv: float | None
    left: bool
    at: str


class CaseDetailOut(CaseOut):
    history: list[MatchLine] = Field(description="reviewed rated matches, newest first")
    reports: list[ReportLine]
    actions: list[ActionOut]


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Kind
    note: str = Field(min_length=1, max_length=500, description="why (the player sees it)")
    name: str | None = Field(
        None, max_length=200, description="rename: the new name (default: a generated one)"
    )


def _refused(error: FairPlayError) -> HTTPException:
    status = {"not_found": 404, "unchanged": 409, "already_reported": 409, "moderator": 403}
    return HTTPException(
        status.get(error.code, 422), {"code": error.code, "message": error.message}
    )


def _round(value: float) -> float:
    return round(value, 2)


def _signal(signal: Signal) -> SignalOut:
    return SignalOut(
        matches=signal.matches,
        decisions=signal.decisions,
        pr=_round(signal.pr),
        bound=_round(signal.bound),
        threshold=_round(signal.threshold),
        cv=None if signal.cv is None else _round(signal.cv),
        enough=signal.enough,
        flagged=signal.flagged,
        strength=_round(signal.strength) if math.isfinite(signal.strength) else None,
        percentile=round(signal.percentile, 4),
    )


def _case(case: Case) -> CaseOut:
    p = case.player
    newest = case.newest
    return CaseOut(
        player=PlayerOut(
            id=p.id,
            name=p.name,
            rating=_round(p.rating),
            moderator=p.moderator,
            muted=p.talk_muted,
            banned=p.rated_ban,
            banned_play=p.play_ban,
            held=p.held,
        ),
        signal=_signal(case.signal),
        open_reports=len(case.open_reports),
        reasons=sorted({r.reason for r in case.open_reports}),  # type: ignore[misc]
        newest_report=newest.isoformat() if newest else None,
        leaver=case.leaver,
    )


def _action(action: Action, names: dict[str, str]) -> ActionOut:
    return ActionOut(
        id=action.id,
        kind=action.kind,
        note=action.note,
        detail=action.detail,
        at=action.at.isoformat(),
        by=names.get(action.by_id) if action.by_id else None,
    )


def _report_out(report: Report) -> ReportOut:
    return ReportOut(
        id=report.id,
        match_id=report.match_id,
        reason=report.reason,  # type: ignore[arg-type]
        at=report.at.isoformat(),
    )


@router.post("/api/reports", response_model=ReportOut, status_code=201)
async def report(body: ReportIn, player: PlayerDep, services: FairPlayDep) -> ReportOut:
    """Report your opponent in a match you played (during it or after). One open report per
    reporter and match: a second answers 409 ``already_reported``."""
    try:
        made = await services.fairplay.report(player.id, body.match_id, body.reason, body.note)
    except FairPlayError as error:
        raise _refused(error) from None
    return _report_out(made)


@router.get("/api/me/actions", response_model=list[MyActionOut])
async def my_actions(player: PlayerDep, services: FairPlayDep) -> list[MyActionOut]:
    """What moderators did about the visitor's account, newest first."""
    return [
        MyActionOut(kind=a.kind, note=a.note, detail=a.detail, at=a.at.isoformat())
        for a in await services.fairplay.actions_on(player.id)
    ]


@router.get("/api/mod/queue", response_model=list[CaseOut])
async def queue(_: ModeratorDep, services: FairPlayDep) -> list[CaseOut]:
    """Moderators only. Players flagged by the signal (strongest first), reported (newest
    first) or leaving often."""
    return [_case(case) for case in await services.fairplay.queue()]


@router.get("/api/mod/players/{player_id}", response_model=CaseDetailOut)
async def case(player_id: str, _: ModeratorDep, services: FairPlayDep) -> CaseDetailOut:
    """Moderators only. One player's case: signal, PR history, move times, reports, actions."""
    fairplay = services.fairplay
    try:
        found = await fairplay.case(player_id)
    except FairPlayError as error:
        raise _refused(error) from None
    ids = {r.reporter_id for r in found.reports} | {
        a.by_id for a in found.actions if a.by_id is not None
    }
    names = await fairplay.names(sorted(ids))
    history = []
    for line in found.history:
        f = line.figures
        mean = f.seconds / f.times if f.times else None
        cv = None
        if mean:
            cv = math.sqrt(max(0.0, f.seconds_squared / f.times - mean * mean)) / mean
        history.append(
            MatchLine(
                match_id=line.match_id,
                pr=_round(f.pr),
                decisions=f.decisions,
                think_mean=None if mean is None else _round(mean),
                think_cv=None if cv is None else _round(cv),
                left=line.left,
                at=line.at.isoformat(),
            )
        )
    return CaseDetailOut(
        **_case(found).model_dump(),
        history=history,
        reports=[
            ReportLine(
                id=r.id,
                reporter=names.get(r.reporter_id, r.reporter_id),
                match_id=r.match_id,
                reason=r.reason,  # type: ignore[arg-type]
                note=r.note,
                at=r.at.isoformat(),
                open=r.open,
            )
            for r in found.reports
        ],
        actions=[_action(a, names) for a in found.actions],
    )


@router.post("/api/mod/players/{player_id}/actions", response_model=ActionOut)
async def act(
    player_id: str, body: ActionIn, moderator: ModeratorDep, services: FairPlayDep
) -> ActionOut:
    """Moderators only. Warn, dismiss the reports, rename, mute or unmute talk, ban from or let
    back into rated play (``ban``, ``unban``) or play (``ban_play``, ``unban_play``); each is an
    audit entry the player sees. A moderator is acted on by the operator only (403
    ``moderator``). A ban gives back, once, what
    the player's opponents lost to them in rated matches of the last 30 days. An action that
    would change nothing (a second ban) answers 409 ``unchanged``."""
    name = None
    if body.kind == "rename":
        try:
            name = clean_name(body.name) if body.name else guest_name()
        except NameRefused as refused:
            raise HTTPException(422, {"code": refused.code, "message": refused.message}) from None
    attempt = 0
    while True:
        try:
            done = await services.fairplay.act(moderator.id, player_id, body.kind, body.note, name)
        except FairPlayError as error:
            if error.code == "name_taken" and not body.name and attempt < GUEST_TRIES:
                attempt += 1  # a generated name another player has: draw another
                name = guest_name(attempt)
                continue
            raise _refused(error) from None
        return _action(done, {moderator.id: moderator.name})
