#!/bin/sh
# Link time with and without -z hugetext, as a ratio measured in one run.
#
# Usage: bench/link-time.sh [BUILD_DIR] [PAIRS] [PRODUCER...]
#        (defaults: build, 15, every producer marked "bench")
#
# Links two programs -- the demo program (4 MiB of code) and a bigger one
# (40 MiB) -- as each hugetext producer that producers/table marks
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
producer=$top/producers/producer
# shellcheck source=producers/usable.sh
. "$top/producers/usable.sh"
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

# args PRODUCER PROGRAM OUT: the driver's arguments that link PROGRAM
# into OUT as PRODUCER does (`producer command`), on one line, with
# HUGETEXT_BENCH_FLAGS before the inputs.
args() {
	if [ "$2" = clang ]; then
		# shellcheck disable=SC2046 # one input per line
		set -- "$1" "$3" $(cat "$clang_dir/link-inputs")
	else
		set -- "$1" "$3" "$work/main.o" "$work/$2.o"
	fi
	p=$1 o=$2
	shift 2
	# shellcheck disable=SC2086 # a list of flags
	words=$("$producer" command "$p" "$build" pie "$o" \
		${HUGETEXT_BENCH_FLAGS:-} "$@") || exit 1
	printf '%s\n' "$words" | paste -sd ' '
}

# with_plugin SO ARGS: ARGS with the plugin SO in place of the one they
# load.
with_plugin() {
	so=$1
	shift
	for w in $1; do
		case $w in -Wl,-plugin,*) w=-Wl,-plugin,$so ;; esac
		printf '%s ' "$w"
	done
}

# link PROGRAM ARGS: one link of PROGRAM (g++ for clang, else gcc) with
# the driver's arguments ARGS, its wall time in ns on stdout.
link() {
	driver=gcc
	[ "$1" != clang ] || driver=g++
	t0=$(now_ns)
	# shellcheck disable=SC2086 # a list of words without blanks
	$driver $2 || exit 1
	t1=$(now_ns)
	echo $((t1 - t0))
}

results=$work/times.txt
: >"$results"
producers=${only:-$("$producer" list --in bench --hugetext)}
for p in $producers; do
	if ! producer_usable "$producer" "$p" "$build"; then
		say "$p: skipped: $PRODUCER_SKIPPED"
		continue
	fi
	base=$("$producer" baseline "$p")
	[ -n "$base" ] || die "producers/table: $p has no baseline"
	label=$p
	[ -z "$plugin_base" ] || label=plugin-ab
	for out in $outs; do
		fs=$(df --output=fstype "$out" | tail -n 1)
		for prog in $programs; do
			a_args=$(args "$base" "$prog" "$out/plain") || exit 1
			b_args=$(args "$p" "$prog" "$out/huge") || exit 1
			if [ -n "$plugin_base" ]; then
				# The same link, with the other plugin.
				a_args=$(with_plugin "$plugin_base" \
					"$(args "$p" "$prog" "$out/plain")") || exit 1
			fi
			link "$prog" "$a_args" >/dev/null || die "linking $prog ($base) failed" # page cache, once
			i=0
			while [ $i -lt "$pairs" ]; do
				if [ $((i % 2)) -eq 0 ]; then
					a=$(link "$prog" "$a_args")
					b=$(link "$prog" "$b_args")
				else
					b=$(link "$prog" "$b_args")
					a=$(link "$prog" "$a_args")
				fi
				[ -n "$a" ] && [ -n "$b" ] ||
					die "linking $prog ($base or $p) failed"
				echo "$label $prog@$fs $a $b" >>"$results"
				i=$((i + 1))
			done
			rm -f "$out/plain" "$out/huge"
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
