#!/bin/sh
# Link time with and without -z hugetext, as a ratio measured in one run.
#
# Usage: bench/link-time.sh [BUILD_DIR] [PAIRS] [PRODUCER...]
#        (defaults: build, 15, every producer marked "bench")
#
# Links two programs -- the demo program (4 MiB of code) and a bigger one
# (40 MiB) -- as each hugetext producer that toolchain/producers marks
# "bench" links them, where BUILD_DIR can (today: bfd and lld, the
# patched linkers with -z hugetext, and plugin, the system's ld.bfd with
# BUILD_DIR/lib/hugetext.so), and as its baseline (the same linker
# without it), PAIRS times each way, interleaved (plain, hugetext,
# hugetext, plain, ...) so that drift on the machine hits both alike, and
# prints the median times and the ratio hugetext / plain with its
# spread, a row per producer and program.  A producer's post step is not
# part of the link and is not run.  Output files go to a tmpfs-free
# folder under BUILD_DIR/bench; results are also written to
# BUILD_DIR/bench/link-time.txt.
#
# HUGETEXT_BENCH_CLANG=DIR adds a third program: clang with LLVM linked
# in, from the objects bench/clang/build.sh DIR made (DIR/link-inputs).
# Each program is linked to two folders, one on BUILD_DIR's file system
# and one on /dev/shm (a tmpfs, which takes the file system's cost out
# of the times), a row each ("big@ext4", "big@tmpfs");
# HUGETEXT_BENCH_OUT="DIR..." names the folders instead.
# HUGETEXT_BENCH_PLUGIN_BASE=SO compares two builds of the plugin: the
# baseline is the link with SO, the other the link with BUILD_DIR's
# plugin (the producer "plugin" alone; rows "plugin-ab").
# HUGETEXT_BENCH_FLAGS="FLAG..." adds driver flags to both links of every
# pair (for example -Wl,--build-id=none, to see what hashing the output
# costs).
# Each row ends with whether its median ratio meets the link-time target
# (bench/ratio.py, LINK_TARGET).

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
pairs=${2:-15}
shift $(($# < 2 ? $# : 2))
only=$*
bin=$build/bin
work=$build/bench/link-time
producer=$top/toolchain/producer
mkdir -p "$work"

say() { printf '%s\n' "$*"; }
die() { say "link-time: $*" >&2; exit 1; }

# Objects: the demo program, and the same generator at ten times the size.
"$top/bench/programs.sh" "$work" "$bin"

programs="demo big"
outs=${HUGETEXT_BENCH_OUT:-"$work/out /dev/shm/hugetext-link-time.$$"}
for out in $outs; do mkdir -p "$out"; done
[ -n "${HUGETEXT_BENCH_OUT:-}" ] || trap 'rm -rf "/dev/shm/hugetext-link-time.$$"' EXIT
plugin_base=${HUGETEXT_BENCH_PLUGIN_BASE:-}
if [ -n "$plugin_base" ]; then
	[ -f "$plugin_base" ] || die "no plugin $plugin_base"
	only=plugin
fi
clang_dir=${HUGETEXT_BENCH_CLANG:-}
if [ -n "$clang_dir" ]; then
	[ -f "$clang_dir/link-inputs" ] ||
		die "no $clang_dir/link-inputs: run bench/clang/build.sh $clang_dir"
	programs="$programs clang"
fi

now_ns() { date +%s%N; }

# link FLAGS EXTRA PROGRAM OUT: one link with the driver flags FLAGS and
# the extra objects EXTRA, its wall time in ns on stdout.
link() {
	t0=$(now_ns)
	if [ "$3" = clang ]; then
		# shellcheck disable=SC2046,SC2086 # one input per line; flag lists
		g++ $1 $(cat "$clang_dir/link-inputs") $2 -o "$out/$4"
	else
		gcc $1 "$work/main.o" "$work/$3.o" $2 -o "$out/$4"
	fi
	t1=$(now_ns)
	echo $((t1 - t0))
}

results=$work/times.txt
: >"$results"
producers=${only:-$("$producer" list --in bench --hugetext)}
for p in $producers; do
	# Exit 1: this build cannot link that way (skip it); anything else
	# is a broken table or reader.
	why=$("$producer" supports "$p" "$build") && rc=0 || rc=$?
	[ $rc -le 1 ] || exit $rc
	if [ $rc -eq 1 ]; then
		say "$p: skipped: $why"
		continue
	fi
	base=$("$producer" baseline "$p")
	[ -n "$base" ] || die "toolchain/producers: $p has no baseline"
	a_flags=$("$producer" flags "$base" "$build")
	a_extra=$("$producer" extra "$base" "$build")
	b_flags=$("$producer" flags "$p" "$build")
	b_extra=$("$producer" extra "$p" "$build")
	a_flags="$a_flags ${HUGETEXT_BENCH_FLAGS:-}"
	b_flags="$b_flags ${HUGETEXT_BENCH_FLAGS:-}"
	label=$p
	if [ -n "$plugin_base" ]; then
		# The same flags, with the other plugin.
		a_flags="${b_flags%%-Wl,-plugin,*}-Wl,-plugin,$plugin_base"
		label=plugin-ab
	fi
	for out in $outs; do
		fs=$(df --output=fstype "$out" | tail -n 1)
		for prog in $programs; do
			link "$a_flags" "$a_extra" "$prog" warm >/dev/null	# page cache, once
			i=0
			while [ $i -lt "$pairs" ]; do
				if [ $((i % 2)) -eq 0 ]; then
					a=$(link "$a_flags" "$a_extra" "$prog" plain)
					b=$(link "$b_flags" "$b_extra" "$prog" huge)
				else
					b=$(link "$b_flags" "$b_extra" "$prog" huge)
					a=$(link "$a_flags" "$a_extra" "$prog" plain)
				fi
				echo "$label $prog@$fs $a $b" >>"$results"
				i=$((i + 1))
			done
			rm -f "$out/plain" "$out/huge" "$out/warm"
		done
	done
done

{
	say "link time, -z hugetext (or the plugin) vs plain: $pairs interleaved pairs per row"
	say "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
	for out in $outs; do say "output: $out ($(df --output=fstype "$out" | tail -n 1))"; done
	say "command: ${HUGETEXT_BENCH_FLAGS:+HUGETEXT_BENCH_FLAGS=\"$HUGETEXT_BENCH_FLAGS\" }${clang_dir:+HUGETEXT_BENCH_CLANG=$clang_dir }${HUGETEXT_BENCH_OUT:+HUGETEXT_BENCH_OUT=\"$outs\" }${plugin_base:+HUGETEXT_BENCH_PLUGIN_BASE=$plugin_base }bench/link-time.sh $build $pairs${only:+ $only}   ($(date -u +%Y-%m-%dT%H:%MZ))"
	# The target is not a question for two builds of the plugin.
	if [ -n "$plugin_base" ]; then
		python3 "$top/bench/ratio.py" "$results"
	else
		python3 "$top/bench/ratio.py" --link-target "$results"
	fi
} | tee "$build/bench/link-time.txt"
