#!/bin/sh
# src/xdr/xdr_types.c is what tools/gen-xdr-types writes from
# tools/xdr/xdr.json, byte for byte (the generator run on a copy of the
# two, so the repository is not written); every initializer in it names
# its fields (no positional row: a field added to xdr_field, xdr_arm or
# scp_xdr_named must not shift the rows' values).  The checks fail on a
# hand edit: the copy's file altered by one byte differs.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 3
R=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$T/r/tools/xdr" "$T/r/src/xdr"
cp "$R/tools/gen-xdr-types" "$T/r/tools/"
cp "$R/tools/xdr/xdr.json" "$T/r/tools/xdr/"
python3 "$T/r/tools/gen-xdr-types" >/dev/null 2>"$T/err"; rc=$?
NAME="xdr_generated: tools/gen-xdr-types writes src/xdr/xdr_types.c as committed (exit $rc)"
ok sh -c "[ $rc -eq 0 ] && cmp -s '$T/r/src/xdr/xdr_types.c' '$R/src/xdr/xdr_types.c'"
NAME="xdr_generated: no positional initializer (a brace opening on a string, number or NULL)"
ok sh -c "[ -s '$R/src/xdr/xdr_types.c' ] && ! grep -qE '\\{ *(\"|-?[0-9]|NULL)' '$R/src/xdr/xdr_types.c'"
sed '$s/;/; /' "$T/r/src/xdr/xdr_types.c" >"$T/edited.c"
NAME="xdr_generated: the comparison sees a one-byte edit"
ok sh -c "! cmp -s '$T/edited.c' '$R/src/xdr/xdr_types.c'"
