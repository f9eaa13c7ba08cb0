"""Web Push over HTTP: the site's application server key, and a browser's subscription
registered or dropped (docs/correspondence.md, "Notifications: Web Push")."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from bidak.server.accounts import COOKIE, PlayerDep
from bidak.server.notifications.deps import PushDep
from bidak.server.notifications.push_rules import MAX_ENDPOINT, Refused, Subscription
from bidak.server.shared.store.rows import token_hash

router = APIRouter(tags=["notifications"])


class KeyOut(BaseModel):
    key: str = Field(description="the application server key (VAPID, P-256, base64url)")


class KeysIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    p256dh: str = Field(max_length=100, description="the browser's P-256 public key, base64url")
    auth: str = Field(max_length=32, description="the 16-byte auth secret, base64url")


class SubscriptionIn(BaseModel):
    """A browser's ``PushSubscription.toJSON()``, and the page's language."""

    model_config = ConfigDict(extra="forbid")

    endpoint: str = Field(max_length=MAX_ENDPOINT, description="the push service's URL")
    expirationTime: float | None = Field(None, description="as the browser gives it; unused")
    keys: KeysIn
    language: str = Field("en", max_length=16, description="the pushes' language (id, en, fi)")


class EndpointIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    endpoint: str = Field(max_length=MAX_ENDPOINT)


class SubscribedOut(BaseModel):
    subscribed: bool


@router.get("/api/push/key", response_model=KeyOut)
async def key(services: PushDep) -> KeyOut:
    """The key a browser subscribes with (``applicationServerKey``)."""
    vapid = services.push.vapid
    if vapid is None:  # pragma: no cover - set before the server listens
        raise HTTPException(503, {"code": "not_ready", "message": "push is starting"})
    return KeyOut(key=vapid.public_key)


@router.post("/api/push/subscriptions", response_model=SubscribedOut)
async def subscribe(
    body: SubscriptionIn, request: Request, player: PlayerDep, services: PushDep
) -> SubscribedOut:
    """Push your notifications to this browser (its subscription belongs to this session:
    signing out here stops them). A subscription registered before is taken over; past 10
    of yours the oldest goes. 422 ``bad_endpoint``, ``unknown_service`` or ``bad_keys``."""
    token = request.cookies.get(COOKIE)
    if not token or getattr(request.state, "signed_out", False):
        raise HTTPException(409, {"code": "no_session", "message": "load the page first"})
    found = Subscription(body.endpoint, body.keys.p256dh, body.keys.auth)
    try:
        await services.push.subscribe(player.id, token_hash(token), found, body.language)
    except Refused as refused:
        raise HTTPException(422, {"code": refused.code, "message": str(refused)}) from None
    return SubscribedOut(subscribed=True)


@router.delete("/api/push/subscriptions", response_model=SubscribedOut)
async def unsubscribe(body: EndpointIn, player: PlayerDep, services: PushDep) -> SubscribedOut:
    """Stop pushes to this browser (its endpoint; one of yours only)."""
    await services.push.unsubscribe(player.id, body.endpoint)
    return SubscribedOut(subscribed=False)
