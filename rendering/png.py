"""A palette PNG encoder that compresses only what changed.

A big board differs from the previous turn's in a few horizontal bands (a token, the header, the
log, a player's cash); the rest compresses to the same bytes every time. Each band of rows is
deflated on its own, ended by a full flush (byte-aligned, no reference to earlier data), so the
compressed bands can be cached by their content and spliced into one valid zlib stream: the
cached bands cost a hash, only new ones are compressed. Scanlines use PNG filter 0 (none), the
usual choice for palette images.

A band is keyed by its row, its width, the zlib level and a 64-bit hash of its pixels (Python's
own hash of the bytes), and the cache keeps the band's Adler-32 beside its deflated bytes: a band
met again costs one pass over its pixels, and a picture's pixels are hashed as they are, without
first being copied into scanlines with their filter bytes. The cache is bounded (``CACHE_BANDS``)
and shared by the rendering threads under a lock.
"""
from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from typing import Any

from PIL import Image

BAND = 32  # rows per cached band
# (top row, bytes per row, level, filter bytes given, hash of the band) -> (deflated, Adler-32)
_CACHE: OrderedDict[tuple[int, int, int, bool, int], tuple[bytes, int]] = OrderedDict()
_LOCK = threading.Lock()
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


def _scanlines(rows: bytes, width: int) -> bytes:
    """Rows of ``width`` pixels as PNG scanlines: each one after its filter byte 0."""
    stride = width + 1
    count = len(rows) // width
    lines = bytearray(count * stride)
    for row in range(count):
        lines[row * stride + 1:(row + 1) * stride] = rows[row * width:(row + 1) * width]
    return bytes(lines)


def _cached(key: tuple[int, int, int, bool, int]) -> tuple[bytes, int] | None:
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
        return found


def _keep(key: tuple[int, int, int, bool, int], band: tuple[bytes, int]) -> None:
    with _LOCK:
        _CACHE[key] = band
        _CACHE.move_to_end(key)
        while len(_CACHE) > CACHE_BANDS:
            _CACHE.popitem(last=False)


def _encode(pixels: bytes, width: int, height: int, palette: list[int], level: int, filtered: bool) -> bytes:
    """PNG bytes of palette pixels: rows ``width + 1`` bytes long each starting with its filter
    byte 0 when ``filtered``, else rows of ``width`` bytes (the filter bytes put in here)."""
    stride = width + 1 if filtered else width
    compressor: Any = None
    parts: list[bytes] = [b"\x78\x01"]  # zlib header: deflate, 32 KB window
    adler = 1
    for top in range(0, height, BAND):
        raw = pixels[top * stride:min(top + BAND, height) * stride]
        key = (top, stride, level, filtered, hash(raw))
        band = _cached(key)
        if band is None:
            lines = raw if filtered else _scanlines(raw, width)
            if compressor is None:
                compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
            band = (compressor.compress(lines) + compressor.flush(zlib.Z_FULL_FLUSH), zlib.adler32(lines))
            _keep(key, band)
        adler = adler32_combine(adler, band[1], (min(top + BAND, height) - top) * (width + 1))
        parts.append(band[0])
    parts.append(b"\x03\x00")  # the final block: empty, fixed Huffman codes
    parts.append(struct.pack(">I", adler & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"PLTE", bytes(palette)),
                     _chunk(b"IDAT", b"".join(parts)), _chunk(b"IEND", b"")))


def encode_banded(image: Image.Image, level: int = 1) -> bytes:
    """PNG bytes of a palette ("P") image, band by band through the cache."""
    if image.mode != "P":
        raise ValueError("encode_banded takes a palette image")
    width, height = image.size
    return _encode(image.tobytes(), width, height, image.getpalette() or [0, 0, 0], level, False)


def encode_lines(lines: bytes, width: int, height: int, palette: list[int], level: int = 1) -> bytes:
    """PNG bytes of palette pixels given as scanlines ``width + 1`` bytes long, each starting with
    its filter byte 0 (a picture drawn one column wider, that column index 0, need not be copied)."""
    return _encode(lines, width, height, palette, level, True)
