#!/bin/sh
# End-to-end: a scenario's cost in scprof's own time grows with its calls,
# not with the contracts its ledger holds.  The contracts' code is loaded
# once per code hash for the whole scenario (src/soroban/run/sor_modcache.c),
# not once per call and contract.  Runs examples/demo.wasm's run(u32:3)
# spread over a ledger of 1,000 contracts (two codes: demo and counter)
# and measures scprof's CPU time (user + system, of the process):
#   - 10,000 calls take at most 6.5x the time of 2,000 (linear: 5x plus
#     the set-up's share and noise); before, every call loaded every
#     contract again;
#   - a call on the 1,000-contract ledger costs at most 8x a call on a
#     10-contract one (the ledger's entries are still copied per call);
#     before, 460x;
# and every call's Budget is the one the call alone is charged on the
# command line (CPU and memory of each line of scenario.txt; independent
# of the cache: the lone call loads its own module).
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 6
cp "$B/examples/demo.wasm" "$B/examples/counter.wasm" "$T/"

# scenario NCONTRACTS NCALLS FILE: every third contract is counter, the
# calls go to demo contracts all over the ledger, the last one profiled
scenario() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
n, calls, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
cs = [{"name": "c%d" % i, "wasm": "counter.wasm" if i % 3 == 0 else "demo.wasm"} for i in range(n)]
demo = [i for i in range(n) if i % 3]
call = [{"contract": "c%d" % demo[(k * 7919) % len(demo)], "function": "run", "args": ["u32:3"],
         "profile": k == calls - 1} for k in range(calls)]
json.dump({"contracts": cs, "calls": call}, open(out, "w"))
PY
}

# cputime FILE OUTDIR: scprof's user + system seconds on scenario FILE
cputime() {
  python3 - "$BIN" "$1" "$2" <<'PY'
import resource, subprocess, sys
r = subprocess.run([sys.argv[1], "profile", "-q", "-o", sys.argv[3], "--scenario", sys.argv[2]])
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f" % (u.ru_utime + u.ru_stime) if r.returncode == 0 else "fail")
PY
}

scenario 1000 2000 "$T/a.json"
scenario 1000 10000 "$T/b.json"
scenario 10 2000 "$T/c.json"
ta=$(cputime "$T/a.json" "$T/a")
tb=$(cputime "$T/b.json" "$T/b")
tc=$(cputime "$T/c.json" "$T/c")
echo "NOTE [other] scale: 2,000 calls on 1,000 contracts ${ta}s, 10,000 ${tb}s; 2,000 on 10 contracts ${tc}s (CPU time)"

NAME="10,000 calls on 1,000 contracts: at most 6.5x the CPU time of 2,000 (${tb}s vs ${ta}s)"
ok awk -v a="$ta" -v b="$tb" 'BEGIN { exit !(a != "fail" && b != "fail" && b <= 6.5 * a) }'
NAME="a call on 1,000 contracts: at most 8x one on 10 (${ta}s vs ${tc}s for 2,000 calls)"
ok awk -v a="$ta" -v c="$tc" 'BEGIN { exit !(a != "fail" && c != "fail" && a <= 8 * c) }'

"$BIN" profile -q -o "$T/one" -f report "$T/demo.wasm" run u32:3 2>"$T/err"
cpu=$(awk '$1 == "CPU" {gsub(",", "", $2); print $2; exit}' "$T/one/report.txt")
mem=$(awk '$1 == "Memory" {gsub(",", "", $2); print $2; exit}' "$T/one/report.txt")
for d in a b c; do
  NAME="$d: every call is charged what run(u32:3) alone is (CPU $cpu, memory $mem)"
  ok awk -F '\t' -v cpu="CPU $cpu" -v mem="memory $mem" -v want="$(python3 -c "import json; print(len(json.load(open('$T/$d.json'))['calls']))")" '
    $4 == cpu && $5 == mem && $6 == "ok" { n++ } END { exit !(n == want && NR == want) }' "$T/$d/scenario.txt"
done
NAME="the last call's profile lists all 1,000 contract ids"
ok test "$(grep -c "contract id [0-9]" "$T/b/"*-run/report.txt)" -eq 1000
