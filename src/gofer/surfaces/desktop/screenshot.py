"""A PNG of the virtual desktop, read from the framebuffer Xvfb keeps in a file.

Xvfb started with ``-fbdir`` maps its screen to an XWD file; this reads it and encodes
the pixels as PNG (no extra program, no X request).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from gofer.errors import SurfaceError

__all__ = ["png_of_xwd", "screenshot"]

_HEADER = struct.Struct(">25I")
_COLOR_SIZE = 12


def screenshot(framebuffer: Path) -> bytes:
    """The desktop as a PNG."""
    try:
        data = framebuffer.read_bytes()
    except OSError as exc:
        raise SurfaceError("the desktop's screen cannot be read", code="SURFACE_ERROR") from exc
    return png_of_xwd(data)


def png_of_xwd(data: bytes) -> bytes:
    """An XWD image of 24 or 32 bits per pixel as a PNG (RGB)."""
    fields = _HEADER.unpack_from(data)
    header_size, _version, _format, _depth, width, height = fields[:6]
    byte_order, bits_per_pixel, bytes_per_line, ncolors = (
        fields[7],
        fields[11],
        fields[12],
        fields[19],
    )
    if bits_per_pixel not in (24, 32):
        raise SurfaceError(
            f"the desktop's screen has {bits_per_pixel} bits per pixel", code="SURFACE_ERROR"
        )
    step = bits_per_pixel // 8
    start = header_size + ncolors * _COLOR_SIZE
    pixels = data[start : start + bytes_per_line * height]
    red, blue = (2, 0) if byte_order == 0 else (step - 3, step - 1)
    rows = bytearray()
    for y in range(height):
        row = pixels[y * bytes_per_line : y * bytes_per_line + width * step]
        rgb = bytearray(width * 3)
        rgb[0::3] = row[red::step]
        rgb[1::3] = row[1 if byte_order == 0 else step - 2 :: step]
        rgb[2::3] = row[blue::step]
        rows += b"\x00" + rgb

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 3))
        + chunk(b"IEND", b"")
    )
