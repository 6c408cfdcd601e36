#!/bin/sh
# One cell of the kernel matrix, inside the VM:
#   run-cell MODE FS PRODUCER KIND METHOD
# Sets the THP mode, starts from an empty page cache, prepares the file as
# METHOD says (exec: nothing; ra128: as exec, with the disk's read_ahead_kb
# 128 instead of QEMU's 8192; warm: hugetext warm --collapse; helper: the
# program has libhugetext-startup linked in, HUGETEXT_STARTUP=collapse;
# audit: the program runs with LD_AUDIT=hugetext-audit.so, found by
# ld.so in the initramfs's library folder, HUGETEXT_STARTUP unset;
# the name of a loader of /loader/: the probe runs under that ld.so,
# which maps the program itself, with that loader's GLIBC_TUNABLES),
# runs the probe and prints its RESULT line.  KIND dlopen is the shared
# kind's library loaded with dlopen by the probe-dlopen program.
#
# METHOD khugepaged (a sixth argument: the seconds to measure at, as
# "10,30,60") starts the probe in the background and prints STARTED: it
# measures at those times with khugepaged awake.
#   run-cell khugepaged wake     khugepaged's settings as the kernel booted
#   run-cell khugepaged collect  waits for the started probes, prints each
#                                one's lines after "CELL MODE FS PRODUCER
#                                KIND", then puts khugepaged to sleep again
# And three measures of the page cache:
#   run-cell folios MODE FS      the folio probe (fsfolios.c) on FS's data
#                                file /mnt/FS/folios.bin, in THP MODE,
#                                from an empty, compacted page cache: the
#                                kernel matrix's folio cells
# and, for testsuite/lit/kernel/readaround.test:
#   run-cell readaround MODE FS  the read-around probe on the data file
#                                never mapped executable, then on the one
#                                it maps executable first through the same
#                                open file, then through another open of
#                                it (the most each cached in three rounds)
#   run-cell cached MODE FS PRODUCER
#                                every kind of PRODUCER run cold, then
#                                "CACHED delta_kb=D files_kb=F": what
#                                Cached of /proc/meminfo grew by (the
#                                least of three rounds), and the size of
#                                the files run
k=/sys/kernel/mm/transparent_hugepage/khugepaged
kh=/tmp/khugepaged
cached_kb() { awk '/^Cached:/ { print $2 }' /proc/meminfo; }
case $1 in
readaround | cached | folios)
	echo "$2" >/sys/kernel/mm/transparent_hugepage/enabled
	tree=/mnt/$3/$(cat /etc/hugetext-cases)
	sync
	echo 3 >/proc/sys/vm/drop_caches ;;
esac
case $1 in
folios)
	# Compacted too, as for a cell (below): a folio of PMD size must be
	# there to be found.
	echo 1 >/proc/sys/vm/compact_memory 2>/dev/null
	"$tree/data/fsfolios" "/mnt/$3/folios.bin"
	exit ;;
readaround)
	# Each probe three times from an empty page cache, the line that
	# cached the most printed: once, right after boot with the CPUs
	# busy, a read-around of Debian's 7.2 was seen to end early (4112
	# of 8192 KiB), which a window that the kernel bounds does not do.
	for f in plain exec other; do
		most=-1 line=''
		for round in 1 2 3; do
			[ "$round" = 1 ] || { sync; echo 3 >/proc/sys/vm/drop_caches; }
			if [ $f != plain ]; then
				out=$("$tree/data/readaround" "$tree/data/exec.bin" $f)
			else
				out=$("$tree/data/readaround" "$tree/data/plain.bin")
			fi || { echo "$out"; exit 2; }
			kb=${out#*cached=}
			kb=${kb%% *}
			if [ "$kb" -gt "$most" ]; then
				most=$kb line=$out
			fi
		done
		echo "$line"
	done
	exit 0 ;;
cached)
	# Three times from an empty page cache, the least growth printed:
	# what else the system caches meanwhile only adds to it.
	least=
	for round in 1 2 3; do
		[ "$round" = 1 ] || { sync; echo 3 >/proc/sys/vm/drop_caches; }
		before=$(cached_kb) files=0
		for d in "$tree/$4"/*/; do
			arg=
			[ -f "$d/libbig.so" ] && arg=lib
			"$d/probe" $arg >/dev/null || exit
			for f in "$d"probe "$d"libbig.so; do
				[ -f "$f" ] && files=$((files + $(stat -c %s "$f")))
			done
		done
		delta=$(($(cached_kb) - before))
		[ -n "$least" ] && [ "$least" -le "$delta" ] || least=$delta
	done
	echo "CACHED delta_kb=$least files_kb=$((files / 1024))"
	exit 0 ;;
esac
if [ "$1" = khugepaged ]; then
	case $2 in
	wake)
		rm -rf "$kh"
		mkdir -p "$kh"
		# init.sh kept the boot values.
		while read -r name value; do
			echo "$value" >"$k/$name"
		done </etc/khugepaged.boot
		echo "AWAKE $(cd $k && for f in scan_sleep_millisecs alloc_sleep_millisecs pages_to_scan; do printf '%s=%s ' $f "$(cat $f)"; done)" ;;
	collect)
		for f in "$kh"/*.out; do
			[ -e "$f" ] || continue
			while ! grep -q '^EXIT' "$f"; do sleep 1; done
			echo "CELL $(basename "$f" .out | tr , ' ')"
			cat "$f"
		done
		echo 3600000 >$k/scan_sleep_millisecs
		echo 3600000 >$k/alloc_sleep_millisecs
		echo "COLLECTED" ;;
	esac
	exit 0
fi
mode=$1 fs=$2 producer=$3 kind=$4 method=$5
prog=probe
if [ "$kind" = dlopen ]; then
	kind=shared prog=probe-dlopen
fi
# The case tree of this initramfs's architecture (make-images.sh).
dir=/mnt/$fs/$(cat /etc/hugetext-cases)/$producer/$kind
[ -x "$dir/$prog" ] || { echo "RESULT error=no-such-case"; exit 2; }
echo "$mode" >/sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null ||
	{ echo "RESULT error=no-thp"; exit 2; }
sync
echo 3 >/proc/sys/vm/drop_caches
# Compacted, too: the cells before this one leave free memory in pieces
# (the tmpfs copies stay), and a PMD-size folio of 32 MiB (16 KiB pages)
# was once not found for the last warm cell of a run.  Each cell starts
# from the same memory, so its result is the kernel's, not the order's.
echo 1 >/proc/sys/vm/compact_memory 2>/dev/null
arg=
target=$dir/$prog
if [ "$kind" = shared ]; then
	arg=lib
	target=$dir/libbig.so
fi
ra=
case $method in
warm)
	# --collapse: MADV_COLLAPSE where the kernel can collapse file text
	# (lib/filesystems.def says where), MADV_HUGEPAGE readahead first.
	hugetext warm --collapse "$target" >/tmp/warm.out 2>&1
	echo "WARM status=$? $(head -c 200 /tmp/warm.out | tr '\n' ' ')" ;;
helper)
	export HUGETEXT_STARTUP=collapse ;;
audit)
	unset HUGETEXT_STARTUP
	export LD_AUDIT=hugetext-audit.so ;;
ra128)
	# The disk behind FS (init.sh: ext4 on vda, xfs on vdb).
	case $fs in
	ext4) ra=/sys/block/vda/queue/read_ahead_kb ;;
	xfs) ra=/sys/block/vdb/queue/read_ahead_kb ;;
	*) echo "RESULT error=no-disk-for-$fs"; exit 2 ;;
	esac
	old_ra=$(cat $ra)
	echo 128 >$ra ;;
khugepaged)
	out=$kh/$mode,$fs,$producer,$4.out
	[ -n "${6:-}" ] || { echo "RESULT error=no-times"; exit 2; }
	("$dir/$prog" $arg at "$6" >"$out" 2>&1; echo "EXIT $?" >>"$out") &
	echo "STARTED"
	exit 0 ;;
esac
if [ -d "/loader/$method" ]; then
	l=/loader/$method
	GLIBC_TUNABLES=$(cat "$l/tunables") exec "$l"/ld-linux*.so.* \
		--library-path "$l:$dir" "$dir/$prog" $arg
fi
"$dir/$prog" $arg
rc=$?
[ -z "$ra" ] || echo "$old_ra" >$ra
exit $rc
