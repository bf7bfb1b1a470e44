#!/bin/sh
# Real viewers read the stage 4 outputs: the hand-built fixture of
# tests/output/out_fixture.h is written in every format by gen_out, then
#   callgrind_annotate (valgrind)   totals, self and inclusive costs
#   go tool pprof -top (golang-go)  totals, inline frames, both sample types
#   xmllint                         the SVGs are well-formed XML
#   node                            the SVG's script: zoom, search, URL state
#   python3 json                    speedscope / JSON report parse
# One line per check: PASS or FAIL (a viewer scripts/deps installs that
# is missing fails).
# Run from the repository root (tests/run.sh does).
set -u
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# every check here is a real reader's ([viewer]) but the build of gen_out
pass() { echo "PASS [viewer] $*"; }
fail() { echo "FAIL [viewer] $*"; }
have() { command -v "$1" >/dev/null 2>&1; }
. "$(dirname "$0")/lib/check.sh"   # helper
# check NAME FILE PATTERN: PASS when the extended regex PATTERN is in FILE.
check() {
  if grep -Eq -- "$3" "$2"; then pass "$1"; else fail "$1"; sed 's/^/  | /' "$2"; fi
}

# Built from the sources: independent of which library variant exists.
if $CC -std=gnu11 -D_GNU_SOURCE -Iinclude -Isrc -o "$tmp/gen_out" tests/output/gen_out.c \
     src/output/*.c src/profile/*.c src/util/scp_util.c src/util/scp_fmt.c $(pkg-config --cflags --libs zlib jansson 2>/dev/null ||
                                          echo -lz -ljansson) \
     >"$tmp/cc.log" 2>&1 && "$tmp/gen_out" "$tmp"; then
  echo "PASS gen_out writes every format"
else
  echo "FAIL gen_out writes every format"; cat "$tmp/cc.log"
  exit 1
fi

# ---- callgrind_annotate ---------------------------------------------------
if have callgrind_annotate; then
  callgrind_annotate "$tmp/fixture.callgrind" >"$tmp/ca.txt" 2>&1
  check "callgrind_annotate: program totals" "$tmp/ca.txt" \
    '1,410 \(100\.0%\) +590 \(100\.0%\) +PROGRAM TOTALS'
  check "callgrind_annotate: self cost of compute" "$tmp/ca.txt" \
    '220 \(15\.60%\) +0 +src/math\.rs:compute'
  check "callgrind_annotate: inlined lines under main in their own file" "$tmp/ca.txt" \
    '50 \( 3\.55%\) +0 +src/util\.rs:main'
  check "callgrind_annotate: host function self cost" "$tmp/ca.txt" \
    '40 \( 2\.84%\) +80 \(13\.56%\) +\?\?\?:host:vec_push_back'
  callgrind_annotate --inclusive=yes "$tmp/fixture.callgrind" >"$tmp/cai.txt" 2>&1
  check "callgrind_annotate: inclusive cost through call edges" "$tmp/cai.txt" \
    '360 \(25\.53%\) +90 \(15\.25%\) +src/lib\.rs:main'
else
  fail "callgrind_annotate not installed (scripts/deps installs valgrind)"
fi

# ---- go tool pprof -----------------------------------------------------------
if have go; then
  export HOME=${HOME:-$tmp} GOCACHE=${GOCACHE:-$tmp/gocache}
  go tool pprof -top "$tmp/fixture.pb.gz" >"$tmp/pp.txt" 2>&1
  check "pprof: total CPU" "$tmp/pp.txt" 'accounting for 1410instructions, 100% of 1410instructions total'
  check "pprof: flat and cumulative of main" "$tmp/pp.txt" \
    '100instructions +7\.09% +[0-9.]+% +410instructions +29\.08% +main$'
  check "pprof: inline frame" "$tmp/pp.txt" '50instructions +3\.55% .* helper \(inline\)$'
  go tool pprof -top -sample_index=Memory "$tmp/fixture.pb.gz" >"$tmp/ppm.txt" 2>&1
  check "pprof: memory sample type" "$tmp/ppm.txt" 'accounting for 590B, 100% of 590B total'
  go tool pprof -top -lines "$tmp/fixture.pb.gz" >"$tmp/ppl.txt" 2>&1
  check "pprof: source lines" "$tmp/ppl.txt" '170instructions .* compute src/math\.rs:6$'
else
  fail "go not installed (scripts/deps installs golang-go): pprof not checked"
fi

# ---- XML ------------------------------------------------------------------
if have xmllint; then
  for f in fixture.svg diff.svg; do
    if xmllint --noout "$tmp/$f" >"$tmp/x.log" 2>&1; then pass "xmllint: $f well-formed"
    else fail "xmllint: $f well-formed"; cat "$tmp/x.log"; fi
  done
else
  fail "xmllint not installed (scripts/deps installs libxml2-utils)"
fi

# ---- the SVG's script, in node with a small DOM ----------------------------
if have node; then
  helper viewer "svg_dom_check.js" node tests/output/svg_dom_check.js "$tmp/fixture.svg"
else
  fail "node not installed (scripts/deps installs it): SVG script not checked"
fi

# ---- JSON -------------------------------------------------------------------
if have python3; then
  for f in fixture.speedscope.json fixture.json; do
    if python3 -m json.tool "$tmp/$f" >/dev/null 2>"$tmp/j.log"; then pass "json: $f parses"
    else fail "json: $f parses"; cat "$tmp/j.log"; fi
  done
else
  fail "python3 not installed (scripts/deps installs it)"
fi
exit 0
