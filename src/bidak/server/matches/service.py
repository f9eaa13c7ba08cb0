"""A match's record in other forms: the .mat text of Jellyfish and GNU Backgammon."""

from __future__ import annotations

from bidak.formats import write_mat
from bidak.formats.match_mat import match_to_mat
from bidak.match import Player, event_from_json
from bidak.server.play import PlayServices, is_bot_seat
from bidak.server.play.tables import MatchRow


async def mat_text(services: PlayServices, row: MatchRow) -> str:
    """The match as the text of a .mat file (Jellyfish / GNU Backgammon)."""
    room = await services.store.room(row.room_code)
    rows = await services.store.events(row.id)
    names = await services.store.players(
        [i for i in (room.seat0_id, room.seat1_id) if i] if room else []
    )
    players = []
    for index, seat_id in enumerate((room.seat0_id, room.seat1_id) if room else (None, None)):
        if room is not None and is_bot_seat(room, Player(index)):
            players.append(f"Bot {room.bot_level}")
        else:
            players.append(names[seat_id].name if seat_id in names else f"Player {index}")
    record = match_to_mat(
        [event_from_json(r.payload) for r in rows],
        (players[0], players[1]),
        {"Site": "Bidak", "EventDate": row.created_at.strftime("%Y.%m.%d")},
    )
    return write_mat(record)
