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
# Built components kept for other build folders ("Built components in the
# cache"), named by a key that starts with this script's and its pins'.
BUILT=$CACHE/built
SCRIPT_ID=$(cat "$HERE/build-toolchain.sh" "$HERE/pins" | sha256sum | cut -c1-16)
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

msg() { printf 'hugetext-toolchain: %s\n' "$*" >&2; }
die() { msg "error: $*"; exit 1; }

usage() {
	{
		sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
		printf 'Components (toolchain/components; NAME TOOL SOURCES OPTIONS BIN CHECK DEFAULT):\n'
		grep -v '^#' "$HERE/components" | sed 's/^/  /'
	} >&2
	exit "${1:-0}"
}

# --- Helpers ---------------------------------------------------------------

now() { date +%s.%N; }

# step NAME COMMAND...: run COMMAND and remember how long it took.
step() {
	local name=$1 t0
	shift
	CURRENT_STEP=$name
	t0=$(now)
	"$@"
	TIMINGS+=("$(awk -v n="$name" -v a="$t0" -v b="$(now)" \
		'BEGIN { printf "  %-30s %8.1f s", n, b - a }')")
	CURRENT_STEP=
}

print_timings() {
	[ ${#TIMINGS[@]} -gt 0 ] || return 0
	msg "time per step:"
	printf '%s\n' "${TIMINGS[@]}" >&2
}

on_exit() {
	local rc=$?
	print_timings
	if [ "$rc" -ne 0 ] && [ -n "$CURRENT_STEP" ]; then
		msg "failed in step: $CURRENT_STEP"
	fi
}

# run_logged LOG COMMAND...: run an external COMMAND with its output in
# LOG; on failure show the end of LOG.
run_logged() {
	local log=$1
	shift
	mkdir -p "$(dirname "$log")"
	if [ "$VERBOSE" = 1 ]; then
		"$@" 2>&1 | tee "$log" || die "$1 failed; log: $log"
		return 0
	fi
	if ! "$@" >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "$1 failed; full log: $log"
	fi
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# check_sha256 FILE EXPECTED WHAT
check_sha256() {
	local got
	got=$(sha256_of "$1")
	[ "$got" = "$2" ] ||
		die "$3: SHA256 of $1 is $got, expected $2"
}

# Path of FILE relative to the repository, for messages.
repo_rel() {
	case $1 in
	"$REPO"/*) printf '%s\n' "${1#"$REPO"/}" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# Run git in directory DIR without letting it find an enclosing repository.
# The working trees live in BUILD_DIR, usually inside this repository, and
# there "git apply" would silently skip every file (and exit 0) because
# the paths lie outside the current directory of that repository.
tree_git() {
	local dir=$1
	shift
	(cd "$dir" && env -u GIT_DIR -u GIT_WORK_TREE -u GIT_INDEX_FILE \
		GIT_CEILING_DIRECTORIES="$(dirname "$dir")" git "$@")
}

# --- Fetching and verifying sources (into the cache) -----------------------

# What a pristine tree is made from.  When this changes, the tree in the
# cache is extracted again, and the working tree and build start afresh.
binutils_pristine_id() {
	printf 'binutils %s %s skip:%s\n' "$BINUTILS_DEB_VERSION" \
		"$BINUTILS_TARBALL_SHA256" "$BINUTILS_SKIP_DIRS"
}

llvm_pristine_id() {
	printf 'llvm %s %s parts:%s empty:llvm\n' "$LLVM_ORIG" \
		"$LLVM_ORIG_SHA256" "$LLVM_PARTS"
}

# True if the pristine tree TREE was completely extracted from ID.
pristine_ok() {
	[ -d "$1" ] && [ "$(cat "$1.ok" 2>/dev/null)" = "$2" ]
}

# "FILE:LINE" of the line of toolchain/pins that sets VAR: where a move to
# a newer snapshot or LLVM starts.
pin_line() {
	local n
	n=$(grep -n "^$1=" "$HERE/pins" | cut -d: -f1)
	printf '%s:%s\n' "$(repo_rel "$HERE/pins")" "${n:-?}"
}

# sid no longer has the pinned .deb: say what this tree needs, what sid
# has now and where to change the pins.
binutils_version_gone() {
	local offered
	offered=$(sid_offered "$BINUTILS_DEB_PACKAGE" | paste -sd ' ')
	msg "error: Debian unstable (sid) no longer offers" \
		"$BINUTILS_DEB_PACKAGE $BINUTILS_DEB_VERSION"
	msg "  this tree needs: $BINUTILS_DEB_PACKAGE $BINUTILS_DEB_VERSION" \
		"(binutils $BINUTILS_VERSION_STRING)"
	msg "  sid offers now:  ${offered:-none}"
	msg "  the line to change: $(pin_line BINUTILS_DEB_VERSION):" \
		"BINUTILS_DEB_VERSION=$BINUTILS_DEB_VERSION, with the rest of its" \
		"BINUTILS_* block; then re-apply bfd-patches/series and run" \
		"./run test and ./run regress"
	msg "  how: docs/build.md, \"Moving to a newer snapshot\"; a cache" \
		"that holds $BINUTILS_DEB with the pinned SHA256 needs no sid" \
		"($CACHE/binutils/)"
	exit 1
}

# Download the pinned binutils-source .deb from sid into DIR, through the
# cache's own apt configuration (debian-roots/sid-apt.sh), and check it
# against the SHA256 in sid's signed index and the pinned one.
download_binutils_deb() {
	local dir=$1 published tmp
	sid_apt_init "$CACHE/sid-apt"
	sid_update
	published=$(sid_published_sha256 "$BINUTILS_DEB_PACKAGE" \
		"$BINUTILS_DEB_VERSION")
	[ -n "$published" ] || binutils_version_gone
	[ "$published" = "$BINUTILS_DEB_SHA256" ] ||
		die "sid's index gives SHA256 $published for" \
			"$BINUTILS_DEB_PACKAGE $BINUTILS_DEB_VERSION;" \
			"$(pin_line BINUTILS_DEB_SHA256) pins $BINUTILS_DEB_SHA256"
	msg "downloading $BINUTILS_DEB from sid (~25 MB)"
	tmp=$(mktemp -d "$dir/tmp.XXXXXX")
	sid_download "$BINUTILS_DEB_PACKAGE" "$BINUTILS_DEB_VERSION" "$tmp"
	[ -f "$tmp/$BINUTILS_DEB" ] ||
		die "apt-get download gave no $BINUTILS_DEB: $(ls "$tmp")"
	check_sha256 "$tmp/$BINUTILS_DEB" "$published" \
		"$BINUTILS_DEB (sid's index)"
	check_sha256 "$tmp/$BINUTILS_DEB" "$BINUTILS_DEB_SHA256" \
		"$BINUTILS_DEB (pinned)"
	mv "$tmp/$BINUTILS_DEB" "$dir/$BINUTILS_DEB"
	printf '%s  %s\n' "$published" "$BINUTILS_DEB" \
		>"$dir/$BINUTILS_DEB.sha256"
	rm -rf "$tmp"
}

# Check the files of the unpacked .deb in ROOT against the md5sums in
# its control area, when it has one.
check_deb_md5sums() {
	local deb=$1 root=$2 ctrl=$2.control
	dpkg-deb -e "$deb" "$ctrl"
	if [ -f "$ctrl/md5sums" ]; then
		(cd "$root" && md5sum --quiet -c "$ctrl/md5sums") >&2 ||
			die "$deb: files do not match its md5sums"
	else
		msg "note: $(basename "$deb") has no md5sums; the tarball is" \
			"checked against the SHA256 pinned in toolchain/pins"
	fi
}

fetch_binutils() {
	local dir=$CACHE/binutils id tree deb tmp skip=() d
	tree=$dir/$BINUTILS_TREE
	id=$(binutils_pristine_id)
	pristine_ok "$tree" "$id" && return 0

	deb=$dir/$BINUTILS_DEB
	if [ ! -f "$deb" ] ||
		[ "$(sha256_of "$deb")" != "$BINUTILS_DEB_SHA256" ]; then
		rm -f "$deb"
		download_binutils_deb "$dir"
	fi
	check_sha256 "$deb" "$BINUTILS_DEB_SHA256" "$BINUTILS_DEB"

	msg "extracting binutils $BINUTILS_VERSION_STRING into $tree"
	tmp=$(mktemp -d "$dir/tmp.XXXXXX")
	dpkg-deb -x "$deb" "$tmp/deb"
	check_deb_md5sums "$deb" "$tmp/deb"
	check_sha256 "$tmp/deb/$BINUTILS_TARBALL" "$BINUTILS_TARBALL_SHA256" \
		"$BINUTILS_TARBALL"
	for d in $BINUTILS_SKIP_DIRS; do
		skip+=("--exclude=binutils-$BINUTILS_VERSION/$d")
	done
	tar -xJf "$tmp/deb/$BINUTILS_TARBALL" -C "$tmp" "${skip[@]}"
	[ -x "$tmp/binutils-$BINUTILS_VERSION/configure" ] ||
		die "$BINUTILS_TARBALL has no binutils-$BINUTILS_VERSION/configure"
	rm -rf "$tree" "$tree.ok"
	mv "$tmp/binutils-$BINUTILS_VERSION" "$tree"
	printf '%s\n' "$id" >"$tree.ok"
	rm -rf "$tmp"
}

# words_after WORD LINES: "WORD LINE1 WORD LINE2 ...", on one line;
# nothing for no lines.
words_after() {
	awk -v w="$1" 'NF { printf "%s%s %s", sep, w, $0; sep = " " }' <<<"$2"
}

# sid no longer has what VAR (LLVM_VERSION: the sources; LLVM_ROOT_VERSION:
# the build root) pins (WHAT: the orig tarball, or PACKAGE of the build
# root; OFFERED: the versions sid has): say what this tree needs, what
# sid has now and where to change the pins.
llvm_version_gone() {
	local var=$1 what=$2 offered=$3
	msg "error: Debian unstable (sid) no longer offers LLVM" \
		"${!var}: $what"
	msg "  this tree needs: $LLVM_ORIG of $LLVM_SRC_PACKAGE" \
		"(SHA256 $LLVM_ORIG_SHA256) and $LLVM_ROOT_LLVM_PACKAGES" \
		"$LLVM_DEB_UPSTREAM-* for the build root"
	msg "  sid offers now:  ${offered:-none}"
	msg "  the line to change: $(pin_line "$var"):" \
		"$var=${!var}, with the rest of its LLVM_* block;" \
		"then port lld-patches/series and run ./run test"
	msg "  how: docs/build.md, \"Moving to a newer LLVM\"; a cache that" \
		"holds $LLVM_ORIG with the pinned SHA256 ($CACHE/llvm/) and" \
		"the build root ($CACHE/buildroot/) needs no sid"
	exit 1
}

# Download the pinned orig tarball into DIR from sid's pool, once sid's
# signed Sources index has said that it lists it, with the pinned SHA256.
# Not "apt-get source": that needs the .dsc and Debian tarball of one
# revision, and those leave sid long before the orig tarball does.
download_llvm_orig() {
	local dir=$1 found ver sha size pooldir tmp
	sid_apt_init "$CACHE/sid-apt"
	sid_update
	found=$(sid_source_file "$LLVM_SRC_PACKAGE" "$LLVM_ORIG")
	[ -n "$found" ] ||
		llvm_version_gone LLVM_VERSION \
			"its Sources index lists no $LLVM_ORIG" \
			"$(words_after "$LLVM_SRC_PACKAGE" \
				"$(sid_source_versions "$LLVM_SRC_PACKAGE")")"
	# Every revision that lists it must give the pinned SHA256 and size.
	while read -r ver sha size _; do
		if [ "$sha" != "$LLVM_ORIG_SHA256" ] ||
			[ "$size" != "$LLVM_ORIG_SIZE" ]; then
			die "sid's index gives $LLVM_ORIG ($LLVM_SRC_PACKAGE $ver)" \
				"SHA256 $sha, size $size;" \
				"$(pin_line LLVM_ORIG_SHA256) pins $LLVM_ORIG_SHA256, size" \
				"$LLVM_ORIG_SIZE"
		fi
	done <<<"$found"
	msg "sid's Sources index lists $LLVM_ORIG for $LLVM_SRC_PACKAGE" \
		"$(cut -d' ' -f1 <<<"$found" | paste -sd ' ')"
	pooldir=$(head -n 1 <<<"$found" | cut -d' ' -f4)
	msg "downloading $LLVM_ORIG from sid (~210 MB)"
	tmp=$(mktemp -d "$dir/tmp.XXXXXX")
	sid_download_pool_file "$pooldir" "$LLVM_ORIG" "$LLVM_ORIG_SHA256" \
		"$tmp/$LLVM_ORIG"
	check_sha256 "$tmp/$LLVM_ORIG" "$LLVM_ORIG_SHA256" "$LLVM_ORIG (pinned)"
	mv "$tmp/$LLVM_ORIG" "$dir/$LLVM_ORIG"
	printf '%s  %s\n' "$LLVM_ORIG_SHA256" "$LLVM_ORIG" \
		>"$dir/$LLVM_ORIG.sha256"
	rm -rf "$tmp"
}

fetch_llvm() {
	local dir=$CACHE/llvm id tree tmp p members=()
	tree=$dir/llvm-$LLVM_VERSION
	id=$(llvm_pristine_id)
	pristine_ok "$tree" "$id" && return 0

	if [ ! -f "$dir/$LLVM_ORIG" ] ||
		[ "$(sha256_of "$dir/$LLVM_ORIG")" != "$LLVM_ORIG_SHA256" ]; then
		rm -f "$dir/$LLVM_ORIG"
		download_llvm_orig "$dir"
	fi
	check_sha256 "$dir/$LLVM_ORIG" "$LLVM_ORIG_SHA256" "$LLVM_ORIG"

	msg "extracting $LLVM_PARTS from $LLVM_ORIG into $tree"
	for p in $LLVM_PARTS; do
		members+=("$LLVM_ORIG_TOPDIR/$p")
	done
	tmp=$(mktemp -d "$dir/tmp.XXXXXX")
	tar -xJf "$dir/$LLVM_ORIG" -C "$tmp" "${members[@]}"
	[ ! -e "$tmp/$LLVM_ORIG_TOPDIR/llvm/utils/lit/lit.py" ] ||
		die "the lld extract contains llvm/utils/lit (breaks configure)"
	mkdir -p "$tmp/$LLVM_ORIG_TOPDIR/llvm"
	rm -rf "$tree" "$tree.ok"
	mv "$tmp/$LLVM_ORIG_TOPDIR" "$tree"
	printf '%s\n' "$id" >"$tree.ok"
	rm -rf "$tmp"
}

# --- The sid build root of lld (in the cache) ------------------------------

# The build root is made (mmdebstrap), and used (mount, chroot), as root.
need_root() {
	[ "$(id -u)" -eq 0 ] ||
		die "the lld component needs root: its sid build root is made" \
			"with mmdebstrap and used with mount and chroot (run as root," \
			"or leave lld out of HUGETEXT_COMPONENTS)"
}

# What the build root is made of.  Its folder in the cache is named by the
# hash of this: other pins or packages give another root.
buildroot_id() {
	printf 'buildroot sid variant:apt llvm:%s packages:%s %s\n' \
		"$LLVM_DEB_UPSTREAM" "$LLVM_ROOT_LLVM_PACKAGES" "$LLVM_ROOT_PACKAGES"
}

buildroot_dir() {
	printf '%s/buildroot/llvm-%s-%s\n' "$CACHE" "$LLVM_ROOT_VERSION" \
		"$(buildroot_id | sha256sum | cut -c1-12)"
}

# The LLVM packages of the build root pinned to the version of each that
# sid's index has for upstream $LLVM_ROOT_VERSION ("PACKAGE=VERSION", one per
# line); sid's index has none of that version: say so and stop.
buildroot_llvm_pins() {
	local p offered v
	for p in $LLVM_ROOT_LLVM_PACKAGES; do
		offered=$(sid_offered "$p")
		v=$(awk -v u="$LLVM_DEB_UPSTREAM-" 'index($0, u) == 1 { print; exit }' \
			<<<"$offered")
		case $v in
		"$LLVM_DEB_UPSTREAM"-*) printf '%s=%s\n' "$p" "$v" ;;
		*) llvm_version_gone LLVM_ROOT_VERSION \
			"its Packages index has no $p $LLVM_DEB_UPSTREAM-*" \
			"$(words_after "$p" "$offered")" ;;
		esac
	done
}

# check_buildroot ROOT LIST: the LLVM packages in ROOT, whose dpkg-query
# output is LIST, are of upstream $LLVM_ROOT_VERSION, and it has what the build
# and the launcher need.
check_buildroot() {
	local root=$1 list=$2 p v
	for p in $LLVM_ROOT_LLVM_PACKAGES; do
		v=$(awk -v p="$p" '$1 == p { print $2 }' <<<"$list")
		case $v in
		"$LLVM_DEB_UPSTREAM"-*) ;;
		*) die "the new build root has $p ${v:-(none)}," \
			"not $LLVM_DEB_UPSTREAM-*" ;;
		esac
	done
	for p in /lib64/ld-linux-x86-64.so.2 "$LLVM_PREFIX/bin/lit" \
		"$LLVM_PREFIX/lib/cmake/llvm/LLVMConfig.cmake"; do
		[ -e "$root$p" ] || die "the new build root has no $p"
	done
}

# mmdebstrap in a mount namespace of its own: nothing it mounts in the
# root while it installs can outlive it, also when it fails.  It gets no
# descriptor but 0, 1 and 2: mmdebstrap hands apt a hook "cat >&N" for
# the lowest free N, and dash, which runs it, reads only one digit, so
# N >= 10 (our lock, make's or ninja's descriptors) fails the root.
mmdebstrap_isolated() {
	(
		local fd
		for fd in /proc/"$BASHPID"/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] && eval "exec $fd>&-"
		done
		exec unshare --mount --propagation private -- mmdebstrap "$@"
	)
}

# make_buildroot DIR PINS: mmdebstrap a sid chroot into DIR with the LLVM
# packages in PINS and the rest of the root's packages, check it, and
# list its packages and their versions in DIR.packages.
make_buildroot() {
	local dir=$1 pins=$2
	run_logged "$CACHE/buildroot/mmdebstrap.log" \
		mmdebstrap_isolated --variant=apt \
		--include="$(paste -sd, <<<"$pins"),${LLVM_ROOT_PACKAGES// /,}" \
		sid "$dir" \
		"deb [signed-by=$SID_KEYRING check-valid-until=no] $SID_MIRROR sid main"
	# shellcheck disable=SC2016 # dpkg-query expands the ${FIELD}s
	chroot "$dir" dpkg-query -W -f '${Package} ${Version}\n' >"$dir.packages"
	check_buildroot "$dir" "$(cat "$dir.packages")"
}

# A sid chroot with Debian's LLVM $LLVM_ROOT_VERSION, made with mmdebstrap
# into a temporary folder and renamed when it is complete and checked.
# sid's Release may be past its Valid-Until: check-valid-until=no is an
# option of the root's one source, sid (the signature is still checked).
fetch_buildroot() {
	local root id tmp pins list
	root=$(buildroot_dir)
	id=$(buildroot_id)
	need_root
	pristine_ok "$root" "$id" && return 0

	sid_apt_init "$CACHE/sid-apt"
	sid_update
	pins=$(buildroot_llvm_pins)
	msg "making the sid build root $root (~1.2 GB):" \
		"$(paste -sd ' ' <<<"$pins") $LLVM_ROOT_PACKAGES"
	tmp=$(mktemp -d "$CACHE/buildroot/tmp.XXXXXX")
	if ! (make_buildroot "$tmp/root" "$pins"); then
		rm -rf --one-file-system "$tmp"
		exit 1
	fi
	list=$(cat "$tmp/root.packages")
	rm -rf --one-file-system "$root" "$root.ok" "$root.packages"
	printf '%s\n' "$list" >"$root.packages"
	mv "$tmp/root" "$root"
	printf '%s\n' "$id" >"$root.ok"
	rm -rf --one-file-system "$tmp"
	msg "build root ready: $(grep -E "^(${LLVM_ROOT_LLVM_PACKAGES// /|}) " \
		"$root.packages" | paste -sd ' ')"
}

# Fetch a component's sources into the cache, which several build
# directories may share: hold its lock, and drop what an interrupted run
# left behind.
fetch() {
	local what=$1
	mkdir -p "$CACHE/$what"
	exec 8>"$CACHE/$what.lock"
	flock 8
	rm -rf --one-file-system "$CACHE/$what"/tmp.*
	"fetch_$what"
	exec 8>&-
}

# --- Patch series and the working source trees -----------------------------

# Print the absolute paths of the patches SERIES lists, in order.
# shellcheck disable=SC2094 # repo_rel only prints the name
series_patches() {
	local series=$1 dir line n=0
	[ -f "$series" ] || die "no series file: $(repo_rel "$series")"
	dir=$(dirname "$series")
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line#"${line%%[![:space:]]*}"}
		line=${line%"${line##*[![:space:]]}"}
		case $line in '' | '#'*) continue ;; esac
		[ -f "$dir/$line" ] ||
			die "$(repo_rel "$series"):$n: no such patch: $line"
		printf '%s\n' "$dir/$line"
	done <"$series"
}

# What a series amounts to: the series file and every patch's content.
# PATCHES is the output of series_patches.
series_hash() {
	local series=$1 patches=$2 p
	{
		cat "$series"
		while IFS= read -r p; do
			[ -n "$p" ] || continue
			printf '%s ' "$(repo_rel "$p")"
			sha256_of "$p"
		done <<<"$patches"
	} | sha256sum | cut -d' ' -f1
}

# Print, one per line, the files PATCH creates, changes, deletes or renames
# (both names), relative to the top of the source tree in WORK.  git's own
# parser reports one name per file (-z: verbatim); the old name of a
# rename is only in the "rename from" header.
patch_files() {
	local work=$1 patch=$2 numstat
	numstat=$(tree_git "$work" apply --numstat -z "$patch" | tr '\0' '\n') ||
		die "$(repo_rel "$patch"): git apply cannot parse it"
	{
		printf '%s\n' "$numstat" | cut -f3-
		sed -n '/^diff --git /,$ s/^rename from //p' "$patch"
	} | sed '/^$/d' | sort -u
}

# Refuse file names that would let a restore reach outside the tree.
check_tree_path() {
	case /$1/ in
	*/../* | //* | *'"'*) die "$2: unsupported file name in patch: $1" ;;
	esac
}

# apply_patch NAME WORK PATCH: apply one patch (all of it or nothing, as
# git apply does); if it does not apply, say which patch and which source
# file, and return 1.
apply_patch() {
	local name=$1 work=$2 patch=$3 out where
	if out=$(tree_git "$work" apply --whitespace=warn -p1 "$patch" 2>&1); then
		[ -z "$out" ] || printf '%s\n' "$out" >&2
		return 0
	fi
	printf '%s\n' "$out" >&2
	# "error: patch failed: FILE:LINE", else "error: FILE: why".
	where=$(printf '%s\n' "$out" | sed -n \
		-e 's/^error: patch failed: \(.*\):\([0-9][0-9]*\)$/\1:\2: hunk does not match/p' \
		-e 's/^error: \([^:]*: .*\)/\1/p' | head -n 1)
	msg "error: patch $(repo_rel "$patch") does not apply to $name:" \
		"${where:-see the git apply errors above}"
	return 1
}

# Give each of FILES (one per line) in WORK whose content is the same as
# its copy in SNAP that copy's mtime again.
restore_mtimes() {
	local work=$1 snap=$2 files=$3 f
	while IFS= read -r f; do
		if [ -n "$f" ] && [ -f "$snap/$f" ] && [ -f "$work/$f" ] &&
			cmp -s "$snap/$f" "$work/$f"; then
			touch -r "$snap/$f" "$work/$f"
		fi
	done <<<"$files"
}

# Bring WORK from whatever series it has to the one in PATCHES: put back the
# pristine copy of every file the old or the new series touches, apply the
# new series, then give the files whose content did not change their old
# mtime, so that make and ninja rebuild only what the change affects.
reapply_series() {
	local name=$1 pristine=$2 work=$3 state=$4 patches=$5 hash=$6
	local new old union snap f d p failed=
	new=$(while IFS= read -r p; do
		[ -z "$p" ] || patch_files "$work" "$p"
	done <<<"$patches" | sort -u)
	old=$(cat "$state/touched")
	union=$(printf '%s\n%s\n' "$old" "$new" | sed '/^$/d' | sort -u)

	# From here on the tree is between two series; if this run stops, the
	# next one restores every file either of them touches.
	printf 'dirty\n' >"$state/series"
	printf '%s\n' "$union" >"$state/touched"

	# Forks are slow on these machines: no dirname, mkdir only when needed.
	snap=$state/snapshot
	rm -rf "$snap"
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		check_tree_path "$f" "$name"
		d=${f%/*}
		[ "$d" != "$f" ] || d=.
		if [ -f "$work/$f" ]; then
			[ -d "$snap/$d" ] || mkdir -p "$snap/$d"
			cp -p "$work/$f" "$snap/$f"
		fi
		if [ -f "$pristine/$f" ]; then
			[ -d "$work/$d" ] || mkdir -p "$work/$d"
			# A new inode: the pristine mode, and a fresh mtime.
			cp --remove-destination "$pristine/$f" "$work/$f"
		else
			rm -f "$work/$f"
		fi
	done <<<"$union"

	while IFS= read -r p; do
		[ -n "$p" ] || continue
		apply_patch "$name" "$work" "$p" || { failed=$p; break; }
	done <<<"$patches"

	# Also after a failure: the files that ended up as they were need not
	# be rebuilt once the series is fixed.
	restore_mtimes "$work" "$snap" "$union"
	rm -rf "$snap"
	[ -z "$failed" ] || exit 1

	printf '%s\n' "$new" | sed '/^$/d' >"$state/touched"
	printf '%s\n' "$hash" >"$state/series"
}

# settle_mtimes PRISTINE WORK FILES: give each of FILES (one per line)
# in WORK, a new working tree, the mtime of its pristine copy, or that of
# the pristine tree's top folder for a file the series adds.  A new tree
# then has the same mtimes in every build folder, older than anything
# built from it, so that a build kept in the cache and unpacked beside
# it is up to date.
settle_mtimes() {
	local pristine=$1 work=$2 files=$3 f
	while IFS= read -r f; do
		if [ -z "$f" ] || [ ! -f "$work/$f" ]; then
			continue
		elif [ -f "$pristine/$f" ]; then
			touch -r "$pristine/$f" "$work/$f"
		else
			touch -r "$pristine" "$work/$f"
		fi
	done <<<"$files"
}

# prepare_tree NAME PRISTINE ID WORK SERIES BUILD...: make WORK a copy of
# the pristine tree with SERIES applied, touching as little as possible
# (SERIES "none": no series at all, WORK stays pristine).
# WORK.state/ records what WORK holds: the pristine ID, the hash of the
# applied series and the files that series touches.  A new copy of the
# sources (with the pristine mtimes) invalidates the objects in every
# BUILD made from WORK, so those go too.
prepare_tree() {
	local name=$1 pristine=$2 id=$3 work=$4 series=$5
	local state=$4.state patches hash n fresh=false
	shift 5
	if [ "$series" = none ]; then
		patches='' hash=none
	else
		patches=$(series_patches "$series")
		hash=$(series_hash "$series" "$patches")
	fi

	if [ ! -d "$work" ] ||
		[ "$(cat "$state/pristine" 2>/dev/null)" != "$id" ]; then
		msg "$name: new working source tree $(repo_rel "$work")"
		rm -rf "$state" "$work" "$@"
		mkdir -p "$(dirname "$work")"
		cp -a "$pristine" "$work"
		mkdir -p "$state"
		: >"$state/touched"
		printf 'none\n' >"$state/series"
		printf '%s\n' "$id" >"$state/pristine"
		fresh=true
	fi
	[ "$(cat "$state/series")" != "$hash" ] || return 0

	n=$(printf '%s' "$patches" | grep -c '^' || :)
	msg "$name: applying $(repo_rel "$series") ($n patches)"
	reapply_series "$name" "$pristine" "$work" "$state" "$patches" "$hash"
	! $fresh || settle_mtimes "$pristine" "$work" "$(cat "$state/touched")"
}

# tree_id WORK: what the working tree WORK holds (its pristine sources
# and applied series), for the key of what is built from it.
tree_id() {
	cat "$1.state/pristine" "$1.state/series"
}

# --- Built components in the cache -----------------------------------------

# A component's build folder (TC/NAME) is kept in the cache, as
# BUILT/NAME-KEY.tar.zst, once it is built and verified; KEY is the hash
# of everything that goes into it: its configuration (flags, target, the
# environment configure records), the working tree's sources and series,
# the host's compiler, this script and its pins.  A build folder without
# TC/NAME unpacks the kept one instead of configuring it; make or ninja
# then run as always and find nothing to do.  The cache keeps the newest
# build of each component.

# built_key NAME CONFIG SRC: the key of NAME's build with the
# configuration CONFIG from the working tree SRC.
built_key() {
	local tree
	# Apart, so that a failure shows where errexit is off (the caller
	# runs as a condition).
	tree=$(tree_id "$3") || return 1
	{
		printf '%s\n' "$1" "$2" "$SCRIPT_ID" "$tree"
		gcc --version | head -n 1
	} | sha256sum | cut -c1-16
}

# rewrite_paths DIR OLD NEW: in the text files under DIR, the folder OLD
# becomes NEW, each file keeping its mtime (binutils' Makefiles and
# dependency files name the sources in the build folder they were built
# in; lld's build records only the paths inside its root).
rewrite_paths() {
	local dir=$1 old=$2 new=$3 re f t
	re=$(printf '%s' "$old" | sed 's/[][\\.*^$|]/\\&/g')
	new=$(printf '%s' "$new" | sed 's/[\\&|]/\\&/g')
	grep -rlIZF -- "$old" "$dir" | while IFS= read -r -d '' f; do
		t=$(stat -c %y "$f")
		sed -i "s|$re|$new|g" "$f"
		touch -d "$t" "$f"
	done
}

# restore_built NAME BUILD CONFIG: when BUILD (TC/NAME) does not exist
# yet (or is an empty folder) and the cache keeps NAME's build of the key
# BUILT_KEY[NAME], unpack it as BUILD, configured with CONFIG.  False if
# there is none.
restore_built() {
	local name=$1 build=$2 config=$3 tar tmp old
	tar=$BUILT/$name-${BUILT_KEY[$name]}.tar.zst
	[ -f "$tar" ] && [ -z "$(ls -A "$build" 2>/dev/null)" ] || return 1
	tmp=$TC/.unpack-$name
	rm -rf "$tmp"
	mkdir -p "$tmp"
	if ! tar -C "$tmp" -I zstd -xf "$tar" ||
		! old=$(cat "$tmp/$name/.hugetext-built-in"); then
		msg "warning: $tar cannot be unpacked; building $name"
		rm -rf "$tmp"
		return 1
	fi
	[ "$old" = "$TC" ] || rewrite_paths "$tmp/$name" "$old" "$TC"
	rm -rf "$build" "$build.configured"
	mv "$tmp/$name" "$build"
	rm -rf "$tmp"
	printf '%s\n' "$config" >"$build.configured"
	BUILT_RESTORED[$name]=1
	msg "$name: unpacked its build from the cache ($(basename "$tar"))"
}

# keep_built NAME: keep TC/NAME, built and verified by this run, in the
# cache (written beside it and renamed: never half a tarball), and drop
# the cache's other builds of NAME.
keep_built() {
	local name=$1 key=${BUILT_KEY[$1]-} tar tmp f rest
	[ -n "$key" ] && [ -z "${BUILT_RESTORED[$name]-}" ] || return 0
	tar=$BUILT/$name-$key.tar.zst
	[ ! -f "$tar" ] || return 0
	mkdir -p "$BUILT"
	printf '%s\n' "$TC" >"$TC/$name/.hugetext-built-in"
	tmp=$(mktemp "$BUILT/.$name.XXXXXX")
	chmod 644 "$tmp"
	if ! tar -C "$TC" -cf - "$name" | zstd -q -1 -T0 >"$tmp"; then
		rm -f "$tmp"
		msg "warning: could not keep $name's build in $BUILT"
		return 0
	fi
	mv -f "$tmp" "$tar"
	for f in "$BUILT/$name"-*.tar.zst; do
		rest=${f#"$BUILT/$name"-}
		case $rest in
		"$key.tar.zst") ;;
		*-*) ;; # another component's (binutils-vanilla-KEY, ...)
		*) rm -f "$f" ;;
		esac
	done
	msg "$name: its build is kept in $(basename "$tar")"
}

# --- binutils --------------------------------------------------------------

binutils_config() {
	local triplet
	triplet=$(gcc -dumpmachine)
	# The environment that configure bakes into the build is part of it.
	# shellcheck disable=SC2086 # one word per option
	printf '%s\n' "CC=${CC-} CFLAGS=${CFLAGS-} CPPFLAGS=${CPPFLAGS-}" \
		"LDFLAGS=${LDFLAGS-}" "--build=$triplet" $BINUTILS_CONFIGURE_FLAGS \
		"$@"
}

# configured_with BUILD MARKER CONFIG: whether BUILD holds a configuration
# (MARKER, a file the configure step leaves, exists) made from CONFIG.
configured_with() {
	[ -f "$1/$2" ] && [ "$(cat "$1.configured" 2>/dev/null)" = "$3" ]
}

# start_configure NAME BUILD: an empty BUILD for a new configuration.
start_configure() {
	msg "$1: configuring in $(repo_rel "$2")"
	rm -rf "$2" "$2.configured" && mkdir -p "$2"
}

# needs_configure NAME SRC BUILD MARKER CONFIG: set NAME's key for the
# configuration CONFIG of the working tree SRC; false where BUILD holds
# that configuration already (configured_with) or the cache's build of
# that key was unpacked as BUILD; else BUILD is an empty folder for it.
# (Called as a condition, where errexit is off: each step says how it
# failed.)
needs_configure() {
	BUILT_KEY[$1]=$(built_key "$1" "$5" "$2") ||
		die "$1: cannot compute the key of its build"
	! configured_with "$3" "$4" "$5" || return 1
	! restore_built "$1" "$3" "$5" || return 1
	start_configure "$1" "$3" || die "$1: cannot make an empty $3"
}

# configure_binutils NAME SRC BUILD [OPTION...]: configure binutils
# (NAME: for messages and logs) with the common flags and OPTIONs.
configure_binutils() {
	local name=$1 src=$2 build=$3 config
	shift 3
	config=$(binutils_config "$@")
	needs_configure "$name" "$src" "$build" config.status "$config" ||
		return 0
	# shellcheck disable=SC2046 # one word per option
	(cd "$build" && run_logged "$LOGS/$name-configure.log" \
		"$src/configure" $(printf '%s\n' "$config" | grep '^--'))
	printf '%s\n' "$config" >"$build.configured"
}

# make_binutils NAME BUILD
make_binutils() {
	local log=$LOGS/$1-make.log
	msg "$1: make $BINUTILS_TARGETS (log: $(repo_rel "$log"))"
	# shellcheck disable=SC2086 # one word per variable and target
	run_logged "$log" make -C "$2" -j"$JOBS" $BINUTILS_MAKE_VARS \
		$BINUTILS_TARGETS
}

# link_tool DIR NAME TARGET: DIR/NAME -> BUILD_DIR/TARGET, a relative link
# (DIR is BIN or a folder in it).
link_tool() {
	local dir=$1 up=..
	if [ ! -f "$BUILD_DIR/$3" ] || [ ! -x "$BUILD_DIR/$3" ]; then
		die "$BUILD_DIR/$3 was not built"
	fi
	[ "$dir" = "$BIN" ] || up=../..
	ln -sfn "$up/$3" "$dir/$2"
}

# install_binutils BUILD DIR: link the tools of the binutils build
# BUILD_DIR/BUILD into DIR.
install_binutils() {
	local b=$1 dir=$2
	mkdir -p "$dir"
	link_tool "$dir" ld.bfd "$b/ld/ld-new"
	ln -sfn ld.bfd "$dir/ld"
	link_tool "$dir" as "$b/gas/as-new"
	link_tool "$dir" objcopy "$b/binutils/objcopy"
	link_tool "$dir" strip "$b/binutils/strip-new"
	link_tool "$dir" readelf "$b/binutils/readelf"
	link_tool "$dir" objdump "$b/binutils/objdump"
	link_tool "$dir" nm "$b/binutils/nm-new"
	link_tool "$dir" ar "$b/binutils/ar"
	link_tool "$dir" ranlib "$b/binutils/ranlib"
	link_tool "$dir" size "$b/binutils/size"
	link_tool "$dir" strings "$b/binutils/strings"
}

# check_version TOOL EXPECTED: the first line of "TOOL --version" (TOOL:
# a path) starts with EXPECTED.
check_version() {
	local got
	got=$("$1" --version | head -n 1)
	case $got in
	"$2"*) msg "$(repo_rel "$1"): $got" ;;
	*) die "$1 --version says '$got', expected '$2...'" ;;
	esac
}

# verify_binutils DIR: the tools in DIR are the pinned snapshot's.
verify_binutils() {
	local v=$BINUTILS_VERSION_STRING
	check_version "$1/ld.bfd" "GNU ld (GNU Binutils) $v"
	check_version "$1/as" "GNU assembler (GNU Binutils) $v"
	check_version "$1/objcopy" "GNU objcopy (GNU Binutils) $v"
}

# remove_stale_trees PREFIX ID: remove the working trees PREFIX-* made
# from other pristine trees than ID (an older snapshot or LLVM) and what
# was built from them.  Their builds go when the
# working trees of this snapshot are made (prepare_tree).
remove_stale_trees() {
	local prefix=$1 id=$2 state
	for state in "$TC/src/$prefix"-*.state; do
		[ -d "$state" ] || continue
		[ "$(cat "$state/pristine" 2>/dev/null)" != "$id" ] || continue
		msg "removing $(repo_rel "${state%.state}") (other sources)"
		rm -rf "${state%.state}" "$state"
	done
}

# The pristine tree in the cache, once per run.
fetch_binutils_once() {
	! $BINUTILS_FETCHED || return 0
	step "binutils: fetch" fetch binutils
	remove_stale_trees binutils "$(binutils_pristine_id)"
	BINUTILS_FETCHED=true
}

# component_builds TOOL SOURCES: the build folders of the components
# built from TOOL's working tree of SOURCES (patched or vanilla).
component_builds() {
	awk -v t="$1" -v s="$2" -v tc="$TC" '$2 == t && $3 == s {
		print tc "/" $1 }' <<<"$COMPONENT_LINES"
}

# prepare_binutils_tree SOURCES SRC: the binutils working tree in SRC,
# made once per run, whichever component comes first.  SOURCES
# "patched": the series applied, shared by the native, the default-on and
# the cross builds; "vanilla": no series, shared by binutils-vanilla and
# the binutils-vanilla-NAME cross builds.  A new copy removes what was
# built from the old one.
prepare_binutils_tree() {
	local sources=$1 src=$2 name=binutils series=$BFD_SERIES what=patch
	local -a builds
	case " $TREES_READY " in *" binutils-$sources "*) return 0 ;; esac
	fetch_binutils_once
	if [ "$sources" = vanilla ]; then
		name=binutils-vanilla series=none what=sources
	fi
	mapfile -t builds < <(component_builds binutils "$sources")
	step "$name: $what" prepare_tree "$name" \
		"$CACHE/binutils/$BINUTILS_TREE" "$(binutils_pristine_id)" \
		"$src" "$series" "${builds[@]}"
	TREES_READY="$TREES_READY binutils-$sources"
}

# link_cross_ld NAME TRIPLET DIR: DIR/TRIPLET-ld, the ld of the cross
# binutils NAME.
link_cross_ld() {
	mkdir -p "$3"
	link_tool "$3" "$2-ld" "toolchain/$1/ld/ld-new"
}

# build_binutils NAME SOURCES DIR TRIPLET [OPTION...]: configure and make
# the binutils component NAME from the working tree of SOURCES with
# OPTIONs, and link its tools into DIR: all of them, or for a cross
# binutils (TRIPLET not "-", each with the target's own max page size and
# separate-code default, whose ld testsuite runs the -z hugetext tests
# there too) its ld as DIR/TRIPLET-ld.
build_binutils() {
	local name=$1 sources=$2 dir=$3 triplet=$4 src=$TC/src/$BINUTILS_TREE
	local v="GNU ld (GNU Binutils) $BINUTILS_VERSION_STRING"
	shift 4
	[ "$sources" = patched ] || src=$src-$sources
	prepare_binutils_tree "$sources" "$src"
	step "$name: configure" configure_binutils "$name" "$src" "$TC/$name" "$@"
	step "$name: make" make_binutils "$name" "$TC/$name"
	if [ "$triplet" = - ]; then
		step "$name: install" install_binutils "toolchain/$name" "$dir"
		step "$name: verify" verify_binutils "$dir"
	else
		step "$name: install" link_cross_ld "$name" "$triplet" "$dir"
		step "$name: verify" check_version "$dir/$triplet-ld" "$v"
	fi
}

# component_ld TOOL DIR TRIPLET: the linker a component of TOOL linked
# into DIR.
component_ld() {
	case $1 in
	lld) printf '%s\n' "$2/ld.lld" ;;
	*) [ "$3" = - ] && printf '%s\n' "$2/ld.bfd" ||
		printf '%s\n' "$2/$3-ld" ;;
	esac
}

# verify_lists LD: "LD --help" lists -z hugetext.
verify_lists() {
	# Not "grep -q": it stops reading, and with pipefail ld's SIGPIPE
	# would fail the check now and then.
	"$1" --help | grep -- '-z hugetext ' >/dev/null ||
		die "$1 --help does not list -z hugetext"
}

# verify_default_on_binutils LD: "LD --help" marks -z hugetext as the default,
# as --enable-hugetext makes it (bfd-patches/ 0003).
verify_default_on_binutils() {
	local help
	help=$("$1" --help) || die "$1 --help failed"
	grep -Eq -- '^ +-z hugetext +.*\(default\)$' <<<"$help" ||
		die "$1 --help does not mark -z hugetext as the default:" \
			"$(grep -E -- '^ +-z (no)?hugetext ' <<<"$help" | paste -sd '|')" \
			"(does the bfd series have patch 0003, --enable-hugetext?)"
	msg "$(repo_rel "$1") --help: -z hugetext is the default"
}

# --- lld -------------------------------------------------------------------

# Paths that go into the generated scripts: no quoting needed.
check_script_path() {
	case $1 in
	/* ) ;;
	*) die "not an absolute path: $1" ;;
	esac
	case $1 in
	*[!A-Za-z0-9_./+@%:=,-]*) die "unsupported character in the path $1" ;;
	esac
}

# write_script FILE TEXT...: FILE, executable, holds the lines TEXT; made
# beside it and renamed, so that FILE is never half written.
write_script() {
	local file=$1
	shift
	printf '%s\n' "$@" >"$file.tmp"
	chmod 755 "$file.tmp"
	mv -f "$file.tmp" "$file"
}

# write_lld_in_root NAME ROOT SRC BUILD: TC/NAME-in-root COMMAND... runs
# COMMAND in the build root ROOT with the lld sources SRC at LLD_GUEST_SRC
# and the build BUILD at LLD_GUEST_BUILD (debian-roots/in-root), in that
# folder, with LLVM's bin folder first in PATH.  The build and the tests'
# lit runs use it (TC/lld-in-root: run-tests, "lit test/ELF";
# TC/lld-default-in-root: default-regress).
write_lld_in_root() {
	local name=$1 root=$2 src=$3 build=$4 p
	for p in "$REPO" "$root" "$src" "$build"; do
		check_script_path "$p"
	done
	mkdir -p "$build"
	write_script "$TC/$name-in-root" '#!/bin/sh' \
		"# Made by toolchain/build-toolchain.sh: COMMAND in ld.lld's sid" \
		"# build root, in its build folder ($LLD_GUEST_BUILD there)." \
		"exec $REPO/debian-roots/in-root $root $src=$LLD_GUEST_SRC \\" \
		"	$build=$LLD_GUEST_BUILD -- \\" \
		"	env PATH=$LLVM_PREFIX/bin:/usr/bin:/bin \\" \
		"	sh -c 'cd $LLD_GUEST_BUILD && exec \"\$@\"' sh \"\$@\""
}

# The folder, in the build folder, of a LLVMConfig.cmake of our own.
LLD_LLVM_CMAKE=hugetext-llvm-cmake

# lld_llvm_dir: the folder, inside the build root, of the LLVMConfig.cmake
# that the lld build finds.  A standalone lld takes its version from the
# LLVM it is built against; where the build root's LLVM is a later point
# release of the series than the sources (LLVM_ROOT_VERSION), the build
# folder gets a LLVMConfig.cmake that reads the root's and then gives the
# version of the sources, so that ld.lld --version and .comment say what
# was built.
lld_llvm_dir() {
	if [ "$LLVM_ROOT_VERSION" = "$LLVM_VERSION" ]; then
		printf '%s\n' "$LLVM_PREFIX/lib/cmake/llvm"
		return 0
	fi
	printf '%s\n' "$LLD_GUEST_BUILD/$LLD_LLVM_CMAKE"
}

# write_llvm_dir BUILD: write lld_llvm_dir's LLVMConfig.cmake into the
# build folder BUILD, where it is not the root's own.
write_llvm_dir() {
	local dir=$1/$LLD_LLVM_CMAKE v=$LLVM_VERSION
	[ "$(lld_llvm_dir)" != "$LLVM_PREFIX/lib/cmake/llvm" ] || return 0
	mkdir -p "$dir"
	printf '%s\n' "# Made by toolchain/build-toolchain.sh: sid's LLVM" \
		"# $LLVM_ROOT_VERSION, named as the lld sources ($v) are." \
		"include($LLVM_PREFIX/lib/cmake/llvm/LLVMConfig.cmake)" \
		"set(LLVM_PACKAGE_VERSION $v)" \
		"set(LLVM_VERSION_PATCH ${v##*.})" >"$dir/LLVMConfig.cmake"
}

# lld_config [OPTION...]: the whole configuration of an lld build, the
# common options and then OPTIONs (cmake's), one per line.
lld_config() {
	printf '%s\n' -G Ninja -DCMAKE_BUILD_TYPE=Release \
		"-DCMAKE_C_COMPILER=$LLD_CC" "-DCMAKE_CXX_COMPILER=$LLD_CXX" \
		"-DLLVM_DIR=$(lld_llvm_dir)" \
		-DLLVM_INCLUDE_TESTS=ON \
		"-DLLVM_EXTERNAL_LIT=$LLVM_PREFIX/bin/lit"
	# Linking with lld (lld-N in the root) is quicker; only clang takes
	# -fuse-ld=lld for sure.
	case $LLD_CXX in clang++*) printf '%s\n' -DLLVM_USE_LINKER=lld ;; esac
	[ $# -eq 0 ] || printf '%s\n' "$@"
	# Another root (other packages, other versions) configures afresh.
	printf '%s\n' "CFLAGS=${CFLAGS-} CXXFLAGS=${CXXFLAGS-}" \
		"LDFLAGS=${LDFLAGS-}" "ROOT=$(buildroot_dir)" \
		"PATHS=$LLD_GUEST_SRC $LLD_GUEST_BUILD"
}

# configure_lld NAME SRC BUILD [OPTION...]: cmake in the build root
# (through TC/NAME-in-root), with the common options and OPTIONs.
configure_lld() {
	local name=$1 src=$2 build=$3 config args=()
	shift 3
	config=$(lld_config "$@")
	needs_configure "$name" "$src" "$build" build.ninja "$config" ||
		return 0
	write_llvm_dir "$build"
	mapfile -t args < <(printf '%s\n' "$config" | grep -v '^[A-Z]*=')
	# in-root clears the environment: CMake takes the flags from here.
	run_logged "$LOGS/$name-cmake.log" "$TC/$name-in-root" \
		env CFLAGS="${CFLAGS-}" CXXFLAGS="${CXXFLAGS-}" \
		LDFLAGS="${LDFLAGS-}" \
		cmake -S "$LLD_GUEST_SRC/lld" -B "$LLD_GUEST_BUILD" "${args[@]}"
	printf '%s\n' "$config" >"$build.configured"
}

# The default target builds bin/lld and its ld.lld link, all that
# check-lld needs: lit can then run lld/test/ELF from the build directory.
# ninja_lld NAME
ninja_lld() {
	local log=$LOGS/$1-ninja.log
	msg "$1: ninja in the build root (log: $(repo_rel "$log"))"
	run_logged "$log" "$TC/$1-in-root" ninja -j "$JOBS"
}

# install_lld BUILD DIR: DIR/ld.lld (DIR: BIN or a folder in it), a
# launcher that runs BUILD/bin/lld with the build root's loader and
# libraries (it is linked against sid's glibc, libstdc++ and libLLVM), as
# ld.lld.  So "gcc -B DIR/ -fuse-ld=lld" and every test use it from the
# host.  No DIR/lld: nothing uses it.
install_lld() {
	local build=$1 dir=$2 root
	root=$(buildroot_dir)
	[ -x "$build/bin/lld" ] || die "$build/bin/lld was not built"
	check_script_path "$build"
	check_script_path "$root"
	mkdir -p "$dir"
	rm -f "$dir/lld"
	write_script "$dir/ld.lld" '#!/bin/sh' \
		"# Made by toolchain/build-toolchain.sh: ld.lld $LLVM_VERSION, built" \
		"# in a sid build root, run with that root's loader and libraries." \
		"exec $root/lib64/ld-linux-x86-64.so.2 \\" \
		"	--library-path $root/usr/lib/x86_64-linux-gnu:$root$LLVM_PREFIX/lib \\" \
		"	--argv0 ld.lld $build/bin/lld \"\$@\""
}

# verify_lld BUILD DIR: DIR/ld.lld is LLD $LLVM_VERSION, loads every
# library from the build root, and gcc -B DIR/ -fuse-ld=lld links with it.
verify_lld() {
	local build=$1 dir=$2 root libs foreign out
	out=$TC/$(basename "$build")-verify
	root=$(buildroot_dir)
	check_version "$dir/ld.lld" "LLD $LLVM_VERSION "
	libs=$("$root/lib64/ld-linux-x86-64.so.2" --list --library-path \
		"$root/usr/lib/x86_64-linux-gnu:$root$LLVM_PREFIX/lib" \
		"$build/bin/lld" | awk '$2 == "=>" { print $3 }')
	foreign=$(grep -v "^$root/" <<<"$libs" || :)
	[ -z "$foreign" ] ||
		die "$build/bin/lld loads libraries from outside the build root:" \
			"$foreign"
	rm -rf "$out"
	mkdir -p "$out"
	printf 'int main(void) { return 0; }\n' >"$out/t.c"
	gcc -B "$dir/" -fuse-ld=lld -o "$out/t" "$out/t.c" ||
		die "gcc -B $dir/ -fuse-ld=lld cannot link"
	"$out/t" || die "a program linked by $dir/ld.lld does not run"
	readelf -p .comment "$out/t" | grep "Linker: LLD $LLVM_VERSION" >/dev/null ||
		die "gcc -B $dir/ -fuse-ld=lld did not link with LLD $LLVM_VERSION"
	msg "gcc -B $(repo_rel "$dir")/ -fuse-ld=lld links with LLD $LLVM_VERSION"
	rm -rf "$out"
}

# verify_default_on_lld LD: LD (a launcher) lays out code for huge pages
# without -z hugetext: 64 KiB of code with a 64 KiB huge page size (as
# lld/test/ELF/hugetext-default.s does) gets a code segment aligned to it,
# and -z nohugetext turns that off.
verify_default_on_lld() {
	local ld=$1 out=$TC/lld-default-verify on off
	rm -rf "$out"
	mkdir -p "$out"
	printf '%s\n' '.globl _start' '_start:' '.space 0x10000, 0x90' \
		>"$out/t.s"
	as -o "$out/t.o" "$out/t.s"
	"$ld" -z hugetext-page-size=0x10000 -o "$out/on" "$out/t.o" ||
		die "$ld cannot link"
	"$ld" -z nohugetext -z hugetext-page-size=0x10000 -o "$out/off" \
		"$out/t.o" || die "$ld -z nohugetext cannot link"
	on=$(readelf -lW "$out/on" | awk '$1 == "LOAD" && /R E/ { print $NF }')
	off=$(readelf -lW "$out/off" | awk '$1 == "LOAD" && /R E/ { print $NF }')
	if [ "$on" != 0x10000 ] || [ "$off" = 0x10000 ]; then
		die "$ld: the code segment's p_align is '$on' by default and" \
			"'$off' with -z nohugetext; expected 0x10000 and the page size" \
			"(does the lld series have patch 0002, LLD_DEFAULT_HUGETEXT?)"
	fi
	msg "$(repo_rel "$ld"): -z hugetext is the default"
	rm -rf "$out"
}

# prepare_lld_tree SOURCES SRC: the LLVM source tree in SRC (SOURCES:
# patched, or vanilla without a series) and the build root, shared by the
# lld components; made once per run, whichever component comes first.
prepare_lld_tree() {
	local sources=$1 src=$2 series=$LLD_SERIES name=lld what=patch
	local -a builds
	case " $TREES_READY " in *" lld-$sources "*) return 0 ;; esac
	[ "$sources" = patched ] || series=none name=lld-$sources what=sources
	case " $TREES_READY " in
	*" lld-"*) ;;
	*)
		step "lld: fetch" fetch llvm
		step "lld: build root" fetch buildroot
		remove_stale_trees llvm "$(llvm_pristine_id)"
		;;
	esac
	mapfile -t builds < <(component_builds lld "$sources")
	step "$name: $what" prepare_tree "$name" \
		"$CACHE/llvm/llvm-$LLVM_VERSION" "$(llvm_pristine_id)" "$src" \
		"$series" "${builds[@]}"
	TREES_READY="$TREES_READY lld-$sources"
}

# build_lld NAME SOURCES DIR TRIPLET [OPTION...]: configure and build the
# lld component NAME from the LLVM tree of SOURCES with cmake's OPTIONs in
# the build root, with TC/NAME-in-root for lit in its build, and write the
# launcher DIR/ld.lld.  One lld links for every target: no TRIPLET.
build_lld() {
	local name=$1 sources=$2 dir=$3 src=$TC/src/llvm-$LLVM_VERSION
	local build=$TC/$1
	[ "$4" = - ] || die "$name: an lld component has no cross target"
	shift 4
	[ "$sources" = patched ] || src=$src-$sources
	prepare_lld_tree "$sources" "$src"
	write_lld_in_root "$name" "$(buildroot_dir)" "$src" "$build"
	step "$name: configure" configure_lld "$name" "$src" "$build" "$@"
	step "$name: ninja" ninja_lld "$name"
	step "$name: install" install_lld "$build" "$dir"
	step "$name: verify" verify_lld "$build" "$dir"
}

# --- Components (toolchain/components) --------------------------------------

# read_components: COMPONENT_LINES, the lines of toolchain/components with
# each "@" line repeated for every cross target: NAME TOOL SOURCES
# OPTIONS BIN CHECK DEFAULT TRIPLET (TRIPLET "-" where none); and
# COMPONENTS, what to build.
read_components() {
	local file=$HERE/components
	# awk prints the lines, or the first bad line's error alone.
	COMPONENT_LINES=$(awk -v cross="$(printf '%s\n' "$CROSS_TARGETS" |
		paste -sd ' ')" -v file="$(repo_rel "$file")" '
		BEGIN { n = split(cross, w, " ") }
		/^#/ || NF == 0 { next }
		NF != 7 || $2 !~ /^(binutils|lld)$/ || $3 !~ /^(patched|vanilla)$/ ||
		    $5 !~ /^(\.|[A-Za-z0-9_-]+)$/ ||
		    $6 !~ /^(lists|default-on|-)$/ || $7 !~ /^(yes|no)$/ {
			bad = sprintf("%s:%d: not NAME TOOL SOURCES OPTIONS BIN " \
			    "CHECK DEFAULT (TOOL binutils or lld, SOURCES patched " \
			    "or vanilla, BIN . or a folder name, CHECK lists, " \
			    "default-on or -, DEFAULT yes or no)", file, FNR)
			exit
		}
		$1 ~ /@/ && $2 != "binutils" {
			bad = sprintf("%s:%d: %s: only a binutils component has " \
			    "a line per cross target (one lld links for all)",
			    file, FNR, $1)
			exit
		}
		$1 !~ /@/ { add($1, $0 " -"); next }
		{
			for (i = 1; i + 1 <= n; i += 2) {
				name = $1; opts = $4
				sub(/@/, w[i], name)
				gsub(/@/, "--target=" w[i + 1], opts)
				add(name, name " " $2 " " $3 " " opts " " $5 " " $6 \
				    " " $7 " " w[i + 1])
			}
		}
		function add(name, line) {
			if (name in seen && bad == "")
				bad = sprintf("%s:%d: %s is named twice", file, FNR,
				    name)
			seen[name] = 1
			out[++m] = line
		}
		END {
			if (bad != "") { print bad; exit 1 }
			for (i = 1; i <= m; i++) print out[i]
		}' "$file") || die "$COMPONENT_LINES"
	COMPONENTS=${HUGETEXT_COMPONENTS:-$(awk '$7 == "yes" { print $1 }' \
		<<<"$COMPONENT_LINES" | paste -sd ' ')}
}

# component_line NAME: NAME's line of COMPONENT_LINES; nothing if none.
component_line() {
	awk -v c="$1" '$1 == c' <<<"$COMPONENT_LINES"
}

# build_component NAME: build the component NAME as its line of
# toolchain/components says, check it and keep its build in the cache.
build_component() {
	local name tool sources options bin check triplet ld
	local -a opts
	read -r name tool sources options bin check _ triplet \
		<<<"$(component_line "$1")"
	opts=()
	[ "$options" = - ] || IFS=, read -r -a opts <<<"$options"
	[ "$bin" = . ] && bin=$BIN || bin=$BIN/$bin
	"build_$tool" "$name" "$sources" "$bin" "$triplet" "${opts[@]}"
	ld=$(component_ld "$tool" "$bin" "$triplet")
	case $check in
	lists) step "$name: --help" verify_lists "$ld" ;;
	default-on) step "$name: default" "verify_default_on_$tool" "$ld" ;;
	esac
	step "$name: keep" keep_built "$name"
}

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
