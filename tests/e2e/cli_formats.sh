#!/bin/sh
# End-to-end checks of the output side of the scprof command line:
#   profile --format / --icicle / --min-width, every format written and
#   byte-identical across runs, real viewers reading them (callgrind_annotate,
#   go tool pprof, xmllint, headless Chromium on the flamegraph and in the
#   speedscope app, the speedscope file-format schema), diff, annotate, check at the exact budget
#   boundary, progress only on a terminal, and one-line errors with the
#   documented exit status for bad input.
# Prints one line per check: PASS, FAIL, or SKIP (the speedscope npm
# package not fetched, no pseudo-terminal: outside the repository's
# control); a viewer scripts/deps installs that is missing is a FAIL.
# $SCPROF is the binary, $SCP_BUILD the build folder; run from the
# repository root (tests/run.sh does).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
REPO=$(pwd)
DEMO=$B/examples/demo.wasm
FILES="flamegraph.svg flamegraph-mem.svg profile.folded report.txt profile.speedscope.json
callgrind.out.scprof profile.pb.gz report.json"

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
skip() { echo "SKIP $*"; }
have() { command -v "$1" >/dev/null 2>&1; }

# run WANT_STATUS CMD...: runs CMD with stdout in $T/out and stderr in
# $T/err; prints PASS/FAIL for the exit status under the name in $NAME.
run() {
  want=$1; shift
  "$@" >"$T/out" 2>"$T/err"
  got=$?
  if [ "$got" -eq "$want" ]; then pass "$NAME (exit $got)"; else
    fail "$NAME: exit $got, want $want"; sed 's/^/  | /' "$T/err"; fi
}
# one_line_err PATTERN: stderr is exactly one line, "scprof: ..." matching PATTERN.
one_line_err() {
  if [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "^scprof: .*$1" "$T/err"; then
    pass "$NAME: one-line error"
  else
    fail "$NAME: want one line matching '$1', stderr:"; sed 's/^/  | /' "$T/err"
  fi
}
# has NAME FILE ERE: PASS when the extended regex is in FILE.
has() {
  if grep -Eq -- "$3" "$2"; then pass "$1"; else fail "$1"; sed 's/^/  | /' "$2" | head -40; fi
}
# grouped N: N with thousands separators, as scprof prints it (1,234,567).
grouped() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
# report_total FILE METRIC: the consumed column of the report's budget table.
report_total() { awk -v m="$2" '$1 == m {gsub(",", "", $2); print $2; exit}' "$1"; }
frames_in() { grep -c '<g scp:x=' "$1"; }

# ---- every format, twice -------------------------------------------------
NAME="profile writes every format by default"
run 0 "$BIN" profile "$DEMO" run u32:200 -o "$T/a" -q
for f in $FILES; do
  [ -s "$T/a/$f" ] && pass "default formats: $f written" || fail "default formats: $f written"
done
[ ! -s "$T/out" ] && pass "-q prints nothing" || fail "-q prints nothing"
[ ! -s "$T/err" ] && pass "no progress on stderr when it is not a terminal" ||
  { fail "no progress on stderr when it is not a terminal"; cat "$T/err"; }
NAME="profile again"
run 0 "$BIN" profile "$DEMO" run u32:200 -o "$T/b" -q
for f in $FILES; do
  cmp -s "$T/a/$f" "$T/b/$f" && pass "byte-identical across runs: $f" ||
    fail "byte-identical across runs: $f"
done
CPU=$(report_total "$T/a/report.txt" CPU)
MEM=$(report_total "$T/a/report.txt" Memory)
[ -n "$CPU" ] && [ -n "$MEM" ] && pass "report totals: CPU $CPU, memory $MEM" ||
  fail "report totals not found in report.txt"

NAME="--format folded,json"
run 0 "$BIN" profile "$DEMO" run u32:200 -o "$T/sel" -q --format folded,json
got=$(cd "$T/sel" && ls | tr '\n' ' ')
[ "$got" = "profile.folded report.json " ] && pass "--format writes only the chosen formats" ||
  fail "--format folded,json wrote: $got"
cmp -s "$T/a/report.json" "$T/sel/report.json" && pass "--format output equals the default run's" ||
  fail "--format output equals the default run's"
NAME="--format svg"
run 0 "$BIN" profile "$DEMO" run u32:200 -o "$T/svg" -q -f svg
got=$(cd "$T/svg" && ls | tr '\n' ' ')
[ "$got" = "flamegraph-mem.svg flamegraph.svg " ] && pass "--format svg writes one SVG per metric" ||
  fail "--format svg wrote: $got"

# ---- the SVGs ------------------------------------------------------------
has "flamegraph.svg subtitle shows the CPU total" "$T/a/flamegraph.svg" \
  "<text id=\"subtitle\"[^>]*>CPU: $(grouped "$CPU") instructions"
has "flamegraph-mem.svg subtitle shows the memory total" "$T/a/flamegraph-mem.svg" \
  "<text id=\"subtitle\"[^>]*>Memory: $(grouped "$MEM") bytes"
NAME="--icicle"
run 0 "$BIN" profile "$DEMO" run u32:200 -o "$T/ice" -q -f svg --icicle
root_y() { grep -m1 '<g scp:x="0" scp:w="[0-9]*" scp:d="0">' "$1" | sed 's/.*<rect x="[^"]*" y="\([0-9.]*\)".*/\1/'; }
deep_y() { grep -m1 'scp:d="1">' "$1" | sed 's/.*<rect x="[^"]*" y="\([0-9.]*\)".*/\1/'; }
if [ "$(root_y "$T/a/flamegraph.svg" | cut -d. -f1)" -gt "$(deep_y "$T/a/flamegraph.svg" | cut -d. -f1)" ] &&
   [ "$(root_y "$T/ice/flamegraph.svg" | cut -d. -f1)" -lt "$(deep_y "$T/ice/flamegraph.svg" | cut -d. -f1)" ]; then
  pass "--icicle puts the root at the top (flamegraph: at the bottom)"
else
  fail "--icicle puts the root at the top"
fi
NAME="--min-width 0"
run 0 "$BIN" profile "$DEMO" run u32:200 -o "$T/all" -q -f svg --min-width 0
NAME="--min-width 5"
run 0 "$BIN" profile "$DEMO" run u32:200 -o "$T/wide" -q -f svg --min-width 5
n_default=$(frames_in "$T/a/flamegraph.svg") n_all=$(frames_in "$T/all/flamegraph.svg")
n_wide=$(frames_in "$T/wide/flamegraph.svg")
# Frames of at least 5% of the CPU total, counted from the JSON report's
# per-node totals (independent of the SVG writer).
if have node; then
  want_wide=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const t = r.nodes[0].total[0];
    console.log(r.nodes.filter((n) => n.total[0] > 0 && 100 * n.total[0] / t >= 5).length);
    ' "$T/a/report.json")
  want_all=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(r.nodes.filter((n) => n.total[0] > 0).length);' "$T/a/report.json")
  [ "$n_wide" = "$want_wide" ] && pass "--min-width 5 keeps the $want_wide frames of >= 5%" ||
    fail "--min-width 5 drew $n_wide frames, want $want_wide"
  [ "$n_all" = "$want_all" ] && pass "--min-width 0 keeps all $want_all frames with cost" ||
    fail "--min-width 0 drew $n_all frames, want $want_all"
else
  [ "$n_wide" -lt "$n_default" ] && [ "$n_all" -ge "$n_default" ] &&
    pass "--min-width prunes narrow frames" || fail "--min-width: $n_wide / $n_default / $n_all"
fi
for bad in abc -1 101 ""; do
  NAME="--min-width '$bad'"
  run 2 "$BIN" profile "$DEMO" run u32:1 -o "$T/x" -q --min-width "$bad"
  one_line_err "min-width"
done
if have xmllint; then
  for f in flamegraph.svg flamegraph-mem.svg; do
    xmllint --noout "$T/a/$f" 2>"$T/x.log" && pass "[viewer] xmllint: $f well-formed" ||
      { fail "[viewer] xmllint: $f well-formed"; cat "$T/x.log"; }
  done
else
  fail "[viewer] xmllint not installed (scripts/deps installs libxml2-utils)"
fi

# ---- the flamegraph in a real browser ---------------------------------------
CHROMIUM=""
for c in chromium chromium-browser; do have "$c" && CHROMIUM=$(command -v "$c") && break; done
if [ -n "$CHROMIUM" ] && have node; then
  mkdir -p "$T/chrome-profile"
  helper viewer "chromium: the flamegraph's browser checks" node "$REPO/tests/e2e/svg_browser_check.js" \
    "$CHROMIUM" "$T/a/flamegraph.svg" "$T/a/report.json" "$T/chrome-profile"
else
  fail "[viewer] chromium or node not installed (scripts/deps installs them): flamegraph not checked in a browser"
fi

# ---- callgrind, pprof, speedscope, JSON in their readers ----------------------
if have callgrind_annotate; then
  callgrind_annotate "$T/a/callgrind.out.scprof" >"$T/ca.txt" 2>&1
  has "[viewer] callgrind_annotate: program totals are the Budget's" "$T/ca.txt" \
    "^$(grouped "$CPU") \\(100\\.0%\\) +$(grouped "$MEM") \\(100\\.0%\\) +PROGRAM TOTALS"
  has "[viewer] callgrind_annotate: guest function with its file" "$T/ca.txt" 'examples/demo\.c:checksum'
else
  fail "[viewer] callgrind_annotate not installed (scripts/deps installs valgrind)"
fi
if have go; then
  export HOME="${HOME:-$T}" GOCACHE="${GOCACHE:-$T/gocache}"
  go tool pprof -top "$T/a/profile.pb.gz" >"$T/pp.txt" 2>&1
  has "[viewer] go tool pprof -top: CPU total" "$T/pp.txt" "of ${CPU}instructions total"
  has "[viewer] go tool pprof -top: inlined mix" "$T/pp.txt" ' mix \(inline\)$'
  go tool pprof -raw -sample_index=Memory "$T/a/profile.pb.gz" >"$T/ppm.txt" 2>&1
  sum=$(awk '/^Samples:/ {on = 1; next} /^Locations/ {on = 0} on && /^ *[0-9]+ +[0-9]+:/ {s += $2} END {print s + 0}' "$T/ppm.txt")
  [ "$sum" = "$MEM" ] && pass "[viewer] go tool pprof -raw: memory samples add up to $MEM bytes" ||
    fail "[viewer] go tool pprof -raw: memory samples add up to $sum, want $MEM"
else
  fail "[viewer] go not installed (scripts/deps installs golang-go): pprof not checked"
fi
if have node; then
  # speedscope's file-format schema and its app (a static page) ship in the
  # speedscope npm package: fetched once into the build folder with npm.
  # Without them the file's structure is still checked by hand.
  SPEEDSCOPE=$B/cache/speedscope-1.25.0
  if [ ! -s "$SPEEDSCOPE/file-format-schema.json" ] && have npm && have tar; then
    mkdir -p "$T/npm"
    if (cd "$T/npm" && timeout 120 npm pack --silent --cache "$T/npm-cache" speedscope@1.25.0 >/dev/null 2>&1) &&
       tar -xzf "$T"/npm/speedscope-1.25.0.tgz -C "$T/npm" package/dist/release 2>/dev/null; then
      mkdir -p "$B/cache" && rm -rf "$SPEEDSCOPE" && cp -r "$T/npm/package/dist/release" "$SPEEDSCOPE"
    fi
  fi
  SCHEMA=$SPEEDSCOPE/file-format-schema.json
  [ -s "$SCHEMA" ] || { skip "[viewer] speedscope npm package not available: no schema, structure checked by hand only"; SCHEMA=-; }
  helper viewer "speedscope_check.js" node "$REPO/tests/e2e/speedscope_check.js" "$SCHEMA" \
    "$T/a/profile.speedscope.json" "$T/a/report.json"
  if [ -n "$CHROMIUM" ] && [ -s "$SPEEDSCOPE/index.html" ]; then
    mkdir -p "$T/chrome-profile2"
    helper viewer "speedscope app: the browser checks" node "$REPO/tests/e2e/speedscope_browser_check.js" \
      "$CHROMIUM" "$SPEEDSCOPE" "$T/a/profile.speedscope.json" "$T/a/report.json" "$T/chrome-profile2"
  else
    skip "[viewer] chromium or the speedscope app not available: speedscope file not opened in it"
  fi
else
  fail "[viewer] node not installed (scripts/deps installs it): speedscope file not checked"
fi

# ---- diff ----------------------------------------------------------------
NAME="diff of a run against itself"
run 0 "$BIN" diff "$T/a/report.json" "$T/b/report.json" -o "$T/d0"
[ "$(grep -c '(no change)' "$T/out")" -eq 3 ] && pass "diff against itself: no change in any table" ||
  { fail "diff against itself: no change in any table"; cat "$T/out"; }
has "diff against itself: CPU change 0" "$T/out" '^  CPU +[0-9,]+ +[0-9,]+ +0 +0\.00%$'
[ -s "$T/d0/diff.svg" ] && cmp -s "$T/out" "$T/d0/diff.txt" && pass "diff writes diff.svg and diff.txt (= what it prints)" ||
  fail "diff writes diff.svg and diff.txt (= what it prints)"
has "diff.svg of itself: every frame unchanged" "$T/d0/diff.svg" 'unchanged'
! grep -q '<title>.*change +' "$T/d0/diff.svg" && pass "diff.svg of itself: no frame says change" ||
  fail "diff.svg of itself: no frame says change"
NAME="profile u32:400"
run 0 "$BIN" profile "$DEMO" run u32:400 -o "$T/big" -q -f json
NAME="diff u32:200 vs u32:400 (profile folders)"
run 0 "$BIN" diff "$T/a" "$T/big" -o "$T/d1"
cpu400=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).metrics[0].total)' "$T/big/report.json" 2>/dev/null)
has "diff shows the CPU growth" "$T/out" '^  CPU +[0-9,]+ +[0-9,]+ +\+[0-9,]+ +\+[0-9.]+%$'
if [ -n "$cpu400" ]; then
  growth=$((cpu400 - CPU))
  has "diff's CPU change is the difference of the totals (+$growth)" "$T/out" \
    "^  CPU .* \\+$(grouped "$growth") "
else
  fail "diff's CPU change: no CPU total read from $T/big/report.json (node is needed: scripts/deps)"
fi
has "diff ranks the hot inlined helper by self cost" "$T/out" '^ +[0-9,]+ +[0-9,]+ +\+[0-9,]+ +\+[0-9.]+% +mix \(examples/demo\.c:16\)$'
has "diff ranks a changed source line" "$T/out" '\+[0-9,]+ +\+[0-9.]+% +examples/demo\.c:41$'
has "diff.svg marks growth" "$T/d1/diff.svg" 'change \+[0-9,]+, \+[0-9.]+%'
NAME="diff --metric mem"
run 0 "$BIN" diff "$T/a" "$T/big" -o "$T/d2" --metric mem -q
if [ -s "$T/out" ]; then fail "diff --metric mem -q printed on stdout"
else has "diff --metric mem ranks by memory" "$T/d2/diff.txt" 'Largest changes by function, self Memory'; fi
NAME="diff twice"
run 0 "$BIN" diff "$T/a" "$T/big" -o "$T/d3" -q
cmp -s "$T/d1/diff.svg" "$T/d3/diff.svg" && cmp -s "$T/d1/diff.txt" "$T/d3/diff.txt" &&
  pass "diff output byte-identical across runs" || fail "diff output byte-identical across runs"

# ---- annotate ------------------------------------------------------------
NAME="annotate examples/demo.c"
run 0 "$BIN" annotate "$T/a/report.json" examples/demo.c
has "annotate: header with the file's CPU" "$T/out" '^-- examples/demo\.c -- CPU [0-9,]+ \('
has "annotate: hot line of mix with its cost" "$T/out" '^ +[0-9,]+ +[0-9.]+% +\. +\. +17  +h \^= x \* 0x9e3779b9u;'
has "annotate: loop line of run with its cost" "$T/out" '^ +[0-9,]+ +[0-9.]+% +\. +\. +41  +for \(uint32_t i = 0; i < n \* 16; i\+\+\)'
has "annotate: a line without cost shows dots" "$T/out" '^ +\. +\. +\. +\. +20  \}$'
# the "ahead" column: clang put the fail_with_error call in the function
# body's own block, after a br_if that skips it: charged on entry, never run
has "annotate: a line charged ahead, never run" "$T/out" '^ +272 +[0-9.]+% +272 +\. +39  +fail_with_error'
if have node; then
  # The file's total in the header is the sum of its lines in report.json.
  want=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    let s = 0;
    for (const n of r.nodes) for (const l of n.lines) if (l.file === "examples/demo.c") s += l.cost[0];
    console.log(s.toLocaleString("en-US"));' "$T/a/report.json")
  has "annotate: demo.c total $want is the sum of its lines in report.json" "$T/out" "^-- examples/demo\\.c -- CPU $want "
else
  fail "annotate: the file's total not compared with report.json: node not installed (scripts/deps installs it)"
fi
NAME="annotate a function (mix)"
run 0 "$BIN" annotate "$T/a" mix
has "annotate mix: its lines" "$T/out" ' 19  +return h \* 33u \+ 7u;'
! grep -q ' 41  ' "$T/out" && pass "annotate mix: not run's loop line" || fail "annotate mix: not run's loop line"
NAME="annotate from another folder without -S"
(cd "$T" && "$BIN" annotate "$T/a/report.json" examples/demo.c >"$T/out" 2>"$T/err")
has "annotate without the source: lines with cost only, said in the header" "$T/out" 'source not available'
NAME="annotate from another folder with -S"
(cd "$T" && "$BIN" annotate "$T/a/report.json" examples/demo.c -S "$T/none" -S "$REPO" >"$T/out" 2>"$T/err")
has "annotate -S finds the source" "$T/out" ' 17  +h \^= x \* 0x9e3779b9u;'
NAME="annotate an unknown function"
run 4 "$BIN" annotate "$T/a/report.json" no_such_fn
one_line_err "report.json: no source file or function 'no_such_fn'"

# ---- check: the exact boundary ------------------------------------------------
NAME="check at the limits"
run 0 "$BIN" check "$T/a/report.json" --max-cpu "$CPU" --max-mem "$MEM"
has "check: CPU at its limit is ok" "$T/out" "^ok +CPU [0-9,]+ <= [0-9,]+ \\(100\\.00%\\)$"
NAME="check CPU one under"
run 11 "$BIN" check "$T/a/report.json" --max-cpu $((CPU - 1)) --max-mem "$MEM"
has "check: says CPU is over" "$T/out" "^OVER +CPU [0-9,]+ > [0-9,]+ "
one_line_err "report.json: over budget (1 of 2 limits exceeded)"
NAME="check memory one under"
run 11 "$BIN" check "$T/a/report.json" --max-cpu "$CPU" --max-mem=$((MEM - 1))
has "check: says memory is over" "$T/out" "^OVER +Memory "
MIX=$(awk '/^Top .* by total CPU/ {on = 1; next} on && / mix \(/ {gsub(",", "", $1); print $1; exit}' "$T/a/report.txt")
NAME="check --max-fn mix=$MIX"
run 0 "$BIN" check "$T/a" --max-fn "mix=$MIX"
NAME="check --max-fn mix=$((MIX - 1))"
run 11 "$BIN" check "$T/a" --max-fn "mix=$((MIX - 1))"
has "check: names the function over" "$T/out" '^OVER +CPU of mix '
NAME="check by label, grouped digits"
run 0 "$BIN" check "$T/a" --max-fn "mix (examples/demo.c:16)=$(grouped "$MIX")"
NAME="check a missing function"
run 4 "$BIN" check "$T/a" --max-cpu "$CPU" --max-fn nope=1
has "check: says which function is missing" "$T/out" '^MISSING +CPU of nope'
NAME="check a run that exhausted its budget"
"$BIN" profile "$DEMO" run u32:200 --cpu-limit 400000 -o "$T/over" -q -f json 2>/dev/null
run 11 "$BIN" check "$T/over" --max-cpu 100000000
has "check: the exhausted run fails" "$T/out" '^FAIL +run ended: budget exceeded'
NAME="check without limits"
run 2 "$BIN" check "$T/a"
one_line_err "check needs a limit"
NAME="check --max-fn without ="
run 2 "$BIN" check "$T/a" --max-fn mix
one_line_err "--max-fn: 'mix' is not NAME=LIMIT"
NAME="check --max-fn mix=banana"
run 2 "$BIN" check "$T/a" --max-fn mix=banana
one_line_err "--max-fn: 'banana'"
NAME="check --max-cpu banana"
run 2 "$BIN" check "$T/a" --max-cpu banana
one_line_err "--max-cpu: 'banana'"

# ---- progress only on a terminal -----------------------------------------------
# script(1) runs the command on a pseudo-terminal; its stdin must be open.
if have script && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
  script -qec "'$BIN' profile '$DEMO' run u32:200 -o '$T/tty' -q" /dev/null </dev/null >"$T/tty.txt" 2>&1
  has "progress on a terminal: a line at the start" "$T/tty.txt" '^scprof: profiling .*demo\.wasm run'
  has "progress on a terminal: a line at the end with the CPU time" "$T/tty.txt" 'profile written to .* \([0-9.]+ s CPU\)'
  same=1
  for f in $FILES; do cmp -s "$T/a/$f" "$T/tty/$f" || same=0; done
  [ $same = 1 ] && pass "progress changes no output file" || fail "progress changes no output file"
else
  skip "script (util-linux) cannot open a pseudo-terminal: progress on a terminal not checked"
fi

# ---- bad input: one line naming the file, documented status ---------------------
NAME="unknown format"
run 2 "$BIN" profile "$DEMO" run u32:1 -o "$T/x" --format svg,gif
one_line_err "--format: bad list 'svg,gif'"
NAME="empty format list"
run 2 "$BIN" profile "$DEMO" run u32:1 -o "$T/x" --format ""
one_line_err "--format"
NAME="empty output folder name"
run 2 "$BIN" profile "$DEMO" run u32:1 -o "" -q
one_line_err "-o needs a folder"
NAME="output folder under a file"
: >"$T/afile"
run 74 "$BIN" profile "$DEMO" run u32:1 -o "$T/afile/sub" -q
one_line_err "afile/sub: cannot create folder"
NAME="output folder is a file"
run 74 "$BIN" profile "$DEMO" run u32:1 -o "$T/afile" -q
one_line_err "afile: cannot create folder"
NAME="missing profile"
run 74 "$BIN" check "$T/nope.json" --max-cpu 1
one_line_err "nope.json: cannot open"
NAME="folder without report.json"
run 74 "$BIN" annotate "$T/svg"
one_line_err "svg: folder has no report.json"
printf 'not json {' >"$T/junk.json"
NAME="not JSON"
run 65 "$BIN" diff "$T/junk.json" "$T/a/report.json"
one_line_err "junk.json"
printf '{"schema":"something-else","version":1}' >"$T/other.json"
NAME="JSON of another schema"
run 65 "$BIN" annotate "$T/other.json"
one_line_err "other.json"
head -c 2000 "$T/a/report.json" >"$T/cut.json"
NAME="truncated report.json"
run 65 "$BIN" check "$T/cut.json" --max-cpu 1
one_line_err "cut.json"
sed 's/"version":[0-9]*/"version":99/' "$T/a/report.json" >"$T/v99.json"
NAME="report.json from a newer version"
run 65 "$BIN" diff "$T/a/report.json" "$T/v99.json"
one_line_err "v99.json"
NAME="diff with one profile"
run 2 "$BIN" diff "$T/a/report.json"
one_line_err "diff needs OLD.json and NEW.json"
NAME="diff with three profiles"
run 2 "$BIN" diff "$T/a" "$T/a" "$T/a"
one_line_err "diff takes two profiles"
NAME="diff --metric bogus"
run 2 "$BIN" diff "$T/a" "$T/a" --metric bogus -o "$T/x"
one_line_err "no metric 'bogus'"
NAME="annotate without a profile"
run 2 "$BIN" annotate
one_line_err "annotate needs PROFILE.json"
NAME="unknown option"
run 2 "$BIN" annotate "$T/a" --frobnicate
one_line_err "unknown option --frobnicate"
exit 0
