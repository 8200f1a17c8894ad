#!/usr/bin/env python3
"""Checks that a PNG screenshot shows something: enough pixels differ from
the background (the top-left pixel's colour), and some are the red racewit
draws the race in. Standard library only (zlib), 8-bit RGB/RGBA PNGs.
Usage: png-has-content.py FILE.png [MIN_RED_PIXELS]"""

import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError("no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        rows.append(line)
        prev = line
    return width, height, channels, rows


def main():
    path = sys.argv[1]
    min_red = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    width, height, channels, rows = read_png(path)
    background = tuple(rows[0][0:3])
    other = red = 0
    for line in rows:
        for x in range(0, width * channels, channels):
            r, g, b = line[x], line[x + 1], line[x + 2]
            if (r, g, b) != background:
                other += 1
            if r > 180 and g < 90 and b < 90:
                red += 1
    share = other / (width * height)
    print(f"{path}: {width}x{height}, {share:.1%} non-background pixels, {red} race-red pixels")
    if share < 0.005:
        sys.exit("the screenshot is blank")
    if red < min_red:
        sys.exit("the screenshot shows no race highlighted in red")


if __name__ == "__main__":
    main()
