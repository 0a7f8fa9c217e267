"""Helpers the Discord game tests share: decoding posted PNGs, finding the latest board, and
turning a Tölp action into the slash command a player would type."""
from __future__ import annotations

import io

from PIL import Image

from tests.fakediscord import FakeDiscord, StoredMessage

PNG = b"\x89PNG\r\n\x1a\n"


def decoded(data: bytes) -> Image.Image:
    """A posted PNG, decoded by Pillow (fails if it is not a real, complete PNG)."""
    assert data.startswith(PNG)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def boards(fake: FakeDiscord) -> list[StoredMessage]:
    """Every channel message with an image, oldest first."""
    return [m for m in fake.channel_messages() if m.files]


def latest_board(fake: FakeDiscord) -> StoredMessage:
    return boards(fake)[-1]


def tolp_command(action: str) -> tuple[str, dict[str, object]]:
    """The /tolp subcommand and options that make ``action`` (a canonical Tölp action)."""
    verb, _, rest = action.partition(" ")
    options: dict[str, object] = {"pass": {}, "high": {}, "play": {"cards": rest}, "give": {"cards": rest},
                                  "ask": {"rank": rest}, "claim": {"ranks": rest}}[verb]
    return f"tolp {verb}", options
