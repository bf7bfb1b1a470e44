#!/bin/sh
# No function in src/ over 120 lines but the interpreter loop and the opcode
# compiler (scripts/check-func-length prints one PASS/FAIL line per finding).
cd "$(dirname "$0")/../.." || exit 1
sh scripts/check-func-length
