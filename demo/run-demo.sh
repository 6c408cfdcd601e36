#!/bin/sh
# The main job: build a program with a little over 4 MiB of code, link it
# plain and with -z hugetext using every producer this build has, show the
# layouts side by side with the verdict of `hugetext check`, run each one,
# and report how much of its text the running kernel mapped with huge
# pages, saying why where that is none.
#
# Usage: demo/run-demo.sh [BUILD_DIR]   (default: build; ./run demo calls it)

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
bin=$build/bin
work=$build/demo
hugetext=$bin/hugetext
H_KB=2048

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
# toolchain/producers marks "demo".
producer=$top/toolchain/producer
producers=$("$producer" list --in demo)
huge_producers=$("$producer" list --hugetext)
huge_producers=" $(echo $huge_producers) "
variants=
huge_linked=no
say "== Linking (toolchain/producers: the producers marked demo)"
for p in $producers; do
	# Exit 1: this build cannot link that way (skip it); anything else
	# is a broken table or reader.
	why=$("$producer" supports "$p" "$build") && rc=0 || rc=$?
	[ $rc -le 1 ] || exit $rc
	if [ $rc -eq 1 ]; then
		say "  $p: skipped: $why"
		continue
	fi
	flags=$("$producer" flags "$p" "$build")
	extra=$("$producer" extra "$p" "$build")
	ld=$("$producer" linker "$p" "$build")
	if ! gcc $flags "$work/main.o" "$work/text.o" $extra -o "$work/$p" \
		2>"$work/$p.log"; then
		say "  $p: link failed:"; sed 's/^/    /' "$work/$p.log"
		exit 1
	fi
	[ -z "$("$producer" post "$p")" ] || "$producer" finish "$p" "$work/$p"
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

run_one() {
	exe=$1
	fifo=$work/fifo.$$
	rm -f "$fifo"
	mkfifo "$fifo"
	HUGETEXT_DEMO_WAIT=1 "$exe" <"$fifo" >"$work/run.out" &
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
	printf '  %-16s %-18s start aligned: %-3s  text %5s KiB, PMD-mapped %5s KiB (%3s%%)\n' \
		"$(basename "$exe")" "$fs" "$1" "$2" "$3" "$pct"
	last_aligned=$1 last_text=$2 last_pmd=$3
}

thp=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)
kernel=$(uname -r)
say ""
say "== Running (kernel $kernel, THP '$thp')"
fstype() {
	findmnt -n -o FSTYPE -T "$1" 2>/dev/null || stat -f -c %T "$1"
}
fs=$(fstype "$work")
# The best coverage of an aligned text, from the build folder.
best_aligned_pmd=0 best_aligned_text=0
for v in $variants; do
	run_one "$work/$v"
	if [ "$last_aligned" = yes ] && [ "$last_pmd" -ge "$best_aligned_pmd" ]; then
		best_aligned_pmd=$last_pmd best_aligned_text=$last_text
	fi
done

# A tmpfs with huge=always holds file pages in huge pages as they are
# written: where this machine lets us mount one, run from there too.
if [ "$(id -u)" -eq 0 ]; then
	tmpfs=$(mktemp -d)
	if mount -t tmpfs -o huge=always,size=256M hugetext-demo "$tmpfs" 2>/dev/null; then
		fs="tmpfs,huge=always"
		for v in $variants; do
			cp "$work/$v" "$tmpfs/$v"
			run_one "$tmpfs/$v"
		done
		umount "$tmpfs"
	else
		say "  (could not mount a tmpfs with huge=always here; skipped that run)"
	fi
	rmdir "$tmpfs"
	tmpfs=
fi

# ---- 5. Why, in plain words.
say ""
say "== What this shows"
say "- A plain link puts the text at a file offset and address that are not"
say "  congruent modulo 2 MiB: no kernel can map any of it with huge pages."
say "- maxpage-lld (-z max-page-size=2M -z separate-loadable-segments) and"
say "  maxpage-bfd (-z max-page-size=2M) are today's workaround: every"
say "  segment is 2 MiB-aligned, which bloats the file, and the text's last"
say "  partial 2 MiB is still not padded, so it stays in small pages (the"
say "  contract's rule \`end\`)."
if [ $huge_linked = yes ]; then
	say "- A -z hugetext link starts and ends the text on 2 MiB boundaries in"
	say "  both address and file offset, which is what huge pages need."
else
	say "- No producer of the hugetext layout is built yet (the patch series"
	say "  are empty), so only plain links are shown."
fi
fsname=$(fstype "$work")
if [ "$best_aligned_pmd" -gt 0 ] && [ "$best_aligned_pmd" -ge "$best_aligned_text" ]; then
	say "- From $work ($fsname) an aligned text was mapped with huge pages in"
	say "  full: this kernel keeps this file system's page cache in huge folios."
elif [ "$best_aligned_pmd" -gt 0 ]; then
	say "- From $work ($fsname, kernel $kernel) an aligned text was mapped with"
	say "  huge pages in part: the kernel's large-folio readahead put some of it"
	say "  in huge folios, the rest stayed small.  Reading the file once with"
	say "  MADV_HUGEPAGE before the run (what 'hugetext warm' is for) fills the"
	say "  page cache with huge folios, and every later run is mapped in full."
elif [ "$best_aligned_text" -gt 0 ]; then
	say "- From $work ($fsname, kernel $kernel) nothing was PMD-mapped:"
	case $fsname in
	ext4)
		say "  ext4 caches file text in small folios unless the kernel has"
		say "  large folios for ext4 (Linux 6.16 and later) and the file was"
		say "  read with MADV_HUGEPAGE or collapsed (MADV_COLLAPSE: from Linux"
		say "  7.2 on ext4 with 4 KiB pages; before, only with"
		say "  READ_ONLY_THP_FOR_FS, which Debian's kernels lack).  A plain"
		say "  exec does neither." ;;
	xfs)
		say "  XFS has large folios, but a plain exec reads text ahead in small"
		say "  ones; a reader with MADV_HUGEPAGE must fill the cache first." ;;
	*)
		say "  this file system ($fsname) does not hold file text in huge folios." ;;
	esac
fi
say "- On tmpfs with huge=always (ShmemPmdMapped), an aligned text is mapped"
say "  with huge pages in full; a plain one is not, whatever the file system."
