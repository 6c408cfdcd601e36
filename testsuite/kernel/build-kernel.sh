#!/bin/sh
# Build one of the kernel matrix's own kernels (a "build:" line of the
# kernels file): a Debian linux-source package, the patches of a folder
# applied in name order, and the options of a config file set over
# tinyconfig, everything built in.
#
# Usage: testsuite/kernel/build-kernel.sh BUILD_DIR NAME PACKAGE PATCHES CONFIG
#   NAME     the kernel's name (the build goes to
#            BUILD_DIR/kernel-matrix/linux-NAME)
#   PACKAGE  the source package, linux-source-MAJOR.MINOR
#   PATCHES  a folder of *.patch files (-p1)
#   CONFIG   CONFIG_NAME=y and "# CONFIG_NAME is not set" lines
# PATCHES and CONFIG are relative to testsuite/kernel/.  Prints the path
# of the bzImage; the file .package beside arch/ says PACKAGE=VERSION.
#
# The newest PACKAGE in the apt index is downloaded to, and unpacked in,
# $HUGETEXT_CACHE/kernels/src.  The build is kept as long as its stamp,
# the checksum of all that goes into the kernel (the source package's
# file name, the patches, the options, this script's way of applying
# them), is the same.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
name=$2 package=$3 patches=$here/$4 config=$here/$5
cache=${HUGETEXT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugetext}/kernels
jobs=${HUGETEXT_JOBS:-$(nproc)}
work=$build/kernel-matrix/linux-$name-src
obj=$build/kernel-matrix/linux-$name
base=tinyconfig

msg() { printf 'build-kernel: %s\n' "$*" >&2; }

[ -d "$patches" ] || { msg "no patches folder $patches"; exit 1; }
[ -f "$config" ] || { msg "no config file $config"; exit 1; }

# The source package: the apt index's candidate, downloaded once.
version=$(apt-cache show --no-all-versions "$package" 2>/dev/null |
	sed -n 's/^Version: //p' | head -1)
[ -n "$version" ] || {
	msg "$package is not in the apt index (run apt-get update; if Debian has dropped it, the kernels file must name another)"
	exit 1
}
deb=${package}_$(printf '%s' "$version" | sed 's/:/%3a/')_all.deb
mkdir -p "$cache/src"
if [ ! -f "$cache/$deb" ]; then
	msg "fetching $package $version"
	(cd "$cache" && apt-get download "$package" >"$cache/src/download.log" 2>&1) || {
		tail -3 "$cache/src/download.log" >&2
		msg "apt-get download $package failed (run apt-get update; if Debian has dropped $version, the kernels file must name another)"
		exit 1
	}
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

# config_options: the CONFIG file as scripts/config options.  Only
# "CONFIG_X=y" and "# CONFIG_X is not set" lines, comments and blank
# lines may be in it: anything else would be neither applied nor checked.
bad=$(grep -v -E -e '^CONFIG_[A-Za-z0-9_]+=y$' \
	-e '^# CONFIG_[A-Za-z0-9_]+ is not set$' -e '^#' -e '^[[:space:]]*$' \
	"$config" | head -n 1) || :
[ -z "$bad" ] || { msg "$config: only CONFIG_X=y and '# CONFIG_X is not set' lines are allowed, not: $bad"; exit 1; }
config_options() {
	sed -n -e 's/^CONFIG_\([A-Za-z0-9_]*\)=y$/-e \1/p' \
		-e 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/-d \1/p' "$config"
}

# A working tree of hard links, patched, and a configuration, both made
# again when the stamp changes: the source package, the base
# configuration, the patches by name and content, the options, and this
# script, which applies them.
stamp=$( (echo "$deb $base"; for p in "$patches"/*.patch; do
		[ -e "$p" ] || continue; echo "$(basename "$p")"; cat "$p"; done
	config_options; cat "$0") | md5sum | cut -c1-16)
if [ "$(cat "$obj/.stamp" 2>/dev/null)" != "$stamp" ] ||
	[ ! -f "$work/Makefile" ]; then
	rm -rf "$work" "$obj"
	# Hard links where the cache and the build share a filesystem.
	cp -al "$src" "$work" 2>/dev/null || { rm -rf "$work"; cp -a "$src" "$work"; }
	for p in "$patches"/*.patch; do
		[ -e "$p" ] || continue
		patch -s -p1 -d "$work" <"$p" ||
			{ msg "$(basename "$p") does not apply to $package"; exit 1; }
	done
	mkdir -p "$obj"
	make -s -C "$work" O="$obj" "$base" >/dev/null
	# shellcheck disable=SC2046	# One word an option.
	"$work/scripts/config" --file "$obj/.config" $(config_options)
	make -s -C "$work" O="$obj" olddefconfig >/dev/null
	config_options | while read -r op opt; do
		case $op in
		-e) grep -q "^CONFIG_$opt=y" "$obj/.config" ;;
		-d) ! grep -q "^CONFIG_$opt=[ym]" "$obj/.config" ;;
		esac || { msg "CONFIG_$opt of $config did not hold after olddefconfig"; exit 1; }
	done || exit 1
	echo "$stamp" >"$obj/.stamp"
fi
echo "$package=$version" >"$obj/.package"
msg "make -j$jobs bzImage (log: $obj/build.log)"
make -C "$work" O="$obj" -j"$jobs" bzImage >"$obj/build.log" 2>&1 ||
	{ tail -20 "$obj/build.log" >&2; msg "the kernel build failed"; exit 1; }
echo "$obj/arch/x86/boot/bzImage"
