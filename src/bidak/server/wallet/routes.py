"""The wallet over HTTP: check-in, balance and ledger, the shop, buying and equipping."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, HTTPException, Response
from pydantic import BaseModel, Field

from bidak.economy import REWARDS, Insufficient
from bidak.economy import shop as catalogue
from bidak.server.accounts import PlayerDep
from bidak.server.wallet.deps import WalletDep
from bidak.server.wallet.looks import preview, texture_tile
from bidak.server.wallet.queries import Entry
from bidak.server.wallet.service import WalletError

router = APIRouter(tags=["wallet"])

SVG_CACHE = "public, max-age=86400"
_SVG: dict[int | str, dict[str, Any]] = {200: {"content": {"image/svg+xml": {}}}}


class CheckInOut(BaseModel):
    already: bool = Field(description="true: today's check-in was already done; nothing credited")
    credited: int = Field(description="today's reward (the welcome gift aside)")
    welcome: int = Field(
        0, description="the welcome gift credited with the account's first check-in, else 0"
    )
    balance: int
    streak: int = Field(description="the streak's day today's check-in counted as")
    next_reward: int = Field(description="what the next check-in pays")
    day: str = Field(description="the site day (ISO date) in BIDAK_CHECKIN_TZ")


class EntryOut(BaseModel):
    amount: int
    reason: Literal["checkin", "purchase", "grant", "merge", "welcome"]
    item: str | None
    note: str | None
    balance_after: int
    at: str


class WalletOut(BaseModel):
    balance: int
    streak: int = Field(description="consecutive days checked in, 0 after a missed day")
    checked_in_today: bool
    next_reward: int
    day: str
    rewards: list[int] = Field(description="the published table: day 1, 2, ... of a streak")
    entries: list[EntryOut] = Field(description="the last 50 ledger entries, newest first")


class ShopItemOut(BaseModel):
    id: str
    kind: Literal["board", "checkers"]
    price: int
    owned: bool
    equipped: bool
    preview: str = Field(description="URL of an SVG picture of the item")
    colours: dict[str, str]
    texture: str | None = None


class ShopOut(BaseModel):
    balance: int
    board: str
    checkers: str | None = Field(
        description="the set you chose (null: the seat's default, ivory or ebony)"
    )
    items: list[ShopItemOut]


class PurchaseOut(BaseModel):
    item: str
    price: int
    balance: int = Field(description="the balance right after this purchase")
    replayed: bool = Field(description="true: an earlier request with this key made it")


class EquipIn(BaseModel):
    board: str | None = Field(None, max_length=32)
    checkers: str | None = Field(None, max_length=32)


class EquipOut(BaseModel):
    board: str
    checkers: str


def _entry(entry: Entry) -> EntryOut:
    return EntryOut(
        amount=entry.amount,
        reason=entry.reason,  # type: ignore[arg-type]
        item=entry.item,
        note=entry.note,
        balance_after=entry.balance_after,
        at=entry.at.isoformat(),
    )


def _refused(error: WalletError) -> HTTPException:
    status = {"not_found": 404, "bad_key": 422, "bad_amount": 422, "no_reason": 422}
    return HTTPException(status.get(error.code, 409), error.message)


@router.post("/api/me/checkin", response_model=CheckInOut)
async def check_in(player: PlayerDep, services: WalletDep) -> CheckInOut:
    """Today's daily check-in: one credit per account per site day, raised by the streak."""
    result = await services.wallets.check_in(player.id)
    done = result.check_in
    return CheckInOut(
        already=done.already,
        credited=done.coins,
        welcome=result.welcome,
        balance=result.balance,
        streak=done.streak,
        next_reward=result.next_reward,
        day=done.day.isoformat(),
    )


@router.get("/api/me/wallet", response_model=WalletOut)
async def wallet(player: PlayerDep, services: WalletDep) -> WalletOut:
    wallets = services.wallets
    purse = await wallets.purse(player.id)
    streak, done, upcoming = wallets.streak(purse)
    return WalletOut(
        balance=purse.balance,
        streak=streak,
        checked_in_today=done,
        next_reward=upcoming,
        day=wallets.today().isoformat(),
        rewards=list(REWARDS),
        entries=[_entry(e) for e in await wallets.entries(player.id)],
    )


@router.get("/api/shop", response_model=ShopOut)
async def shop(player: PlayerDep, services: WalletDep) -> ShopOut:
    """Every board theme and checker set, with its price and whether you own or wear it."""
    wallets = services.wallets
    purse = await wallets.purse(player.id)
    have = await wallets.owned(player.id)
    board = catalogue.board(purse.board).id
    checkers = purse.checkers or catalogue.DEFAULT_CHECKERS[0]
    items = [
        ShopItemOut(
            id=theme.id,
            kind="board",
            price=theme.price,
            owned=theme.id in have,
            equipped=theme.id == board,
            preview=f"/api/shop/{theme.id}/preview.svg",
            colours=theme.grounds() | {"frame": theme.frame, "label": theme.label},
            texture=theme.texture,
        )
        for theme in catalogue.BOARDS
    ] + [
        ShopItemOut(
            id=chosen.id,
            kind="checkers",
            price=chosen.price,
            owned=chosen.id in have,
            equipped=chosen.id == checkers,
            preview=f"/api/shop/{chosen.id}/preview.svg",
            colours={"body": chosen.body, "edge": chosen.edge, "text": chosen.text},
        )
        for chosen in catalogue.CHECKERS
    ]
    return ShopOut(balance=purse.balance, board=board, checkers=purse.checkers, items=items)


@router.get("/api/shop/{item_id}/preview.svg", response_class=Response, responses=_SVG)
async def item_preview(item_id: str) -> Response:
    picture = preview(item_id)
    if picture is None:
        raise HTTPException(404, "There is no such item in the shop")
    return Response(picture, media_type="image/svg+xml", headers={"Cache-Control": SVG_CACHE})


@router.get("/api/shop/textures/{name}.svg", response_class=Response, responses=_SVG)
async def texture(name: str) -> Response:
    tile = texture_tile(name)
    if tile is None:
        raise HTTPException(404, "There is no such texture")
    return Response(tile, media_type="image/svg+xml", headers={"Cache-Control": SVG_CACHE})


@router.post("/api/shop/{item_id}/buy", response_model=PurchaseOut)
async def buy(
    item_id: str,
    player: PlayerDep,
    services: WalletDep,
    idempotency_key: Annotated[str | None, Header()] = None,
) -> PurchaseOut:
    """Buy an item. Send a fresh ``Idempotency-Key`` per purchase and the same one on a retry:
    the retry answers with the first purchase and charges nothing."""
    if idempotency_key is None:
        raise HTTPException(
            428, "Send an Idempotency-Key header (a fresh UUID per purchase, the same on a retry)"
        )
    try:
        purchase = await services.wallets.buy(player.id, item_id, idempotency_key)
    except WalletError as error:
        raise _refused(error) from None
    except Insufficient as short:
        raise HTTPException(
            409, f"Not enough coins: this costs {-short.amount} and you have {short.balance}"
        ) from None
    entry = purchase.entry
    assert entry.item is not None
    return PurchaseOut(
        item=entry.item,
        price=-entry.amount,
        balance=entry.balance_after,
        replayed=purchase.replayed,
    )


@router.post("/api/me/equip", response_model=EquipOut)
async def equip(body: EquipIn, player: PlayerDep, services: WalletDep) -> EquipOut:
    """Wear a board theme (what you see) and a checker set (what everybody sees of yours)."""
    try:
        await services.wallets.equip(player.id, body.board, body.checkers)
    except WalletError as error:
        raise _refused(error) from None
    return EquipOut(
        board=catalogue.board(body.board).id,
        checkers=body.checkers or catalogue.DEFAULT_CHECKERS[0],
    )
