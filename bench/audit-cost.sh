#!/bin/bash
# What the audit module costs a program that has no eligible object: a
# batch of execs of /bin/true with no LD_AUDIT; with an empty audit
# module (la_version alone, no libc: what glibc's LD_AUDIT costs by
# itself); with the same module calling one libc function (glibc then
# loads a second libc.so.6 into the audit namespace: what a module built
# on libc pays); and with LD_AUDIT=hugetext-audit.so, which takes nothing
# from libc (startup/freestanding.c).  The empty module against none,
# and the other two against the empty module, in interleaved rounds.
# Prints bench/ratio.py's table (the times are of a batch) and the
# difference per exec.
#
# Usage: bench/audit-cost.sh BUILD_DIR [ROUNDS [EXECS]]   (default 15, 400)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "bench/audit-cost.sh: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: bench/audit-cost.sh BUILD_DIR [PAIRS [EXECS]]"
build=$(cd "$1" && pwd) pairs=${2:-15} execs=${3:-400}
ours=$build/lib/hugetext-audit.so prog=/bin/true
[ -f "$ours" ] || die "$ours is missing: run ./run build first"
work=$build/bench-audit
mkdir -p "$work"
printf '#include <link.h>\nunsigned int la_version (unsigned int v) { return v; }\n' \
	>"$work/empty.c"
printf '#include <link.h>\n#include <stdlib.h>\nunsigned int la_version (unsigned int v) { return getenv ("HOME") ? v : v; }\n' \
	>"$work/libc.c"
cc -O2 -shared -fPIC -nostdlib "$work/empty.c" -o "$work/empty-audit.so"
cc -O2 -shared -fPIC "$work/libc.c" -o "$work/libc-audit.so"
results=$work/pairs.txt
: >"$results"

# batch AUDIT: EXECS runs of PROG with LD_AUDIT=AUDIT ("" for none), in ns.
batch() {
	local t0 t1 i
	t0=$(date +%s%N)
	for ((i = 0; i < execs; i++)); do
		LD_AUDIT=$1 "$prog"
	done
	t1=$(date +%s%N)
	echo $((t1 - t0))
}

echo "== $pairs pairs of $execs execs of $prog, $(uname -r), $(nproc) CPUs, glibc $(ldd --version | head -1 | awk '{print $NF}')"
for i in $(seq "$pairs"); do
	# Alternate the order, so that drift cancels.
	if [ $((i % 2)) -eq 1 ]; then
		n=$(batch "") e=$(batch "$work/empty-audit.so")
		l=$(batch "$work/libc-audit.so") o=$(batch "$ours")
	else
		o=$(batch "$ours") l=$(batch "$work/libc-audit.so")
		e=$(batch "$work/empty-audit.so") n=$(batch "")
	fi
	{
		echo "empty-vs-none true $n $e"
		echo "libc-vs-empty true $e $l"
		echo "ours-vs-empty true $e $o"
	} >>"$results"
done
python3 "$top/bench/ratio.py" "$results"
python3 - "$results" "$execs" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    label, _, a, b = line.split()
    rows.setdefault(label, []).append((int(b) - int(a)) / int(sys.argv[2]) / 1000)
for label, d in rows.items():
    d.sort()
    print("%s: %+.1f us per exec (median; "
          "p10 %+.1f, p90 %+.1f)" % (label, statistics.median(d),
                                       d[len(d) // 10], d[-1 - len(d) // 10]))
PY
