"""The page's app icons, drawn here (no image library): a red card with a yellow oval on the felt.

``python tests/web/icons.py`` writes ``unotable/server/web/icons/icon-{192,512}.png`` and the
maskable variant; tests/web/test_pwa.py checks that the stored files are what this draws.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parents[2] / "unotable" / "server" / "web" / "icons"
FELT = (15, 61, 46)
RED = (215, 38, 0)
YELLOW = (253, 224, 71)
WHITE = (255, 255, 255)


def _rounded(x: float, y: float, cx: float, cy: float, hw: float, hh: float, r: float) -> float:
    """Signed distance to a rounded rectangle (negative inside)."""
    qx, qy = abs(x - cx) - hw + r, abs(y - cy) - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def _pixel(u: float, v: float, maskable: bool) -> tuple[int, int, int]:
    """The color at (u, v) in [0, 1]^2: felt, then a tilted card (white rim, red face, oval)."""
    if not maskable and _rounded(u, v, 0.5, 0.5, 0.5, 0.5, 0.18) > 0:
        return FELT  # outside the rounded tile the felt still shows (no transparency needed)
    a = math.radians(-14)
    x, y = u - 0.5, v - 0.5
    x, y = x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a)
    scale = 0.8 if maskable else 1.0
    x, y = x / scale, y / scale
    if _rounded(x, y, 0, 0, 0.23, 0.33, 0.05) > 0:
        return FELT
    if _rounded(x, y, 0, 0, 0.2, 0.3, 0.035) > 0:
        return WHITE
    # a tilted oval across the face
    b = math.radians(35)
    ox, oy = x * math.cos(b) - y * math.sin(b), x * math.sin(b) + y * math.cos(b)
    if (ox / 0.15) ** 2 + (oy / 0.27) ** 2 <= 1:
        return YELLOW
    return RED


def draw(size: int, maskable: bool = False) -> bytes:
    """The icon as PNG bytes (each pixel the average of 2x2 samples)."""
    rows = bytearray()
    for j in range(size):
        rows.append(0)
        for i in range(size):
            acc = [0, 0, 0]
            for dj in (0.25, 0.75):
                for di in (0.25, 0.75):
                    c = _pixel((i + di) / size, (j + dj) / size, maskable)
                    for k in range(3):
                        acc[k] += c[k]
            rows.extend(round(c / 4) for c in acc)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    data = chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + data


FILES = {"icon-192.png": (192, False), "icon-512.png": (512, False), "maskable-512.png": (512, True)}


def main() -> int:
    ICONS.mkdir(parents=True, exist_ok=True)
    for name, (size, maskable) in FILES.items():
        (ICONS / name).write_bytes(draw(size, maskable))
    return 0


if __name__ == "__main__":
    sys.exit(main())
