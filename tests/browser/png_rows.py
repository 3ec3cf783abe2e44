#!/usr/bin/env python3
"""png_rows.py <png> <rrggbb> <min run>: exit 0 when some pixel row of the PNG has a
horizontal run of at least <min run> pixels of that colour (each channel within 12), e.g.
the trace page's time axis line. Plain Python (zlib): no imaging library needed."""
import struct
import sys
import zlib


def rows(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit(f'{path}: not a PNG')
    pos, idat, hdr = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            hdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        elif kind == b'IEND':
            break
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise SystemExit(f'{path}: only 8-bit RGB/RGBA non-interlaced PNGs (got depth {depth}, type {ctype})')
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((a + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        yield [tuple(line[x * bpp:x * bpp + 3]) for x in range(w)]
        prev = line


def main():
    path, color, need = sys.argv[1], sys.argv[2], int(sys.argv[3])
    want = tuple(int(color[i:i + 2], 16) for i in (0, 2, 4))
    best = 0
    for row in rows(path):
        run = 0
        for px in row:
            run = run + 1 if all(abs(px[i] - want[i]) <= 12 for i in range(3)) else 0
            best = max(best, run)
        if best >= need:
            print(f'{path}: a run of {best} px of #{color}')
            return 0
    print(f'{path}: longest run of #{color} is {best} px, expected >= {need}')
    return 1


if __name__ == '__main__':
    sys.exit(main())
