"""The pages' HTML: one layout, every text escaped, no inline script or style (the
Content-Security-Policy forbids both); the scripts and the style sheet are static files.

Each page is usable without its script (the replay steps by links, the table reloads by hand);
the script adds the live updates, the board's zoom and pan and the keyboard shortcuts.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any
from urllib.parse import urlencode

from bot.i18n import LANGUAGES, t

LANGUAGE_NAMES = {"en": "English", "sv": "Svenska", "nb": "Norsk bokmål", "cs": "Čeština"}


def e(value: Any) -> str:
    return escape(str(value), quote=True)


def layout(title: str, body: str, locale: str, *, scripts: Sequence[str] = (), path: str = "",
           data: dict[str, str] | None = None) -> str:
    """A whole page; ``path`` is the page's own address, for the language links."""
    attributes = "".join(f' data-{e(k)}="{e(v)}"' for k, v in (data or {}).items())
    current = ' aria-current="true"'
    languages = " ".join(
        f'<a href="{e(path)}?{urlencode({"lang": lang})}" hreflang="{lang}" lang="{lang}"'
        f'{current if lang == locale else ""}>{e(LANGUAGE_NAMES[lang])}</a>'
        for lang in LANGUAGES)
    script_tags = "".join(f'<script src="/static/{e(name)}" defer></script>' for name in scripts)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{e(locale)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)}</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        f"{script_tags}</head>"
        f"<body{attributes}>"
        f'<a class="skip" href="#main">{e(t("web.skip", locale))}</a>'
        f'<header><p class="brand">Game Master</p><nav aria-label="{e(t("web.languages", locale))}">'
        f"{languages}</nav></header>"
        f'<main id="main">{body}</main></body></html>'
    )


def items(values: Iterable[str], tag: str = "li") -> str:
    return "".join(f"<{tag}>{e(v)}</{tag}>" for v in values)


def log_items(log: Sequence[dict[str, Any]]) -> str:
    return "".join(f'<li value="{int(row["n"])}">' + (f"<strong>{e(row['who'])}</strong> " if row["who"] else "")
                   + f"{e(row['text'])}</li>" for row in log)


def clock_items(clocks: Sequence[dict[str, Any]]) -> str:
    return "".join(f"<li>{e(c['name'])}: {e(c['bank_text'])}</li>" for c in clocks)


def board_figure(image: str, alt: str, locale: str, *, label: str) -> str:
    """The board at full resolution in a frame the script zooms and pans (pinch, wheel, keys)."""
    return (
        f'<figure class="board" aria-label="{e(label)}">'
        f'<div class="zoom-controls" role="group" aria-label="{e(t("web.zoom", locale))}">'
        f'<button type="button" data-zoom="in" aria-label="{e(t("web.zoom_in", locale))}">+</button>'
        f'<button type="button" data-zoom="out" aria-label="{e(t("web.zoom_out", locale))}">−</button>'
        f'<button type="button" data-zoom="fit">{e(t("web.zoom_fit", locale))}</button></div>'
        f'<div class="viewport" tabindex="0" aria-label="{e(t("web.pan_hint", locale))}">'
        f'<img id="board" src="{e(image)}" alt="{e(alt)}" draggable="false"></div></figure>'
    )


def table_page(data: dict[str, Any], locale: str, *, path: str, events: str, replay: str | None,
               server: str | None, heading: str | None = None) -> str:
    """The live table: board, who acts and their clocks, standings, the move log."""
    parts = [
        f'<h1 id="title">{e(heading or data["title"])}</h1>',
        f'<p id="status" role="status" aria-live="polite">{e(data["status"])}</p>',
        f'<p id="deadline">{e(data.get("deadline", ""))}</p>',
        f'<ul id="clocks" aria-label="{e(t("web.clocks", locale))}">{clock_items(data["clocks"])}</ul>',
        '<div class="table-grid"><div class="col-board">',
        board_figure(data["board"], data["alt"], locale, label=t("web.board", locale)),
    ]
    if data.get("hand"):
        parts.append(f'<section aria-labelledby="hand-h"><h2 id="hand-h">{e(t("web.your_view", locale))}</h2>'
                     f'<img id="hand" class="hand" src="{e(data["hand"])}" alt="{e(data.get("hand_alt", ""))}">'
                     "</section>")
    parts.append('</div><div class="col-side">')
    parts.append(f'<section aria-labelledby="st-h"><h2 id="st-h">{e(t("web.standings", locale))}</h2>'
                 f'<ol id="standings">{items(data["standings"])}</ol>'
                 f'<p id="seed">{e(data.get("seed", ""))}</p></section>')
    parts.append(f'<section aria-labelledby="log-h"><h2 id="log-h">{e(t("web.log", locale))}</h2>'
                 f'<ol id="log" class="log">{log_items(data["log"])}</ol></section>')
    links = []
    if replay:
        links.append(f'<a href="{e(replay)}">{e(t("web.replay_link", locale))}</a>')
    if server:
        links.append(f'<a href="{e(server)}">{e(t("web.server_link", locale))}</a>')
    if links:
        parts.append(f'<nav class="links" aria-label="{e(t("web.more", locale))}">{" · ".join(links)}</nav>')
    parts.append("</div></div>")
    return layout(data["title"], "".join(parts), locale, scripts=("zoom.js", "table.js"), path=path,
                  data={"events": events, "version": str(data["version"]), "lang": locale})


def replay_page(title: str, frame: dict[str, Any], locale: str, *, path: str, table: str, ended: bool) -> str:
    """One frame of the replay, with links to step (the script adds the arrow keys)."""
    number, total = frame["number"], frame["total"]

    def step(label: str, to: int, key: str, disabled: bool) -> str:
        if disabled:
            return f'<span class="step" aria-disabled="true">{e(label)}</span>'
        return (f'<a class="step" data-step="{key}" href="{e(path)}?{urlencode({"n": to, "lang": locale})}">'
                f"{e(label)}</a>")

    steps = "".join((
        step(t("web.replay_first", locale), 0, "first", number == 0),
        step(t("web.replay_prev", locale), max(0, number - 1), "prev", number == 0),
        step(t("web.replay_next", locale), min(total, number + 1), "next", number >= total),
        step(t("web.replay_last", locale), total, "last", number >= total),
    ))
    hidden = ""
    if frame["hidden"]:
        hidden = (f'<section aria-labelledby="hid-h"><h2 id="hid-h">{e(t("web.replay_hidden", locale))}</h2>'
                  f"<ul>{items(frame['hidden'])}</ul></section>")
    note = t("web.replay_all" if ended else "web.replay_public", locale)
    body = (
        f"<h1>{e(title)}</h1><p>{e(note)}</p>"
        f'<nav class="stepper" aria-label="{e(t("web.replay_steps", locale))}">{steps}</nav>'
        f'<p id="counter" role="status" aria-live="polite">{e(frame["counter"])}</p>'
        f'<p id="move"><strong>{e(frame["who"])}</strong> {e(frame["text"])}</p>'
        + board_figure(frame["image"], frame["alt"], locale, label=t("web.board", locale))
        + hidden + f'<p><a href="{e(table)}">{e(t("web.back_to_table", locale))}</a></p>'
    )
    return layout(title, body, locale, scripts=("zoom.js", "replay.js"), path=path)


def server_page(title: str, games: Sequence[dict[str, str]], leaders: Sequence[dict[str, Any]], locale: str, *,
                path: str) -> str:
    """A server's history (newest first, each linking to its replay) and its leaderboard."""
    rows = "".join(
        f'<tr><td><a href="{e(g["href"])}">{e(g["game"])}</a></td><td>{e(g["when"])}</td>'
        f"<td>{e(g['players'])}</td><td>{e(g['result'])}</td></tr>" for g in games)
    history = (f'<table><caption>{e(t("web.history", locale))}</caption><thead><tr>'
               f'<th scope="col">{e(t("web.col_game", locale))}</th><th scope="col">{e(t("web.col_when", locale))}</th>'
               f'<th scope="col">{e(t("web.col_players", locale))}</th>'
               f'<th scope="col">{e(t("web.col_result", locale))}</th></tr></thead><tbody>{rows}</tbody></table>'
               if games else f"<p>{e(t('web.history_empty', locale))}</p>")
    board = "".join(
        f"<tr><td>{int(row['place'])}</td><td>{e(row['name'])}</td><td>{int(row['games'])}</td>"
        f"<td>{int(row['wins'])}</td></tr>" for row in leaders)
    leaderboard = (f'<table><caption>{e(t("web.leaderboard", locale))}</caption><thead><tr>'
                   f'<th scope="col">#</th><th scope="col">{e(t("web.col_player", locale))}</th>'
                   f'<th scope="col">{e(t("web.col_games", locale))}</th>'
                   f'<th scope="col">{e(t("web.col_wins", locale))}</th></tr></thead><tbody>{board}</tbody></table>'
                   if leaders else f"<p>{e(t('web.leaderboard_empty', locale))}</p>")
    body = f"<h1>{e(title)}</h1><section>{history}</section><section>{leaderboard}</section>"
    return layout(title, body, locale, path=path)


def message_page(title: str, text: str, locale: str, *, path: str = "") -> str:
    return layout(title, f"<h1>{e(title)}</h1><p>{e(text)}</p>", locale, path=path)
