#!/usr/bin/env python3
"""Writes a contract whose name section holds hostile function names:
ESC sequences, BEL, CR, LF, a frame separator, invalid UTF-8 (a lone
continuation byte, a cut sequence, an overlong form, a surrogate) and
valid non-ASCII.  run() calls each named function, which returns Void.
Usage: hostile_wasm.py OUT.wasm"""
import sys

NAMES = [b"evil\x1b[31mred\x1b[0m", b"bell\x07cr\rlf\nend", b"semi;colon\ttab\x7f",
         b"bad\xff\xfe", b"cut\xc3", b"overlong\xc0\xaf", b"surrogate\xed\xa0\x80",
         "ok_\u00e9\u4e2d".encode()]


def uleb(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def vec(items):
    return uleb(len(items)) + b"".join(items)


def name(b):
    return uleb(len(b)) + b


def section(sid, body):
    return bytes([sid]) + uleb(len(body)) + body


n = len(NAMES)
types = vec([b"\x60\x00\x01\x7e"])                        # () -> i64
funcs = vec([uleb(0)] * (n + 1))
exports = vec([name(b"run") + b"\x00" + uleb(n)])
void = b"\x42\x02"                                        # i64.const 2 (Void)
bodies = [vec([]) + void + b"\x0b" for _ in NAMES]
run = vec([])
for i in range(n):
    run += b"\x10" + uleb(i) + b"\x1a"                    # call i; drop
run += void + b"\x0b"
bodies.append(run)
code = vec([uleb(len(b)) + b for b in bodies])
fnames = vec([uleb(i) + name(nm) for i, nm in enumerate(NAMES + [b"run"])])
names = name(b"name") + b"\x01" + uleb(len(fnames)) + fnames
mod = (b"\0asm\1\0\0\0" + section(1, types) + section(3, funcs) + section(7, exports)
       + section(10, code) + section(0, names))
with open(sys.argv[1], "wb") as f:
    f.write(mod)
