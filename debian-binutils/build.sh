#!/bin/bash
# Debian's own binutils source package with our series: sid's binutils
# (the snapshot of toolchain/pins) with bfd-patches/ in its
# debian/patches and --enable-hugetext behind the package's switch
# (debian.diff), built with dpkg-buildpackage in a Debian 12 root
# (docs/distro.md, "Debian's binutils package with the series").
#
# Usage: debian-binutils/build.sh [--off] [--no-check | --source-only] [BUILD_DIR]
#
#   1. The source package.  Debian's mirror serves no source of sid's
#      binutils snapshot any more; its binary package binutils-source,
#      which toolchain/build-toolchain.sh fetches into the cache, holds
#      the snapshot's tree as the package's build left it (Debian's
#      patches applied, files the build makes again removed), debian/
#      and debian/patches.  Debian's series comes off again, backwards:
#      the tree is then close to the package's upstream tree.
#   2. Our change to the package: the patches of bfd-patches/series
#      copied into debian/patches, after Debian's in its series;
#      debian.diff (debian/rules: the switch; debian/README.source); a
#      changelog entry.  Then bookworm.diff, what building sid's package
#      on Debian 12 needs, nothing to do with hugetext.
#   3. dpkg-buildpackage -B, as the user "builder", in a bookworm root
#      with the package's build dependencies (mmdebstrap, in the cache),
#      with the build profile pkg.binutils.hugetext (the switch; not with
#      --off) and the package's own pkg.binutils.nojava, and
#      DEB_BUILD_OPTIONS below: the package's options that leave out the
#      multiarch, hppa64 and cross builds (not installed here) and the
#      PGO/LTO build of ld (Debian's amd64 package has it; it would
#      double the build), and nocheck: the package's "make check" runs
#      every test suite of the tree, and ld's is step 4.  The built ld
#      must show -z hugetext as its default in --help (with --off: not).
#   4. Unless --no-check, ld's test suite in the package's build tree,
#      as the package runs it (make check-ld, VERSION=-system): it passes
#      with no FAIL, XPASS, UNRESOLVED or ERROR.
# --off builds the package without the switch, into debian-binutils-off
# (distro/distro-check's baseline of the "deb" way).  --source-only stops
# after step 2 (no root needed), into source-only/: the tree, to read or
# to build by hand.
#
# Output in BUILD_DIR/debian-binutils (-off) (BUILD_DIR defaults to
# "build"): debs/ (the packages; distro/distro-check's "deb" and
# "deb-off" ways install them in their build roots), buildinfo (the
# build's .buildinfo), source/ (the tree the packages were built from),
# work/ (the build tree), build.log, check-ld.log, ld.sum and check
# (written only when ld's tests passed), times (seconds per step), key
# (what went into debs/: a later run with the same key builds nothing).
# Exit status 0 when the packages were built (and ld's tests passed), 1
# when a step failed, 2 on bad usage.  Needs root (mmdebstrap, chroot).
#
# Environment: HUGETEXT_CACHE, HUGETEXT_JOBS (parallel=N, default
# nproc), HUGETEXT_DEBIAN_BINUTILS_OPTIONS (DEB_BUILD_OPTIONS in place
# of the default below).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd -P)
REPO=$(dirname "$HERE")
# shellcheck source=toolchain/pins
. "$REPO/toolchain/pins"

msg() { printf 'debian-binutils: %s\n' "$*" >&2; }
die() { msg "error: $*"; exit 1; }
usage() {
	sed -n '2,/^set -euo/s/^# \{0,1\}//p' "$0" | sed '$d' >&2
	exit 2
}

CHECK=true
SOURCE_ONLY=false
ON=true
BUILD=
for arg in "$@"; do
	case $arg in
	--off) ON=false ;;
	--no-check) CHECK=false ;;
	--source-only) SOURCE_ONLY=true ;;
	-h | --help) usage ;;
	-*) msg "unknown option $arg"; usage ;;
	*) [ -z "$BUILD" ] || usage; BUILD=$arg ;;
	esac
done
BUILD=${BUILD:-$REPO/build}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd -P)
OUT=$BUILD/debian-binutils
$ON || OUT=$OUT-off
CACHE=${HUGETEXT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugetext}
JOBS=${HUGETEXT_JOBS:-$(nproc)}
OPTIONS=${HUGETEXT_DEBIAN_BINUTILS_OPTIONS:-"nomult nohppa nocross nopgo nocheck parallel=$JOBS"}
# The package's profile that leaves out gprofng's Java part (and so
# default-jdk-headless, about 200 MB), and the switch.
PROFILES=pkg.binutils.nojava
! $ON || PROFILES=$PROFILES,pkg.binutils.hugetext
# The version of our build: Debian's, then ours.
VERSION=$BINUTILS_DEB_VERSION+hugetext1
SOURCE_DEB=$CACHE/binutils/${BINUTILS_DEB_PACKAGE}_${BINUTILS_DEB_VERSION}_all.deb
# Where the source tree is inside the build root (BUILDER_UID, who
# builds there, is debian-roots/mmdebstrap.sh's).
GUEST=/build/binutils-$BINUTILS_VERSION_STRING

# shellcheck source=debian-roots/sid-apt.sh
. "$REPO/debian-roots/sid-apt.sh"
# shellcheck source=debian-roots/mmdebstrap.sh
. "$REPO/debian-roots/mmdebstrap.sh"

[ -f "$SOURCE_DEB" ] ||
	die "no $SOURCE_DEB: toolchain/build-toolchain.sh fetches it (./run build)"
echo "$BINUTILS_DEB_SHA256  $SOURCE_DEB" | sha256sum --quiet -c - ||
	die "$SOURCE_DEB is not the binutils-source of toolchain/pins"

TIMES=()
# step NAME COMMAND...: run COMMAND, note its time.
step() {
	local name=$1 t0 t1
	shift
	t0=$(date +%s)
	"$@"
	t1=$(date +%s)
	TIMES+=("$name $((t1 - t0))")
	msg "$name: $((t1 - t0)) s"
}

# The series' patch files, in order.
series() {
	grep -v '^#' "$REPO/bfd-patches/series" | grep .
}

# What the packages are made of: a new one of these builds again.
key() {
	{
		printf '%s\n' "$OPTIONS" "$PROFILES" "$VERSION"
		echo "$BINUTILS_DEB_SHA256"
		(cd "$REPO/bfd-patches" && series | xargs sha256sum)
		sha256sum "$HERE/debian.diff" "$HERE/bookworm.diff" "$HERE/build.sh" \
			"$REPO/debian-roots/mmdebstrap.sh" "$REPO/debian-roots/in-root"
	} | sha256sum | cut -c1-16
}

# source_tree DIR: the package's source tree in DIR (steps 1 and 2).
source_tree() {
	local dir=$1 tmp p src
	# What a stopped run left.
	rm -rf "$OUT"/.source.*
	tmp=$(mktemp -d "$OUT/.source.XXXXXX")
	dpkg-deb -x "$SOURCE_DEB" "$tmp/deb"
	src=$tmp/deb/usr/src/binutils
	tar -C "$tmp" -xJf "$src/binutils-$BINUTILS_VERSION.tar.xz"
	mv "$tmp/binutils-$BINUTILS_VERSION" "$tmp/tree"
	# Debian's patches backwards: the upstream tree, as in the source
	# package before dpkg-source applies them.
	grep -v '^#' "$src/patches/series" | grep . | tac | while read -r p; do
		patch -d "$tmp/tree" -R -p1 -F0 -s --no-backup-if-mismatch \
			<"$src/patches/$p" ||
			die "Debian's $p does not come off the binutils-source tree"
	done
	cp -a "$src/debian" "$tmp/tree/debian"
	mkdir "$tmp/tree/debian/patches"
	cp "$src/patches/"* "$tmp/tree/debian/patches/"
	# Our change: the series after Debian's patches, the switch, the
	# changelog entry.
	for p in $(series); do
		cp "$REPO/bfd-patches/$p" "$tmp/tree/debian/patches/hugetext-$p"
		printf 'hugetext-%s\n' "$p" >>"$tmp/tree/debian/patches/series"
	done
	patch -d "$tmp/tree" -p1 -F0 -s --no-backup-if-mismatch <"$HERE/debian.diff" ||
		die "debian.diff does not apply to the package's debian/"
	changelog_entry "$(dpkg-parsechangelog -l "$tmp/tree/debian/changelog" -S Date)" \
		>"$tmp/changelog"
	cat "$tmp/tree/debian/changelog" >>"$tmp/changelog"
	mv "$tmp/changelog" "$tmp/tree/debian/changelog"
	# Building on Debian 12.
	patch -d "$tmp/tree" -p1 -F0 -s --no-backup-if-mismatch <"$HERE/bookworm.diff" ||
		die "bookworm.diff does not apply to the package's debian/"
	rm -rf "$dir"
	mv "$tmp/tree" "$dir"
	rm -rf "$tmp"
}

# changelog_entry DATE: our entry, dated DATE (Debian's last one's, so
# that the same inputs give the same packages).
changelog_entry() {
	cat <<EOF
binutils ($VERSION) unstable; urgency=medium

  * Add -z hugetext (debian/patches/hugetext-*.patch, from hugetext's
    bfd-patches), and configure the native ld with --enable-hugetext
    (-z hugetext by default) for the vendors in hugetext_vendors (none)
    and their derivatives, or with the build profile
    pkg.binutils.hugetext; the build option nohugetext turns it off.

 -- hugetext <hugetext@localhost>  $1

EOF
}

# build_root: the tarball of a bookworm root with the package's build
# dependencies (for PROFILES) and nothing of ours; prints its path.
# shellcheck disable=SC2016 # mmdebstrap's hooks expand "$1", the root
build_root() {
	local id tar hooks stage
	id=$(cat "$OUT/source/debian/control" "$OUT/source/debian/changelog" |
		sha256sum | cut -c1-12)
	# The same path for every build folder and --off: the root's name
	# comes from its hooks.
	stage=$CACHE/debian-binutils/srcpkg-$id
	mkdir -p "$stage"
	cp "$OUT/source/debian/control" "$OUT/source/debian/changelog" "$stage/"
	hooks=(--customize-hook='mkdir -p "$1/srcpkg/debian"'
		--customize-hook="upload $stage/control /srcpkg/debian/control"
		--customize-hook="upload $stage/changelog /srcpkg/debian/changelog"
		--customize-hook="chroot \"\$1\" env DEBIAN_FRONTEND=noninteractive apt-get -y --no-install-recommends -P ${PROFILES%%,*} build-dep /srcpkg"
		--customize-hook='rm -rf "$1/srcpkg"'
		--customize-hook="chroot \"\$1\" useradd -m -u $BUILDER_UID builder"
		--customize-hook='chroot "$1" apt-get clean')
	id=$(printf '%s\n' "${hooks[@]}" "$HOST_SUITE" "$SID_MIRROR" |
		sha256sum | cut -c1-12)
	tar=$CACHE/debian-binutils/root-$id.tar
	debian_root "$tar" "the binutils build root" --variant=buildd \
		--format=tar "${hooks[@]}" "$HOST_SUITE" \
		"deb [signed-by=$SID_KEYRING] $SID_MIRROR $HOST_SUITE main" \
		"deb [signed-by=$SID_KEYRING] $SID_MIRROR $HOST_SUITE-updates main"
	printf '%s\n' "$tar"
}

# in_root COMMAND...: COMMAND in the build root, in the source tree, as
# the user "builder".
in_root() {
	"$REPO/debian-roots/in-root" --writable "$OUT/root" \
		"$OUT/work=/build" -- /usr/sbin/runuser -u builder -- \
		env HOME=/home/builder /bin/sh -c "cd $GUEST && $*"
}

# unpack_root: a fresh copy of the build root in OUT/root.
unpack_root() {
	local tar
	tar=$(build_root)
	rm -rf --one-file-system "$OUT/root"
	mkdir -p "$OUT/root"
	tar -C "$OUT/root" -xf "$tar"
}

build_debs() {
	unpack_root
	rm -rf --one-file-system "$OUT/work" "$OUT/debs" "$OUT/debs.tmp"
	mkdir -p "$OUT/work"
	cp -a "$OUT/source" "$OUT/work/binutils-$BINUTILS_VERSION_STRING"
	chown -R "$BUILDER_UID:$BUILDER_UID" "$OUT/work"
	msg "dpkg-buildpackage -B -P$PROFILES, DEB_BUILD_OPTIONS=\"$OPTIONS\" (log: $OUT/build.log)"
	if ! in_root "DEB_BUILD_OPTIONS='$OPTIONS' dpkg-buildpackage -B -us -uc -P$PROFILES" \
		>"$OUT/build.log" 2>&1; then
		tail -n 20 "$OUT/build.log" >&2
		die "dpkg-buildpackage failed (log: $OUT/build.log)"
	fi
	default_check
	mkdir "$OUT/debs.tmp"
	cp "$OUT/work"/*.deb "$OUT/debs.tmp/"
	cp "$OUT/work"/*.buildinfo "$OUT/buildinfo"
	mv "$OUT/debs.tmp" "$OUT/debs"
}

# The built ld has -z hugetext as its default, or (--off) has not.
default_check() {
	local ld=$OUT/work/binutils-$BINUTILS_VERSION_STRING/builddir-single/ld/ld-new
	local help
	help=$(in_root "builddir-single/ld/ld-new --help") ||
		die "$ld --help failed"
	printf '%s\n' "$help" | grep -q -- '-z hugetext ' ||
		die "$ld has no -z hugetext: the series is not in the build"
	if printf '%s\n' "$help" | grep -q -- '-z hugetext .*(default)'; then
		$ON || die "$ld has -z hugetext as its default, built without the switch"
	else
		! $ON || die "$ld does not have -z hugetext as its default (the switch: pkg.binutils.hugetext)"
	fi
}

# ld's tests in the package's build tree, as the package runs its check
# (MAKE with VERSION=-system); they pass with no FAIL, XPASS,
# UNRESOLVED or ERROR.  ld.sum and the verdict (check) are written only
# then.  dpkg-buildpackage's last step took the patches off the tree
# again (dpkg-source --after-build), Debian's test changes and the
# series' tests with them: they go back on first (make does not build
# anything again: the check runs the ld that was built).
check_ld() {
	local sum=$OUT/work/binutils-$BINUTILS_VERSION_STRING/builddir-single/ld/ld.sum
	msg "make check-ld in builddir-single (log: $OUT/check-ld.log)"
	rm -f "$sum"
	in_root "dpkg-source --before-build . && ls ld/testsuite/ld-elf/hugetext-*.d >/dev/null &&
		env MAKE='make VERSION=-system' make -C builddir-single -k check-ld" \
		>"$OUT/check-ld.log" 2>&1 || :
	[ -f "$sum" ] || die "ld's tests wrote no ld.sum (log: $OUT/check-ld.log)"
	grep -q 'hugetext' "$sum" ||
		die "ld's tests ran none of the series' tests (log: $OUT/check-ld.log)"
	sed -n '/=== ld Summary ===/,$p' "$sum" >&2
	if grep -Eq '^(FAIL|XPASS|UNRESOLVED|ERROR):' "$sum" ||
		! grep -q '^# of expected passes' "$sum"; then
		grep -E '^(FAIL|XPASS|UNRESOLVED|ERROR):' "$sum" | head -20 >&2
		die "ld's tests did not pass (see $sum)"
	fi
	cp "$sum" "$OUT/ld.sum"
	printf 'passed\n' >"$OUT/check"
}

mkdir -p "$OUT" "$CACHE/debian-binutils"
if $SOURCE_ONLY; then
	source_tree "$OUT/source-only"
	printf '%s\n' "$OUT/source-only"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || die "needs root (mmdebstrap, chroot)"
key=$(key)
if [ "$(cat "$OUT/key" 2>/dev/null)" = "$key" ] && [ -d "$OUT/debs" ]; then
	msg "built before with the same inputs (key $key): $OUT/debs"
else
	rm -rf "$OUT/key" "$OUT/debs" "$OUT/check" "$OUT/ld.sum" "$OUT/times"
	step "source package" source_tree "$OUT/source"
	step "dpkg-buildpackage" build_debs
	printf '%s\n' "$key" >"$OUT/key"
fi
if $CHECK && [ "$(cat "$OUT/check" 2>/dev/null)" != passed ]; then
	[ -d "$OUT/work/binutils-$BINUTILS_VERSION_STRING/builddir-single" ] ||
		die "no build tree in $OUT/work to test: remove $OUT/key and run again"
	[ -d "$OUT/root/usr" ] || unpack_root
	step "check-ld" check_ld
fi
rm -rf --one-file-system "$OUT/root"
[ "${#TIMES[@]}" -eq 0 ] || printf '%s\n' "${TIMES[@]}" >>"$OUT/times"
msg "done: $(find "$OUT/debs" -name '*.deb' | wc -l) packages in $OUT/debs"
