#!/bin/bash
# Build the objects of the benchmark's clang: clang 19 with all of clang
# and LLVM linked in statically from Debian's archives (libclang-19-dev,
# llvm-19-dev, libpolly-19-dev), about 87 MiB of text.
#
# Usage: bench/clang/build.sh OUT_DIR
#
# The driver sources (clang/tools/driver/*.cpp) come from the
# llvm-toolchain-19 source package that toolchain/build-toolchain.sh
# downloaded and checked into the cache (./run build does that).  The
# objects go to OUT_DIR/obj; OUT_DIR/link-inputs gets the objects,
# archives and libraries to link, one per line, for any linker.
set -euo pipefail

die() { echo "bench/clang/build.sh: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: bench/clang/build.sh OUT_DIR"
out=$1
here=$(cd "$(dirname "$0")" && pwd)
cache=${HUGETEXT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugetext}
llvm=/usr/lib/llvm-19
orig=$cache/llvm/llvm-toolchain-19_19.1.7.orig.tar.xz
topdir="llvm-toolchain-19_19.1.7"
driver=$cache/llvm/clang-driver-19.1.7

[ -x "$llvm/bin/llvm-config" ] || die "no $llvm/bin/llvm-config (install llvm-19-dev)"
ls "$llvm"/lib/libclangDriver.a >/dev/null 2>&1 ||
	die "no clang archives in $llvm/lib (install libclang-19-dev)"
[ -f "$llvm/lib/libPolly.a" ] || die "no $llvm/lib/libPolly.a (install libpolly-19-dev)"

# The driver's sources, once, from the checked tarball in the cache.
if [ ! -f "$driver.ok" ]; then
	[ -f "$orig" ] || die "no $orig: run ./run build first, which downloads" \
		"and checks the llvm-toolchain-19 sources"
	echo "extracting clang/tools/driver from $(basename "$orig")"
	tmp=$(mktemp -d "$cache/llvm/tmp.XXXXXX")
	tar -xJf "$orig" -C "$tmp" "$topdir/clang/tools/driver"
	rm -rf "$driver"
	mv "$tmp/$topdir/clang/tools/driver" "$driver"
	rm -rf "$tmp"
	touch "$driver.ok"
fi

mkdir -p "$out/obj"
read -r -a cxxflags <<<"$("$llvm/bin/llvm-config" --cxxflags)"
objs=()
for src in "$driver"/driver.cpp "$driver"/cc1_main.cpp \
	"$driver"/cc1as_main.cpp "$driver"/cc1gen_reproducer_main.cpp \
	"$here/main.cpp"; do
	obj=$out/obj/$(basename "$src" .cpp).o
	objs+=("$obj")
	[ "$obj" -nt "$src" ] && continue
	echo "compiling $(basename "$src")"
	g++ -O2 "${cxxflags[@]}" -c "$src" -o "$obj.tmp"
	mv "$obj.tmp" "$obj"
done

# All of clang's component archives (not libclang.a, the C API), all of
# LLVM's and Polly's, in one group; the system libraries stay dynamic.
{
	printf '%s\n' "${objs[@]}"
	echo -Wl,--start-group
	ls "$llvm"/lib/libclang[A-Z]*.a "$llvm"/lib/libLLVM*.a \
		"$llvm"/lib/libPolly*.a
	echo -Wl,--end-group
	printf '%s\n' -lz3 -lz -lzstd -lxml2 -lrt -ldl -lm -lpthread
} >"$out/link-inputs.tmp"
mv "$out/link-inputs.tmp" "$out/link-inputs"
