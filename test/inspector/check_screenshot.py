#!/usr/bin/env python3
"""Runs samples/inspector under Xvfb and checks the screenshot it writes.

  check_screenshot.py --xvfb-run PATH --program PATH --frames N --out FILE.png
  check_screenshot.py --recompress IN.png OUT.png   (for docs/inspector.png)

The sample writes FILE.png, FILE.png.layout (the window's size, where each
panel is, the reaction machine's active path) and FILE.png.txt (the text the
reaction panel drew, from ImGui's log). The checks: the PNG decodes and has
the window's size; it is not blank; the reaction panel's text names the panel's
sections and every state of the active path; and inside the reaction panel,
rows in the active-row colour (kInspectorActiveRowColor) are there, one band
per active state. Python's standard library only.
"""

import argparse
import struct
import subprocess
import sys
import zlib

ACTIVE_ROW = (0x1F, 0x7A, 0x3A)  # tickfsm::kInspectorActiveRowColor
TOLERANCE = 3                    # a software renderer may round a channel


def read_png(path):
    """Returns (width, height, rows): rows[y] is a bytes object of RGBA pixels."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, idat, header = 8, b"", None
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind = data[at + 4:at + 8]
        body = data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError("bad CRC in chunk %r" % kind)
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, color, _, _, interlace = header
    if (depth, color, interlace) != (8, 6, 0):
        raise ValueError("expected 8-bit RGBA, not interlaced")
    raw = zlib.decompress(idat)
    stride = width * 4
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):  # undo PNG's row filters (the sample writes none, others may)
            left = line[x - 4] if x >= 4 else 0
            up = previous[x]
            up_left = previous[x - 4] if x >= 4 else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, rows


def write_png(path, width, height, rows):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + row for row in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def is_active(row, x):
    r, g, b = row[4 * x], row[4 * x + 1], row[4 * x + 2]
    return all(abs(c - e) <= TOLERANCE for c, e in zip((r, g, b), ACTIVE_ROW))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--xvfb-run")
    parser.add_argument("--program")
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--out")
    parser.add_argument("--recompress", nargs=2, metavar=("IN", "OUT"))
    args = parser.parse_args()

    if args.recompress:
        width, height, rows = read_png(args.recompress[0])
        write_png(args.recompress[1], width, height, rows)
        return 0

    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    command = [args.xvfb_run, "-a", "-s", "-screen 0 1280x800x24",
               "env", "SDL_VIDEODRIVER=x11", "SDL_AUDIODRIVER=dummy",
               args.program, "--frames", str(args.frames), "--screenshot", args.out]
    print("running: " + " ".join(command))
    run = subprocess.run(command, timeout=100)
    if run.returncode != 0:
        print("FAIL  the sample exited with %d" % run.returncode)
        return 1

    layout = {"window": {}}
    with open(args.out + ".layout") as f:
        for line in f:
            parts = line.split()
            if parts[0] == "size":
                layout["size"] = (int(parts[1]), int(parts[2]))
            elif parts[0] == "window":
                layout["window"][parts[1]] = tuple(int(p) for p in parts[2:6])
            elif parts[0] == "active":
                layout["active"] = (parts[1], parts[2].split("/") if len(parts) > 2 else [])
    with open(args.out + ".txt", errors="replace") as f:
        text = f.read()

    width, height, rows = read_png(args.out)
    check((width, height) == layout["size"], "the picture is %dx%d, the window's size %s" % (width, height, layout["size"]))

    colours = set()
    for y in range(0, height, 7):
        row = rows[y]
        for x in range(0, width, 5):
            colours.add(row[4 * x:4 * x + 3])
    check(len(colours) >= 20, "the picture is not blank (%d colours sampled)" % len(colours))

    panel, path = layout["active"]
    check(len(path) >= 1, "the %s machine has an active path (%s)" % (panel, "/".join(path)))
    for needle in ["Pause", "States", "Transitions", "in the order tried", "History", "next tick (dry run"]:
        check(needle in text, "the %s panel's text has %r" % (panel, needle))
    for state in path:
        check(("* " + state) in text, "the %s panel marks the active state %s" % (panel, state))
    check(("* %s (current)" % path[-1]) in text, "the %s panel marks %s as current" % (panel, path[-1]))

    # Highlighted rows: runs of the active-row colour at least half the panel
    # wide, inside the panel; consecutive lines of them make one band.
    x0, y0, w, h = layout["window"][panel]
    bands, in_band = 0, False
    for y in range(y0, min(y0 + h, height)):
        row = rows[y]
        count = sum(1 for x in range(x0, min(x0 + w, width)) if is_active(row, x))
        lit = count >= w // 2
        if lit and not in_band:
            bands += 1
        in_band = lit
    check(bands == len(path), "the %s panel highlights %d rows, one per active state (%d)" % (panel, bands, len(path)))
    outside = sum(1 for y in range(0, height, 3) for x in range(0, x0, 3) if is_active(rows[y], x))
    check(outside < 50, "the highlight is the panel's: %d sampled pixels of its colour left of it" % outside)

    if failures:
        print("%d check(s) failed; the picture is %s" % (len(failures), args.out))
        return 1
    print("the inspector's screenshot checks out: %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
