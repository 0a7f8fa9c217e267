"""Rematch: the players of a finished game press Rematch on its result; a new lobby in the same
channel holds the same game and options, seats rotated one place (so a different player starts).
It starts by itself once every human player of the old game pressed; its creator (the first to
press) may start it earlier with those who did. Computer seats come along."""
from __future__ import annotations

from dataclasses import dataclass

from bot.engine import registry
from bot.engine.rng import new_seed
from bot.errors import Forbidden, IllegalAction, NotFound
from bot.services.core import Update
from bot.services.table import GameService
from bot.storage import games as repo
from bot.storage.games import GameRow, SeatRow


@dataclass
class Rematch:
    lobby: GameRow
    update: Update | None = None  # everyone pressed: the game started


def rotated(old: GameRow, pressed: set[str]) -> list[SeatRow]:
    """The old seats one place on (old seat 1 sits first), those who pressed and the computers."""
    n = len(old.seats)
    order = sorted(old.seats, key=lambda s: (s.seat - 1) % n)
    kept = [s for s in order if s.is_computer or s.user_id in pressed]
    return [SeatRow(i, s.user_id, s.name, s.is_computer, level=s.level) for i, s in enumerate(kept)]


async def press(service: GameService, game_id: int, user_id: str) -> Rematch:
    async with service.db.transaction() as conn:
        old = await repo.get(conn, game_id)
        if old is None:
            raise NotFound("error.no_game")
        if old.status != "finished":
            raise IllegalAction("rematch.error.not_finished")
        if old.seat_of(user_id) is None:
            raise Forbidden("error.not_seated")
        lobby = await repo.open_in_channel(conn, old.channel_id, lock=True)
        if lobby is None:
            # a new game: what is no player's option (an old game's rules format) stays behind
            offered = {spec.name for spec in registry.get(old.game).options}
            options = {name: value for name, value in old.options.items() if name in offered}
            new_id = await repo.insert(conn, guild_id=old.guild_id, channel_id=old.channel_id, game=old.game,
                                       creator_id=str(user_id), options=options, seed=new_seed(),
                                       locale=old.locale, turn_seconds=old.turn_seconds,
                                       computer_level=old.computer_level)
            lobby = await repo.get(conn, new_id)
            assert lobby is not None
        elif lobby.status != "lobby" or lobby.game != old.game:
            raise IllegalAction("error.channel_busy")
        elif lobby.seat_of(user_id) is not None:
            raise IllegalAction("error.already_joined")
        pressed = {s.user_id for s in lobby.seats if s.user_id} | {str(user_id)}
        seats = rotated(old, pressed)
        newcomers = [s for s in lobby.seats if s.user_id and old.seat_of(s.user_id) is None]
        seats += [SeatRow(len(seats) + i, s.user_id, s.name) for i, s in enumerate(newcomers)]
        await repo.replace_seats(conn, lobby.id, seats)
        await repo.update(conn, lobby, lobby.version)
        lobby = await repo.get(conn, lobby.id)
        assert lobby is not None
        everyone = all(s.is_computer or s.user_id in pressed for s in old.seats)
    result = Rematch(lobby)
    if everyone:
        result.update = await service.start(lobby.channel_id, lobby.creator_id)
        result.lobby = result.update.record
    return result
