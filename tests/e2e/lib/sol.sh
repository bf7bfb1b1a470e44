# tests/e2e/lib/sol.sh — the Solana oracle comparisons the sysvar and
# feature scripts share (sourced after check.sh; they set BIN, D, T and
# have_oracle).

# sol_case NAME CU "SCPROF_PROGRAM" "ORACLE_PROGRAM" ARGS...: scprof
# profile SCPROF_PROGRAM ARGS charges CU (pinned: litesvm charged it), its
# folded stacks add up to it, and its result.txt (CU, logs, outcome,
# accounts after) equals tests/oracle/run.js ORACLE_PROGRAM ARGS line for
# line.  The programs are word-split (a path and its --program-id).
sol_case() {
  name=$1 want=$2 sprog=$3 oprog=$4
  shift 4
  rm -rf "$T/out"
  # shellcheck disable=SC2086
  "$BIN" profile $sprog "$@" -o "$T/out" -q >/dev/null 2>"$T/err"
  NAME="$name charges $want CU"
  ok grep -qx "cu $want" "$T/out/result.txt"
  grep -qx "cu $want" "$T/out/result.txt" 2>/dev/null || echo "  got $(head -1 "$T/out/result.txt" 2>/dev/null)"
  NAME="$name: the profile's self CU add up to the CU charged"
  ok [ "$(awk '{s += $NF} END {print s + 0}' "$T/out/profile.folded" 2>/dev/null)" = "$want" ]
  [ "$have_oracle" -eq 1 ] || return 0
  # shellcheck disable=SC2086
  node "$D/run.js" $oprog "$@" >"$T/oracle.txt" 2>"$T/oracle.err"
  NAME="[litesvm] $name equals litesvm (CU, logs, outcome, accounts after)"
  ok cmp -s "$T/oracle.txt" "$T/out/result.txt"
  cmp -s "$T/oracle.txt" "$T/out/result.txt" || diff "$T/oracle.txt" "$T/out/result.txt" | head -10
}

# sol_tx_oracle PREFIX SCENARIO OUTDIR: every transaction scprof profiled
# from SCENARIO into OUTDIR has the result.txt tests/oracle/tx.js prints
# for it (CU, logs, outcome).
sol_tx_oracle() {
  node "$D/tx.js" "$2" >"$T/oracle.txt" 2>"$T/oracle.err"
  tx_all_profiled "[litesvm] $1" "$T/oracle.txt" "$3"
  for dir in "$3"/*/; do
    label=$(basename "$dir" | sed 's/^[0-9]*-//')
    awk -v l="$label" '$1 == "tx" {on = ($2 == l); next} on' "$T/oracle.txt" >"$T/want.txt"
    NAME="[litesvm] $1 $label equals litesvm"
    ok cmp -s "$T/want.txt" "$dir/result.txt"
    cmp -s "$T/want.txt" "$dir/result.txt" || diff "$T/want.txt" "$dir/result.txt" | head -10
  done
}

# tx_all_profiled NAME ORACLE_TXT OUTDIR: OUTDIR has a folder NN-LABEL for
# each transaction tests/oracle/tx.js ran (its "tx LABEL" lines), in its
# order, and no other: the comparisons go folder by folder, so a
# transaction scprof left out would otherwise vanish from them.
tx_all_profiled() {
  want=$(awk '$1 == "tx" {print $2}' "$2")
  got=$(ls "$3" 2>/dev/null | sed -n 's/^[0-9][0-9]*-//p')
  NAME="$1 every transaction litesvm ran has its profile ($(echo "$want" | grep -c .))"
  ok eval '[ -n "$want" ] && [ "$want" = "$got" ]'
}

# trunc_programs FOLDED: the program invocations with a [truncated] frame
# of their own in FOLDED's stacks (below the invocation's program:NAME
# frame, no other program's between), one "NAME COUNT" line per program,
# sorted; an invocation is its stack up to its program frame.
trunc_programs() {
  awk '{ s = $0; sub(/ [0-9]+$/, "", s); k = split(s, a, ";"); pre = ""; at = ""; name = ""
         for (i = 1; i <= k; i++) {
           pre = pre (i > 1 ? ";" : "") a[i]
           if (a[i] ~ /^program:/) { at = pre; name = substr(a[i], 9); sub(/ .*/, "", name) }
           if (a[i] == "[truncated]" && at != "" && !(at in seen)) { seen[at] = 1; n[name]++ }
         } }
       END { for (p in n) print p, n[p] }' "$1" | sort
}

# trunc_frames FOLDED: how many [truncated] frames FOLDED's stacks go
# through (distinct stacks up to one).
trunc_frames() {
  awk '{ s = $0; sub(/ [0-9]+$/, "", s); k = split(s, a, ";"); pre = ""
         for (i = 1; i <= k; i++) { pre = pre (i > 1 ? ";" : "") a[i]; if (a[i] == "[truncated]") print pre } }' "$1" |
    sort -u | wc -l | tr -d ' '
}

# note_programs REPORT: the programs REPORT's "call tree" line names,
# one "NAME COUNT" line each, sorted (to compare with trunc_programs).
note_programs() {
  sed -n 's/^  call tree .* reached in [0-9]* program invocations\{0,1\} (\(.*\)): .*/\1/p' "$1" |
    tr ',' '\n' | sed 's/^ *//' | sort
}
