#!/bin/sh
# Regenerates tests/output/golden/* from the current writers.  Review the
# diff (git diff tests/output/golden) before committing: every change in
# there is a change users will see.
#   usage: tests/output/record-golden.sh [BUILD_DIR]   (default: build)
set -eu
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
make BUILD="$BUILD" "$BUILD/tests/output/test_out"
SCP_RECORD_GOLDEN=1 "$BUILD/tests/output/test_out"
