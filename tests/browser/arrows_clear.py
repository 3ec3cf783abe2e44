#!/usr/bin/env python3
"""arrows_clear.py <page.html>...: every handoff arrow of a schedule page runs clear of
every step cell (no segment of its path enters a cell's rectangle: arrows may only end on
a cell's edge), and every arrow is made of horizontal and vertical segments. Prints the
arrow count per page; exit 1 on any crossing."""
import re
import sys


def cells(svg):
    out = []
    for m in re.finditer(r'<g class="step[^"]*"[^>]*><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg):
        x, y, w, h = map(float, m.groups())
        out.append((x, y, x + w, y + h))
    return out


def segments(d):
    pts, x, y = [], None, None
    for cmd, a in re.findall(r'([MHV])\s*([\d.,-]+)', d):
        if cmd == 'M':
            x, y = map(float, a.split(','))
        elif cmd == 'H':
            x = float(a)
        else:
            y = float(a)
        pts.append((x, y))
    return list(zip(pts, pts[1:]))


def main():
    bad = 0
    for page in sys.argv[1:]:
        svg = open(page, encoding='utf-8').read()
        boxes = cells(svg)
        arrows = re.findall(r'<path class="handoff"[^>]* d="([^"]+)"', svg)
        for d in arrows:
            for (x1, y1), (x2, y2) in segments(d):
                if x1 != x2 and y1 != y2:
                    print(f'FAIL: {page}: diagonal segment in "{d}"')
                    bad += 1
                lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
                for (bx1, by1, bx2, by2) in boxes:
                    # Open rectangle interior against the closed segment.
                    if lo_x < bx2 and hi_x > bx1 and lo_y < by2 and hi_y > by1 and \
                       (lo_x != hi_x or bx1 < lo_x < bx2) and (lo_y != hi_y or by1 < lo_y < by2):
                        print(f'FAIL: {page}: arrow "{d}" crosses the cell at ({bx1}, {by1})')
                        bad += 1
        print(f'{page}: {len(arrows)} arrows, {len(boxes)} cells')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
