#!/bin/sh
# End-to-end: Solana program and instruction names.  A program the chain
# does not know is named by its file without the extension (dots kept);
# an Anchor program's instruction by its IDL (--idl ID=FILE.json, the old
# shape whose discriminators scprof works out as sha256("global:" +
# snake_case name), and the 0.30 shape that carries them), else by its
# first 8 data bytes in hex.  The discriminators here are computed by
# sha256sum, independently of scprof.  IDLs of other shapes are refused in
# one line.  (The known programs and their instruction tags are checked on
# the litesvm cases: tests/e2e/sol_tx.sh, sol_wire.sh.)
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 14
ID=ScprofProgram111111111111111111111111111111
ELF="$B/tests/fixtures/sbpf/counter.so"
if [ ! -f "$ELF" ]; then echo "FAIL sol_names: no $ELF (make builds it)"; exit 0; fi
cp "$ELF" "$T/counter-1.2.so"

disc() { printf 'global:%s' "$1" | sha256sum | cut -c1-16; }
bytes() { python3 -c "print(','.join(str(b) for b in bytes.fromhex('$1')))"; }   # hex -> JSON byte list
INC=$(disc increment)           # 0b12680968ae3b21: counter runs 11 squares
RESET=$(disc reset_counter)     # f59a3948...: 245 > 200, counter's error path

# the IDL shape before Anchor 0.30: camelCase names, no discriminators
cat >"$T/old.json" <<EOF
{"version": "0.1.0", "name": "counter",
 "instructions": [{"name": "increment", "accounts": [], "args": []},
                  {"name": "resetCounter", "accounts": [], "args": []}]}
EOF
# the 0.30 shape: snake_case names with their discriminators
cat >"$T/new.json" <<EOF
{"address": "$ID", "metadata": {"name": "counter", "version": "0.1.0", "spec": "0.1.0"},
 "instructions": [{"name": "increment", "discriminator": [$(bytes "$INC")], "accounts": [], "args": []},
                  {"name": "reset_counter", "discriminator": [$(bytes "$RESET")], "accounts": [], "args": []}]}
EOF

run() {   # folder, hex data, options...
  out=$1 data=$2; shift 2
  "$BIN" profile "$T/counter-1.2.so" --ix "$data" "$@" -o "$T/$out" -q >/dev/null 2>"$T/err"
  echo $? >"$T/$out.rc"
}
run old_inc "$INC" --idl "$ID=$T/old.json"
run old_reset "$RESET" --idl "$ID=$T/old.json"
run new_inc "$INC" --idl "$ID=$T/new.json"
run new_reset "$RESET" --idl "$ID=$T/new.json"
run none "$INC"
run other_id "$INC" --idl "11111111111111111111111111111111=$T/old.json"

NAME="sol_names: a file's name loses only its extension (counter-1.2.so is program:counter-1.2)"
ok grep -q '^program:counter-1\.2[ ;]' "$T/none/profile.folded"
NAME="sol_names: old IDL shape: increment's discriminator $INC (sha256sum) names the root"
ok sh -c "grep -q '^program:counter-1.2 increment;' '$T/old_inc/profile.folded' && [ \$(cat '$T/old_inc.rc') -eq 0 ]"
NAME="sol_names: old IDL shape: resetCounter hashed as global:reset_counter ($RESET), on counter's error path (exit 10)"
ok sh -c "grep -q '^program:counter-1.2 resetCounter;' '$T/old_reset/profile.folded' && [ \$(cat '$T/old_reset.rc') -eq 10 ]"
NAME="sol_names: 0.30 IDL shape: its discriminator arrays name increment and reset_counter"
ok sh -c "grep -q '^program:counter-1.2 increment;' '$T/new_inc/profile.folded' &&
          grep -q '^program:counter-1.2 reset_counter;' '$T/new_reset/profile.folded'"
NAME="sol_names: without an IDL the instruction is its first 8 bytes in hex"
ok grep -q "^program:counter-1.2 ix 0x$INC;" "$T/none/profile.folded"
NAME="sol_names: an IDL given for another program's id names nothing here"
ok grep -q "^program:counter-1.2 ix 0x$INC;" "$T/other_id/profile.folded"
NAME="sol_names: the JSON report gives the program, its id and the instruction on the root frame"
ok grep -q "\"name\":\"program:counter-1.2 increment\".*\"program\":\"counter-1.2\",\"program_id\":\"$ID\",\"instruction\":\"increment\"" \
  "$T/new_inc/report.json"
NAME="sol_names: the Programs table of one instruction: 1 invocation, self = total = the CU"
cu=$(awk '$1 == "cu" {print $2}' "$T/new_inc/result.txt" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
ok sh -c "[ -n '$cu' ] && grep -Eq '^  program:counter-1.2 increment +1 +$cu +$cu\$' '$T/new_inc/report.txt'"

# IDLs scprof cannot read: one line naming the file (and the JSON path), exit 65
refused() {   # file content, text of the line
  printf '%s\n' "$1" >"$T/bad.json"
  "$BIN" profile "$T/counter-1.2.so" --ix "$INC" --idl "$ID=$T/bad.json" -o "$T/bad" -q >/dev/null 2>"$T/err"
  rc=$?
  one_line_error 65 "$2"
}
NAME="sol_names: an IDL without an instructions array is refused"
ok refused '{"version": "0.1.0", "name": "x"}' 'bad.json: not an Anchor IDL: no "instructions" array'
NAME="sol_names: a discriminator byte over 255 is refused, its JSON path named"
ok refused '{"instructions": [{"name": "a", "discriminator": [1, 256]}]}' 'bad.json: instructions[0].discriminator: not an array of 1 to 32 byte values'
NAME="sol_names: discriminators in only some instructions: not a shape scprof knows"
ok refused '{"instructions": [{"name": "a", "discriminator": [1]}, {"name": "b"}]}' 'bad.json: instructions[1].discriminator: not an array'
NAME="sol_names: an instruction without a name is refused"
ok refused '{"instructions": [{"args": []}]}' 'bad.json: instructions[0]: an instruction needs a "name" string'
NAME="sol_names: an old-shape instruction list that gains a discriminator later is refused"
ok refused '{"instructions": [{"name": "a"}, {"name": "b", "discriminator": [1]}]}' 'bad.json: instructions[1]: "discriminator" in only some instructions'
"$BIN" profile "$T/counter-1.2.so" --idl "nokey" -o "$T/bad" -q >/dev/null 2>"$T/err"; rc=$?
NAME="sol_names: --idl without ID=FILE is a usage error"
ok one_line_error 2 "--idl nokey: want ID=FILE.json"
