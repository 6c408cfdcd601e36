#!/bin/sh
# Print x86-64 assembly for the iTLB stress program's text: FUNCS small
# functions (default 16384), each alone on its own 4 KiB page, so that
# the text is FUNCS * 4 KiB (64 MiB by default), and a table of pointers
# to them.  Between functions is trap fill.
#
# Usage: bench/itlb/gen-stress.sh [FUNCS] > stress.s
set -eu
funcs=${1:-16384}
case $funcs in
''|*[!0-9]*|0) echo "gen-stress.sh: FUNCS must be a positive number, not '$funcs'" >&2; exit 2 ;;
esac

# long f(long x) { return x + 1; }, one per page, and a full last page
# (the generator is the demo's).
exec awk -v n="$funcs" -v prefix=ht_stress -v align="12, 0xcc" -v adds=0 \
	-v pad=1 -v by=bench/itlb/gen-stress.sh \
	-f "$(dirname "$0")/../../demo/gen-functions.awk"
