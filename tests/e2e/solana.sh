#!/bin/sh
# End-to-end: `scprof profile PROGRAM.so` on hand-assembled sBPF v3 programs
# (tests/oracle/mkprog.js; the litesvm comparison is tests/e2e/oracle.sh).
# Every output format is written; the profile's self CU add up to the CU
# charged, each syscall a node with its own cost; two runs write the same
# bytes; a VM fault charges the whole limit and exits 10 with its profile;
# check and diff read Solana profiles; --list prints the version and the
# syscalls; bad programs and options get one-line errors.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
if ! command -v node >/dev/null 2>&1; then
  echo "FAIL solana: no node to write the programs (scripts/deps installs it)"; exit 0
fi
node "$(dirname "$0")/../oracle/mkprog.js" "$T/p"

"$BIN" profile "$T/p/syscalls_v3.so" -o "$T/a" -q >"$T/out" 2>"$T/err"; rc=$?
NAME="syscalls_v3: runs (exit 0), nothing on stderr"
[ "$rc" -eq 0 ] && [ ! -s "$T/err" ]; passed $?
NAME="syscalls_v3: every format and result.txt written"
[ -s "$T/a/flamegraph.svg" ] && [ -s "$T/a/profile.folded" ] && [ -s "$T/a/report.txt" ] &&
   [ -s "$T/a/profile.speedscope.json" ] && [ -s "$T/a/callgrind.out.scprof" ] &&
   [ -s "$T/a/profile.pb.gz" ] && [ -s "$T/a/report.json" ] && [ -s "$T/a/result.txt" ]; passed $?
NAME="syscalls_v3: 36,711 CU (as litesvm 1.5.0 charges)"
ok grep -qx "cu 36711" "$T/a/result.txt"
NAME="syscalls_v3: the folded self CU add up to 36,711"
ok [ "$(awk '{s += $NF} END {print s}' "$T/a/profile.folded")" = 36711 ]
# each syscall's node holds its own cost: sha256 of 64 bytes 85 + 32,
# secp256k1_recover 25,000, three bumps tried 3 x 1,500, ten log_64 calls
NAME="syscalls_v3: syscall nodes at their call sites with agave's costs"
grep -q ";syscall:sol_sha256 117$" "$T/a/profile.folded" &&
   grep -q ";syscall:sol_secp256k1_recover 25000$" "$T/a/profile.folded" &&
   grep -q ";syscall:sol_try_find_program_address 7500$" "$T/a/profile.folded" &&
   grep -q ";syscall:sol_log_64_ 1000$" "$T/a/profile.folded" &&
   grep -q "^program:syscalls_v3;entrypoint \[no symbols\] 169$" "$T/a/profile.folded"; passed $?
NAME="syscalls_v3: the report shows the runtime's logs and the return data"
grep -q "Program log: 0x1, 0x2, 0x3, 0x4, 0xffffffffffffffff" "$T/a/report.txt" &&
   grep -q "Program return: ScprofProgram111111111111111111111111111111 " "$T/a/report.txt"; passed $?
"$BIN" profile "$T/p/syscalls_v3.so" -o "$T/b" -q 2>/dev/null
NAME="syscalls_v3: two runs write the same bytes"
ok diff -r "$T/a" "$T/b"

"$BIN" profile "$T/p/fault_v3.so" -o "$T/f" -q 2>"$T/err"; rc=$?
NAME="fault_v3: exit 10, one line naming the error and the CU"
ok one_line_error 10 "instruction failed: ProgramFailedToComplete after 200000 CU"
NAME="fault_v3: the fault depletes the meter, on the program's root node"
grep -qx "cu 200000" "$T/f/result.txt" &&
   [ "$(awk '{s += $NF} END {print s}' "$T/f/profile.folded")" = 200000 ] &&
   grep -qx "program:fault_v3 199997" "$T/f/profile.folded"; passed $?
NAME="fault_v3: the consumed line shows the VM's own count"
ok grep -q "consumed 3 of 200000 compute units" "$T/f/result.txt"

"$BIN" check "$T/a/report.json" --max-cu 36711 >/dev/null 2>&1; r1=$?
"$BIN" check "$T/a/report.json" --max-cu 36710 >/dev/null 2>&1; r2=$?
"$BIN" check "$T/a" --max-fn-cu syscall:sol_secp256k1_recover=24999 >/dev/null 2>&1; r3=$?
NAME="check: --max-cu and --max-fn-cu on a Solana profile"
[ "$r1" -eq 0 ] && [ "$r2" -eq 11 ] && [ "$r3" -eq 11 ]; passed $?
NAME="diff: two Solana profiles, CU by default"
ok sh -c '"$1" diff "$2" "$3" -o "$4" | grep -q "CU      36,711  200,000  +163,289"' _ "$BIN" "$T/a" "$T/f" "$T/d"

"$BIN" profile "$T/p/syscalls_v3.so" --list >"$T/list" 2>&1
NAME="--list: version, entrypoint and syscalls by name"
grep -qx "sbpf v3" "$T/list" && grep -q "(entrypoint)" "$T/list" &&
   grep -qx "syscall 0x17e40350 sol_secp256k1_recover" "$T/list"; passed $?

head -c 100 "$T/p/syscalls_v3.so" >"$T/trunc.so"
"$BIN" profile "$T/trunc.so" >/dev/null 2>"$T/err"; rc=$?
NAME="a truncated program: one line with the loader's reason"
ok one_line_error 65 "$T/trunc.so: ELF error:"
printf 'not an elf' >"$T/text.so"
"$BIN" profile "$T/text.so" >/dev/null 2>"$T/err"; rc=$?
NAME="a .so that is no ELF: one line"
ok one_line_error 65 "$T/text.so: ELF error:"
"$BIN" profile "$T/p/syscalls_v3.so" --ix zz >/dev/null 2>"$T/err"; rc=$?
NAME="--ix that is not hex: exit 3"
ok one_line_error 3 "--ix: 'zz' is not hex"
"$BIN" profile "$T/p/syscalls_v3.so" --account nokey >/dev/null 2>"$T/err"; rc=$?
NAME="--account without its fields: usage, exit 2"
ok one_line_error 2 "want PUBKEY:LAMPORTS:OWNER:DATA"
"$BIN" profile "$T/p/syscalls_v3.so" --account "0OIl:1:11111111111111111111111111111111:" >/dev/null 2>"$T/err"; rc=$?
NAME="--account with a key that is not base58: exit 3"
ok one_line_error 3 "is not a base58 public key"
"$BIN" profile "$T/p/syscalls_v3.so" --heap 40000 >/dev/null 2>"$T/err"; rc=$?
NAME="--heap not a multiple of 1024: exit 3"
ok one_line_error 3 "heap size 40000"

# ---- a scenario: instructions in order on one set of accounts
P=ScprofProgram111111111111111111111111111111
K1=4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi
K2=8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR
cat >"$T/p/flow.json" <<JSON
{"programs": [{"name": "move", "elf": "move_v3.so"}, {"name": "burn", "elf": "burn_v3.so"},
              {"name": "write", "elf": "write_v3.so", "loader": "v2"}],
 "accounts": [{"pubkey": "$K1", "lamports": 1000000000, "owner": "$P", "data": "0102030405060708"},
              {"pubkey": "$K2", "lamports": 1000000000}],
 "instructions": [
   {"program": "move", "accounts": [{"pubkey": "$K1", "writable": true}, {"pubkey": "$K2", "writable": true}]},
   {"program": "move", "label": "again", "profile": false,
    "accounts": [{"pubkey": "$K1", "writable": true}, {"pubkey": "$K2", "writable": true}]},
   {"program": "burn", "accounts": [{"pubkey": "$K1", "writable": true}]},
   {"program": "write", "accounts": [{"pubkey": "$K1", "writable": true}]}]}
JSON
"$BIN" profile --scenario "$T/p/flow.json" -o "$T/s" -q 2>"$T/err"; rc=$?
NAME="scenario: one line per instruction with its CU and outcome; exit 10 (one failed)"
[ "$rc" -eq 10 ] && [ "$(cat "$T/s/scenario.txt")" = "$(printf '01\tmove\t8\tok\n02\tagain\t8\tok\n03\tburn\t5\tUnbalancedInstruction\n04\twrite\t3\tok')" ]; passed $?
NAME="scenario: profiled instructions get a folder, set-up ones do not"
[ -s "$T/s/01-move/profile.folded" ] && [ ! -d "$T/s/02-again" ] && [ -s "$T/s/04-write/result.txt" ]; passed $?
# two moves carried over, the failed burn changed nothing, the write landed
NAME="scenario: accounts carry over; a failed instruction changes nothing"
ok grep -qx "post $K1 999999998 $P 5a02030405060708" "$T/s/04-write/result.txt"

# the programs litesvm ships, when scripts/deps extracted them
ORACLE=${SCP_ORACLE_DIR:-build/oracle}
if [ -f "$ORACLE/token.so" ]; then
  cp "$ORACLE/token.so" "$T/p/"
  head -c 82 /dev/zero >"$T/p/mint.bin"; head -c 165 /dev/zero >"$T/p/acct.bin"
  TK=TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA
  K3=CktRuQ2mttgRGkXJtyksdKHjUdc2C4TgDzyB98oEzy8
  K4=GgBaCs3NCBuZN12kCJgAW63ydqohFkHEdfdEXBPzLHq
  A3=$(printf '03%.0s' $(seq 32)); A5=$(printf '05%.0s' $(seq 32))
  cat >"$T/p/token.json" <<JSON
{"programs": [{"name": "token", "elf": "token.so", "id": "$TK"}],
 "accounts": [{"pubkey": "$K1", "lamports": 1461600, "owner": "$TK", "data": "@mint.bin"},
              {"pubkey": "$K2", "lamports": 2039280, "owner": "$TK", "data": "@acct.bin"},
              {"pubkey": "$K4", "lamports": 2039280, "owner": "$TK", "data": "@acct.bin"},
              {"pubkey": "$K3", "lamports": 1000000000}],
 "instructions": [
  {"label": "initialize_mint2", "program": "token", "data": "1406${A3}00",
   "accounts": [{"pubkey": "$K1", "writable": true}]},
  {"label": "initialize_account3", "program": "token", "data": "12$A3",
   "accounts": [{"pubkey": "$K2", "writable": true}, {"pubkey": "$K1"}]},
  {"label": "initialize_account3", "program": "token", "data": "12$A5", "profile": false,
   "accounts": [{"pubkey": "$K4", "writable": true}, {"pubkey": "$K1"}]},
  {"label": "mint_to", "program": "token", "data": "07e803000000000000",
   "accounts": [{"pubkey": "$K1", "writable": true}, {"pubkey": "$K2", "writable": true}, {"pubkey": "$K3", "signer": true}]},
  {"label": "transfer", "program": "token", "data": "036400000000000000",
   "accounts": [{"pubkey": "$K2", "writable": true}, {"pubkey": "$K4", "writable": true}, {"pubkey": "$K3", "signer": true}]},
  {"label": "overdraw", "program": "token", "data": "03e903000000000000",
   "accounts": [{"pubkey": "$K2", "writable": true}, {"pubkey": "$K4", "writable": true}, {"pubkey": "$K3", "signer": true}]}]}
JSON
  "$BIN" profile --scenario "$T/p/token.json" -o "$T/tk" -q 2>/dev/null
  # the CU litesvm charges for each step (tests/oracle/expected.txt)
  NAME="scenario: p-token from an empty mint: 201, 235, 235, 119, 76 CU, then Custom(1) at 181"
  ok [ "$(cut -f3,4 "$T/tk/scenario.txt" | tr '\t\n' ' ')" = "201 ok 235 ok 235 ok 119 ok 76 ok 181 Custom(1) " ]
else
  oracle_missing "scenario on p-token: not run, $ORACLE/token.so (litesvm's ELF) not extracted"
fi

"$BIN" profile --scenario "$T/p/flow.json" "$T/p/move_v3.so" >/dev/null 2>"$T/err"; rc=$?
NAME="--scenario with a program too: usage, exit 2"
ok one_line_error 2 "--scenario takes the programs"
printf '{"programs": [{"name": "x"}], "instructions": []}' >"$T/p/bad.json"
"$BIN" profile --scenario "$T/p/bad.json" >/dev/null 2>"$T/err"; rc=$?
NAME="a scenario program without its ELF: one line naming the file"
ok one_line_error 65 "$T/p/bad.json: programs[0]: a program needs"
