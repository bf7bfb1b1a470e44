#!/bin/sh
# Runs every command the documentation shows as runnable, so that README.md
# and docs/*.md cannot drift from the program.
#
# Convention: a fenced block opened with ```sh is runnable.  Each line is
# one command (a line ending in "\" continues on the next); blank lines and
# lines starting with "#" are skipped.  A command must exit 0, or with N
# when it ends with the comment "# exit N".  Commands run in order, block
# after block, in a scratch folder where build/ is the build under test,
# examples/ and tests/ are the repository's, and `scprof` is on PATH; so
# a later block may read what an earlier one wrote (out/...).  A block
# opened with ```json file=NAME (a scenario file, say) is written to NAME
# in that folder first, for the commands to read.  Other blocks (```text,
# ```json, indented) are never run.
#
# One PASS/FAIL line per command; FAIL when the documents hold no runnable
# command at all.  Then one line per document: every relative link
# ([text](path) or [text](path#anchor)) names a file or folder that exists.
set -u
. "$(dirname "$0")/lib/check.sh"
e2e_setup 124
ROOT=$(pwd)

case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
case $B in /*) ;; *) B=$ROOT/$B ;; esac
mkdir -p "$T/run" "$T/bin"
ln -s "$BIN" "$T/bin/scprof"
ln -s "$B" "$T/run/build"
ln -s "$ROOT/examples" "$T/run/examples"
ln -s "$ROOT/tests" "$T/run/tests"

# FILE<TAB>LINE<TAB>WANT<TAB>COMMAND, one line per command
for f in README.md docs/*.md; do
  [ -f "$f" ] || continue
  awk -v file="$f" -v dir="$T/run" '
    /^```json file=[A-Za-z0-9_.-]+[ \t]*$/ && !inblk {
      out = $2; sub(/^file=/, "", out); out = dir "/" out; printf "" > out; inblk = 2; next
    }
    /^```sh[ \t]*$/ && !inblk { inblk = 1; cmd = ""; next }
    /^```/ && inblk { if (inblk == 2) close(out); inblk = 0; next }
    !inblk { next }
    inblk == 2 { print > out; next }
    {
      line = $0
      if (cmd == "") {
        if (line ~ /^[ \t]*$/ || line ~ /^[ \t]*#/) next
        start = NR
      }
      if (line ~ /\\[ \t]*$/) { sub(/\\[ \t]*$/, "", line); cmd = cmd line " "; next }
      cmd = cmd line
      want = 0
      if (match(cmd, /#[ \t]*exit[ \t]+[0-9]+[ \t]*$/)) {
        want = substr(cmd, RSTART); gsub(/[^0-9]/, "", want)
        cmd = substr(cmd, 1, RSTART - 1)
      }
      sub(/[ \t]+$/, "", cmd)
      printf "%s\t%d\t%d\t%s\n", file, start, want, cmd
      cmd = ""
    }' "$f"
done >"$T/cmds"

n=$(wc -l <"$T/cmds")
if [ "$n" -eq 0 ]; then
  echo "FAIL no runnable command (\`\`\`sh block) in README.md or docs/*.md"
  exit 1
fi

tab=$(printf '\t')
while IFS="$tab" read -r file line want cmd; do
  (cd "$T/run" && PATH="$T/bin:$PATH" sh -c "$cmd") >"$T/out" 2>&1 </dev/null
  got=$?
  short=$(printf '%s' "$cmd" | cut -c1-90)
  if [ "$got" -eq "$want" ]; then
    echo "PASS $file:$line: $short"
  else
    echo "FAIL $file:$line: $short: exit $got, want $want"
    tail -n 5 "$T/out"
  fi
done <"$T/cmds"

# Relative links: the target exists, from the linking file's folder.
for f in README.md docs/*.md; do
  [ -f "$f" ] || continue
  dir=$(dirname "$f")
  bad=$(grep -o '](\([^)#]*\)[#)]' "$f" | sed 's/^](//; s/[#)]$//' | grep -v '^[a-z]*:' | sort -u |
        while read -r target; do
          [ -n "$target" ] && [ ! -e "$dir/$target" ] && printf '%s ' "$target"
        done)
  if [ -z "$bad" ]; then echo "PASS $f: relative links resolve"; else echo "FAIL $f: broken links: $bad"; fi
done
