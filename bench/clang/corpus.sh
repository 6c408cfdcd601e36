#!/bin/bash
# Prepare the C corpus that the benchmark's clang compiles: 24 files of
# BFD (the binutils tree the toolchain build patched and configured: its
# bfd/Makefile names it), preprocessed once by CLANG, so that every run compiles
# exactly the same input and reads no header.
#
# Usage: bench/clang/corpus.sh CLANG BUILD_DIR OUT_DIR
set -eu

die() { echo "bench/clang/corpus.sh: $*" >&2; exit 1; }
[ $# -eq 3 ] || die "usage: bench/clang/corpus.sh CLANG BUILD_DIR OUT_DIR"
clang=$1 build=$2 out=$3
cfg=$build/toolchain/binutils/bfd
[ -f "$cfg/config.h" ] || die "no $cfg/config.h: run ./run build first"
src=$(sed -n 's/^abs_srcdir = //p' "$cfg/Makefile")
[ -d "$src" ] || die "$cfg/Makefile names no source folder"

# Generic ELF, the x86 back ends, archives, COFF/PE and the small
# formats: 7.5 s at -O2 on one core of the 2-core VM, elf.c and
# elflink.c a third of it.
files="archive bfd binary cache coffgen compress elf-strtab elf-eh-frame
	elf-properties elf elf32-i386 elf32 elf64-x86-64 elf64 elflink
	elfxx-x86 hash linker merge opncls reloc srec syms tekhex"

# The target defines the build compiles BFD with (configure's TDEFINES:
# which optional parts the configured targets need; elf-attrs.c, for one,
# is left out of an x86-64 build since binutils 2.46).
tdefines=$(sed -n 's/^TDEFINES = *//p' "$cfg/Makefile")
mkdir -p "$out"
# A corpus made from other sources or defines is made again.
stamp="$src $tdefines $files"
[ "$(cat "$out/.made-from" 2>/dev/null)" = "$stamp" ] || rm -f "$out"/*.i
for f in $files; do
	[ -f "$out/$f.i" ] && [ "$out/$f.i" -nt "$src/$f.c" ] && continue
	# shellcheck disable=SC2086 # TDEFINES: one word per define
	"$clang" -E -DHAVE_CONFIG_H -D_GNU_SOURCE $tdefines -I"$cfg" -I"$src" \
		-I"$src/../include" "$src/$f.c" -o "$out/$f.i.tmp" ||
		die "cannot preprocess $src/$f.c"
	mv "$out/$f.i.tmp" "$out/$f.i"
done
printf '%s\n' "$stamp" >"$out/.made-from"
