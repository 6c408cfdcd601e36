#!/bin/bash
# Build one of the kernel matrix's own kernels (a "build:" line of the
# kernels file): a Debian linux-source package, the patches of a folder
# applied in name order, and the options of one or more config files set
# over tinyconfig, everything built in.
#
# Usage: testsuite/kernel/build-kernel.sh BUILD_DIR NAME PACKAGE PATCHES CONFIG [ARCH]
#   NAME     the kernel's name (the build goes to
#            BUILD_DIR/kernel-matrix/linux-NAME)
#   PACKAGE  the source package, linux-source-MAJOR.MINOR, or
#            linux-source-MAJOR.MINOR=VERSION to pin it to a version
#            of Debian unstable (sid)
#   PATCHES  a folder of *.patch files (-p1), applied in name order but
#            0000-cover-letter.patch, the series' cover letter
#   CONFIG   a file of CONFIG_NAME=y and "# CONFIG_NAME is not set"
#            lines, or several joined by "+", set in that order
#   ARCH     the Debian architecture it is for (default amd64): the
#            arches table's KERNEL says the kernel's ARCH= and image, its
#            CC the cross compiler (CROSS_COMPILE)
# PATCHES and CONFIG are relative to testsuite/kernel/.  Prints the path
# of the image; the file .package beside arch/ says PACKAGE=VERSION.
#
# PACKAGE alone: the newest PACKAGE in the host's apt index is
# downloaded.  PACKAGE=VERSION: exactly VERSION is read from sid through
# the cache's own apt configuration (debian-roots/sid-apt.sh; the host's
# apt state is not touched), and apt-get download checks it against the
# SHA256 of sid's signed index, which is kept beside it; when sid no
# longer has VERSION the build stops and says what sid has now.  A .deb
# already in the cache with the SHA256 it was downloaded with needs no
# network.  The .deb goes to, and is unpacked in,
# $HUGETEXT_CACHE/kernels(/src).  The build is kept as long as its stamp,
# the checksum of all that goes into the kernel (the source package's
# file name and SHA256, the patches' diffs, the options, the compiler's
# and binutils' versions, this script's way of applying them), is the
# same: in the build folder, and in the cache (kernels/built/NAME/STAMP:
# the image, its .config and its release, the last one of each NAME
# kept), so that a fresh build folder with a warm cache builds nothing.
# The patched tree is made in the build folder either way (compile-check.sh
# compiles in it).  After olddefconfig, every option of CONFIG is
# checked: the build stops when one did not hold.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 5 ] || [ $# -eq 6 ] || {
	sed -n 's/^# Usage: /usage: /p' "$0" >&2
	exit 2
}
build=$(cd "$1" && pwd)
name=$2 package=$3 patches=$here/$4 debarch=${6:-amd64}
configs=
for c in $(echo "$5" | tr + ' '); do
	configs="$configs $here/$c"
done
cache_root=${HUGETEXT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugetext}
cache=$cache_root/kernels
jobs=${HUGETEXT_JOBS:-$(nproc)}
work=$build/kernel-matrix/linux-$name-src
obj=$build/kernel-matrix/linux-$name
base=tinyconfig
pin=
case $package in
*=*) pin=${package#*=} package=${package%%=*} ;;
esac

msg() { printf 'build-kernel: %s\n' "$*" >&2; }

[ -d "$patches" ] || { msg "no patches folder $patches"; exit 1; }
for config in $configs; do
	[ -f "$config" ] || { msg "no config file $config"; exit 1; }
done
# The kernel's ARCH=, its image and the cross compiler, from the arches
# table.
kernel=$(python3 "$here/../../tables/arches.py" arch "$debarch" kernel) ||
	{ msg "testsuite/kernel/arches has no architecture $debarch"; exit 1; }
[ "$kernel" != - ] || { msg "testsuite/kernel/arches builds no kernel for $debarch (its KERNEL is -)"; exit 1; }
karch=${kernel% *} kimage=${kernel#* }
cc=$(python3 "$here/../../tables/arches.py" arch "$debarch" cc)
cross=
case $cc in
*-gcc) cross=${cc%gcc} ;;
cc) ;;
*) msg "$debarch's compiler $cc cannot build a kernel here"; exit 1 ;;
esac
# CROSS_COMPILE always given, empty for a native build: one exported in
# the caller's environment does not leak in.
kmake() { make ARCH="$karch" CROSS_COMPILE="$cross" "$@"; }
# The Debian package and version of an installed command, for the stamp.
package_of() {
	local f
	f=$(readlink -f "$(command -v "$1")") || return 0
	dpkg-query -W "$(dpkg -S "$f" 2>/dev/null | cut -d: -f1 | head -n 1)" 2>/dev/null || :
}

die() { msg "error: $*"; exit 1; }


deb_name() { printf '%s_%s_all.deb' "$1" "$(printf '%s' "$2" | sed 's/:/%3a/')"; }

# sid no longer has the pinned version: say what it has now and where the
# pin is.
version_gone() {
	local offered
	offered=$(sid_offered "$package" | paste -sd ' ')
	msg "error: Debian unstable (sid) no longer offers $package $pin"
	msg "  pinned:          $package=$pin"
	msg "  sid offers now:  ${offered:-none}"
	msg "  change the build: line of testsuite/kernel/kernels to a version sid" \
		"offers (and check that the patches of $(basename "$patches") still apply)"
	exit 1
}

mkdir -p "$cache/src"
if [ -n "$pin" ]; then
	# The pinned source package, from sid, once.
	version=$pin
	deb=$(deb_name "$package" "$version")
	sha=$(cut -d' ' -f1 "$cache/$deb.sha256" 2>/dev/null) || sha=
	if [ -z "$sha" ] || [ ! -f "$cache/$deb" ] ||
		[ "$(sha256sum <"$cache/$deb" | cut -d' ' -f1)" != "$sha" ]; then
		# shellcheck source=debian-roots/sid-apt.sh
		. "$here/../../debian-roots/sid-apt.sh"
		sid_apt_init "$cache_root/sid-apt"
		sid_update
		sha=$(sid_published_sha256 "$package" "$version")
		[ -n "$sha" ] || version_gone
		msg "fetching $package $version from sid"
		rm -f "$cache/$deb" "$cache/$deb.sha256"
		tmp=$(mktemp -d "$cache/tmp.XXXXXX")
		sid_download "$package" "$version" "$tmp"
		[ -f "$tmp/$deb" ] || die "apt-get download gave no $deb: $(ls "$tmp")"
		[ "$(sha256sum <"$tmp/$deb" | cut -d' ' -f1)" = "$sha" ] ||
			die "$deb: not the SHA256 of sid's index ($sha)"
		mv "$tmp/$deb" "$cache/$deb"
		rm -rf "$tmp"
		printf '%s  %s\n' "$sha" "$deb" >"$cache/$deb.sha256"
	fi
else
	# The source package: the apt index's candidate, downloaded once.
	version=$(apt-cache show --no-all-versions "$package" 2>/dev/null |
		sed -n 's/^Version: //p' | head -1)
	[ -n "$version" ] || {
		msg "$package is not in the apt index (run apt-get update; if Debian has dropped it, the kernels file must name another)"
		exit 1
	}
	deb=$(deb_name "$package" "$version")
	sha=
	if [ ! -f "$cache/$deb" ]; then
		msg "fetching $package $version"
		(cd "$cache" && apt-get download "$package" >"$cache/src/download.log" 2>&1) || {
			tail -3 "$cache/src/download.log" >&2
			msg "apt-get download $package failed (run apt-get update; if Debian has dropped $version, the kernels file must name another)"
			exit 1
		}
	fi
fi
src=$cache/src/$package
if [ "$(cat "$src.ok" 2>/dev/null)" != "$deb" ]; then
	msg "extracting $deb"
	rm -rf "$src" "$src.ok"
	dpkg-deb --fsys-tarfile "$cache/$deb" |
		tar -xO "./usr/src/$package.tar.xz" |
		xz -dc -T"$jobs" | tar -x -C "$cache/src"
	[ -d "$src" ] || { msg "$deb holds no $package/"; exit 1; }
	echo "$deb" >"$src.ok"
fi

# config_options: the CONFIG files as scripts/config options, in order.
# Only "CONFIG_X=y" and "# CONFIG_X is not set" lines, comments and blank
# lines may be in them: anything else would be neither applied nor
# checked.  A later file's line for an option overrides an earlier one's
# (scripts/config applies them in order); final_options is what must
# hold: each option's last word, and the file it is in.
for config in $configs; do
	bad=$(grep -v -E -e '^CONFIG_[A-Za-z0-9_]+=y$' \
		-e '^# CONFIG_[A-Za-z0-9_]+ is not set$' -e '^#' -e '^[[:space:]]*$' \
		"$config" | head -n 1) || :
	[ -z "$bad" ] || { msg "$config: only CONFIG_X=y and '# CONFIG_X is not set' lines are allowed, not: $bad"; exit 1; }
done
# shellcheck disable=SC2086	# One word a file.
config_options() {
	sed -n -e 's/^CONFIG_\([A-Za-z0-9_]*\)=y$/-e \1/p' \
		-e 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/-d \1/p' $configs
}
# shellcheck disable=SC2086	# One word a file.
final_options() {
	for config in $configs; do
		sed -n -e "s|^CONFIG_\([A-Za-z0-9_]*\)=y\$|-e \1 $config|p" \
			-e "s|^# CONFIG_\([A-Za-z0-9_]*\) is not set\$|-d \1 $config|p" \
			"$config"
	done | awk '{ last[$2] = $0; if (!($2 in seen)) { seen[$2] = 1; order[n++] = $2 } }
		END { for (i = 0; i < n; i++) print last[order[i]] }'
}

# The patches of PATCHES in name order, but the series' cover letter
# (0000-cover-letter.patch), which has no diff.
patch_files() {
	for p in "$patches"/*.patch; do
		[ -e "$p" ] && [ "$(basename "$p")" != 0000-cover-letter.patch ] &&
			echo "$p"
	done
}

# A working tree of hard links, patched, and a configuration, both made
# again when the stamp changes: the source package, the base
# configuration, the patches by name and diff (from the first "--- "
# line: a commit message does not go into the kernel), the options, the
# architecture, the compilers' and binutils' packages (the host's gcc
# builds the kernel's host tools), and this script, which applies them.
stamp=$( (echo "$deb $sha $base"; for p in $(patch_files); do
		basename "$p"; sed -n '/^--- /,$p' "$p"; done
	config_options; cat "$0"; echo "$karch $kimage $cross"
	for c in "${cross}gcc" "${cross}ld" gcc; do
		"$c" --version | head -n 1
		package_of "$c"
	done) | md5sum | cut -c1-16)
kept=$cache/built/$name/$stamp
image=arch/$karch/boot/$kimage
if [ "$(cat "$obj/.stamp" 2>/dev/null)" != "$stamp" ] ||
	[ ! -f "$work/Makefile" ]; then
	rm -rf "$work" "$obj"
	# Hard links where the cache and the build share a filesystem.
	cp -al "$src" "$work" 2>/dev/null || { rm -rf "$work"; cp -a "$src" "$work"; }
	for p in $(patch_files); do
		patch -s -p1 -F0 -d "$work" <"$p" ||
			{ msg "$(basename "$p") does not apply to $package"; exit 1; }
	done
	mkdir -p "$obj"
	kmake -s -C "$work" O="$obj" "$base" >/dev/null
	# shellcheck disable=SC2046	# One word an option.
	"$work/scripts/config" --file "$obj/.config" $(config_options)
	kmake -s -C "$work" O="$obj" olddefconfig >/dev/null
	final_options | while read -r op opt file; do
		case $op in
		-e) grep -q "^CONFIG_$opt=y" "$obj/.config" ;;
		-d) ! grep -q "^CONFIG_$opt=[ym]" "$obj/.config" ;;
		esac || { msg "CONFIG_$opt of $file did not hold after olddefconfig for $karch"; exit 1; }
	done || exit 1
	echo "$stamp" >"$obj/.stamp"
fi
echo "$package=$version" >"$obj/.package"
# A kept kernel whose configuration is not the one made here is built
# again.  Readers share the lock of NAME's kept builds, the writer has
# it alone; a copy goes to a temporary name first, then is renamed.
lock=$cache/built/$name.lock
mkdir -p "$cache/built"
exec 9>"$lock"
flock -s 9
if [ -f "$kept/ok" ] && cmp -s "$kept/config" "$obj/.config"; then
	msg "$name: the kernel of this stamp, from the cache ($kept)"
	mkdir -p "$obj/$(dirname "$image")" "$obj/include/config"
	cp "$kept/image" "$obj/$image.new"
	mv "$obj/$image.new" "$obj/$image"
	cp "$kept/kernel.release" "$obj/include/config/kernel.release"
	echo "$obj/$image"
	exit 0
fi
flock -u 9
msg "make -j$jobs $kimage for $karch (log: $obj/build.log)"
kmake -C "$work" O="$obj" -j"$jobs" "$kimage" >"$obj/build.log" 2>&1 ||
	{ tail -20 "$obj/build.log" >&2; msg "the kernel build failed"; exit 1; }
# Into the cache, whole or not at all, the other stamps of NAME dropped;
# a failure to keep it costs the next run a build, not this one.
keep() {
	local tmp old
	flock 9
	tmp=$(mktemp -d "$cache/built/.$name.XXXXXX") &&
		cp "$obj/$image" "$tmp/image" &&
		cp "$obj/.config" "$tmp/config" &&
		cp "$obj/include/config/kernel.release" "$tmp/kernel.release" &&
		touch "$tmp/ok" || return 1
	mkdir -p "$cache/built/$name"
	rm -rf "$kept"
	mv -T "$tmp" "$kept" || return 1
	for old in "$cache/built/${name:?}"/*; do
		[ "$old" = "$kept" ] || rm -rf "$old"
	done
}
keep || msg "could not keep the kernel in $cache/built/$name (the next run builds it again)"
echo "$obj/$image"
