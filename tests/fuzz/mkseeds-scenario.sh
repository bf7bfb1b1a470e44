#!/bin/sh
# Seeds for fuzz_scenario: every scenario file the end-to-end tests write.
# Runs tests/e2e/*.sh with SCPROF set to a wrapper that copies each
# `--scenario FILE` it is given to OUT (named by content hash), then runs
# the real binary, so the tests go on as usual.
#   usage: tests/fuzz/mkseeds-scenario.sh BUILD OUT   (e.g. build build/seeds-scenario)
set -eu
B=${1:-build}
OUT=${2:-build/seeds-scenario}
mkdir -p "$OUT"
W=$(mktemp)
trap 'rm -f "$W"' EXIT
cat >"$W" <<SH
#!/bin/sh
prev=
for a in "\$@"; do
  if [ "\$prev" = --scenario ] && [ -f "\$a" ]; then
    cp "\$a" "$OUT/seed-\$(sha1sum <"\$a" | cut -c1-16).json"
  fi
  prev=\$a
done
exec "$PWD/$B/bin/scprof" "\$@"
SH
chmod +x "$W"
for s in tests/e2e/*.sh; do
  SCPROF="$W" SCP_BUILD="$B" sh "$s" >/dev/null 2>&1 || true
done
ls "$OUT" | wc -l
