"""What the bot's messages say, and in which order: the first line is the news for whoever the
message pings or is sent to ("@Ann — your turn in Zloděj · Bo steals your top group of 7"), then
the rest of the turn, and the seed commitment, server, channel and links at the end.

A phone's notification and Discord's channel list show a message's first line or two, so a board
that pings opens with the mention and what happened to that player, and a DM opens with the
reader's name and why they got it; a hash, a link or someone else's event line never comes first.
These functions only compose text (the announcer and cogs/private.py decide what goes out)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.core import Event
from bot.i18n import has, t
from bot.services.text import event_text, place_lines, shown, shown_names
from bot.storage.games import GameRow

SEP = " · "
STARTED = "game.event.started"
# the pieces of news that only restate whose turn it is: the first line names that already
FILLER_SUFFIXES = (".event.turn",)
SUBTEXT = "-# "  # Discord's small, grey line: the footer of a message


def game_name(record: GameRow, locale: str) -> str:
    return t(f"game.name.{record.game}", locale)


def is_filler(event: Event) -> bool:
    return event.key.endswith(FILLER_SUFFIXES)


def targets(event: Event) -> set[int]:
    """The seats an event happened to (its ``target`` and other named seats, not its actor)."""
    out: set[int] = set()
    for key, value in event.params.items():
        if key == "seat" or isinstance(value, bool):
            continue
        if (key == "target" or key.endswith("_seat")) and isinstance(value, int):
            out.add(value)
        elif key.endswith("_seats") and isinstance(value, list | tuple):
            out |= {v for v in value if isinstance(v, int)}
    return out - ({event.params["seat"]} if isinstance(event.params.get("seat"), int) else set())


def addressed(event: Event, seat: int, names: Sequence[str], locale: str, *, markup: bool = True) -> str:
    """A public event told to the seat it happened to ("Bo steals your top group of 7 with ♥7"),
    where the game words it so (``<key>.you``); else as everyone reads it."""
    if event.visible_to is None and seat in targets(event) and has(event.key + ".you"):
        event = Event(event.key + ".you", event.params)
    return event_text(event, names, locale, markup=markup)


def news_for(events: Sequence[Event], seat: int, names: Sequence[str], locale: str) -> list[str]:
    """What these events mean for one seat: what happened to it (told to it) and what only it sees."""
    lines: list[str] = []
    for event in events:
        if event.visible_to is None and seat in targets(event):
            lines.append(addressed(event, seat, names, locale))
        elif event.visible_to is not None and seat in event.visible_to:
            lines.append(event_text(event, names, locale))
    return lines


def headline(events: Sequence[Event], seats: Sequence[int], names: Sequence[str],
             locale: str) -> tuple[str, int | None]:
    """The one piece of public news the first line carries, and its index in ``events``: what
    happened to the (only) pinged seat if anything did, else the turn's first move."""
    public = [(i, e) for i, e in enumerate(events) if e.visible_to is None and not is_filler(e)]
    if len(seats) == 1:
        for index, event in public:
            if seats[0] in targets(event) and event.key != STARTED:
                return addressed(event, seats[0], names, locale), index
    for index, event in public:
        if event.key == STARTED:
            return t("msg.started", locale), index
        return event_text(event, names, locale), index
    return "", None


def one_line(text: str, limit: int = 300) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def board_content(record: GameRow, events: Sequence[Event], humans: Sequence[int], watching: Sequence[int],
                  mention: Any, deadline: str | None, locale: str) -> str:
    """A current board's text: first whom it waits for and the news ("@Ann — your turn in Zloděj ·
    Bo steals your top group of 7"), then the rest of the turn, who else may act, the deadline,
    and the seed commitment (at the start) as the footer."""
    names = record.names
    news, used = headline(events, list(humans) or list(watching), names, locale)
    game = game_name(record, locale)
    if humans:
        key = "msg.turn.one" if len(humans) == 1 else "msg.turn.many"
        first = t(key, locale, mentions=" ".join(mention(s) for s in humans), game=game)
    elif watching:
        first = t("msg.turn.may_act", locale, mentions=" ".join(mention(s) for s in watching), game=game)
    else:
        first = game
    lines = [one_line(first + (SEP + news if news else ""))]
    footer: list[str] = []
    for index, event in enumerate(events):
        if event.key == STARTED:
            footer.append(SUBTEXT + t("msg.seed_commitment", locale, commitment=event.params.get("commitment", "")))
            continue
        if event.visible_to is not None or index == used or is_filler(event):
            continue
        lines.append(event_text(event, names, locale))
    if humans and watching:
        lines.append(t("turn.may_act", locale, mentions=" ".join(mention(s) for s in watching)))
    if deadline:
        lines.append(deadline)
    return "\n".join(lines + footer)


def result_content(record: GameRow, events: Sequence[Event], locale: str) -> str:
    """The result's text: who won and why first, the places, the last turn, the seed at the end."""
    outcome = record.outcome or {}
    places: list[list[int]] = [list(group) for group in outcome.get("places", [])]
    names = record.names
    game = game_name(record, locale)
    if places and places[0]:
        winners = ", ".join(shown(names[s]) for s in places[0])
        first = t("msg.result.won", locale, players=winners, game=game, count=len(places[0]))
    else:
        first = t("msg.result.over", locale, game=game)
    reason = t(outcome["reason"], locale) if outcome.get("reason") else ""
    lines = [one_line(first + (SEP + reason if reason else ""))]
    lines += place_lines(places, names, locale)
    lines += [event_text(e, names, locale) for e in events
              if e.visible_to is None and not is_filler(e) and e.key != STARTED]
    lines.append(SUBTEXT + t("game.seed_reveal", locale, seed=record.seed))
    return "\n".join(lines)


def dm_first_line(record: GameRow, seat: int, events: Sequence[Event], locale: str, *, their_turn: bool) -> str:
    """A DM's first line: the reader's name and why they got it ("Ann — Zloděj: Bo steals your top
    group of 7 with ♥7"; "Ann — your turn in Zloděj · …")."""
    names = record.names
    who = shown(names[seat]) if 0 <= seat < len(names) else ""
    game = game_name(record, locale)
    news = news_for(events, seat, names, locale)
    if not news and not their_turn:  # the view changed through someone's move: say whose
        said, _ = headline(events, [], names, locale)
        news = [said] if said else []
    text = SEP.join(line.replace("\n", " ") for line in news)
    if their_turn:
        first = t("msg.dm.turn", locale, who=who, game=game)
        return one_line(first + (SEP + text if text else ""))
    if text:
        return one_line(t("msg.dm.news", locale, who=who, game=game, news=text))
    return one_line(t("msg.dm.view", locale, who=who, game=game))


def window_alone_line(record: GameRow, seat: int, events: Sequence[Event], locale: str) -> str:
    """The DM that tells a player an open window (an auction, a trade offer) now waits on them
    alone: their name, the game, and the last answer in it ("Bo bids kr 120.")."""
    names = record.names
    who = shown(names[seat]) if 0 <= seat < len(names) else ""
    public = [e for e in events if e.visible_to is None and not is_filler(e)]
    news = addressed(public[-1], seat, names, locale) if public else ""
    first = t("msg.window.alone", locale, who=who, game=game_name(record, locale))
    return one_line(first + (SEP + news if news else ""))


def lobby_folded(record: GameRow, link: str, locale: str) -> str:
    """The lobby message once the game started: one line with who sits down and the board's link."""
    return t("msg.lobby.started", locale, game=game_name(record, locale),
             players=", ".join(shown_names(record.names)), link=link)
