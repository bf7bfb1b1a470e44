# tests/e2e/lib/words.sh — each chain's vocabulary and the check that a
# profile's printed words hold none of the other chain's (sourced after
# check.sh; the caller sets T, a scratch folder).

# Soroban's words, not to be found in a Solana profile, and Solana's, not
# in a Soroban one (grep -E, case as written; \b: whole words).  The
# Solana runtime's own "ComputeBudget111..." program and "Computational
# budget exceeded" error are Solana's words, not Soroban's Budget.
SOROBAN_WORDS='[Cc]ontract|[Hh]ost function|trapped|\bBudget\b|(^|[^l] |[^ ])budget exceeded|stroops|[Ll]edger|Memory|wasm|vm:'
SOLANA_WORDS='compute units|\bCU\b|[Ss]yscall|[Pp]rogram|lamports|[Ii]nstruction #|sBPF|sbpf'

# svg DIR: the profile's flamegraph (a size profile's is size.svg)
svg() { if [ -f "$1/size.svg" ]; then echo "$1/size.svg"; else echo "$1/flamegraph.svg"; fi; }
# words DIR: the report, the JSON's status text and the flamegraph's
# title, subtitle and search prompt of every profile folder under DIR,
# one after the other.
words() {
  for r in $(find "$1" -name report.txt | sort); do
    dir=$(dirname "$r")
    cat "$r"
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"]["text"])' "$dir/report.json"
    sed -n 's/.*<text id="\(title\|subtitle\)"[^>]*>\([^<]*\)<.*/\2/p' "$(svg "$dir")"
    sed -n 's/.*prompt("\(Enter a search term[^"]*\)".*/\1/p' "$(svg "$dir")"
  done
}
no_hits() { [ "$1" -ge "$2" ] && [ ! -s "$T/hits.txt" ]; }
# vocab NAME DIR WORDS [MIN]: at least MIN (4) profiles under DIR, none
# has a word of WORDS; the first hits are printed under a failure
vocab() {
  n=$(find "$2" -name report.txt | wc -l)
  words "$2" >"$T/words.txt"
  grep -nE "$3" "$T/words.txt" | head -5 >"$T/hits.txt"
  NAME="$1: $n profiles, no word of the other chain"
  ok no_hits "$n" "${4:-4}"
  if [ -s "$T/hits.txt" ]; then sed 's/^/  /' "$T/hits.txt"; fi
}
