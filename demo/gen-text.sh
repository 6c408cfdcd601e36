#!/bin/sh
# Print x86-64 assembly for the demo program's bulk code: FUNCS functions
# of 1 KiB each (default 4200, a little over 4 MiB of text) and a table
# of pointers to them.  Assembled, not compiled, so it builds in seconds.
#
# Usage: demo/gen-text.sh [FUNCS] > text.s
set -eu
funcs=${1:-4200}
case $funcs in
''|*[!0-9]*) echo "gen-text.sh: FUNCS must be a number, not '$funcs'" >&2; exit 2 ;;
esac

# long f(long x) { return x + 255; }, spread over 1 KiB so that calling
# every function touches every page of text.
exec awk -v n="$funcs" -v prefix=ht_demo -v align=4 -v adds=254 -v pad=0 \
	-v by=demo/gen-text.sh -f "$(dirname "$0")/gen-functions.awk"
