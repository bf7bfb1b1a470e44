#!/bin/sh
# End-to-end: function names with control characters (ESC sequences, BEL,
# CR, LF, TAB, DEL) and invalid UTF-8 (tests/e2e/lib/hostile_wasm.py) come
# out of every format as clean UTF-8 under one rule, \xNN for each such
# byte, never raw; valid non-ASCII stays; two runs are byte-identical.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 19

python3 "$(dirname "$0")/lib/hostile_wasm.py" "$T/h.wasm"
"$BIN" profile "$T/h.wasm" run -o "$T/a" -f all >"$T/stdout" 2>"$T/err"; rc=$?
NAME="hostile names profile (exit $rc)"; ok [ "$rc" -eq 0 ]
"$BIN" profile "$T/h.wasm" run -o "$T/b" -f all -q
gzip -dc "$T/a/profile.pb.gz" >"$T/pprof.bin"

# clean: strict UTF-8, no control character but LF and TAB (the formats'
# own), and the ESC name written with the rule
clean() {
  python3 - "$1" "$2" <<'PY'
import json, sys
path, mode = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
if mode == "pprof":   # protobuf: the string table must hold the escaped names
    sys.exit(0 if b"evil\\x1B[31mred\\x1B[0m" in data and b"bad\\xFF\\xFE" in data
             and b"\x1b" not in data and b"\xff" not in data else 1)
try:
    text = data.decode("utf-8")
except UnicodeDecodeError:
    sys.exit(1)
if any((ord(c) < 0x20 and c not in "\n\t") or ord(c) == 0x7f for c in text):
    sys.exit(1)
if mode == "plain":   # a format that may not show these frames at all
    sys.exit(0)
if mode == "json":
    text = json.dumps(json.loads(text), ensure_ascii=False)
    want = ["evil\\\\x1B[31mred", "bell\\\\x07cr\\\\x0Dlf\\\\x0Aend", "ok_\u00e9\u4e2d"]
else:
    want = ["evil\\x1B[31mred", "bell\\x07cr\\x0Dlf\\x0Aend", "ok_\u00e9\u4e2d"]
sys.exit(0 if all(w in text for w in want) else 1)
PY
}
for f in report.txt profile.folded callgrind.out.scprof flamegraph.svg flamegraph-mem.svg \
         profile.speedscope.json report.json; do
  mode=text
  case $f in *.json) mode=json ;; flamegraph-mem.svg) mode=plain ;; esac
  NAME="$f: clean UTF-8, names as \\xNN"; ok clean "$T/a/$f" "$mode"
  NAME="$f: byte-identical across runs"; ok cmp -s "$T/a/$f" "$T/b/$f"
done
NAME="profile.pb.gz: names as \\xNN"; ok clean "$T/pprof.bin" pprof
NAME="report on stdout: clean"; ok clean "$T/stdout" text
NAME="folded: the invalid byte and the separator"
ok grep -qF 'run [name section];semi,colon\x09tab\x7F [name section] 12' "$T/a/profile.folded"

# a hostile export name in an error message reaches the terminal escaped
"$BIN" profile "$T/h.wasm" "$(printf 'no\033[2Jpe')" 2>"$T/err"; rc=$?
NAME="error naming a hostile function: exit 4, escaped (exit $rc)"
ok one_line_error 4 'no\x1B[2Jpe'
