#!/usr/bin/env python3
"""png_diff.py BEFORE AFTER — compares two screenshot sets (tools/screenshot_set.sh) pixel by
pixel: for each PNG in BEFORE, the count of differing pixels in AFTER (8-bit RGB/RGBA PNGs,
decoded here with zlib: no image library needed), and exit-codes.txt line by line.
Exit 1 if anything differs or is missing."""
import os, struct, sys, zlib

def decode(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path
    pos, idat, w = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, color = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and color in (2, 6), (path, depth, color)
            bpp = 3 if color == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    out = bytearray(stride * h)
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return w, h, bpp, bytes(out)

def main():
    before, after = sys.argv[1], sys.argv[2]
    bad = 0
    for name in sorted(os.listdir(before)):
        if not name.endswith('.png'):
            continue
        a, b = os.path.join(before, name), os.path.join(after, name)
        if not os.path.exists(b):
            print(f'{name}: missing in {after}'); bad += 1; continue
        if open(a, 'rb').read() == open(b, 'rb').read():
            continue
        wa, ha, pa, da = decode(a)
        wb, hb, pb, db = decode(b)
        if (wa, ha, pa) != (wb, hb, pb):
            print(f'{name}: size {wa}x{ha} vs {wb}x{hb}'); bad += 1; continue
        diff = sum(1 for i in range(0, len(da), pa) if da[i:i + pa] != db[i:i + pa])
        if diff:
            print(f'{name}: {diff} of {wa * ha} pixels differ'); bad += 1
    ca = open(os.path.join(before, 'exit-codes.txt')).read().splitlines()
    cb = open(os.path.join(after, 'exit-codes.txt')).read().splitlines()
    for x, y in zip(ca, cb):
        if x != y:
            print(f'exit code: {x} vs {y}'); bad += 1
    if len(ca) != len(cb):
        print(f'exit codes: {len(ca)} vs {len(cb)} lines'); bad += 1
    n = len([f for f in os.listdir(before) if f.endswith('.png')])
    print(f'{n} screenshots, {len(ca)} exit codes compared: {bad} differ')
    return 1 if bad else 0

sys.exit(main())
