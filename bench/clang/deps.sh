#!/bin/bash
# Debian 12's own clang-19, as shipped (no relink), whose code is in
# libLLVM.so.19.1 and libclang-cpp.so.19.1: the benchmark's corpus
# compiled with the libraries' text in small folios against the same
# after `hugetext warm --deps /usr/bin/clang-19`, and against the same
# with the audit module (LD_AUDIT=hugetext-audit.so), in interleaved
# rounds of three.
#
# Each side starts from an empty page cache (drop_caches), brings the
# files in its way (a first compile: small folios by readahead; or
# `hugetext warm --deps`: huge folios; or a first compile with the audit
# module: huge folios where its advice comes before the first fault)
# and then times one compile of the whole corpus the same way, so no
# timed run reads from the disk.  Prints the ratios against the small
# folios (bench/ratio.py: median, p10-p90), the coverage of the two
# libraries' resident text in a compile for each way, and the page cache
# each added.
#
# Usage: bench/clang/deps.sh BUILD_DIR [PAIRS]   (as root; default 6;
#        0: only the coverage and page cache of each way)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "bench/clang/deps.sh: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: bench/clang/deps.sh BUILD_DIR [PAIRS]"
build=$(cd "$1" && pwd) pairs=${2:-6}
# shellcheck source=toolchain/pins
. "$top/toolchain/pins"
clang=/usr/bin/$(python3 "$top/tables/pins.py" host-clang) || die "tables/pins.py: no host clang"
hugetext=$build/bin/hugetext
audit=$build/lib/hugetext-audit.so
[ "$(id -u)" -eq 0 ] || die "needs root (it drops the page cache)"
[ -x "$clang" ] || die "$clang is missing (apt-get install clang-$HOST_LLVM)"
{ [ -x "$hugetext" ] && [ -f "$audit" ]; } ||
	die "$hugetext or $audit is missing: run ./run build first"
work=$build/bench-deps
mkdir -p "$work"
"$top/bench/clang/corpus.sh" "$clang" "$build" "$work/corpus"
results=$work/pairs.txt
: >"$results"

drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
cached_kb() { awk '/^Cached:/ { print $2 }' /proc/meminfo; }
compile() { "$top/bench/clang/compile-corpus.sh" "$clang" "$work/corpus"; }
timed() {
	local t0 t1
	t0=$(date +%s%N); compile; t1=$(date +%s%N)
	echo $((t1 - t0))
}
small() { drop; compile; timed; }
huge() { drop; "$hugetext" warm --deps "$clang" >/dev/null 2>&1 || :; compile; timed; }
audited() { drop; export LD_AUDIT=$audit; compile; timed; unset LD_AUDIT; }

echo "== $pairs pairs, $(uname -r), THP $(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled), $(nproc) CPUs, $(findmnt -n -o FSTYPE -T /usr/lib)"
for i in $(seq "$pairs"); do
	# Rotate which side goes first, so that drift cancels.
	case $((i % 3)) in
	1) s=$(small); h=$(huge); a=$(audited) ;;
	2) h=$(huge); a=$(audited); s=$(small) ;;
	0) a=$(audited); s=$(small); h=$(huge) ;;
	esac
	echo "deps clang-$HOST_LLVM $s $h" | tee -a "$results"
	echo "audit clang-$HOST_LLVM $s $a" | tee -a "$results"
done
[ "$pairs" -eq 0 ] || python3 "$top/bench/ratio.py" "$results"

# What a compile gets, each way: the PMD-mapped share of the libraries'
# resident text, and the page cache that way added.
coverage() {
	"$hugetext" status --json --delay=1 -- "$@" "$clang" -O2 -w -c "$work/corpus/elf.i" -o /dev/null |
	python3 -c '
import json, sys
def maps(o):
    if isinstance(o, dict):
        if "file_pmd_mapped" in o:
            yield o
        for v in o.values():
            yield from maps(v)
    elif isinstance(o, list):
        for v in o:
            yield from maps(v)
for m in maps(json.load(sys.stdin)):
    if "libLLVM" in m["path"] or "libclang-cpp" in m["path"]:
        print("%s: %d of %d MiB resident text PMD-mapped (text %.1f MiB)" % (
            m["path"], m["file_pmd_mapped"] >> 20, m["rss"] >> 20,
            m["size"] / 2**20))'
}
for way in small warm audit; do
	drop
	before=$(cached_kb)
	case $way in
	small) coverage env ;;
	warm) "$hugetext" warm --deps "$clang" >/dev/null 2>&1 || :; coverage env ;;
	audit) coverage env LD_AUDIT="$audit" ;;
	esac | sed "s/^/$way: /"
	echo "$way: page cache added, a compile included: $(( ($(cached_kb) - before) / 1024 )) MiB"
done
