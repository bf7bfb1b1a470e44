#!/bin/sh
# End-to-end checks of scripts/check-layers: src/ keeps its layer order,
# and the check itself fails, naming file and symbol or header, on a
# synthetic tree that calls up a layer, includes up a layer, calls a peer
# sideways, closes a circle, or has a folder the order does not name.
# Prints one PASS/FAIL line per check (tests/run.sh counts them).
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 9
CHECK="python3 scripts/check-layers"

# check NAME EXPECTED_STATUS PATTERN ARGS...: status and a line of output
check() {
  name=$1 want=$2 pat=$3; shift 3
  $CHECK "$@" >"$T/out" 2>&1
  got=$?
  if [ "$got" -eq "$want" ] && grep -qF -- "$pat" "$T/out"; then echo "PASS $name"; else
    echo "FAIL $name: exit $got, want $want, output:"; cat "$T/out"; fi
}

check "src/ keeps its layers" 0 "check-layers: ok" --build "$B"

# tree NAME: a scratch src/ + build/ whose files are given as PATH=TEXT
# lines on stdin; every .c is compiled the way the Makefile does.
tree() {
  d=$T/$1
  rm -rf "$d"; mkdir -p "$d/src"
  while IFS='=' read -r path text; do
    [ -n "$path" ] || continue
    mkdir -p "$d/src/$(dirname "$path")"
    printf '%b\n' "$text" >"$d/src/$path"
  done
  for c in $(cd "$d/src" && find . -name '*.c' | sed 's#^\./##'); do
    mkdir -p "$d/build/src/$(dirname "$c")"
    cc -c -I"$d/src" -o "$d/build/src/${c%.c}.o" "$d/src/$c" || echo "FAIL compiling $c"
  done
}

tree clean <<'E'
util/u.h=int u_get(void);
util/u.c=#include "util/u.h"\nint u_get(void) { return 1; }
wasm/w.c=#include "util/u.h"\nint w_run(void);\nint w_run(void) { return u_get(); }
E
check "a tree that only goes down passes" 0 "check-layers: ok" --src "$T/clean/src" --build "$T/clean/build"

tree upcall <<'E'
util/u.c=int w_run(void);\nint u_get(void);\nint u_get(void) { return w_run(); }
wasm/w.c=int w_run(void);\nint w_run(void) { return 2; }
E
check "a call up a layer fails" 1 "util/u.c: w_run (wasm/w.c) goes up from util to wasm" \
  --src "$T/upcall/src" --build "$T/upcall/build"

tree upinclude <<'E'
wasm/w.h=#define W 3
util/u.c=#include "wasm/w.h"\nint u_get(void);\nint u_get(void) { return W; }
E
check "an include up a layer fails" 1 'util/u.c: #include "wasm/w.h" (wasm/w.h) goes up from util to wasm' \
  --src "$T/upinclude/src" --build "$T/upinclude/build"

tree sideways <<'E'
symbols/s.c=int s_find(void);\nint s_find(void) { return 4; }
output/o.c=int s_find(void);\nint o_write(void);\nint o_write(void) { return s_find(); }
E
check "a call to a peer fails" 1 "output/o.c: s_find (symbols/s.c) goes sideways from output to its peer symbols" \
  --src "$T/sideways/src" --build "$T/sideways/build"

tree circle <<'E'
util/u.c=int w_run(void);\nint u_get(void);\nint u_get(void) { return w_run(); }
wasm/w.c=int u_get(void);\nint w_run(void);\nint w_run(void) { return u_get(); }
E
check "a circle between folders is reported" 1 "circle between folders: util <-> wasm" \
  --src "$T/circle/src" --build "$T/circle/build"

tree layered <<'E'
soroban/core/c.c=int a_hook(void);\nint c_pop(void);\nint c_pop(void) { return a_hook(); }
soroban/auth/a.c=int a_hook(void);\nint a_hook(void) { return 5; }
E
check "core calling auth fails" 1 "soroban/core/c.c: a_hook (soroban/auth/a.c) goes up from soroban/core to soroban/auth" \
  --src "$T/layered/src" --build "$T/layered/build"

tree unknown <<'E'
attic/x.c=int x_old(void);\nint x_old(void) { return 6; }
E
check "a folder outside the order fails" 1 "attic/x.c: folder attic is not in the layer order" \
  --src "$T/unknown/src" --build "$T/unknown/build"

tree unbuilt <<'E'
util/u.c=int u_get(void);\nint u_get(void) { return 7; }
E
rm -f "$T/unbuilt/build/src/util/u.o"
check "a source without its object fails" 1 "util/u.c: no object" \
  --src "$T/unbuilt/src" --build "$T/unbuilt/build"
