#!/bin/sh
# Build the kernel matrix's programs, for every architecture of the
# kernels prepared in OUT (OUT/kernels: NAME ARCH PAGE PACKAGE IMAGE):
# every producer that producers/table marks "matrix" and makes
# programs for that architecture x every output kind it makes (of those
# the tree takes), into OUT/CASES/PRODUCER/KIND/ (probe, and for
# "shared" libbig.so and probe-dlopen, which loads it with dlopen), CASES being the architecture's case tree (the table
# below), listed in OUT/trees (ARCH CASES, a line each); and
# OUT/CASES/data/: the folio probe fsfolios (every tree), the read-around
# probe and its data files, and the app-launch model apk and its
# archives (the 4 KiB-page trees).  A file of
# OUT/cases/ never changes with the architectures added.
#
# An architecture here is producers/table's name for it: the Debian
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
# Producers (`producers/producer describe NAME` says more): plain
# (Debian's ld.bfd), bfd and lld (the patched linkers, -z hugetext),
# plugin (Debian's ld.bfd with hugetext.so), helper (bfd, with
# libhugetext-startup linked in), seed (bfd's PIE with p_align lowered to
# 4 KiB: aligned in the file, not asking the loader to align).  Every
# output of a hugetext producer must pass `hugetext check`.
#
# Other architectures (arm64, riscv64): the programs are made by
# Debian's cross compiler and C library (gcc-TRIPLET,
# libc6-dev-ARCH-cross) with the producers' flags filled in with the
# build's folder for that target (the arches table's BUILD: aarch64,
# riscv64; producers/table says what it holds).  It is a CMake build
# of this source tree for the target, made here and kept: its
# bin/hugetext, lib/libhugetext-startup.so and lib/hugetext-audit.so go
# into the architecture's initramfs (make-images.sh), its
# lib/hugetext-startup.o into the helper's programs; bin/ld.bfd,
# bin/ld.lld and lib/hugetext.so link to the build's cross GNU ld
# (TRIPLET-ld), ld.lld and plugin.  The test program's 3 MiB of code is
# ../lib/big-text.s with its x86-64 instructions replaced by the arches
# table's BODY.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
producer=$top/producers/producer
build=$(cd "$1" && pwd)
out=$2
work=$out/work

die() { echo "build-cases: $*" >&2; exit 1; }

# The case trees (testsuite/kernel/arches): TREE, the compiler driver,
# the producers' build folder (under BUILD_DIR), the case tree's folder
# (under OUT), the output kinds it takes ("all": every kind of each
# producer) and the size of the test program's code (big-text.s's .skip).
arches=$(python3 "$here/../../tables/arches.py" cases) ||
	die "testsuite/kernel/arches cannot be read"
# The case trees of the kernels of OUT/kernels (NAME ARCH PAGE), amd64's
# where it lists none.
want=$(awk '{ print $2, ($3 == "" ? "4k" : $3) }' "$out/kernels" 2>/dev/null |
	sort -u | while read -r arch page; do
		python3 "$here/../../tables/arches.py" tree-of "$arch" "$page" ||
			die "no case tree for $arch with $page pages (testsuite/kernel/arches)"
	done)
want=" $(echo ${want:-amd64}) "

# big_text SIZE BODY FILE: ../lib/big-text.s into FILE, with SIZE bytes
# of code (0x300000: the file as it is; another size: zero filled, so
# that the link's zeros can be made holes) and BODY (the arches table's:
# instructions separated by ";", "_" for a blank) as bigfn's
# instructions in place of x86-64's two.
big_text() {
	skip="	.skip	0x300000, 0xcc"
	first="	xorl	%eax, %eax"
	last="	ret"
	for line in "$skip" "$first" "$last"; do
		grep -qx "$line" "$here/../lib/big-text.s" ||
			die "../lib/big-text.s no longer has the line '$line'" \
			    "that its copies rewrite"
	done
	body=$(echo "$2" | tr _ ' ' | sed 's/;/\\n\t/g')
	sed -e "s/^$skip\$/	.skip	$1, $([ "$1" = 0x300000 ] && echo 0xcc || echo 0)/" \
	    -e "/^$last\$/d" -e "s/^$first\$/	$body/" \
		"$here/../lib/big-text.s" >"$3"
}

# cross_build DIR CC: the build's folder for CC's target, made or
# brought up to date; sets cc to the command that compiles and links for
# it.  CC is TRIPLET-gcc, or clang:TRIPLET: the host's clang (HOST_LLVM
# of toolchain/pins) for TRIPLET with the sysroot toolchain/cross-sysroot
# makes (DIR/sysroot links to it: make-images.sh takes the guest's C
# library from there), through the script DIR/cc, which links with the
# host's ld.lld unless the producer's flags say otherwise; with
# -fuse-ld=bfd and no -B folder (the producer plain: Debian 12 has no
# ld.bfd for TRIPLET) it finds DIR/cross/TRIPLET-ld.bfd in its PATH, the
# build's cross GNU ld.
cross_build() {
	log=$1/build.log
	mkdir -p "$1"
	case $2 in
	clang:*)
		triplet=${2#clang:}
		sysroot=$("$top/toolchain/cross-sysroot" "$triplet" | tail -n 1) ||
			die "no sysroot for $triplet (toolchain/cross-sysroot)"
		ln -sfn "$sysroot" "$1/sysroot"
		cc=$1/cc
		clang=$(python3 "$top/tables/pins.py" host-clang) ||
			die "tables/pins.py gives no host clang"
		[ -x "$build/bin/$triplet-ld" ] ||
			die "no $build/bin/$triplet-ld, the cross GNU ld that links" \
			    "$triplet's plain programs (./run build makes it)"
		mkdir -p "$1/cross"
		ln -sfn "$build/bin/$triplet-ld" "$1/cross/$triplet-ld.bfd"
		printf '#!/bin/sh\nPATH=%s:$PATH exec %s --target=%s --sysroot=%s -fuse-ld=lld -Wno-unused-command-line-argument "$@"\n' \
			"$1/cross" "$clang" "$triplet" "$sysroot" >"$cc.new"
		chmod +x "$cc.new"
		mv "$cc.new" "$cc" ;;
	*)
		triplet=${2%-gcc}
		cc=$2 ;;
	esac
	if [ ! -f "$1/CMakeCache.txt" ]; then
		cmake -S "$top" -B "$1" -G Ninja -DCMAKE_SYSTEM_NAME=Linux \
			-DCMAKE_SYSTEM_PROCESSOR="${triplet%%-*}" \
			-DCMAKE_C_COMPILER="$cc" \
			-DHUGETEXT_FUZZ=OFF >"$log" 2>&1 ||
			{ tail -20 "$log" >&2; die "configuring $1 failed ($log)"; }
	fi
	cmake --build "$1" --target hugetext hugetext_startup_shared \
		hugetext_startup_object hugetext_audit hugetext_audit_hint \
		>"$log" 2>&1 ||
		{ tail -20 "$log" >&2; die "building $1 failed ($log)"; }
	ln -sfn "$build/bin/$triplet-ld" "$1/bin/ld.bfd"
	ln -sfn "$build/bin/ld.lld" "$1/bin/ld.lld"
	ln -sfn "$build/lib/hugetext.so" "$1/lib/hugetext.so"
}

# apk_archive LIB OUT H: OUT.apk, an archive that holds the shared
# library LIB with 4 MiB of other data after it and before it as much as
# puts the library's code segment at a multiple of H bytes (4 MiB less
# the segment's offset modulo H); the library's offset in OUT.offset.
apk_archive() {
	text=$(readelf -lW "$1" | awk '$1 == "LOAD" && ($7 ~ /E/ || $8 == "E") { print $2; exit }')
	[ -n "$text" ] || die "$1 has no code segment"
	at=$((4 * 1024 * 1024 - text % $3))
	[ "$at" -gt 0 ] || die "$1: H $3 is too large for a 4 MiB lead in its archive"
	{
		yes "hugetext archive data" | head -c "$at"
		cat "$1"
		head -c $(((4096 - $(stat -c %s "$1") % 4096) % 4096)) /dev/zero
		yes "hugetext archive data" | head -c 4M
	} >"$2.apk.new"
	mv "$2.apk.new" "$2.apk"
	echo "$at" >"$2.offset"
}

huge_producers=$("$producer" list --hugetext)
huge_producers=" $(echo $huge_producers) "
: >"$out/trees"
echo "$arches" | while read -r arch cc sub cases takes size body; do
	case "$arch:$want" in
	:*) continue ;;
	*" $arch "*) ;;
	*) rm -rf "${out:?}/$cases"; continue ;;
	esac
	pbuild=$build
	if [ "$sub" != . ]; then
		pbuild=$build/$sub
		cross_build "$pbuild" "$cc"	# Sets cc.
	fi
	rm -rf "${out:?}/$cases" "$work"
	mkdir -p "$work"
	big_text "$size" "$body" "$work/big.s"
	$cc -O1 -c "$here/probe.c" -o "$work/probe.o"
	$cc -O1 -fPIE -c "$here/probe.c" -o "$work/probe-pie.o"
	$cc -O1 -fPIE -DPROBE_DLOPEN -c "$here/probe.c" -o "$work/probe-dlopen.o"
	$cc -c "$work/big.s" -o "$work/big.o"
	for p in $("$producer" list --in matrix --arch "$arch"); do
		extra=$("$producer" extra "$p" "$pbuild")
		kinds=$("$producer" kinds "$p")
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
			pie | static-pie) inputs=$work/probe-pie.o ;;
			*) inputs=$work/probe.o ;;
			esac
			if [ "$kind" = shared ]; then
				# The library is the producer's; the program is a
				# plain link, with the producer's extra objects.
				made=$d/libbig.so
				"$producer" link --cc "$cc" "$p" "$pbuild" shared "$made" \
					"$work/big.o"
				"$producer" link --cc "$cc" plain "$pbuild" pie "$d/probe" \
					"$work/probe-pie.o" -L"$d" -lbig -Wl,-rpath,'$ORIGIN' $extra
				"$producer" link --cc "$cc" plain "$pbuild" pie "$d/probe-dlopen" \
					"$work/probe-dlopen.o" -Wl,-rpath,'$ORIGIN' $extra
			else
				"$producer" link --cc "$cc" "$p" "$pbuild" "$kind" "$made" \
					"$inputs" "$work/big.o"
			fi
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
	# The folio probe (run-cell folios: the kernel matrix's folio cells),
	# in every tree; its data file is make-images.sh's.
	mkdir -p "$out/$cases/data"
	$cc -O1 "$here/fsfolios.c" -o "$out/$cases/data/fsfolios"
	# The read-around probe and its two data files, never executed
	# (testsuite/lit/kernel/readaround.test), the nothp wrapper and the
	# fragmenter, in the 4 KiB-page trees.
	if [ "$takes" = all ]; then
		$cc -O1 "$here/readaround.c" -o "$out/$cases/data/readaround"
		# run-cell place's wrapper: THP disabled by prctl, as a
		# service may run (testsuite/lit/kernel/aslr.test).
		$cc -O1 "$here/nothp.c" -o "$out/$cases/data/nothp"
		# run-cell fragment's fragmenter (testsuite/lit/kernel/pressure.test).
		$cc -O1 "$here/fragment.c" -o "$out/$cases/data/fragment"
		for f in plain exec; do
			yes "hugetext read-around data" | head -c 12M >"$out/$cases/data/$f.bin"
		done
		# run-cell apk's model of an app's launch
		# (testsuite/lit/kernel/apk.test): the shared library of bfd
		# and of plain, each stored in an archive of its own with
		# about 4 MiB of other data before it and 4 MiB after, at an
		# offset that puts its code segment at a multiple of H; the
		# offset in apk-LIB.offset.
		$cc -O1 "$here/apk.c" -o "$out/$cases/data/apk"
		# H of the tree's kernels: lib/machines.def's, through
		# tables/kernels.py, which matches it to the tree's ARCH and PAGE.
		h_kib=$(python3 "$top/tables/kernels.py" h-kib \
			"$(python3 "$top/tables/arches.py" tree "$arch" arch)" \
			"$(python3 "$top/tables/arches.py" tree "$arch" page)") ||
			die "no H for the tree $arch in lib/machines.def"
		for p in bfd plain; do
			apk_archive "$out/$cases/$p/shared/libbig.so" \
				"$out/$cases/data/apk-$p" $((h_kib * 1024))
		done
	fi
	rm -rf "$work"
	echo "$arch $cases" >>"$out/trees"
	echo "build-cases: $(find "$out/$cases" -name probe | wc -l) $arch programs in $out/$cases"
done
