"""What just happened, as a board's header tells it: the sentence of the move's newest public
event (the announcer's hint), with seats as names and cards as suit symbols. A private event
never reaches a public picture."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import has, t
from bot.services.text import name_params
from rendering.kit import seat_name


def _parts(event_hint: Any) -> tuple[str | None, Mapping[str, Any], Any]:
    if isinstance(event_hint, Mapping):
        return event_hint.get("key"), event_hint.get("params") or {}, event_hint.get("visible_to")
    return (getattr(event_hint, "key", None), getattr(event_hint, "params", None) or {},
            getattr(event_hint, "visible_to", None))


def news_of(event_hint: Any, names: Any, locale: str) -> str:
    """The hint's sentence in ``locale``; "" for no hint, a private event or one without words."""
    key, params, visible_to = _parts(event_hint)
    if not key or visible_to is not None or not has(key, locale):
        return ""
    listed: Sequence[str] = names if isinstance(names, Sequence) and not isinstance(names, str) else \
        [seat_name(names, seat) for seat in range(len(names))]
    return t(key, locale, **name_params(dict(params), list(listed))).replace("🔑", "").strip()
