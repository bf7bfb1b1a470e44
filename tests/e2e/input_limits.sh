#!/bin/sh
# End-to-end: inputs over their documented size limits (README "Input
# limits") are refused at once with one line naming the file, the size and
# the limit, exit 13, before anything is read into memory; an input at the
# limit's edge still loads.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 10

# A 139 MB scenario file (sparse: it takes no disk) is refused by its size.
truncate -s 139000000 "$T/big.json"
t0=$(date +%s)
"$BIN" profile -q -o "$T/o" --scenario "$T/big.json" 2>"$T/err"; rc=$?
t1=$(date +%s)
NAME="139 MB scenario refused: exit 13 (exit $rc)"
ok one_line_error 13 "big.json: 139000000 bytes, over the 16777216-byte limit for a scenario file"
NAME="139 MB scenario refused within 2 s"; ok [ $((t1 - t0)) -le 2 ]

# A WASM module over 64 MiB, on the command line and in a scenario.
truncate -s 67108865 "$T/big.wasm"
"$BIN" profile -q -o "$T/o" "$T/big.wasm" run 2>"$T/err"; rc=$?
NAME="64 MiB + 1 module refused: exit 13 (exit $rc)"
ok one_line_error 13 "big.wasm: 67108865 bytes, over the 67108864-byte limit for a WASM module"
cat >"$T/s.json" <<JSON
{"contracts": [{"name": "big", "wasm": "big.wasm"}], "calls": [{"contract": "big", "function": "run"}]}
JSON
"$BIN" profile -q -o "$T/o" --scenario "$T/s.json" 2>"$T/err"; rc=$?
NAME="scenario naming a 64 MiB + 1 module: exit 13 (exit $rc)"
ok one_line_error 13 "over the 67108864-byte limit for a WASM module"

# One argument of 1 MiB + 1 bytes, "u32:" included (only a scenario can carry one: the
# kernel caps a command-line word at 128 KiB).
cp "$B/examples/demo.wasm" "$T/demo.wasm"
big=$(head -c 1048573 /dev/zero | tr '\0' a)
printf '{"contracts": [{"name": "d", "wasm": "demo.wasm"}], "calls": [{"contract": "d", "function": "run", "args": ["u32:%s"]}]}\n' "$big" >"$T/a.json"
"$BIN" profile -q -o "$T/o" --scenario "$T/a.json" 2>"$T/err"; rc=$?
NAME="1 MiB + 1 argument refused: exit 13 (exit $rc)"
ok one_line_error 13 "1048577 bytes, over the 1048576-byte limit for an argument"

# Solana: a scenario file over 16 MiB is refused by its size too (it was
# read whole by jansson to see whether it is a Solana one), a program over
# 64 MiB, and instruction or account data from a file over the runtime's
# 10 MiB account maximum.
{ printf '{"programs": [], "pad": "'; head -c 16777216 /dev/zero | tr '\0' a; printf '"}\n'; } >"$T/sol.json"
t0=$(date +%s)
"$BIN" profile -q -o "$T/o" --scenario "$T/sol.json" 2>"$T/err"; rc=$?
t1=$(date +%s)
NAME="17 MB Solana scenario refused: exit 13 (exit $rc)"
ok one_line_error 13 "sol.json: 16777244 bytes, over the 16777216-byte limit for a scenario file"
NAME="17 MB Solana scenario refused within 2 s"; ok [ $((t1 - t0)) -le 2 ]
truncate -s 67108865 "$T/big.so"
"$BIN" profile -q -o "$T/o" "$T/big.so" --ix 00 2>"$T/err"; rc=$?
NAME="64 MiB + 1 program refused: exit 13 (exit $rc)"
ok one_line_error 13 "big.so: 67108865 bytes, over the 67108864-byte limit for an sBPF program"
printf '{"programs": [{"name": "p", "elf": "big.so"}], "instructions": [{"program": "p"}]}\n' >"$T/solp.json"
"$BIN" profile -q -o "$T/o" --scenario "$T/solp.json" 2>"$T/err"; rc=$?
NAME="Solana scenario naming a 64 MiB + 1 program: exit 13 (exit $rc)"
ok one_line_error 13 "over the 67108864-byte limit for an sBPF program"
truncate -s 10485761 "$T/ix.bin"
cp "$B/tests/fixtures/sbpf/counter.so" "$T/counter.so"
"$BIN" profile -q -o "$T/o" "$T/counter.so" --ix "@$T/ix.bin" 2>"$T/err"; rc=$?
NAME="--ix @FILE of 10 MiB + 1: exit 13 (exit $rc)"
ok one_line_error 13 "ix.bin: 10485761 bytes, over the 10485760-byte limit for instruction or account data"
