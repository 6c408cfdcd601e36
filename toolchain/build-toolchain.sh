#!/bin/bash
# Build GNU binutils (ld.bfd, as, objcopy, ...) from the binutils trunk
# snapshot that Debian unstable (sid) carries, and ld.lld 23.1.1 from the
# LLVM tarball sid carries, built in a sid build root (a chroot in the
# cache), with the patch series in bfd-patches/ and lld-patches/ applied,
# and put the tools into BUILD_DIR/bin.
#
# Usage: toolchain/build-toolchain.sh [BUILD_DIR]
#        toolchain/build-toolchain.sh --fetch-only
#
# BUILD_DIR defaults to "build" in the repository.  --fetch-only fills
# the cache with the sources of HUGETEXT_COMPONENTS (for lld also its
# build root) and builds nothing.  The lld components need root.
# Environment:
#   HUGETEXT_COMPONENTS  what to build: names from toolchain/components
#                        (listed below), default those marked "yes" there.
#                        binutils-NAME is a cross binutils, one per NAME of
#                        toolchain/cross-targets (binutils-aarch64, ...)
#   HUGETEXT_BFD_SERIES  the binutils series file, default
#                        bfd-patches/series (an empty file: vanilla)
#   HUGETEXT_LLD_SERIES  the lld series file, default lld-patches/series
#   HUGETEXT_JOBS        parallel jobs, default: nproc
#   HUGETEXT_CACHE       downloads and pristine sources, default
#                        ${XDG_CACHE_HOME:-$HOME/.cache}/hugetext
#   HUGETEXT_LLD_CC, HUGETEXT_LLD_CXX
#                        compilers for lld in its build root, default
#                        clang-N, clang++-N of the pinned LLVM
#   HUGETEXT_VERBOSE     1: show configure/make/ninja output, not just logs
#
# docs/build.md describes the pipeline: what is downloaded, how it is
# verified, the build root of lld, how to move to a newer binutils
# snapshot or LLVM, and how the incremental rebuild after a series change
# works.

# shellcheck disable=SC2317 # the "exit" on the last line makes shellcheck
# 0.9 think that no function is reachable
set -euo pipefail
shopt -s inherit_errexit

# --- Pinned inputs: toolchain/pins, and what follows from them -----------

HERE=$(cd "$(dirname "$0")" && pwd -P)
# shellcheck source=toolchain/pins
. "$HERE/pins"

BINUTILS_DEB=${BINUTILS_DEB_PACKAGE}_${BINUTILS_DEB_VERSION}_all.deb
# The pristine tree in the cache and the working trees in BUILD_DIR.
BINUTILS_TREE=binutils-$BINUTILS_VERSION_STRING
BINUTILS_TARBALL=usr/src/binutils/binutils-$BINUTILS_VERSION.tar.xz
# Top-level directories of the tarball that ld, gas, binutils and their
# test suites do not need.  zlib: we configure --with-system-zlib; gnulib
# is only configured for gdb, gdbserver and sim.  Not etc: a snapshot has
# no prebuilt man pages, and etc/texi2pod.pl makes them.
BINUTILS_SKIP_DIRS="gold gprof gprofng elfcpp cpu zlib gnulib"
BINUTILS_CONFIGURE_FLAGS="--prefix=/usr --disable-nls --disable-werror
	--disable-gdb --disable-gdbserver --disable-sim --disable-gold
	--disable-gprof --disable-gprofng --disable-readline
	--disable-libdecnumber --with-system-zlib --with-zstd
	--without-debuginfod --without-msgpack"
BINUTILS_TARGETS="all-ld all-binutils all-gas"
# Make variables for every binutils make: the snapshot ships no .info
# files, and the manuals are not needed to build or test the tools.
BINUTILS_MAKE_VARS="MAKEINFO=true"

# ld.lld: everything is named after LLVM_VERSION.
LLVM_MAJOR=${LLVM_VERSION%%.*}
LLVM_SRC_PACKAGE=llvm-toolchain-$LLVM_MAJOR
LLVM_ORIG=${LLVM_SRC_PACKAGE}_$LLVM_VERSION.orig.tar.xz
LLVM_ORIG_TOPDIR=${LLVM_SRC_PACKAGE}_$LLVM_VERSION
# Only what a standalone lld build and lld/test/ELF need: the DTLTO tests
# run llvm/utils/dtlto's scripts.  Not llvm/utils/lit: with it, lld's
# CMake looks for llvm-gtest and fails.  llvm/ must exist, because lld
# finds libunwind/include as lld/../llvm/../libunwind.
LLVM_PARTS="lld cmake libunwind/include llvm/utils/dtlto"
# Where llvm-N-dev, clang-N and lit are, inside the build root.
LLVM_PREFIX=/usr/lib/llvm-$LLVM_MAJOR
# The build root: a sid chroot made by mmdebstrap, with Debian's LLVM of
# the release series (LLVM_ROOT_VERSION) ...
LLVM_DEB_UPSTREAM=1:$LLVM_ROOT_VERSION
LLVM_ROOT_LLVM_PACKAGES="llvm-$LLVM_MAJOR-dev clang-$LLVM_MAJOR llvm-$LLVM_MAJOR-tools lld-$LLVM_MAJOR clang-format-$LLVM_MAJOR"
# ... and what else the build needs (lld-23: it links lld quicker;
# clang-format-23: the series' format check).
LLVM_ROOT_PACKAGES="cmake ninja-build zlib1g-dev libzstd-dev"

# --- Settings --------------------------------------------------------------

REPO=$(dirname "$HERE")
# The cross binutils: "NAME TRIPLET" lines (binutils-NAME builds TRIPLET).
CROSS_TARGETS=$("$HERE/cross-targets")
BFD_SERIES=${HUGETEXT_BFD_SERIES:-$REPO/bfd-patches/series}
JOBS=${HUGETEXT_JOBS:-$(nproc)}
CACHE=${HUGETEXT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugetext}
LLD_SERIES=${HUGETEXT_LLD_SERIES:-$REPO/lld-patches/series}
LLD_CC=${HUGETEXT_LLD_CC:-clang-$LLVM_MAJOR}
# Built components kept for other build folders (pipeline/kept.sh), named
# by a key that starts with this script's, its parts' and its pins'.
BUILT=$CACHE/built
# Comment lines do not count: a comment changes no build.
SCRIPT_ID=$(cat "$HERE/build-toolchain.sh" "$HERE"/pipeline/*.sh "$HERE/pins" |
	grep -v '^[[:space:]]*#' | sha256sum | cut -c1-16)
# Where lld's sources and build folder are inside its build root: the
# same paths for every build folder, so that a kept build can be used
# from another one (ninja rebuilds what was built with other paths).
LLD_GUEST_SRC=/hugetext/llvm
LLD_GUEST_BUILD=/hugetext/build
LLD_CXX=${HUGETEXT_LLD_CXX:-clang++-$LLVM_MAJOR}
VERBOSE=${HUGETEXT_VERBOSE:-0}

TIMINGS=()
CURRENT_STEP=
# Per component: the key of its build (set when it is configured) and
# whether it was unpacked from the cache.
declare -A BUILT_KEY=() BUILT_RESTORED=()
BINUTILS_FETCHED=false
# The working trees made in this run: "TOOL-SOURCES" words.
TREES_READY=

# shellcheck source=debian-roots/sid-apt.sh
. "$REPO/debian-roots/sid-apt.sh"

usage() {
	{
		sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
		printf 'Components (toolchain/components; NAME TOOL SOURCES OPTIONS BIN CHECK DEFAULT):\n'
		grep -v '^#' "$HERE/components" | sed 's/^/  /'
	} >&2
	exit "${1:-0}"
}

# --- The pipeline's parts (toolchain/pipeline) ------------------------------
# Each file is one job, read whole here before anything runs.

# shellcheck source=toolchain/pipeline/common.sh
. "$HERE/pipeline/common.sh"
# shellcheck source=toolchain/pipeline/sources.sh
. "$HERE/pipeline/sources.sh"
# shellcheck source=toolchain/pipeline/buildroot.sh
. "$HERE/pipeline/buildroot.sh"
# shellcheck source=toolchain/pipeline/trees.sh
. "$HERE/pipeline/trees.sh"
# shellcheck source=toolchain/pipeline/kept.sh
. "$HERE/pipeline/kept.sh"
# shellcheck source=toolchain/pipeline/binutils.sh
. "$HERE/pipeline/binutils.sh"
# shellcheck source=toolchain/pipeline/lld.sh
. "$HERE/pipeline/lld.sh"
# shellcheck source=toolchain/pipeline/components.sh
. "$HERE/pipeline/components.sh"

# --- Main ------------------------------------------------------------------

check_settings() {
	local c
	[ "${LLVM_ROOT_VERSION%.*}" = "${LLVM_VERSION%.*}" ] ||
		die "$(pin_line LLVM_VERSION): the build root's LLVM $LLVM_ROOT_VERSION" \
			"is not of the sources' release series ($LLVM_VERSION)"
	case $JOBS in
	'' | 0* | *[!0-9]*) die "HUGETEXT_JOBS must be a positive number" ;;
	esac
	read_components
	for c in $COMPONENTS; do
		[ -n "$(component_line "$c")" ] ||
			die "HUGETEXT_COMPONENTS: unknown '$c' (toolchain/components:" \
				"$(grep -v '^#' "$HERE/components" | awk 'NF { print $1 }' |
					paste -sd ' ')," \
				"where @ is a NAME of toolchain/cross-targets:" \
				"$(printf '%s\n' "$CROSS_TARGETS" | awk '{ print $1 }' |
					paste -sd ' '))"
	done
}

# The sources (cache folders) the components need, one per line.
component_sources() {
	local c
	for c in $COMPONENTS; do
		case $(component_line "$c" | awk '{ print $2 }') in
		binutils) printf 'binutils\n' ;;
		lld) printf 'llvm\nbuildroot\n' ;;
		esac
	done | awk '!seen[$0]++'
}

# --fetch-only: fill the cache, build nothing.
fetch_only() {
	local what
	mkdir -p "$CACHE"
	trap on_exit EXIT
	for what in $(component_sources); do
		step "$what: fetch" fetch "$what"
	done
	msg "sources are in $CACHE"
}

main() {
	local c t0
	case ${1-} in
	-h | --help) usage 0 ;;
	--fetch-only)
		[ $# -eq 1 ] || usage 1
		check_settings
		fetch_only
		return 0
		;;
	-*) usage 1 ;;
	esac
	[ $# -le 1 ] || usage 1
	check_settings

	BUILD_DIR=${1:-$REPO/build}
	mkdir -p "$BUILD_DIR"
	BUILD_DIR=$(cd "$BUILD_DIR" && pwd -P)
	TC=$BUILD_DIR/toolchain
	BIN=$BUILD_DIR/bin
	LOGS=$TC/logs
	mkdir -p "$TC" "$BIN" "$CACHE"

	# One build per build directory at a time.
	exec 9>"$TC/.lock"
	if ! flock -n 9; then
		msg "waiting for another build in $BUILD_DIR"
		flock 9
	fi

	trap on_exit EXIT
	t0=$(now)
	step "check dependencies" "$HERE/install-deps.sh" --check
	for c in $COMPONENTS; do
		build_component "$c"
	done
	TIMINGS+=("$(awk -v a="$t0" -v b="$(now)" \
		'BEGIN { printf "  %-30s %8.1f s", "total", b - a }')")
	msg "tools are in $BIN"
}

# One line, read whole before it runs: an edit of this file during a
# build cannot change what the running build does next.
{ main "$@"; exit; }
