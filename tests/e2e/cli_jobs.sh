#!/bin/sh
# End-to-end: --jobs N, the threads of a scenario's run: the main thread
# runs the transactions and N - 1 threads write their profiles meanwhile
# (src/cli/cli_pipe.c).
# Whatever N, a scenario gives the same output folder, stdout, stderr and
# exit status, byte for byte: Solana transactions and instructions (the
# cpi fixture: one that fails half-way, one out of compute units, one not
# profiled, call trees cut by --max-nodes so that every profile warns on
# stderr) and Soroban calls (demo and counter: a contract error, two calls
# out of budget, every format and lcov.info summed over the calls, the
# reports on stdout), each with -j1 (the main thread alone, as before
# --jobs), -j2 and -j8.  A write that fails half-way (a folder name too
# long for the file system at the 7th and 12th transactions; files over
# ulimit -f, the EFBIG of a full disk, in every job at once) gives -j4 the
# one line and the exit status of -j1, and the old output folder stays as
# it was.  Bad values of --jobs are refused with the usage status, and
# -j N starts N - 1 threads.  These
# are behaviour checks: -j1 is the reference, and the numbers in its
# profiles are held to litesvm and the traces by the other scripts.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 29
ELF=$(cd "$B/tests/fixtures/sbpf" 2>/dev/null && pwd)/cpi.so
if [ ! -f "$ELF" ]; then
  echo "FAIL cli_jobs: $B/tests/fixtures/sbpf/cpi.so not built"; exit 0
fi
cp "$B/examples/demo.wasm" "$B/examples/counter.wasm" "$T/"
P=ScprofProgram111111111111111111111111111111
CB=ComputeBudget111111111111111111111111111111

# runj J ARGS...: scprof profile -jJ ARGS -o $T/out, its folder moved to
# $T/rJ, stdout and stderr in $T/rJ.out and .err, the status in $T/rJ.rc
# (a run that hangs is stopped after 120 s and differs)
runj() {
  j=$1
  shift
  rm -rf "$T/out" "$T/r$j"
  timeout 120 "$BIN" profile -j "$j" "$@" -o "$T/out" >"$T/r$j.out" 2>"$T/r$j.err"
  echo $? >"$T/r$j.rc"
  [ ! -d "$T/out" ] || mv "$T/out" "$T/r$j"
}
# same WHAT: -j2 and -j8 gave what -j1 gave
same() {
  for j in 2 8; do
    NAME="cli_jobs $1: -j$j writes the folder, stdout, stderr and exit status of -j1"
    diff -r "$T/r1" "$T/r$j" >/dev/null && cmp -s "$T/r1.out" "$T/r$j.out" && cmp -s "$T/r1.err" "$T/r$j.err" &&
      cmp -s "$T/r1.rc" "$T/r$j.rc"; passed $?
  done
}
# all J...: runj each J with the rest of the arguments after "--"
all() {
  js=
  while [ "$1" != -- ]; do js="$js $1"; shift; done
  shift
  for j in $js; do runj "$j" "$@"; done
}

# ---- Solana: 30 transactions; 5 not profiled, 9 fails, 17 runs out of CU
ix() { printf '{"program": "cpi", "data": "%s", "accounts": [{"pubkey": "%s"}]}' "$1" "$P"; }
txs() {
  k=1
  while [ $k -le 30 ]; do
    label=$(printf 't%02d' $k)
    [ -z "${1:-}" ] || { [ $k -ne 7 ] && [ $k -ne 12 ]; } || label=$(printf "%0300d" $k)
    case $k in
      5) body="\"profile\": false, \"instructions\": [$(ix 0202)]" ;;
      9) body="\"instructions\": [$(ix 09)]" ;;
      17) body="\"instructions\": [{\"program\": \"$CB\", \"data\": \"02f4010000\"}, $(ix 0204)]" ;;
      *) body="\"instructions\": [$(ix 020$((k % 4 + 1)))]" ;;
    esac
    [ $k -eq 1 ] || printf ',\n'
    printf '{"label": "%s", %s}' "$label" "$body"
    k=$((k + 1))
  done
}
printf '{"programs": [{"name": "cpi", "elf": "%s"}],\n "transactions": [%s]}\n' "$ELF" "$(txs)" >"$T/tx.json"
all 1 2 8 -- --scenario "$T/tx.json"
NAME="cli_jobs solana transactions -j1: exit 10, 30 lines, 29 folders, the summary on stdout"
[ "$(cat "$T/r1.rc")" -eq 10 ] && [ "$(wc -l <"$T/r1/scenario.txt")" -eq 30 ] &&
  [ "$(ls -d "$T"/r1/[0-9]*/ | wc -l)" -eq 29 ] && [ ! -s "$T/r1.err" ] &&
  grep -q '^17	t17	500	1 ComputationalBudgetExceeded$' "$T/r1/scenario.txt" &&
  cmp -s "$T/r1.out" "$T/r1/scenario.txt"; passed $?
same "solana transactions"

# ---- Solana: 20 instructions; 3 fails first (exit 10), 4 runs out of CU
ixs() {
  k=1
  while [ $k -le 20 ]; do
    [ $k -eq 1 ] || printf ',\n'
    case $k in
      4) printf '{"program": "cpi", "cu_limit": 500, "data": "0204", "accounts": [{"pubkey": "%s"}]}' "$P" ;;
      10) ix 09 ;;
      *) ix 020$((k % 3 + 1)) ;;
    esac
    k=$((k + 1))
  done
}
printf '{"programs": [{"name": "cpi", "elf": "%s"}],\n "instructions": [%s]}\n' "$ELF" "$(ixs)" >"$T/ix.json"
all 1 2 8 -- --scenario "$T/ix.json" -q -f all --max-nodes 3
NAME="cli_jobs solana instructions -j1: exit 10, 20 folders, lcov.info, 19 warnings (one tree is small)"
[ "$(cat "$T/r1.rc")" -eq 10 ] && grep -q '^04	cpi	500	ComputationalBudgetExceeded$' "$T/r1/scenario.txt" &&
  [ "$(ls -d "$T"/r1/[0-9]*/ | wc -l)" -eq 20 ] && [ -s "$T/r1/lcov.info" ] &&
  [ "$(grep -c '^scprof: warning: ' "$T/r1.err")" -eq 19 ]; passed $?
same "solana instructions"

# ---- Soroban: 11 calls; 3 and 10 fail, 6 and 8 out of budget
calls=
for n in 10 500 20000 100 3000 7 9000 1 20001 64; do
  calls="$calls{\"contract\": \"demo\", \"function\": \"run\", \"args\": [\"u32:$n\"]}, "
  [ "$n" != 20000 ] ||
    calls="$calls{\"contract\": \"counter\", \"function\": \"increment\", \"args\": [\"addr:GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF\", \"u32:2\"]}, "
done
cat >"$T/sor.json" <<JSON
{"contracts": [{"name": "demo", "wasm": "demo.wasm"}, {"name": "counter", "wasm": "counter.wasm"}],
 "calls": [${calls%, }]}
JSON
all 1 2 8 -- --scenario "$T/sor.json" -f all --cpu-limit 3000000 --max-nodes 5
NAME="cli_jobs soroban -j1: exit 10, 11 folders, 2 out of budget, 11 reports on stdout, 7 warnings"
[ "$(cat "$T/r1.rc")" -eq 10 ] && [ "$(ls -d "$T"/r1/[0-9]*/ | wc -l)" -eq 11 ] &&
  [ "$(grep -c 'Error(Budget, ExceededLimit)' "$T/r1/scenario.txt")" -eq 2 ] && [ -s "$T/r1/lcov.info" ] &&
  [ "$(grep -c '^scprof: warning: ' "$T/r1.err")" -eq 7 ] && grep -q 'calls\[2\]: .*demo.wasm: fail_with_error' "$T/r1.err" &&
  [ "$(grep -c '^Top 20 functions by self CPU' "$T/r1.out")" -eq 11 ]; passed $?
same "soroban"

# same_failure WHAT WHERE TEXT: -j1 failed with one line containing TEXT
# (naming WHERE) and exit 74 ($T/err1, $T/rc1), -j4 with the same
same_failure() {
  rc=$(cat "$T/rc1")
  cp "$T/err1" "$T/err"
  NAME="cli_jobs -j1: $1: one line naming $2, exit 74"
  ok one_line_error 74 "$3"
  NAME="cli_jobs -j4: $1: the same line and exit status as -j1"
  cmp -s "$T/err1" "$T/err4" && cmp -s "$T/rc1" "$T/rc4"; passed $?
}

# ---- a write that fails half-way: folder names too long at 7 and 12
printf '{"programs": [{"name": "cpi", "elf": "%s"}],\n "transactions": [%s]}\n' "$ELF" "$(txs long)" >"$T/long.json"
runj 1 --scenario "$T/tx.json" -q
mv "$T/r1" "$T/keep"
for j in 1 4; do
  cp -r "$T/keep" "$T/out"
  timeout 120 "$BIN" profile -j $j --scenario "$T/long.json" -q -o "$T/out" >/dev/null 2>"$T/err$j"
  echo $? >"$T/rc$j"
  NAME="cli_jobs -j$j: a folder name too long at the 7th transaction leaves the old folder as it was"
  diff -r "$T/keep" "$T/out" >/dev/null && [ -z "$(ls -d "$T"/out.tmp* 2>/dev/null)" ]; passed $?
  rm -rf "$T/out"
done
same_failure "a folder name too long" "the 7th transaction's folder" "/out/07-0000000"

# ---- every job's files over ulimit -f (EFBIG, as a full disk), at once
for j in 1 4; do
  (trap '' XFSZ; ulimit -f 8; exec timeout 120 "$BIN" profile -j $j --scenario "$T/sor.json" -q -o "$T/full") \
    >/dev/null 2>"$T/err$j"
  echo $? >"$T/rc$j"
  NAME="cli_jobs -j$j: files over ulimit -f: no folder left behind"
  [ -z "$(ls -d "$T"/full* 2>/dev/null)" ]; passed $?
done
same_failure "files over ulimit -f" "the first call's file" "/full/01-run/"

# ---- --jobs values
for bad in "-j 0" "-j x" "--jobs=65" "-j65" "-j"; do
  # shellcheck disable=SC2086
  "$BIN" profile --scenario "$T/sor.json" -q -o "$T/x" $bad >/dev/null 2>"$T/err"; rc=$?
  NAME="cli_jobs: $bad refused: one line, exit 2"
  ok one_line_error 2 "-j"
done
"$BIN" profile -j 2 "$T/demo.wasm" run u32:1 -q -o "$T/x" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_jobs: --jobs without --scenario (Soroban): one line, exit 2"
ok one_line_error 2 "--jobs goes with --scenario"
"$BIN" profile --jobs=2 "$ELF" --ix 0201 --account "$P" -q -o "$T/x" >/dev/null 2>"$T/err"; rc=$?
NAME="cli_jobs: --jobs without --scenario (Solana): one line, exit 2"
ok one_line_error 2 "--jobs goes with --scenario"
runj 3 --scenario "$T/sor.json" -q --jobs=3
NAME="cli_jobs: --jobs=3 and -jN forms are taken"
[ "$(cat "$T/r3.rc")" -eq 10 ] && [ -s "$T/r3/scenario.txt" ]; passed $?

# ---- -j N is N threads in all: the main thread and N - 1 writers (the
# threads the process starts, counted by strace: scripts/deps installs it;
# counted beyond -j1's, which a sanitizer's runtime thread may make non-zero)
clones() {
  rm -rf "$T/x"
  strace -f -qq -e trace=clone,clone3 -o "$T/clones" "$BIN" profile -j "$1" --scenario "$T/tx.json" -q -o "$T/x" \
    >/dev/null 2>&1
  grep -c CLONE_THREAD "$T/clones"
}
c1=$(clones 1)
for j in 2 3 8; do
  NAME="cli_jobs: -j$j: the main thread and $((j - 1)) writers"
  [ "$(clones $j)" -eq $((c1 + j - 1)) ]; passed $?
done
NAME="cli_jobs: -j1: no writer thread"
[ "$c1" -le 1 ]; passed $?
