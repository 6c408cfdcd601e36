#!/bin/sh
# Build dpkg from Debian's source with the patches in dpkg-patches/series.
#
# Usage: dpkg-patches/build.sh [--baseline] [--check | --check-all]
#
# Fetches dpkg's source package from Debian (the .dsc and the native
# tarball, each checked against the SHA256 pinned below), unpacks it,
# applies the series with patch -p1 (--baseline: applies nothing, for
# before/after comparisons), configures and builds it out of tree.
# --check then runs the test suites of the parts the series changes
# (lib/dpkg and the dpkg tools' functional tests in src; the build
# flags' tests of scripts/t); --check-all
# runs dpkg's whole "make check", which on Debian 12 has 6 known
# failures in t/syntax.t and t/taint.t (dselect's Config.pm uses Perl
# 5.38 syntax; fixed after 1.23.7 upstream), with or without the series.
#
# Everything is written under $HUGETEXT_CACHE/dpkg (default
# ~/.cache/hugetext/dpkg), never into this source tree.  A second run
# with the same patches reuses the build.  The last line printed is
# the build directory; the dpkg it built is src/dpkg there, to be run
# as in dpkg-patches/README.md (--root of a scratch directory).
#
# Environment: HUGETEXT_CACHE, HUGETEXT_JOBS (make -j, default 2),
# HUGETEXT_DEBIAN_MIRROR (default http://deb.debian.org/debian).
set -eu

# The dpkg this series applies to: the newest source of dpkg that
# Debian unstable's Sources index lists and its mirror serves (see
# README.md), pinned by the SHA256 from that index.
version=1.23.7
dsc_sha256=1b1013edd98d1ef7b0d7c943f8a57a4cfffb6d54e8d1e00bda36f34f5aaeca83
tar_sha256=60fe2be72e5f0a4bb0ac7baff3b1697ebc5cfaac1885f66649521571a97440ad

baseline=no
check=none
for arg in "$@"; do
	case $arg in
	--baseline) baseline=yes ;;
	--check) check=changed ;;
	--check-all) check=all ;;
	-h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "build.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
	esac
done

here=$(cd "$(dirname "$0")" && pwd)
cache=${HUGETEXT_CACHE:-$HOME/.cache/hugetext}/dpkg
mirror=${HUGETEXT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
jobs=${HUGETEXT_JOBS:-2}

say() { printf 'build.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

for tool in curl sha256sum tar xz patch make cc pkg-config; do
	command -v "$tool" >/dev/null 2>&1 || die "needs $tool"
done
# dpkg's configure stops without these: pkg-config's name, or a header,
# and the Debian package that has it (toolchain/install-deps.sh installs
# them).
for need in libmd:libmd-dev zlib:zlib1g-dev liblzma:liblzma-dev \
	libzstd:libzstd-dev libselinux:libselinux1-dev bzlib.h:libbz2-dev; do
	case ${need%%:*} in
	*.h) [ -e "/usr/include/${need%%:*}" ] ;;
	*) pkg-config --exists "${need%%:*}" ;;
	esac || die "needs ${need%%:*}: apt-get install ${need#*:}"
done

# The patches, in order, from the series file (comments and the cover
# letter left out).
patches=
if [ "$baseline" = no ]; then
	patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/series" |
		grep -v '^0000-cover-letter')
	[ -n "$patches" ] || die "no patches in $here/series"
	for p in $patches; do
		[ -f "$here/$p" ] || die "series names $p, which is not in $here"
	done
fi

mkdir -p "$cache"

# fetch FILE SHA256: download FILE from the pool into the cache, once.
fetch() {
	f=$cache/$1
	if [ -f "$f" ] && printf '%s  %s\n' "$2" "$f" | sha256sum -c --status; then
		return 0
	fi
	say "fetching $1"
	curl -fsS -o "$f.part" "$mirror/pool/main/d/dpkg/$1" ||
		die "cannot fetch $mirror/pool/main/d/dpkg/$1"
	printf '%s  %s\n' "$2" "$f.part" | sha256sum -c --status ||
		die "$1: SHA256 is not $2"
	mv "$f.part" "$f"
}
fetch "dpkg_$version.dsc" "$dsc_sha256"
fetch "dpkg_$version.tar.xz" "$tar_sha256"
grep -q " $tar_sha256 [0-9]* dpkg_$version.tar.xz\$" "$cache/dpkg_$version.dsc" ||
	die "dpkg_$version.dsc does not list the pinned tarball"

# One work directory per set of patches.
if [ "$baseline" = yes ]; then
	stamp=baseline
else
	# The patch names come from the series, one word each.
	# shellcheck disable=SC2086
	stamp=$(cd "$here" && cat $patches | sha256sum | cut -c1-12)
fi
work=$cache/dpkg-$version-$stamp
src=$work/src
build=$work/build

if [ ! -f "$work/built.ok" ]; then
	rm -rf "$work"
	mkdir -p "$work"
	tar -C "$work" -xJf "$cache/dpkg_$version.tar.xz"
	mv "$work/dpkg-$version" "$src"
	for p in $patches; do
		say "applying $p"
		patch -d "$src" -p1 -s --no-backup-if-mismatch <"$here/$p" ||
			die "$p does not apply to dpkg $version"
	done
	mkdir -p "$build"
	say "configuring and building dpkg $version ($stamp) in $build"
	(cd "$build" && "$src/configure" --prefix=/usr --sysconfdir=/etc \
		--localstatedir=/var >configure.log 2>&1) ||
		die "configure failed: see $build/configure.log"
	make -C "$build" -j"$jobs" >"$build/make.log" 2>&1 ||
		die "build failed: see $build/make.log"
	touch "$work/built.ok"
fi

case $check in
changed)
	say "make check in lib/dpkg and src"
	rc=0
	make -C "$build/lib/dpkg" -j"$jobs" check >"$build/check.log" 2>&1 || rc=$?
	make -C "$build/src" -j"$jobs" check >>"$build/check.log" 2>&1 || rc=$?
	# 0003: the build flags' tests, Debian's and Ubuntu's vendor.
	make -C "$build/scripts" check \
		test_scripts="t/Dpkg_BuildFlags.t t/Dpkg_BuildFlags_Ubuntu.t" \
		>>"$build/check.log" 2>&1 || rc=$?
	grep -E '^(Files=|Result:)|tests were (successful|skipped)|tests? failed' \
		"$build/check.log" >&2 || true
	[ $rc -eq 0 ] || die "make check failed: see $build/check.log"
	;;
all)
	say "make -k check (whole suite)"
	rc=0
	make -C "$build" -j"$jobs" -k check >"$build/check.log" 2>&1 || rc=$?
	grep -E '^(Files=|Result:)|tests were (successful|skipped)|tests? failed|^[^ ]*\.t +\(Wstat' \
		"$build/check.log" >&2 || true
	[ $rc -eq 0 ] || die "make check failed (exit $rc): see $build/check.log"
	;;
esac

echo "$build"
