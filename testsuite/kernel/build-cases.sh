#!/bin/sh
# Build the kernel matrix's programs, for every architecture of the
# kernels prepared in OUT (OUT/kernels: NAME ARCH PAGE PACKAGE IMAGE):
# every producer that toolchain/producers marks "matrix" and makes
# programs for that architecture x every output kind it makes (of those
# the tree takes), into OUT/CASES/PRODUCER/KIND/ (probe, and for
# "shared" libbig.so and probe-dlopen, which loads it with dlopen), CASES being the architecture's case tree (the table
# below), listed in OUT/trees (ARCH CASES, a line each).  A file of
# OUT/cases/ never changes with the architectures added.
#
# An architecture here is toolchain/producers' name for it: the Debian
# architecture, with "-PAGE" for a base page other than 4 KiB: a kernel
# of OUT/kernels with ARCH arm64 and PAGE 16k wants arm64-16k, whose
# tree, cases-arm64-16k, holds pie and static programs only, with
# 32 MiB of code (.skip 0x2000000 instead of 0x300000, zero filled, the
# zeros made holes with fallocate --dig-holes): eligible for H 32 MiB,
# the PMD size of 16 KiB pages.  A producer whose flags set
# -z hugetext-page-size (`producer page-size`) is checked with
# `hugetext check --page-size` of that size.
#
# Usage: testsuite/kernel/build-cases.sh BUILD_DIR OUT_DIR
#
# Producers (`toolchain/producer describe NAME` says more): plain
# (Debian's ld.bfd), bfd and lld (the patched linkers, -z hugetext),
# plugin (Debian's ld.bfd with hugetext.so), helper (bfd, with
# libhugetext-startup linked in), seed (bfd's PIE with p_align lowered to
# 4 KiB: aligned in the file, not asking the loader to align).  Every
# output of a hugetext producer must pass `hugetext check`.
#
# arm64: the programs are made by Debian's cross compiler and C library
# (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross) with the producers'
# flags filled in with the build's aarch64 folder, BUILD_DIR/aarch64
# (toolchain/producers says what it holds).  It is a CMake build of this
# source tree for aarch64, made here and kept: its bin/hugetext,
# lib/libhugetext-startup.so and lib/hugetext-audit.so go into the arm64
# initramfs (make-images.sh), its lib/hugetext-startup.o into the
# helper's programs; bin/ld.bfd, bin/ld.lld and lib/hugetext.so link to the
# build's cross GNU ld, ld.lld and plugin.  The test program's 3 MiB of
# code is ../lib/big-text.s with its one x86-64 instruction rewritten.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
producer=$top/toolchain/producer
build=$(cd "$1" && pwd)
out=$2
work=$out/work

die() { echo "build-cases: $*" >&2; exit 1; }

# The case trees (testsuite/kernel/arches): TREE, the compiler driver,
# the producers' build folder (under BUILD_DIR), the case tree's folder
# (under OUT), the output kinds it takes ("all": every kind of each
# producer) and the size of the test program's code (big-text.s's .skip).
arches=$(python3 "$here/lib/arches.py" cases) ||
	die "testsuite/kernel/arches cannot be read"
# The case trees of the kernels of OUT/kernels (NAME ARCH PAGE), amd64's
# where it lists none.
want=$(awk '{ print $2, ($3 == "" ? "4k" : $3) }' "$out/kernels" 2>/dev/null |
	sort -u | while read -r arch page; do
		python3 "$here/lib/arches.py" tree-of "$arch" "$page" ||
			die "no case tree for $arch with $page pages (testsuite/kernel/arches)"
	done)
want=" $(echo ${want:-amd64}) "

# big_text ARCH SIZE FILE: ../lib/big-text.s for ARCH into FILE, with
# SIZE bytes of code (0x300000: the file as it is; another size: zero
# filled, so that the link's zeros can be made holes).
big_text() {
	skip="	.skip	0x300000, 0xcc"
	grep -qx "$skip" "$here/../lib/big-text.s" ||
		die "../lib/big-text.s no longer has the line '$skip' that" \
		    "the copies of another size rewrite"
	sed "s/^$skip\$/	.skip	$2, $([ "$2" = 0x300000 ] && echo 0xcc || echo 0)/" \
		"$here/../lib/big-text.s" >"$3"
	case $1 in
	amd64) ;;
	arm64*)
		sed -i 's/^\txorl\t%eax, %eax$/\tmov\tw0, #0/' "$3"
		grep -q '^	mov	w0, #0$' "$3" ||
			die "../lib/big-text.s no longer has the x86-64 line" \
			    "'xorl %eax, %eax' that its arm64 copy rewrites" ;;
	esac
}

# aarch64_build DIR: the build's aarch64 folder, made or brought up to
# date.
aarch64_build() {
	log=$1/build.log
	mkdir -p "$1"
	if [ ! -f "$1/CMakeCache.txt" ]; then
		cmake -S "$top" -B "$1" -G Ninja -DCMAKE_SYSTEM_NAME=Linux \
			-DCMAKE_SYSTEM_PROCESSOR=aarch64 \
			-DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc \
			-DHUGETEXT_FUZZ=OFF >"$log" 2>&1 ||
			{ tail -20 "$log" >&2; die "configuring $1 failed ($log)"; }
	fi
	cmake --build "$1" --target hugetext hugetext_startup_shared \
		hugetext_startup_object hugetext_audit >"$log" 2>&1 ||
		{ tail -20 "$log" >&2; die "building $1 failed ($log)"; }
	ln -sfn "$build/bin/aarch64-linux-gnu-ld" "$1/bin/ld.bfd"
	ln -sfn "$build/bin/ld.lld" "$1/bin/ld.lld"
	ln -sfn "$build/lib/hugetext.so" "$1/lib/hugetext.so"
}

huge_producers=$("$producer" list --hugetext)
huge_producers=" $(echo $huge_producers) "
: >"$out/trees"
echo "$arches" | while read -r arch cc sub cases takes size; do
	case "$arch:$want" in
	:*) continue ;;
	*" $arch "*) ;;
	*) rm -rf "${out:?}/$cases"; continue ;;
	esac
	pbuild=$build
	if [ "$sub" != . ]; then
		pbuild=$build/$sub
		aarch64_build "$pbuild"
	fi
	rm -rf "${out:?}/$cases" "$work"
	mkdir -p "$work"
	big_text "$arch" "$size" "$work/big.s"
	$cc -O1 -c "$here/probe.c" -o "$work/probe.o"
	$cc -O1 -fPIE -c "$here/probe.c" -o "$work/probe-pie.o"
	$cc -O1 -fPIE -DPROBE_DLOPEN -c "$here/probe.c" -o "$work/probe-dlopen.o"
	$cc -c "$work/big.s" -o "$work/big.o"
	for p in $("$producer" list --in matrix --arch "$arch"); do
		f=$("$producer" flags "$p" "$pbuild")
		extra=$("$producer" extra "$p" "$pbuild")
		kinds=$("$producer" kinds "$p")
		post=$("$producer" post "$p")
		hsize=$("$producer" page-size "$p")
		for kind in $kinds; do
			case ",$takes," in
			,all, | *",$kind,"*) ;;
			*) continue ;;
			esac
			d=$out/$cases/$p/$kind
			mkdir -p "$d"
			made=$d/probe
			case $kind in
			pie) $cc $f -pie "$work/probe-pie.o" "$work/big.o" $extra -o "$d/probe" ;;
			exec) $cc $f -no-pie "$work/probe.o" "$work/big.o" $extra -o "$d/probe" ;;
			static) $cc $f -static "$work/probe.o" "$work/big.o" $extra -o "$d/probe" ;;
			static-pie) $cc $f -static-pie "$work/probe-pie.o" "$work/big.o" $extra -o "$d/probe" ;;
			shared)
				# The library is the producer's; the program is a
				# plain link, with the producer's extra objects.
				made=$d/libbig.so
				$cc $f -shared "$work/big.o" -o "$made"
				$cc -fuse-ld=bfd -pie "$work/probe-pie.o" -L"$d" -lbig \
					-Wl,-rpath,'$ORIGIN' $extra -o "$d/probe"
				$cc -fuse-ld=bfd -pie "$work/probe-dlopen.o" \
					-Wl,-rpath,'$ORIGIN' $extra -o "$d/probe-dlopen" ;;
			esac
			[ -z "$post" ] || "$producer" finish "$p" "$made"
			# The zeros of a big test program take no room on disk.
			[ "$size" = 0x300000 ] || fallocate --dig-holes "$made"
			case $huge_producers in
			*" $p "*)
				"$build/bin/hugetext" check ${hsize:+--page-size=$hsize} \
					"$made" >/dev/null ||
					die "$p's $arch $kind output does not meet the layout contract" \
					    "($build/bin/hugetext check ${hsize:+--page-size=$hsize} $made)" ;;
			esac
		done
	done
	# The read-around probe and its two data files, never executed
	# (testsuite/lit/kernel/readaround.test), in the 4 KiB-page trees.
	if [ "$takes" = all ]; then
		mkdir -p "$out/$cases/data"
		$cc -O1 "$here/readaround.c" -o "$out/$cases/data/readaround"
		for f in plain exec; do
			yes "hugetext read-around data" | head -c 12M >"$out/$cases/data/$f.bin"
		done
	fi
	rm -rf "$work"
	echo "$arch $cases" >>"$out/trees"
	echo "build-cases: $(find "$out/$cases" -name probe | wc -l) $arch programs in $out/$cases"
done
