#!/bin/bash
# Compile the files our kernel patches change in the configurations the
# kernel matrix does not boot: THP off, arm64 with 4, 16 and 64 KiB pages,
# riscv64.  Not booted: this answers whether the series builds where
# the kernel compiles it differently (a stub for THP=n, a 32 MiB or
# 512 MiB PMD), with no warning.
#
# Usage: testsuite/kernel/compile-check.sh BUILD_DIR [NAME]
#   NAME  the "build:" kernel of the kernels file whose source and patches
#         to use (hugetext-7.2 unless given); its patched tree must be
#         there (testsuite/kernel/prepare.sh BUILD_DIR, or build-kernel.sh)
# Each configuration is tinyconfig for its architecture with the options
# of its line below, built in BUILD_DIR/kernel-matrix/compile-check/NAME;
# the objects of the .c files the series' patches change are compiled
# with W=1 -Werror.  Prints one line a configuration, and exits 1 if
# any failed (its log named).

set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2; }
build=$(cd "$1" && pwd)
name=${2:-hugetext-7.2}
src=$build/kernel-matrix/linux-$name-src
out=$build/kernel-matrix/compile-check/$name
jobs=${HUGETEXT_JOBS:-$(nproc)}
[ -f "$src/Makefile" ] || {
	echo "compile-check: no patched tree $src (run testsuite/kernel/prepare.sh $1)" >&2
	exit 2
}
# Its patches: the second item of a build: kernel's WHAT
# (PACKAGE[=VERSION],PATCHES,CONFIG), asked of the kernels file's reader.
list=$(python3 "$here/../../tables/kernels.py" list "$here/kernels" \
	name kind what) || exit 2
patches=$(printf '%s\n' "$list" | awk -F'\t' -v n="$name" '$1 == n && $2 == "build" {
		split($3, w, ","); print w[2] }')
if [ -z "$patches" ] || [ ! -d "$here/$patches" ]; then
	echo "compile-check: $name is no build: kernel" >&2
	exit 2
fi
# The .c files the patches change, as objects.
objects=$(sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "$here/$patches"/*.patch | sort -u)

# NAME | ARCH | OPTIONS (=y, or =n for "is not set"); ARCH is an
# architecture of the arches table, which says how to make its kernel.
configs='
x86_64-thp   | amd64   | 64BIT TRANSPARENT_HUGEPAGE
x86_64-nothp | amd64   | 64BIT TRANSPARENT_HUGEPAGE=n
arm64-4k     | arm64   | ARM64_4K_PAGES TRANSPARENT_HUGEPAGE
arm64-16k    | arm64   | ARM64_16K_PAGES TRANSPARENT_HUGEPAGE
arm64-64k    | arm64   | ARM64_64K_PAGES TRANSPARENT_HUGEPAGE
arm64-nothp  | arm64   | ARM64_4K_PAGES TRANSPARENT_HUGEPAGE=n
riscv64-thp  | riscv64 | 64BIT MMU TRANSPARENT_HUGEPAGE
'
failed=0
while IFS='|' read -r cname debarch opts; do
	cname=$(echo $cname) debarch=$(echo $debarch)
	[ -n "$cname" ] || continue
	make_args=$(python3 "$here/../../tables/arches.py" kernel-make "$debarch") ||
		exit 2
	read -r arch cross <<<"$make_args"
	[ "$cross" != - ] || cross=
	dir=$out/$cname log=$out/$cname.log
	mkdir -p "$dir"
	m() { make -s -C "$src" O="$dir" ARCH="$arch" CROSS_COMPILE="$cross" "$@"; }
	{
		m tinyconfig
		args=()
		for o in $opts; do
			case $o in
			*=n) args+=(--disable "${o%=n}") ;;
			*) args+=(--enable "$o") ;;
			esac
		done
		"$src/scripts/config" --file "$dir/.config" "${args[@]}"
		m olddefconfig
		for o in $opts; do
			case $o in
			*=n) ! grep -q "^CONFIG_${o%=n}=y" "$dir/.config" ;;
			*) grep -q "^CONFIG_$o=y" "$dir/.config" ;;
			esac || { echo "CONFIG_$o did not hold"; exit 1; }
		done
		m -j"$jobs" W=1 KCFLAGS=-Werror $objects
	} >"$log" 2>&1 && echo "compile-check: $cname: ok ($(echo $objects))" ||
		{ echo "compile-check: $cname: FAILED (log: $log)"; failed=1; }
done <<<"$configs"
exit $failed
