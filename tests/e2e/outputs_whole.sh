#!/bin/sh
# End-to-end: an output folder is whole or absent.  A second run that
# cannot finish writing (a file-size limit stands in for a full disk:
# SIGXFSZ ignored, so write() fails with EFBIG) leaves the first run's
# folder exactly as it was and no temporary folder or file beside it, with
# one line naming the file and the reason, also when the limit is hit in
# the middle of a file being streamed to disk; a run that completes
# replaces the folder whole; a folder holding the user's own files is
# never removed.  Missing parent folders are made; diff, which writes into
# a folder of the user's, replaces each file whole or leaves the old one.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 27
DEMO=$B/examples/demo.wasm

"$BIN" profile "$DEMO" run u32:200 -o "$T/out" -q; rc=$?
NAME="first run (exit $rc)"; ok [ "$rc" -eq 0 ]
(cd "$T/out" && ls && cat ./*) >"$T/before"

# flamegraph.svg (12 KB) is the first file over the limit (10 blocks: 5 KiB in
# dash, 10 KiB in bash); the folded stacks written before it fit
(trap '' XFSZ; ulimit -f 10; "$BIN" profile "$DEMO" run u32:100 -o "$T/out" -q -f report,folded,svg) 2>"$T/err"; rc=$?
NAME="write failure: exit 74 naming the file and reason (exit $rc)"
ok one_line_error 74 "$T/out/flamegraph.svg: cannot write: File too large"
(cd "$T/out" && ls && cat ./*) >"$T/after"
NAME="the first run's folder is untouched"; ok same_bytes "$T/before" "$T/after"
NAME="nothing left beside it"; ok [ "$(ls "$T")" = "$(printf 'after\nbefore\nerr\nout')" ]

# a file of several MiB goes to disk a chunk at a time while it is made,
# so the limit is hit part-way through writing it: the same one line, no
# partial file, the first run's folder untouched
(trap '' XFSZ; ulimit -f 3000; "$BIN" profile "$B/tests/fixtures/wasm/walk.wasm" walk u32:60 u32:60 \
   -o "$T/out" -q -f report,folded) 2>"$T/err"; rc=$?
NAME="write failure mid-file: exit 74 naming the file and reason (exit $rc)"
ok one_line_error 74 "$T/out/profile.folded: cannot write: File too large"
(cd "$T/out" && ls && cat ./*) >"$T/after"
NAME="mid-file failure: the first run's folder is untouched"; ok same_bytes "$T/before" "$T/after"
NAME="mid-file failure: nothing left beside it"; ok [ "$(ls "$T")" = "$(printf 'after\nbefore\nerr\nout')" ]

# a run that completes replaces the folder whole: the formats it did not
# write do not stay behind
"$BIN" profile "$DEMO" run u32:100 -o "$T/out" -q -f folded; rc=$?
NAME="second run replaces the folder (exit $rc)"; ok [ "$rc.$(ls "$T/out")" = 0.profile.folded ]
NAME="the new folded stacks are the second run's"; ok grep -q "run (examples/demo.c" "$T/out/profile.folded"

# a folder of the user's own files: new files go in one by one, theirs stay
mkdir "$T/mine" && echo keep >"$T/mine/notes.txt" && echo old >"$T/mine/report.txt"
"$BIN" profile "$DEMO" run u32:100 -o "$T/mine" -q -f report; rc=$?
NAME="user's folder: written into (exit $rc)"; ok grep -q Budget "$T/mine/report.txt"
NAME="user's folder: their file stays"; ok grep -q keep "$T/mine/notes.txt"
NAME="user's folder: no temporary left"; ok [ "$(ls "$T" | grep -c tmp)" -eq 0 ]

# a scenario's folder is swapped whole too
cp "$DEMO" "$T/demo.wasm"
cat >"$T/s.json" <<JSON
{"contracts": [{"name": "d", "wasm": "demo.wasm"}],
 "calls": [{"contract": "d", "function": "run", "args": ["u32:5"]},
           {"contract": "d", "function": "run", "args": ["u32:200"]}]}
JSON
"$BIN" profile -q -o "$T/sc" --scenario "$T/s.json"; rc=$?
NAME="scenario (exit $rc)"; ok [ -f "$T/sc/02-run/flamegraph.svg" ]
(cd "$T/sc" && find . -type f | sort | xargs cat) >"$T/sc-before"
sed 's/u32:5/u32:6/' "$T/s.json" >"$T/s2.json"
(trap '' XFSZ; ulimit -f 10; "$BIN" profile -q -o "$T/sc" --scenario "$T/s2.json") 2>"$T/err"; rc=$?
NAME="scenario write failure: exit 74 (exit $rc)"; ok one_line_error 74 "$T/sc/01-run/flamegraph.svg: cannot write: File too large"
(cd "$T/sc" && find . -type f | sort | xargs cat) >"$T/sc-after"
NAME="scenario folder untouched"; ok same_bytes "$T/sc-before" "$T/sc-after"
NAME="scenario: nothing left beside it"; ok [ "$(ls "$T" | grep -c 'tmp\|old')" -eq 0 ]

# a Solana program's folder (its result.txt included) is swapped the same way
if command -v node >/dev/null 2>&1; then
  node "$(dirname "$0")/../oracle/mkprog.js" "$T/p" >/dev/null
  "$BIN" profile "$T/p/syscalls_v3.so" -o "$T/sol" -q; rc=$?
  NAME="solana program (exit $rc)"; ok [ -f "$T/sol/result.txt" ]
  (cd "$T/sol" && ls && cat ./*) >"$T/sol-before"
  (trap '' XFSZ; ulimit -f 1; "$BIN" profile "$T/p/fault_v3.so" -o "$T/sol" -q) 2>"$T/err"; rc=$?
  NAME="solana write failure: exit 74 (exit $rc)"; ok one_line_error 74 "$T/sol/"
  (cd "$T/sol" && ls && cat ./*) >"$T/sol-after"
  NAME="solana folder untouched"; ok same_bytes "$T/sol-before" "$T/sol-after"
  NAME="solana: nothing left beside it"; ok [ "$(ls "$T" | grep -c 'tmp\|old')" -eq 0 ]
else
  echo "FAIL solana outputs: no node to write the programs (scripts/deps installs it)"
fi

# a folder whose parents are missing: each is made (mkdir -p); a file
# where a parent folder goes: one line naming the folder, exit 74
"$BIN" profile "$DEMO" run u32:100 -o "$T/new/deeper/out" -q -f report; rc=$?
NAME="missing parent folders made (exit $rc)"; ok [ -s "$T/new/deeper/out/report.txt" ]
echo x >"$T/plain"
"$BIN" profile "$DEMO" run u32:100 -o "$T/plain/out" -q 2>"$T/err"; rc=$?
NAME="a file where a parent folder goes: exit 74 (exit $rc)"
ok one_line_error 74 "$T/plain/out: cannot create folder: Not a directory"

# diff writes into a folder of the user's, not a staged one: each file is
# written beside its old self and renamed over it, so one that cannot be
# written leaves the old one whole and nothing beside it
"$BIN" profile "$DEMO" run u32:5 -o "$T/d5" -q -f json && "$BIN" profile "$DEMO" run u32:200 -o "$T/d200" -q -f json
"$BIN" diff "$T/d5/report.json" "$T/d5/report.json" -o "$T/dd" -q; rc=$?
NAME="diff into a folder (exit $rc)"; ok [ -s "$T/dd/diff.svg" ]
cp "$T/dd/diff.svg" "$T/diff-before.svg"
(trap '' XFSZ; ulimit -f 1; "$BIN" diff "$T/d5/report.json" "$T/d200/report.json" -o "$T/dd" -q) 2>"$T/err"; rc=$?
NAME="diff write failure: exit 74 naming the file (exit $rc)"
ok one_line_error 74 "$T/dd/diff.svg: cannot write: File too large"
NAME="diff write failure: the old diff.svg stays whole"; ok same_bytes "$T/diff-before.svg" "$T/dd/diff.svg"
NAME="diff write failure: nothing left beside it"; ok [ "$(ls "$T/dd")" = "$(printf 'diff.svg\ndiff.txt')" ]
"$BIN" diff "$T/d5/report.json" "$T/d200/report.json" -o "$T/dd" -q; rc=$?
NAME="diff rewrites the folder's files (exit $rc)"; ok [ "$rc" -eq 0 ] && ! cmp -s "$T/diff-before.svg" "$T/dd/diff.svg"
