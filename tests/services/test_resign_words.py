"""A resignation is announced once; Zloděj ended by resignations says so, ranks the higher total
first among those still playing, and its final image names the winner."""
from __future__ import annotations

import io

from PIL import Image

from bot.services.table import GameService
from bot.services.text import place_lines, public_lines
from rendering import zlodej as zlodej_render


async def _table(service: GameService, game: str, names: list[str]) -> None:
    await service.create(guild_id=None, channel_id="c1", game=game, user_id="u0", name=names[0], locale="en",
                         seed="words")
    for i, name in enumerate(names[1:], start=1):
        await service.join("c1", f"u{i}", name)
    await service.start("c1", "u0")


async def test_a_resignation_is_announced_once(service: GameService) -> None:
    await _table(service, "zlodej", ["Åsa", "Bo", "Cilla"])
    update = await service.resign("c1", "u0")
    lines = public_lines(update.events, update.record.names, "en")
    assert [line for line in lines if "Åsa resign" in line] == ["Åsa resigns; their hand goes under the stock."]
    assert update.record.status == "active"


async def test_a_game_without_its_own_resignation_line_gets_the_tables(service: GameService) -> None:
    await _table(service, "tolp", ["Åsa", "Bo", "Cilla"])
    update = await service.resign("c1", "u1")
    lines = public_lines(update.events, update.record.names, "en")
    assert lines.count("Bo resigned.") == 1


async def test_zlodej_ended_by_resignations_says_so_and_names_the_winner(service: GameService) -> None:
    await _table(service, "zlodej", ["Åsa", "Bo", "Cilla"])
    await service.resign("c1", "u0")
    update = await service.resign("c1", "u1")
    names = update.record.names
    lines = public_lines(update.events, names, "en")
    assert "Only Cilla is left after the resignations: the piles are counted." in lines
    assert not any("All cards are played" in line for line in lines)
    scores = [line for line in lines if line.startswith(("Åsa:", "Bo:", "Cilla:"))]
    assert scores[0].startswith("Cilla:") and all("resigned, placed last" in line for line in scores[1:])
    outcome = update.record.outcome or {}
    assert place_lines(outcome["places"], names, "en")[0] == "1. Cilla"
    obs = service.observe(update.record, None)
    assert obs["public"]["winners"] == [2]
    image = Image.open(io.BytesIO(zlodej_render.render_public(obs, names=names, locale="en"))).convert("RGB")
    unnamed = {**obs, "public": {**obs["public"], "winners": []}}
    plain = Image.open(io.BytesIO(zlodej_render.render_public(unnamed, names=names, locale="en"))).convert("RGB")
    # the winner is named in the header, across the top
    box = (0, 0, image.size[0], 130)
    assert image.crop(box).tobytes() != plain.crop(box).tobytes()


def test_zlodej_standings_rank_the_higher_total_first() -> None:
    from bot.games.zlodej.play import final_scores, standings
    from tests.games.zlodej.helpers import make_state
    state = make_state(3, hands=["", "", ""], open_piles=[["2C"], ["KH KS"], ["7D"]])
    state.finished = True
    assert standings(state)[0] == (1,)
    events = final_scores(state)
    assert events[0].key == "zlodej.event.game_over"
    assert [e.params["seat"] for e in events[1:]] == [s for place in standings(state) for s in place]
    points = [e.params["points"] for e in events[1:]]
    assert points == sorted(points, reverse=True)
