"""An ended game of every kind exports and verifies from its seed, undone moves included; each
kind of tampering is caught and named, and a running game is never exported."""
from __future__ import annotations

import json

import pytest

from bot.engine import registry
from bot.errors import Forbidden, IllegalAction
from bot.services import export
from bot.services.table import GameService
from bot.services.undo import Undo

GAMES = ["tolp", "zlodej", "stratego", "monopol", "tjuv"]


def problem(data: dict) -> str:
    with pytest.raises(export.ExportProblem) as caught:
        export.verify(json.dumps(data).encode())
    return caught.value.key


@pytest.mark.parametrize("name", GAMES)
async def test_every_game_exports_and_verifies_with_its_undo_marks(service: GameService, name: str) -> None:
    game = registry.get(name)
    await service.create(guild_id="g", channel_id="c", game=name, user_id="u0", name="Ann",
                         computers=max(game.min_players - 1, 1))
    record = (await service.start("c", "u0")).record
    with pytest.raises(IllegalAction) as running:
        await export.export(service, record.id, guild_id="g", user_id="u0")
    assert running.value.key == "export.error.running"
    for _ in range(30):  # the human's moves, each offered back, until one is taken back
        if record.status != "active" or 0 not in service.to_act(record):
            break
        record = (await service.act(user_id="u0", action=service.legal_texts(record, 0)[0],
                                    game_id=record.id)).record
        if record.status != "active":
            break
        try:
            request = await Undo(service).ask(user_id="u0", game_id=record.id)
        except IllegalAction:
            continue
        assert request.update is not None
        record = request.update.record
        break
    if record.status == "active":
        await service.resign("c", "u0")
    data = await export.export(service, record.id, guild_id="g", user_id="u0")
    verified = export.verify(export.to_bytes(data))
    assert verified.names == ["Ann", *[p["name"] for p in data["players"][1:]]]
    assert [p["kind"] for p in data["players"]] == ["human"] + ["computer"] * (len(data["players"]) - 1)
    with pytest.raises(Forbidden):
        await export.export(service, record.id, guild_id="elsewhere", user_id="u0")

    assert problem({**data, "seed": data["seed"] + "x"}) in ("export.file.bad_move", "export.file.result_differs",
                                                             "export.file.state_differs")
    assert problem({**data, "final_state_sha256": "0" * 64}) == "export.file.state_differs"
    assert problem({**data, "format": "other"}) == "export.file.malformed"
    assert problem({**data, "version": 99}) == "export.file.version"
    assert problem({**data, "moves": [*data["moves"], {"ply": 999, "seat": 0, "action": "nonsense"}]}) \
        == "export.file.bad_move"
    undone = [m for m in data["moves"] if m.get("undone")]
    assert undone  # every game here took a move back: the marks must agree with the markers
    unmarked = [{k: v for k, v in m.items() if k != "undone"} for m in data["moves"]]
    assert problem({**data, "moves": unmarked}) == "export.file.undone_marks"
