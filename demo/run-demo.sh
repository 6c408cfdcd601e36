#!/bin/sh
# The main job: build a program with a little over 4 MiB of code, link it
# plain and with -z hugetext using every producer this build has, show the
# layouts side by side with the verdict of `hugetext check`, run each one
# cold, after `hugetext warm`, with the startup helper and with its audit
# module, report how much
# of its text the running kernel mapped with huge pages, and say what the
# rows show and what a user of this kernel should do.
#
# Usage: demo/run-demo.sh [BUILD_DIR]   (default: build; ./run demo calls it)

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
bin=$build/bin
work=$build/demo
hugetext=$bin/hugetext
# H of the machine the demo runs on (x86-64), from lib/machines.def.
H_KB=$(python3 "$top/tables/machines.py" h_kib x86-64)

say() { printf '%s\n' "$*"; }
die() { say "demo: error: $*" >&2; exit 1; }

[ "$(uname -m)" = x86_64 ] ||
	die "the bundled program is x86-64 assembly; this machine is $(uname -m)"
for t in hugetext ld.bfd ld.lld as; do
	[ -x "$bin/$t" ] || die "$bin/$t is missing: run ./run build first"
done

rm -rf "$work"
mkdir -p "$work"
tmpfs=

cleanup() {
	if [ -n "$tmpfs" ]; then umount "$tmpfs" 2>/dev/null || :; fi
}
trap cleanup EXIT INT TERM

# ---- 1. Build the objects (with this build's assembler).
say "== Building the demo program (demo/gen-text.sh: 4200 functions of 1 KiB)"
"$top/demo/gen-text.sh" >"$work/text.s"
gcc -B"$bin/" -c "$work/text.s" -o "$work/text.o"
gcc -B"$bin/" -O2 -c "$top/demo/main.c" -o "$work/main.o"

# ---- 2. Link it every way this build can: each producer that
# producers/table marks "demo".
producer=$top/producers/producer
# shellcheck source=producers/usable.sh
. "$top/producers/usable.sh"
producers=$("$producer" list --in demo)
huge_producers=$("$producer" list --hugetext)
huge_producers=" $(echo $huge_producers) "
variants=
huge_linked=no
say "== Linking (producers/table: the producers marked demo)"
for p in $producers; do
	if ! producer_usable "$producer" "$p" "$build"; then
		say "  $p: skipped: $PRODUCER_SKIPPED"
		continue
	fi
	flags=$("$producer" flags "$p" "$build")
	extra=$("$producer" extra "$p" "$build")
	ld=$("$producer" linker "$p" "$build")
	if ! "$producer" link --cc gcc "$p" "$build" pie "$work/$p" \
		"$work/main.o" "$work/text.o" 2>"$work/$p.log"; then
		say "  $p: link failed:"; sed 's/^/    /' "$work/$p.log"
		exit 1
	fi
	variants="$variants $p"
	case $huge_producers in *" $p "*) huge_linked=yes ;; esac
	say "  $p: $("$producer" describe "$p")"
	say "    gcc $flags${extra:+ $extra} ($("$ld" --version | sed -n 1p))"
done

# ---- 3. The layouts side by side.
say ""
say "== Layouts: the largest code segment of each (hugetext check --json)"
set --
for v in $variants; do set -- "$@" "$v=$work/$v"; done
python3 "$top/demo/layout-table.py" "$hugetext" "$@"

# ---- 4. Run each, and read how the kernel mapped its text.
# coverage PID EXE: "START_ALIGNED TEXT_KB PMD_KB" for EXE's executable
# mappings in PID (FilePmdMapped for files, ShmemPmdMapped for tmpfs).
coverage() {
	awk -v exe="$2" -v hkb="$H_KB" '
		/^[0-9a-f]+-[0-9a-f]+ / {
			split($1, r, "-")
			cur = ($NF == exe && $2 ~ /x/)
			if (cur && first == "") first = r[1]
			next
		}
		cur && $1 == "Size:" { size += $2 }
		cur && ($1 == "FilePmdMapped:" || $1 == "ShmemPmdMapped:") { pmd += $2 }
		END {
			# The low 21 bits of the start address, from its hex tail.
			tail = substr(first, length(first) - 5)
			aligned = (tail ~ /^[02468ace]00000$/) ? "yes" : "no"
			print aligned, size + 0, pmd + 0
		}' "/proc/$1/smaps"
}

# drop_cache FILE: the file's pages out of the page cache (written back
# first), so that the next run starts cold.
drop_cache() {
	sync "$1" 2>/dev/null || sync
	python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$1"
}

# run_one EXE METHOD [VAR=VALUE]...: run EXE with the variables, print
# its row, and keep the result in res_<variant>_<METHOD> as
# "ALIGNED TEXT_KB PMD_KB PERCENT".
run_one() {
	exe=$1 method=$2
	shift 2
	fifo=$work/fifo.$$
	rm -f "$fifo"
	mkfifo "$fifo"
	env HUGETEXT_DEMO_WAIT=1 "$@" "$exe" <"$fifo" >"$work/run.out" &
	pid=$!
	exec 3>"$fifo"
	tries=0
	while ! grep -q '^ready$' "$work/run.out" 2>/dev/null; do
		tries=$((tries + 1))
		[ $tries -lt 600 ] || { kill "$pid"; die "$exe did not start"; }
		sleep 0.05
	done
	cov=$(coverage "$pid" "$exe")
	exec 3>&-
	wait "$pid"
	rm -f "$fifo"
	set -- $cov
	pct=0
	[ "$2" -eq 0 ] || pct=$(( $3 * 100 / $2 ))
	printf '  %-16s %-18s %-7s start aligned: %-3s  text %5s KiB, PMD-mapped %5s KiB (%3s%%)\n' \
		"$(basename "$exe")" "$fs" "$method" "$1" "$2" "$3" "$pct"
	last_aligned=$1
	eval "res_$(echo "$(basename "$exe")" | tr -c 'a-zA-Z0-9\n' _)_$method=\"$1 $2 $3 $pct\""
}

# result VARIANT METHOD FIELD: a field (1 aligned, 4 percent) of a result.
result() {
	eval "r=\${res_$(echo "$1" | tr -c 'a-zA-Z0-9\n' _)_$2:-}"
	[ -n "$r" ] || { echo -; return; }
	f=$3
	set -- $r
	eval "echo \${$f}"
}

# range METHOD: the percentages the -z hugetext producers' programs got
# with METHOD: "N %" or "N-M %", "-" where none ran that way.
range() {
	lo='' hi=''
	for v in $variants; do
		case $huge_producers in *" $v "*) ;; *) continue ;; esac
		p=$(result "$v" "$1" 4)
		[ "$p" != - ] || continue
		if [ -z "$lo" ] || [ "$p" -lt "$lo" ]; then lo=$p; fi
		if [ -z "$hi" ] || [ "$p" -gt "$hi" ]; then hi=$p; fi
	done
	if [ -z "$lo" ]; then echo -; elif [ "$lo" = "$hi" ]; then echo "$lo %"
	else echo "$lo-$hi %"; fi
}

thp=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)
kernel=$(uname -r)
helper=$build/lib/libhugetext-startup.so
audit=$build/lib/hugetext-audit.so
say ""
say "== Running (kernel $kernel, THP '$thp')"
say "  cold: nothing of the file cached; warm: after 'hugetext warm FILE';"
say "  helper: cold, with the startup helper (LD_PRELOAD, HUGETEXT_STARTUP=collapse)"
say "  audit: cold, with its audit module (LD_AUDIT, HUGETEXT_STARTUP's default)"
fstype() {
	findmnt -n -o FSTYPE -T "$1" 2>/dev/null || stat -f -c %T "$1"
}
fs=$(fstype "$work")
for v in $variants; do
	drop_cache "$work/$v"
	run_one "$work/$v" cold
	# What warm and the helper do needs text that starts aligned.
	[ "$last_aligned" = yes ] || continue
	"$hugetext" warm "$work/$v" >/dev/null 2>&1 || :
	run_one "$work/$v" warm
	drop_cache "$work/$v"
	run_one "$work/$v" helper LD_PRELOAD="$helper" HUGETEXT_STARTUP=collapse
	drop_cache "$work/$v"
	run_one "$work/$v" audit LD_AUDIT="$audit"
done

# A tmpfs with huge=always holds file pages in huge pages as they are
# written: where this machine lets us mount one, run from there too.
tmpfs_ran=no
if [ "$(id -u)" -eq 0 ]; then
	tmpfs=$(mktemp -d)
	if mount -t tmpfs -o huge=always,size=256M hugetext-demo "$tmpfs" 2>/dev/null; then
		fs="tmpfs,huge=always"
		for v in $variants; do
			cp "$work/$v" "$tmpfs/$v"
			run_one "$tmpfs/$v" tmpfs
		done
		umount "$tmpfs"
		tmpfs_ran=yes
	else
		say "  (could not mount a tmpfs with huge=always here; skipped that run)"
	fi
	rmdir "$tmpfs"
	tmpfs=
fi

# ---- 5. Why, in plain words: each sentence from the rows above.
fsname=$(fstype "$work")
cold=$(range cold) warm=$(range warm) helped=$(range helper)
audited=$(range audit)
say ""
say "== What this shows"
say "- A plain link puts the text at a file offset and address that are not"
say "  congruent modulo 2 MiB: no kernel can map any of it with huge pages."
for v in $variants; do
	case $v in maxpage-*) ;; *) continue ;; esac
	say "- $v (-z max-page-size=2M, today's workaround): cold $(result "$v" cold 4) %,"
	say "  after warm $(result "$v" warm 4) %: every segment is 2 MiB-aligned, which bloats"
	say "  the file, and the text's last partial 2 MiB is not padded, so it"
	say "  stays in small pages (the contract's rule \`end\`)."
done
if [ $huge_linked = no ]; then
	say "- No producer of the hugetext layout is built yet (the patch series"
	say "  are empty), so only plain links are shown."
	exit 0
fi
say "- A -z hugetext link starts and ends the text on 2 MiB boundaries in"
say "  both address and file offset.  From $work ($fsname, kernel $kernel,"
say "  THP '$thp') its programs were PMD-mapped: cold $cold, after"
say "  'hugetext warm' $warm, with the startup helper $helped, with its"
say "  audit module $audited."
case $cold in
100\ %) say "  This kernel reads such text in huge folios on its own." ;;
0\ %)
	say "  Cold, nothing: a plain exec reads the text ahead in small folios."
	case $fsname in
	ext4)
		say "  ext4 holds large folios from Linux 6.16, but only a reader with"
		say "  MADV_HUGEPAGE (hugetext warm) or MADV_COLLAPSE (from Linux 7.2 on"
		say "  ext4; before, only with READ_ONLY_THP_FOR_FS, which Debian's"
		say "  kernels lack) puts huge folios into the page cache." ;;
	xfs)
		say "  XFS has large folios, but a reader with MADV_HUGEPAGE must fill"
		say "  the cache with huge ones first (hugetext warm)." ;;
	esac ;;
*) say "  Cold, in part: readahead put some of the text in huge folios." ;;
esac
if [ $tmpfs_ran = yes ]; then
	plain_max=0
	for v in $variants; do
		case $huge_producers in *" $v "*) continue ;; esac
		case $v in maxpage-*) continue ;; esac
		p=$(result "$v" tmpfs 4)
		[ "$p" = - ] || [ "$p" -le "$plain_max" ] || plain_max=$p
	done
	say "- On tmpfs with huge=always (ShmemPmdMapped) they were PMD-mapped"
	say "  $(range tmpfs) from a plain exec; plain links at most $plain_max % there."
fi
say ""
if [ "$cold" = "100 %" ]; then
	say "On this kernel: nothing to do; a -z hugetext program starts in huge pages."
elif [ "$audited" = "100 %" ]; then
	say "On this kernel: run a -z hugetext program with the audit module"
	say "(LD_AUDIT=$audit, or link it with -Wl,--audit=...): it starts in huge"
	say "pages even cold, and so do the libraries it loads, with dlopen too."
	[ "$warm" != "100 %" ] ||
		say "Or run 'hugetext warm --deps PROGRAM' after installing or upgrading it."
elif [ "$warm" = "100 %" ]; then
	say "On this kernel: run 'hugetext warm --deps PROGRAM' after installing or"
	say "upgrading a -z hugetext program (or list it in /etc/hugetext/warm.list);"
	say "every start after that is mapped with huge pages.  A cold start is not."
elif [ "$helped" != - ] && [ "$helped" != "0 %" ]; then
	say "On this kernel: link or preload the startup helper (libhugetext-startup);"
	say "'hugetext warm' did not fill the page cache with huge folios here."
else
	say "On this kernel and file system ($fsname) nothing gave huge-page text;"
	say "hugetext status PROGRAM says why for a running program."
fi
