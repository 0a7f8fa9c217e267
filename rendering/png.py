"""A palette PNG encoder that compresses only what changed.

A big board differs from the previous turn's in a few horizontal bands (a token, the header, the
log, a player's cash); the rest compresses to the same bytes every time. Each band of rows is
deflated on its own, ended by a full flush (byte-aligned, no reference to earlier data), so the
compressed bands can be cached by their content and spliced into one valid zlib stream: the
cached bands cost a hash, only new ones are compressed. Scanlines use PNG filter 0 (none), the
usual choice for palette images.
"""
from __future__ import annotations

import struct
import zlib
from collections import OrderedDict
from typing import Any

from PIL import Image

BAND = 32  # rows per cached band
_CACHE: OrderedDict[tuple[int, int, int, int, int], bytes] = OrderedDict()
CACHE_BANDS = 8192  # compressed bands kept (about a kilobyte each)
_BASE = 65521  # Adler-32's modulus


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def adler32_combine(first: int, second: int, length: int) -> int:
    """The Adler-32 of two buffers one after the other from each one's own (zlib's adler32_combine)."""
    rem = length % _BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _BASE
    sum1 += (second & 0xFFFF) + _BASE - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + _BASE - rem
    if sum1 >= _BASE:
        sum1 -= _BASE
    if sum1 >= _BASE:
        sum1 -= _BASE
    if sum2 >= _BASE << 1:
        sum2 -= _BASE << 1
    if sum2 >= _BASE:
        sum2 -= _BASE
    return sum1 | (sum2 << 16)


def encode_banded(image: Image.Image, level: int = 1) -> bytes:
    """PNG bytes of a palette ("P") image, band by band through the cache."""
    if image.mode != "P":
        raise ValueError("encode_banded takes a palette image")
    width, height = image.size
    # each scanline starts with its filter byte, 0: the picture one column wider, that column 0
    lines = Image.new("P", (width + 1, height), 0)
    lines.paste(image, (1, 0))
    return encode_lines(lines.tobytes(), width, height, image.getpalette() or [0, 0, 0], level)


def encode_lines(lines: bytes, width: int, height: int, palette: list[int], level: int = 1) -> bytes:
    """PNG bytes of palette pixels given as scanlines ``width + 1`` bytes long, each starting with
    its filter byte 0 (a picture drawn one column wider, that column index 0, need not be copied)."""
    pixels = memoryview(lines)
    stride = width + 1
    compressor: Any = zlib.compressobj(level, zlib.DEFLATED, -15)
    parts: list[bytes] = [b"\x78\x01"]  # zlib header: deflate, 32 KB window
    adler = 1
    for top in range(0, height, BAND):
        raw = pixels[top * stride:min(top + BAND, height) * stride]
        own = zlib.adler32(raw)
        adler = adler32_combine(adler, own, len(raw))
        key = (top, width, level, zlib.crc32(raw), own)
        found = _CACHE.get(key)
        if found is None:
            found = compressor.compress(raw) + compressor.flush(zlib.Z_FULL_FLUSH)
            _CACHE[key] = found
            if len(_CACHE) > CACHE_BANDS:
                _CACHE.popitem(last=False)
        else:
            _CACHE.move_to_end(key)
        parts.append(found)
    parts.append(b"\x03\x00")  # the final block: empty, fixed Huffman codes
    parts.append(struct.pack(">I", adler & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"PLTE", bytes(palette)),
                     _chunk(b"IDAT", b"".join(parts)), _chunk(b"IEND", b"")))
