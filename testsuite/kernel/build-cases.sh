#!/bin/sh
# Build the kernel matrix's programs: every producer that
# toolchain/producers marks "matrix" x every output kind it makes, into
# OUT/cases/PRODUCER/KIND/ (probe, and libbig.so for "shared").
#
# Usage: testsuite/kernel/build-cases.sh BUILD_DIR OUT_DIR
#
# Producers (`toolchain/producer describe NAME` says more): plain
# (Debian's ld.bfd), bfd and lld (the patched linkers, -z hugetext),
# plugin (Debian's ld.bfd with hugetext.so), helper (bfd, with
# libhugetext-startup linked in), seed (bfd's PIE with p_align lowered to
# 4 KiB: aligned in the file, not asking the loader to align).  Every
# output of a hugetext producer must pass `hugetext check`.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
producer=$here/../../toolchain/producer
build=$(cd "$1" && pwd)
out=$2
work=$out/work
rm -rf "$out/cases" "$work"
mkdir -p "$work"

die() { echo "build-cases: $*" >&2; exit 1; }

cc -O1 -c "$here/probe.c" -o "$work/probe.o"
cc -O1 -fPIE -c "$here/probe.c" -o "$work/probe-pie.o"
cc -c "$here/../lib/big-text.s" -o "$work/big.o"

producers=$("$producer" list --in matrix)
huge_producers=$("$producer" list --hugetext)
huge_producers=" $(echo $huge_producers) "
for p in $producers; do
	f=$("$producer" flags "$p" "$build")
	extra=$("$producer" extra "$p" "$build")
	kinds=$("$producer" kinds "$p")
	post=$("$producer" post "$p")
	for kind in $kinds; do
		d=$out/cases/$p/$kind
		mkdir -p "$d"
		made=$d/probe
		case $kind in
		pie) cc $f -pie "$work/probe-pie.o" "$work/big.o" $extra -o "$d/probe" ;;
		exec) cc $f -no-pie "$work/probe.o" "$work/big.o" $extra -o "$d/probe" ;;
		static) cc $f -static "$work/probe.o" "$work/big.o" $extra -o "$d/probe" ;;
		static-pie) cc $f -static-pie "$work/probe-pie.o" "$work/big.o" $extra -o "$d/probe" ;;
		shared)
			# The library is the producer's; the program is a plain
			# link, with the producer's extra objects.
			made=$d/libbig.so
			cc $f -shared "$work/big.o" -o "$made"
			cc -fuse-ld=bfd -pie "$work/probe-pie.o" -L"$d" -lbig \
				-Wl,-rpath,'$ORIGIN' $extra -o "$d/probe" ;;
		esac
		[ -z "$post" ] || "$producer" finish "$p" "$made"
		case $huge_producers in
		*" $p "*)
			"$build/bin/hugetext" check "$made" >/dev/null ||
				die "$p's $kind output does not meet the layout contract" \
				    "($build/bin/hugetext check $made)" ;;
		esac
	done
done
rm -rf "$work"
echo "build-cases: $(find "$out/cases" -name probe | wc -l) programs in $out/cases"
