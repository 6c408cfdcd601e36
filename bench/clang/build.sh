#!/bin/bash
# Build the objects of the benchmark's clang: clang 19 with all of clang
# and LLVM linked in statically from Debian's archives (libclang-19-dev,
# llvm-19-dev, libpolly-19-dev), about 87 MiB of text.
#
# Usage: bench/clang/build.sh OUT_DIR
#
# The driver sources (clang/tools/driver/*.cpp) come from the upstream
# tarball of Debian 12's llvm-toolchain-19 (the same for every Debian
# revision of 19.1.7), downloaded once into the cache and checked against
# the SHA256 below, which is the one bookworm's signed Sources index
# gives.  The objects go to OUT_DIR/obj; OUT_DIR/link-inputs gets the
# objects, archives and libraries to link, one per line, for any linker.
set -euo pipefail

die() { echo "bench/clang/build.sh: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: bench/clang/build.sh OUT_DIR"
out=$1
here=$(cd "$(dirname "$0")" && pwd)
cache=${HUGETEXT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugetext}
# HOST_LLVM, HOST_LLVM_VERSION, HOST_LLVM_ORIG_SHA256: Debian 12's LLVM.
# shellcheck source=toolchain/pins
. "$here/../../toolchain/pins"
n=$HOST_LLVM v=$HOST_LLVM_VERSION
llvm=/usr/lib/llvm-$n
mirror=http://deb.debian.org/debian
pool=pool/main/l/llvm-toolchain-$n
orig=$cache/bench-clang/llvm-toolchain-${n}_$v.orig.tar.xz
orig_sha256=$HOST_LLVM_ORIG_SHA256
topdir="llvm-toolchain-${n}_$v"
driver=$cache/bench-clang/clang-driver-$v

[ -x "$llvm/bin/llvm-config" ] || die "no $llvm/bin/llvm-config (install llvm-$n-dev)"
ls "$llvm"/lib/libclangDriver.a >/dev/null 2>&1 ||
	die "no clang archives in $llvm/lib (install libclang-$n-dev)"
[ -f "$llvm/lib/libPolly.a" ] || die "no $llvm/lib/libPolly.a (install libpolly-$n-dev)"

# The driver's sources, once, from the checked tarball in the cache.
if [ ! -f "$driver.ok" ]; then
	mkdir -p "$cache/bench-clang"
	if [ ! -f "$orig" ]; then
		echo "downloading $(basename "$orig") (157 MiB)"
		# As root, apt's _apt sandbox user could not write into the cache.
		/usr/lib/apt/apt-helper -o APT::Sandbox::User="$(id -un)" download-file "$mirror/$pool/$(basename "$orig")" \
			"$orig.part" "SHA256:$orig_sha256" >/dev/null ||
			die "cannot download $mirror/$pool/$(basename "$orig")"
		mv "$orig.part" "$orig"
	fi
	[ "$(sha256sum "$orig" | cut -d' ' -f1)" = "$orig_sha256" ] ||
		die "$orig: SHA256 is not $orig_sha256; remove it to download again"
	echo "extracting clang/tools/driver from $(basename "$orig")"
	tmp=$(mktemp -d "$cache/bench-clang/tmp.XXXXXX")
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
