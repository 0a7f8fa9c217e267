"""A server's history through the fake Discord: /game history pages through finished games and those
ended early with /game end (marked as such: who ended them after how many moves) with ◀ ▶ and links
to each result or last board; /game stats shows a player's own rating history (a tie shares the
place) and counts finished games only; /game export gives an ended game as a JSON file, refuses a
running one, and the file verifies and draws with ``gamemaster replay FILE`` while a tampered copy
fails."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.cli import main
from tests.discord.conftest import BotFactory
from tests.discord.helpers import decoded, stratego_set_up
from tests.fakediscord import FakeDiscord


async def play(fake: FakeDiscord, bot: Any, creator: Any, other: Any, loser: Any, game: str = "zlodej",
               computers: int = 0) -> int:
    """A game started and ended by a resignation; its id."""
    await fake.interact(bot, fake.slash(creator, "game new", game=game, computers=computers))
    await fake.interact(bot, fake.slash(other, "game join"))
    await fake.interact(bot, fake.slash(creator, "game start"))
    assert (await fake.interact(bot, fake.slash(loser, "game resign"))).ok
    return (await bot.service.latest(fake.channel_id)).id


async def test_history_pages_through_finished_games_with_links(fake: FakeDiscord, make_bot: BotFactory,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.history.PAGE", 2)
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    empty = await fake.interact(bot, fake.slash(ann, "game history"))
    assert empty.ephemeral and "No games played" in empty.text
    finished = [await play(fake, bot, ann, bo, loser) for loser in (bo, ann, bo)]
    await fake.interact(bot, fake.slash(ann, "game new", game="zlodej"))  # a lobby is not history
    newest = await bot.service.get(finished[-1])
    assert newest.board_message_id

    r = await fake.interact(bot, fake.slash(bo, "game history"))
    assert r.ok and r.ephemeral, r.text
    games = [line for line in r.text.splitlines() if line.startswith("#")]
    assert [g.split()[0] for g in games] == [f"#{finished[2]}", f"#{finished[1]}"]  # newest first
    assert "Zloděj" in games[0] and "winner: **player1**" in games[0] and "winner: **player2**" in games[1]
    link = f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}/{newest.board_message_id}"
    assert link in games[0] and "/game replay game:" in r.text
    page = r.original
    assert page is not None
    labels = {b["label"]: b for b in page.buttons}
    assert labels["◀ Newer"].get("disabled") and not labels["Older ▶"].get("disabled")

    older = await fake.interact(bot, fake.click(bo, page, label="Older ▶"))
    assert older.ok and older.type == 6, older.text  # acknowledged first (a deferred update), then the list edited
    page = fake.messages[page.id]
    assert [line.split()[0] for line in page.content.splitlines() if line.startswith("#")] == [f"#{finished[0]}"]
    labels = {b["label"]: b for b in page.buttons}
    assert labels["Older ▶"].get("disabled") and not labels["◀ Newer"].get("disabled")
    await fake.interact(bot, fake.click(bo, page, label="◀ Newer"))
    page = fake.messages[page.id]
    assert [line.split()[0] for line in page.content.splitlines() if line.startswith("#")] == [
        f"#{finished[2]}", f"#{finished[1]}"]
    fake.assert_clean()


def listed(text: str) -> list[str]:
    """The game lines of a history message."""
    return [line for line in text.splitlines() if line.startswith("#")]


async def test_history_lists_games_ended_early_beside_finished_ones(fake: FakeDiscord, make_bot: BotFactory,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.history.PAGE", 2)
    bot = await make_bot()
    boss = fake.add_member("boss", manage_guild=True)
    red, blue = await stratego_set_up(fake, bot)  # four moves: both armies set up and ready
    first = await bot.service.current(fake.channel_id)
    assert first is not None
    # a move, taken back by consent, and another: five moves in force (seven entries in the log)
    assert (await fake.interact(bot, fake.slash(red, "stratego move", {"from": "B4", "to": "B5"}))).ok
    assert (await fake.interact(bot, fake.slash(red, "game undo"))).ok
    assert (await fake.interact(bot, fake.click(blue, fake.channel_messages()[-1], label="Agree"))).ok
    assert (await fake.interact(bot, fake.slash(red, "stratego move", {"from": "B4", "to": "B5"}))).ok
    assert (await fake.interact(bot, fake.slash(red, "game end"))).ok
    stratego = await bot.service.get(first.id)
    assert stratego.status == "aborted" and stratego.ply == 7 and stratego.board_message_id
    won = await play(fake, bot, red, blue, blue)
    await fake.interact(bot, fake.slash(red, "game new", game="zlodej"))  # a lobby ended is no game played
    assert (await fake.interact(bot, fake.slash(boss, "game end"))).ok
    await fake.interact(bot, fake.slash(red, "game new", game="zlodej"))
    await fake.interact(bot, fake.slash(blue, "game join"))
    await fake.interact(bot, fake.slash(red, "game start"))
    assert (await fake.interact(bot, fake.slash(boss, "game end"))).ok  # a manager, not seated
    abandoned = (await bot.service.latest(fake.channel_id)).id

    r = await fake.interact(bot, fake.slash(blue, "game history"))
    assert r.ok and r.ephemeral and "finished or ended early" in r.text, r.text
    newest, finished = listed(r.text)
    assert newest.startswith(f"#{abandoned} Zloděj") and "ended early by **boss** after 0 moves" in newest
    assert "winner" not in newest and "[result]" not in newest and "[last board](https://discord.com/" in newest
    assert finished.startswith(f"#{won} Zloděj") and "winner: **player1**" in finished and "[result](" in finished
    page = r.original
    assert page is not None
    older = await fake.interact(bot, fake.click(blue, page, label="Older ▶"))
    assert older.ok, older.text
    page = fake.messages[page.id]
    (ended,) = listed(page.content)  # the lobby ended before it started is not there
    link = f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}/{stratego.board_message_id}"
    assert ended == f"#{stratego.id} Stratego · " + ended.split(" · ")[1] + \
        " · player1, player2 · ended early by **player1** after 5 moves · [last board](" + link + ")"
    labels = {b["label"]: b for b in page.buttons}
    assert labels["Older ▶"].get("disabled") and not labels["◀ Newer"].get("disabled")
    await fake.interact(bot, fake.click(blue, page, label="◀ Newer"))
    assert [line.split()[0] for line in listed(fake.messages[page.id].content)] == [f"#{abandoned}", f"#{won}"]

    only = await fake.interact(bot, fake.slash(blue, "game history", game="stratego"))
    assert [line.split()[0] for line in listed(only.text)] == [f"#{stratego.id}"] and only.original is not None
    assert not only.original.buttons  # one page: no ◀ ▶

    # ended games have no result: /game stats and the ratings count the one finished game only
    stats = await fake.interact(bot, fake.slash(blue, "game stats", game="zlodej"))
    assert "Zloděj: 1 finished game" in stats.text and "1. player1: " in stats.text, stats.text
    assert "(1 won of 1)" in stats.text and "(0 won of 1)" in stats.text
    assert "**player2 in Zloděj**: rating" in stats.text and "1 game, 0 won" in stats.text
    none = await fake.interact(bot, fake.slash(blue, "game stats", game="stratego"))
    assert "Stratego:" not in none.text and "player2 has no finished Stratego games" in none.text, none.text
    fake.assert_clean()


async def test_stats_show_a_players_rating_history_with_ties(fake: FakeDiscord, make_bot: BotFactory) -> None:
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    # three seats, nobody has a Kung yet: the two who stay share first place
    first, second = [await play(fake, bot, ann, bo, loser, "tolp", computers=1) for loser in (ann, bo)]
    assert (await bot.service.get(first)).outcome["places"][0] == [1, 2]  # a tie (seats: Ann, Bo, computer)

    mine = await fake.interact(bot, fake.slash(bo, "game stats", game="tolp"))
    assert mine.ok, mine.text
    lines = mine.text.splitlines()
    title = next(i for i, line in enumerate(lines) if line.startswith("**player2 in Tölp**"))
    assert "2 games, 1 won" in lines[title]
    newest, oldest = lines[title + 1], lines[title + 2]
    assert newest.startswith(f"• #{second}") and "place 3 of 3" in newest
    assert oldest.startswith(f"• #{first}") and "place 1 of 3" in oldest
    before, after = oldest.split("rating ")[1].split(" (")[0].split(" → ")
    assert int(after) > int(before)  # a shared first place still gains
    assert newest.split("rating ")[1].split(" → ")[0] == after  # the next game starts where this ended

    theirs = await fake.interact(bot, fake.slash(bo, "game stats", game="tolp", player=ann))
    assert "**player1 in Tölp**" in theirs.text and "place 1 of 3" in theirs.text
    refused = await fake.interact(bot, fake.slash(bo, "game stats", player=ann))
    assert refused.ephemeral and "choose the game" in refused.text

    listed = await fake.interact(bot, fake.slash(bo, "game history", game="tolp"))
    entries = [line for line in listed.text.splitlines() if line.startswith("#")]
    assert "Tölp games played" in listed.text and [e.split()[0] for e in entries] == [f"#{second}", f"#{first}"]
    assert "winner: **Computer 1 (normal), player2**" in entries[1]  # both who stayed are named
    none = await fake.interact(bot, fake.slash(bo, "game history", game="zlodej"))
    assert "No Zloděj games played" in none.text
    fake.assert_clean()


async def test_export_and_replay_file_round_trip(fake: FakeDiscord, make_bot: BotFactory, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    bot = await make_bot()
    ann, bo = fake.add_members(2)
    await fake.interact(bot, fake.slash(ann, "game new", game="stratego"))
    await fake.interact(bot, fake.slash(bo, "game join"))
    await fake.interact(bot, fake.slash(ann, "game start"))
    running = await bot.service.current(fake.channel_id)
    assert running is not None
    refused = await fake.interact(bot, fake.slash(bo, "game export", game=running.id))
    assert refused.ephemeral and "seed stays secret" in refused.text and not refused.files
    assert running.seed not in refused.text
    for player in (ann, bo):  # a few moves for the replay: both armies set up
        assert (await fake.interact(bot, fake.slash(player, "stratego setup", preset="classic"))).ok
        assert (await fake.interact(bot, fake.slash(player, "stratego ready"))).ok
    assert (await fake.interact(bot, fake.slash(bo, "game resign"))).ok

    r = await fake.interact(bot, fake.slash(bo, "game export"))  # this channel's latest game
    assert r.ok and r.ephemeral, r.text
    (attachment,) = r.files
    assert attachment.filename == f"gamemaster-stratego-{running.id}.json"
    data = json.loads(attachment.data)
    record = await bot.service.get(running.id)
    assert data["format"] == "gamemaster-game" and data["version"] == 1 and data["game"] == "stratego"
    assert data["seed"] == record.seed and data["options"] == record.options
    assert data["players"] == [{"seat": 0, "name": "player1", "kind": "human"},
                               {"seat": 1, "name": "player2", "kind": "human"}]
    assert len(data["moves"]) == 5 and data["moves"][-1]["action"] == "!resign"
    assert data["result"] == record.outcome
    assert ann["id"] not in attachment.data.decode()  # display names only, no Discord ids

    path = tmp_path / attachment.filename
    path.write_bytes(attachment.data)
    assert main(["replay", str(path), "--out", str(tmp_path / "out")]) == 0
    assert "verified" in capsys.readouterr().out
    board = decoded((tmp_path / "out" / f"{path.stem}-final.png").read_bytes())
    assert board.width >= 1000
    # the start and each move in force (boards that did not change in public merge into one frame)
    with Image.open(tmp_path / "out" / f"{path.stem}.gif") as animated:
        assert animated.format == "GIF" and 2 <= animated.n_frames <= len(data["moves"]) + 1
        animated.seek(animated.n_frames - 1)
        animated.load()

    tampered = dict(data, result={**data["result"], "places": list(reversed(data["result"]["places"]))})
    path.write_text(json.dumps(tampered))
    assert main(["replay", str(path)]) == 1
    assert "NOT verified" in capsys.readouterr().err
    path.write_text(json.dumps({**data, "moves": data["moves"][:-1]}))  # the resignation cut off
    assert main(["replay", str(path)]) == 1
    path.write_text(json.dumps({k: v for k, v in data.items() if k != "id"}))  # a hand-edited file
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert main(["replay", str(path), "--out", str(blocked / "out")]) == 2  # verified, cannot write
    captured = capsys.readouterr()
    assert "verified" in captured.out and "Cannot write" in captured.err and "Traceback" not in captured.err
    path.write_text("{not json")
    assert main(["replay", str(path)]) == 2
    fake.assert_clean()
