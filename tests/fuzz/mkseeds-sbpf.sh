#!/bin/sh
# Seeds for fuzz_sbpf (tests/fuzz/corpus-sbpf): the linked fixtures as they
# are (v0 and v3) and a few raw-text programs (first byte = sBPF version).
#   usage: sh tests/fuzz/mkseeds-sbpf.sh [BUILD]   (after make fixtures)
set -e
B=${1:-build}
D=tests/fuzz/corpus-sbpf
mkdir -p "$D"
for f in counter token traps; do
  cp "$B/tests/fixtures/sbpf/$f.so" "$D/$f.so"
  cp "$B/tests/fixtures/sbpf/${f}_v3.so" "$D/${f}_v3.so"
done
# v0: r1 = 10; r0 = 0; loop { r0 += r1; r1 -= 1 } while r1; exit
printf '\000\267\001\000\000\012\000\000\000\267\000\000\000\000\000\000\000\017\020\000\000\000\000\000\000\027\001\000\000\001\000\000\000\125\001\375\377\000\000\000\000\225\000\000\000\000\000\000\000' > "$D/text-loop-v0"
# v3: a pc-relative call (src 1) and a 32-bit jump
printf '\003\267\000\000\000\001\000\000\000\205\020\000\000\001\000\000\000\225\000\000\000\000\000\000\000\026\000\001\000\001\000\000\000\225\000\000\000\000\000\000\000\267\000\000\000\002\000\000\000\225\000\000\000\000\000\000\000' > "$D/text-call-v3"
