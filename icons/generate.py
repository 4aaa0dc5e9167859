#!/usr/bin/env python3
"""Draws hookd's icons as 8-bit RGBA PNGs with the standard library only.

Tauri refuses RGB icons at compile time, and PIL is not installed on the build
machines, so the PNG bytes are written by hand (zlib + struct). Shapes are
signed-distance functions sampled 4x4 per pixel for anti-aliasing.

    python3 icons/generate.py        # rewrites every PNG in icons/

Outputs: icon.png (256), 128x128.png, 32x32.png (app and window icon),
tray.png / tray-paused.png / tray-error.png (64: the tray's recording, paused
and error states: daemon unavailable or broker down).
"""

import math
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def write_png(path, size, pixels):
    """pixels: list of rows, each a list of (r, g, b, a) bytes."""
    raw = bytearray()
    for row in pixels:
        raw.append(0)  # filter: none
        for r, g, b, a in row:
            raw += bytes((r, g, b, a))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit, colour type 6 = RGBA
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def rounded_box(x, y, half, radius):
    """Signed distance to a square of half-size `half` centred at 0.5, 0.5."""
    qx = abs(x - 0.5) - half + radius
    qy = abs(y - 0.5) - half + radius
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def segment(x, y, ax, ay, bx, by):
    px, py = x - ax, y - ay
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, (px * dx + py * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - dx * t, py - dy * t)


def lower_arc(x, y, cx, cy, r):
    """Distance to the lower half of a circle (y grows downwards)."""
    if y >= cy:
        return abs(math.hypot(x - cx, y - cy) - r)
    return min(math.hypot(x - (cx - r), y - cy), math.hypot(x - (cx + r), y - cy))


def hook(x, y):
    """Distance to the hook glyph's centre line (a fishing hook with an eye)."""
    shank = segment(x, y, 0.60, 0.30, 0.60, 0.58)
    bend = lower_arc(x, y, 0.46, 0.58, 0.14)
    point = segment(x, y, 0.32, 0.58, 0.32, 0.47)
    barb = segment(x, y, 0.32, 0.47, 0.39, 0.53)
    stroke = min(shank, bend, point, barb) - 0.045
    eye = abs(math.hypot(x - 0.60, y - 0.24) - 0.055) - 0.026
    return min(stroke, eye)


def coverage(d, px):
    """Hard inside test; anti-aliasing comes from supersampling."""
    return 1.0 if d <= 0 else 0.0


def mix(a, b, t):
    return tuple(a[i] + (b[i] - a[i]) * t for i in range(len(a)))


def over(dst, src, alpha):
    """Composites straight-alpha `src` (rgb) with `alpha` over `dst` (rgba, floats)."""
    out_a = alpha + dst[3] * (1 - alpha)
    if out_a == 0:
        return (0.0, 0.0, 0.0, 0.0)
    rgb = [(src[i] * alpha + dst[i] * dst[3] * (1 - alpha)) / out_a for i in range(3)]
    return (rgb[0], rgb[1], rgb[2], out_a)


def render(size, top, bottom, dot=None, samples=4):
    rows = []
    for j in range(size):
        row = []
        for i in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for sj in range(samples):
                for si in range(samples):
                    x = (i + (si + 0.5) / samples) / size
                    y = (j + (sj + 0.5) / samples) / size
                    px = (0.0, 0.0, 0.0, 0.0)
                    if rounded_box(x, y, 0.46, 0.12) <= 0:
                        px = (*mix(top, bottom, y), 1.0)
                    if hook(x, y) <= 0:
                        px = over(px, (250, 250, 255), 1.0)
                    if dot is not None:
                        d = math.hypot(x - 0.77, y - 0.77)
                        if d <= 0.15:
                            px = over(px, (255, 255, 255), 1.0)
                        if d <= 0.11:
                            px = over(px, dot, 1.0)
                    # Premultiply while accumulating so edges do not darken.
                    acc[0] += px[0] * px[3]
                    acc[1] += px[1] * px[3]
                    acc[2] += px[2] * px[3]
                    acc[3] += px[3]
            n = samples * samples
            a = acc[3] / n
            if a == 0:
                row.append((0, 0, 0, 0))
            else:
                rgb = [round(acc[k] / acc[3]) for k in range(3)]
                row.append((*rgb, round(a * 255)))
        rows.append(row)
    return rows


INDIGO = (79, 70, 229)
VIOLET = (124, 58, 237)
GREY_TOP = (120, 124, 135)
GREY_BOTTOM = (82, 86, 96)
GREEN = (34, 197, 94)
AMBER = (245, 158, 11)
RED = (220, 38, 38)


def main():
    for name, size in [("icon.png", 256), ("128x128.png", 128), ("32x32.png", 32)]:
        write_png(os.path.join(HERE, name), size, render(size, INDIGO, VIOLET))
    write_png(os.path.join(HERE, "tray.png"), 64, render(64, INDIGO, VIOLET, dot=GREEN))
    write_png(os.path.join(HERE, "tray-paused.png"), 64, render(64, GREY_TOP, GREY_BOTTOM, dot=AMBER))
    write_png(os.path.join(HERE, "tray-error.png"), 64, render(64, INDIGO, VIOLET, dot=RED))


if __name__ == "__main__":
    main()
