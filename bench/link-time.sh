#!/bin/sh
# Link time with and without -z hugetext, as a ratio measured in one run.
#
# Usage: bench/link-time.sh [BUILD_DIR] [PAIRS]   (defaults: build, 15)
#
# Links two programs -- the demo program (4 MiB of code) and a bigger one
# (40 MiB) -- with every linker in BUILD_DIR/bin that knows -z hugetext,
# and with the system's ld.bfd with and without BUILD_DIR/lib/hugetext.so,
# PAIRS times each way, interleaved (plain, hugetext, hugetext, plain, ...)
# so that drift on the machine hits both alike, and prints the median
# times and the ratio hugetext / plain with its spread.  Output files go
# to a tmpfs-free folder under BUILD_DIR/bench; results are also written
# to BUILD_DIR/bench/link-time.txt.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
pairs=${2:-15}
bin=$build/bin
work=$build/bench/link-time
mkdir -p "$work"

say() { printf '%s\n' "$*"; }

# Objects: the demo program, and the same generator at ten times the size.
gcc -B"$bin/" -O2 -c "$top/demo/main.c" -o "$work/main.o"
for p in demo:4200 big:42000; do
	name=${p%%:*} funcs=${p#*:}
	"$top/demo/gen-text.sh" "$funcs" >"$work/$name.s"
	gcc -B"$bin/" -c "$work/$name.s" -o "$work/$name.o"
done

now_ns() { date +%s%N; }

# link LINKER PROGRAM OUT [FLAG]: one link, its wall time in ns on stdout.
link() {
	t0=$(now_ns)
	gcc -B"$bin/" -fuse-ld="$1" "$work/main.o" "$work/$2.o" -o "$work/$3" ${4:+"$4"}
	t1=$(now_ns)
	echo $((t1 - t0))
}

# link_system PROGRAM OUT [FLAG]: the same with the system's own ld.bfd
# (no -B), for the plugin, which serves an unpatched ld.
link_system() {
	t0=$(now_ns)
	gcc -fuse-ld=bfd "$work/main.o" "$work/$1.o" -o "$work/$2" ${3:+"$3"}
	t1=$(now_ns)
	echo $((t1 - t0))
}

supports() {
	gcc -B"$bin/" -fuse-ld="$1" -nostdlib -Wl,--fatal-warnings \
		-Wl,-z,hugetext -Wl,-e,0 "$work/demo.o" -o "$work/probe" \
		>/dev/null 2>&1
}

results=$work/times.txt
: >"$results"
for linker in bfd lld; do
	if ! supports "$linker"; then
		say "ld.$linker: skipped (no -z hugetext in this build)"
		continue
	fi
	for prog in demo big; do
		link "$linker" "$prog" warm >/dev/null	# page cache, once
		i=0
		while [ $i -lt "$pairs" ]; do
			if [ $((i % 2)) -eq 0 ]; then
				a=$(link "$linker" "$prog" plain)
				b=$(link "$linker" "$prog" huge -Wl,-z,hugetext)
			else
				b=$(link "$linker" "$prog" huge -Wl,-z,hugetext)
				a=$(link "$linker" "$prog" plain)
			fi
			echo "ld.$linker $prog $a $b" >>"$results"
			i=$((i + 1))
		done
	done
done

# The plugin: the system's ld.bfd with -plugin hugetext.so against the
# same ld without it.
plugin=$build/lib/hugetext.so
if [ -f "$plugin" ]; then
	for prog in demo big; do
		link_system "$prog" warm >/dev/null
		i=0
		while [ $i -lt "$pairs" ]; do
			if [ $((i % 2)) -eq 0 ]; then
				a=$(link_system "$prog" plain)
				b=$(link_system "$prog" huge -Wl,-plugin,"$plugin")
			else
				b=$(link_system "$prog" huge -Wl,-plugin,"$plugin")
				a=$(link_system "$prog" plain)
			fi
			echo "plugin $prog $a $b" >>"$results"
			i=$((i + 1))
		done
	done
else
	say "plugin: skipped ($plugin is not built)"
fi

{
	say "link time, -z hugetext (or the plugin) vs plain: $pairs interleaved pairs per row"
	say "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
	say "command: bench/link-time.sh $build $pairs   ($(date -u +%Y-%m-%dT%H:%MZ))"
	python3 "$top/bench/ratio.py" "$results"
} | tee "$build/bench/link-time.txt"
