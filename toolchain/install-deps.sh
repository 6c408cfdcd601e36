#!/bin/sh
# Install the Debian packages that toolchain/build-toolchain.sh needs.
# binutils' and LLVM's sources come from Debian unstable, which
# build-toolchain.sh reads through an apt configuration of its own in the
# cache, and lld is built in a sid build root that mmdebstrap makes in the
# cache: nothing here adds sid to the host's apt, and nothing else but the
# packages below changes on the host.
#
# Usage: toolchain/install-deps.sh [--check]
#   --check   change nothing; exit 1 and say what is missing.
#
# A second run finds everything present and returns at once: apt-get is
# only called for what dpkg-query reports as missing.

set -eu

# HOST_LLVM: Debian 12's LLVM, the host's.
# shellcheck source=toolchain/pins
. "$(dirname "$0")/pins"

# One package per word; append what your part of the build needs.
#   binutils (a trunk snapshot from Debian unstable): bison and flex, since
#   a snapshot, unlike a release, ships no generated parsers and scanners
#   (ld/ldgram.y, ld/ldlex.l, ...); m4 (without it, configure caches the
#   miss and make fails later); texinfo only for "make info" by hand (the
#   build passes MAKEINFO=true: the snapshot has no .info files);
#   pkg-config to find libzstd; debian-archive-keyring, the keys apt
#   checks sid's index with (build-toolchain.sh reads sid through an apt
#   configuration of its own, nothing is installed from it);
#   dejagnu/expect/bc for ld's test suite; tcl for tclsh (expect pulls in
#   only tclsh8.6), which the kernel matrix's lit tests run.
#   lld: mmdebstrap makes the sid build root that ld.lld 23 is built and
#   tested in (LLVM 23 and its lit, FileCheck, ... are in that root).
#   The project's C code and tests: cmake, ninja-build, python3 and
#   llvm-N-tools (lit, FileCheck, not, split-file, llvm-mc for our own lit
#   tests); clang-N and libclang-rt-N-dev (libFuzzer) for the fuzzers;
#   llvm-N-dev for the plugin's LTO test (LLVMgold.so); N is HOST_LLVM.
#   The kernel matrix's arm64 kernels (testsuite/kernel/build-cases.sh,
#   make-images.sh, lib/vm.exp): qemu-system-arm (qemu-system-aarch64),
#   gcc-aarch64-linux-gnu and binutils-aarch64-linux-gnu (Debian's cross
#   compiler and ld.bfd 2.40, the "plain" producer), libc6-arm64-cross
#   and libc6-dev-arm64-cross (the programs' glibc, also the guest's).
#   Its riscv64 and ppc64el kernels: qemu-system-misc
#   (qemu-system-riscv64, with the OpenSBI firmware) and qemu-system-ppc
#   (qemu-system-ppc64, with SLOF); their cross compilers and C
#   libraries are HT_CROSS's.
#   The Debian packages of hugetext's own C parts (package/build-debs):
#   debhelper and lintian.
#   The foreign machines' programs (testsuite/cross): the cross compilers
#   and C libraries that lib/machines.def's HT_CROSS lines name (below).
#   The patched dpkg (dpkg-patches/build.sh, for ./run distro-check's
#   install roots): curl to fetch dpkg's source, and the libraries its
#   configure needs (libmd-dev, libselinux1-dev, liblzma-dev, libbz2-dev;
#   zlib1g-dev and libzstd-dev are above).
#   zstd: the built toolchain's folders are kept in the cache as
#   .tar.zst (build-toolchain.sh).
#   lsb-release: the debian/rules of Debian's binutils package asks
#   lsb_release for the vendor (debian-binutils/, its lit test).
HUGETEXT_DEPS="build-essential make git python3 xz-utils dpkg-dev lsb-release file
	m4 bison flex texinfo pkg-config zlib1g-dev libzstd-dev
	debian-archive-keyring mmdebstrap
	dejagnu expect tcl bc elfutils
	cmake ninja-build clang-$HOST_LLVM lld-$HOST_LLVM llvm-$HOST_LLVM
	llvm-$HOST_LLVM-dev llvm-$HOST_LLVM-tools libclang-rt-$HOST_LLVM-dev
	qemu-user-static binutils-dev
	qemu-system-x86 busybox-static xfsprogs e2fsprogs libelf-dev
	qemu-system-arm gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
	libc6-arm64-cross libc6-dev-arm64-cross qemu-system-misc qemu-system-ppc
	debhelper lintian pandoc
	curl libmd-dev libselinux1-dev liblzma-dev libbz2-dev zstd"
# The foreign machines' cross compilers and C libraries (testsuite/cross):
# Debian 12's gcc-TRIPLET and libc6-dev-DEB_ARCH-cross of each HT_CROSS
# line of lib/machines.def whose CC is gcc.  Read with awk, not
# tables/machines.py: this runs before python3 is installed.
HUGETEXT_DEPS="$HUGETEXT_DEPS $(awk -F'"' \
	'/^HT_CROSS/ && $8 == "gcc" { printf " gcc-%s libc6-dev-%s-cross", $2, $4 }' \
	"$(dirname "$0")/../lib/machines.def")"

msg() { printf 'hugetext-toolchain: %s\n' "$*" >&2; }
die() { msg "error: $*"; exit 1; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# Print the packages of HUGETEXT_DEPS that are not installed.  One
# dpkg-query call for all of them: it exits 1 when it does not know a
# package at all, which only means that one is missing.
missing_packages() {
	# shellcheck disable=SC2086 # one word per package
	installed=$(dpkg-query -W -f='${db:Status-Status} ${Package}\n' \
		$HUGETEXT_DEPS 2>/dev/null |
		awk '$1 == "installed" { print $2 }') || :
	for pkg in $HUGETEXT_DEPS; do
		printf '%s\n' "$installed" | grep -qx -- "$pkg" ||
			printf '%s\n' "$pkg"
	done
}

main() {
	check_only=false
	case ${1-} in
	"") ;;
	--check) check_only=true ;;
	*) die "usage: $0 [--check]" ;;
	esac

	missing=$(missing_packages | tr '\n' ' ')
	missing=${missing% }
	[ -n "$missing" ] || exit 0

	msg "missing packages: $missing"
	if $check_only; then
		msg "run toolchain/install-deps.sh as root"
		exit 1
	fi
	if ! is_root; then
		msg "missing dependencies; as root, run toolchain/install-deps.sh or:"
		printf 'apt-get update\n' >&2
		printf 'apt-get install -y --no-install-recommends %s\n' \
			"$missing" >&2
		exit 1
	fi

	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	# shellcheck disable=SC2086 # one word per package
	apt-get install -y --no-install-recommends $missing
	msg "dependencies are in place"
}

main "$@"
