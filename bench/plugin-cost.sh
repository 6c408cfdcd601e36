#!/bin/sh
# Where the plugin's link time goes: the system's ld.bfd without the
# plugin, with the plugin loaded but deciding not to lay out
# (HUGETEXT_PLUGIN_DECISION=off: loading, reading the command line, the
# estimate and the exit step's check of the output), and with the layout
# (its linker scripts and the padded output written at exit), each as a
# ratio to the link without the plugin in the same round.
#
# Usage: bench/plugin-cost.sh [BUILD_DIR] [ROUNDS]   (build, 11)
#
# The programs are bench/programs.sh's (4 MiB and 40 MiB of code), linked
# as PIEs to a folder on BUILD_DIR's file system and to one on /dev/shm
# (a tmpfs); the variants run in turn within each round, their order
# rotated from round to round.  Prints bench/ratio.py's table: rows
# "loaded" (the plugin's fixed cost) and "plugin" (all of it); the
# difference is what the layout costs.  docs/benchmarks.md has a run.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
rounds=${2:-11}
plugin=$build/lib/hugetext.so
work=$build/bench/plugin-cost
[ -f "$plugin" ] || { echo "plugin-cost: no $plugin (run ./run build)" >&2; exit 1; }
mkdir -p "$work"
"$top/bench/programs.sh" "$work" /usr/bin
shm=/dev/shm/hugetext-plugin-cost.$$
trap 'rm -rf "$shm"' EXIT
mkdir -p "$work/out" "$shm"

# one VARIANT PROGRAM OUT: a link, its wall time in ns.
one() {
	flags=-fuse-ld=bfd decide=
	[ "$1" = plain ] || flags="$flags -Wl,-plugin,$plugin"
	[ "$1" != loaded ] || decide=HUGETEXT_PLUGIN_DECISION=off
	t0=$(date +%s%N)
	# shellcheck disable=SC2086 # the flags are words; DECIDE may be none
	env $decide gcc -pie $flags "$work/main.o" "$work/$2.o" -o "$3/$1"
	echo $(($(date +%s%N) - t0))
}

times=$work/times.txt
: >"$times"
for out in "$work/out" "$shm"; do
	fs=$(df --output=fstype "$out" | tail -n 1)
	for prog in demo big; do
		one plain "$prog" "$out" >/dev/null	# page cache, once
		r=0
		while [ $r -lt "$rounds" ]; do
			case $((r % 3)) in
			0) order="plain loaded plugin" ;;
			1) order="loaded plugin plain" ;;
			*) order="plugin plain loaded" ;;
			esac
			for v in $order; do
				t=$(one "$v" "$prog" "$out")
				case $v in
				plain) t_plain=$t ;;
				loaded) t_loaded=$t ;;
				*) t_plugin=$t ;;
				esac
			done
			{
				echo "loaded $prog@$fs $t_plain $t_loaded"
				echo "plugin $prog@$fs $t_plain $t_plugin"
			} >>"$times"
			r=$((r + 1))
		done
	done
done
{
	echo "plugin cost: the system's ld.bfd, $rounds rounds per row, each against the link without the plugin"
	echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
	echo "command: bench/plugin-cost.sh $build $rounds   ($(date -u +%Y-%m-%dT%H:%MZ))"
	python3 "$top/bench/ratio.py" --link-target "$times"
} | tee "$work/plugin-cost.txt"
