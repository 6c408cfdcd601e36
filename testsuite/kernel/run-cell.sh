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
# The placement cells (ASLR on, as init.sh sets it):
#   run-cell place MODE FS PRODUCER KIND N [nothp|nothp-a]
#                                runs the probe of the cell N times with
#                                "place" (where the text is, nothing run),
#                                under the nothp wrapper if asked (THP
#                                disabled by prctl; -a: except where
#                                advised), and prints "PLACE runs=N
#                                aligned=K addrs=D slots=S palign=L": K runs
#                                had the text on a PMD boundary, D distinct
#                                load addresses, S distinct PMD-size slots
# Memory under pressure (testsuite/lit/kernel/pressure.test):
#   run-cell fragment start|stop starts the fragmenter (fragment.c) and
#                                waits until it holds free memory in
#                                pieces (its FRAGMENT line), or stops it
#   run-cell pressure MODE FS PRODUCER KIND [WORD,...]
#                                one cold run of the cell's probe (KIND
#                                dlopen: probe-dlopen), without
#                                compacting first, and "PRESSURE read_kb=R
#                                majflt=M cached_kb=C buffers_kb=B ms=T":
#                                what was read from disk (pgpgin), the
#                                major faults, what Cached and Buffers
#                                (the filesystem's metadata) grew by, and
#                                the run's wall time, then the probe's
#                                RESULT line.  WORDs: "sparse", the probe
#                                touches one page per PMD-size range of
#                                its text (its SPARSE line), with ra128;
#                                "ra128", the disk's read_ahead_kb at the
#                                kernel's default, 128; "hint", the
#                                program runs with LD_AUDIT=
#                                hugetext-audit-hint.so (advice only, as
#                                ld.so could give it:
#                                testsuite/lit/kernel/userspace.test);
#                                "audit", with hugetext-audit.so;
#                                "verbose", HUGETEXT_STARTUP=verbose (the
#                                module says what it did); "compact",
#                                memory compacted first, as for a cell
# The model of an app's launch (testsuite/lit/kernel/apk.test):
#   run-cell apk MODE FS LIB PLACE N [RA [advise]]
#                                N launches of apk.c with LIB's archive
#                                (bfd, plain: build-cases.sh), the
#                                library placed PLACE (random: where mmap
#                                puts it; congruent: its code congruent
#                                with the archive modulo H), each from an
#                                empty, compacted page cache, with the
#                                disk's read_ahead_kb RA ("-" or none: as
#                                booted), the loader advising the library
#                                with "advise": an APK line each
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
#                                it, then through the same open file
#                                with that mapping unmapped, made
#                                read-only and advised MADV_NOHUGEPAGE
#                                (the most each cached in three rounds)
#   run-cell cached MODE FS PRODUCER
#                                every kind of PRODUCER run cold, then
#                                "CACHED delta_kb=D files_kb=F": what
#                                Cached of /proc/meminfo grew by (the
#                                least of three rounds), and the size of
#                                the files run
k=/sys/kernel/mm/transparent_hugepage/khugepaged
kh=/tmp/khugepaged
cached_kb() { awk '/^Cached:/ { print $2 }' /proc/meminfo; }
buffers_kb() { awk '/^Buffers:/ { print $2 }' /proc/meminfo; }
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
# The read_ahead_kb of the disk behind FS (init.sh: ext4 on vda, xfs on
# vdb).
disk_ra() {
	case $1 in
	ext4) echo /sys/block/vda/queue/read_ahead_kb ;;
	xfs) echo /sys/block/vdb/queue/read_ahead_kb ;;
	*) return 1 ;;
	esac
}
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
	for f in plain exec other munmap mprotect nohuge; do
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
if [ "$1" = fragment ]; then
	tree=/mnt/ext4/$(cat /etc/hugetext-cases)
	case $2 in
	start)
		sync
		echo 3 >/proc/sys/vm/drop_caches
		echo 0 >/proc/sys/vm/compact_unevictable_allowed ||
			{ echo "FRAGMENT error=no-compaction-knob"; exit 2; }
		"$tree/data/fragment" >/tmp/fragment.out 2>&1 &
		echo $! >/tmp/fragment.pid
		while ! grep -q '^FRAGMENT' /tmp/fragment.out; do
			kill -0 "$(cat /tmp/fragment.pid)" 2>/dev/null ||
				{ cat /tmp/fragment.out; exit 2; }
			sleep 1
		done
		cat /tmp/fragment.out ;;
	stop)
		kill "$(cat /tmp/fragment.pid)" ||
			{ echo "FRAGMENT error=not-running"; exit 2; }
		echo 1 >/proc/sys/vm/compact_unevictable_allowed
		echo "FRAGMENT stopped" ;;
	esac
	exit 0
fi
if [ "$1" = pressure ]; then
	echo "$2" >/sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null ||
		{ echo "PRESSURE error=no-thp"; exit 2; }
	kind=$5 prog=probe arg=
	[ "$kind" = shared ] && arg=lib
	[ "$kind" = dlopen ] && kind=shared prog=probe-dlopen arg=lib
	dir=/mnt/$3/$(cat /etc/hugetext-cases)/$4/$kind
	[ -x "$dir/$prog" ] || { echo "PRESSURE error=no-such-case"; exit 2; }
	ra= how= audit= startup= compact=
	for word in $(echo "${6:-}" | tr , ' '); do
		case $word in
		sparse) how=sparse ra=128 ;;
		ra128) ra=128 ;;
		hint) audit=hugetext-audit-hint.so ;;
		audit) audit=hugetext-audit.so ;;
		verbose) startup=verbose ;;
		compact) compact=1 ;;
		*) echo "PRESSURE error=unknown-word-$word"; exit 2 ;;
		esac
	done
	if [ -n "$ra" ]; then
		ra=$(disk_ra "$3") || { echo "PRESSURE error=no-disk-for-$3"; exit 2; }
		old_ra=$(cat "$ra")
		echo 128 >"$ra"
	fi
	sync
	echo 3 >/proc/sys/vm/drop_caches
	[ -z "$compact" ] || echo 1 >/proc/sys/vm/compact_memory
	in=$(vmstat pgpgin) maj=$(vmstat pgmajfault) cached=$(cached_kb)
	buffers=$(buffers_kb)
	t0=$(cut -d' ' -f1 /proc/uptime)
	(
		unset HUGETEXT_STARTUP
		[ -z "$startup" ] || export HUGETEXT_STARTUP=$startup
		[ -z "$audit" ] || export LD_AUDIT=$audit
		exec "$dir/$prog" $arg $how
	) >/tmp/pressure.out 2>&1
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	[ -z "$ra" ] || echo "$old_ra" >"$ra"
	echo "PRESSURE read_kb=$(($(vmstat pgpgin) - in))" \
		"majflt=$(($(vmstat pgmajfault) - maj))" \
		"cached_kb=$(($(cached_kb) - cached))" \
		"buffers_kb=$(($(buffers_kb) - buffers))" \
		"ms=$(echo "$t0 $t1" | awk '{ printf "%d", ($2 - $1) * 1000 }')"
	cat /tmp/pressure.out
	exit $rc
fi
if [ "$1" = apk ]; then
	echo "$2" >/sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null ||
		{ echo "APK error=no-thp"; exit 2; }
	data=/mnt/$3/$(cat /etc/hugetext-cases)/data
	[ -f "$data/apk-$4.apk" ] || { echo "APK error=no-such-archive"; exit 2; }
	case ${6:-} in
	'' | *[!0-9]*) echo "APK error=N-is-not-a-number: '${6:-}'"; exit 2 ;;
	esac
	offset=$(cat "$data/apk-$4.offset")
	ra=
	if [ -n "${7:-}" ] && [ "$7" != - ]; then
		ra=$(disk_ra "$3") || { echo "APK error=no-disk-for-$3"; exit 2; }
		old_ra=$(cat "$ra")
		echo "$7" >"$ra" || { echo "APK error=cannot-set-read_ahead_kb"; exit 2; }
	fi
	i=0 rc=0
	while [ $i -lt "$6" ]; do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		echo 1 >/proc/sys/vm/compact_memory 2>/dev/null
		"$data/apk" "$data/apk-$4.apk" "$offset" "$5" ${8:+"$8"} || rc=2
		i=$((i + 1))
	done
	[ -z "$ra" ] || echo "$old_ra" >"$ra"
	exit $rc
fi
if [ "$1" = place ]; then
	echo "$2" >/sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null ||
		{ echo "PLACE error=no-thp"; exit 2; }
	kind=$5 prog=probe arg=
	[ "$kind" = shared ] && arg=lib
	[ "$kind" = dlopen ] && kind=shared prog=probe-dlopen arg=lib
	tree=/mnt/$3/$(cat /etc/hugetext-cases)
	dir=$tree/$4/$kind wrap=
	case ${7:-} in
	nothp) wrap=$tree/data/nothp ;;
	nothp-a) wrap="$tree/data/nothp -a" ;;
	esac
	[ -x "$dir/$prog" ] || { echo "PLACE error=no-such-case"; exit 2; }
	case ${6:-} in
	'' | *[!0-9]*) echo "PLACE error=N-is-not-a-number: '${6:-}'"; exit 2 ;;
	esac
	h=$(cat /sys/kernel/mm/transparent_hugepage/hpage_pmd_size)
	i=0 aligned=0
	: >/tmp/place
	while [ $i -lt "$6" ]; do
		out=$($wrap "$dir/$prog" $arg place) || { echo "$out"; exit 2; }
		case $out in
		"PLACE aligned=1 "*) aligned=$((aligned + 1)) ;;
		"PLACE aligned=0 "*) ;;
		*) echo "PLACE error=bad-output: $out"; exit 2 ;;
		esac
		addr=${out#*addr=}
		addr=${addr%% *}
		echo "$addr $((addr / h))" >>/tmp/place
		i=$((i + 1))
	done
	echo "PLACE runs=$6 aligned=$aligned" \
		"addrs=$(cut -d' ' -f1 /tmp/place | sort -u | wc -l)" \
		"slots=$(cut -d' ' -f2 /tmp/place | sort -u | wc -l) ${out##* }"
	exit 0
fi
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
	ra=$(disk_ra "$fs") || { echo "RESULT error=no-disk-for-$fs"; exit 2; }
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
