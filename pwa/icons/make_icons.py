"""Draw the app icons (a korona board seen from above) as PNGs, with the standard library only.

Run from anywhere: `python3 pwa/icons/make_icons.py` rewrites icon-192.png and icon-512.png
beside this file. The PNGs are committed; rerun only when the drawing changes.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

CUSHION = (91, 58, 30)
FIELD = (233, 216, 180)
INK = (17, 17, 17)
SIDE_A = (179, 38, 30)
SIDE_B = (11, 87, 208)


def pixel(x: float, y: float) -> tuple[int, int, int]:
    """Colour at (x, y) in a unit square; the board fills it, so the icon is also maskable."""
    if not (0.12 < x < 0.88 and 0.12 < y < 0.88):
        return CUSHION
    for cx, cy in ((0.19, 0.19), (0.81, 0.19), (0.19, 0.81), (0.81, 0.81)):
        if (x - cx) ** 2 + (y - cy) ** 2 < 0.055**2:
            return INK  # the four pockets
    r = ((x - 0.5) ** 2 + (y - 0.5) ** 2) ** 0.5
    if 0.14 < r < 0.16:
        return INK  # the centre circle
    for cx, colour in ((0.40, SIDE_A), (0.60, SIDE_B)):
        if (x - cx) ** 2 + (y - 0.5) ** 2 < 0.045**2:
            return colour  # one puck of each side
    return FIELD


def png(size: int) -> bytes:
    """An RGB PNG of the icon at size × size pixels."""
    rows = b"".join(
        b"\0" + bytes(c for x in range(size) for c in pixel((x + 0.5) / size, (y + 0.5) / size))
        for y in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    for size in (192, 512):
        (here / f"icon-{size}.png").write_bytes(png(size))
