#!/bin/sh
# The library and the fuzz targets compile under clang with the project's
# warnings as errors (make fuzz builds them with clang; make test with gcc).
cd "$(dirname "$0")/../.." || exit 1
if ! command -v "${CLANG:-clang}" >/dev/null; then
  echo "FAIL clang syntax: no clang (scripts/deps installs it)"; exit 0
fi
if out=$(make -s clang-syntax 2>&1); then
  echo "PASS clang syntax: library and fuzz targets compile with -Werror under clang"
else
  echo "FAIL clang syntax: $(echo "$out" | grep -m1 -E 'error|FAIL')"
fi
# and the check can fail: a file with a clang-only warning is refused
t=$(mktemp -d) && trap 'rm -rf "$t"' EXIT
printf 'int f(int a);\nint f(int a) { int m = 0; m += a; return 0; }\n' > "$t/bad.c"
if make -s clang-syntax LIB_SRC="$t/bad.c" FUZZ_SRC= >/dev/null 2>&1; then
  echo "FAIL clang syntax: a counter only ever added to passed (gcc accepts it)"
else
  echo "PASS clang syntax: a clang-only warning (a counter only ever added to) fails the check"
fi
