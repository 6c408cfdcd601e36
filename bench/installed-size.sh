#!/bin/bash
# What a -z hugetext build of Debian packages costs on disk once
# installed, each way of installing it: the packages of PLAIN_DIR (built
# without the option) and the same packages of HUGETEXT_DIR (the same
# version, built with it), each set unpacked into a scratch root of its
# own by
#   dpkg            Debian 12's dpkg (the padding is written as zeros)
#   dpkg+punch      the same, then "hugetext punch" over the root, as the
#                   hugetext package's trigger does after each install
#   patched-dpkg    dpkg with dpkg-patches/ (zero blocks seeked over)
# Prints the installed size (du -sk of the root without dpkg's database)
# and the apparent size of each, the growth hugetext / plain of each way,
# and whether "dpkg --verify" finds every file as the package has it.
#
# The packages' maintainer scripts are left out (the .debs are repacked
# without them): only the unpacked files count, and nothing of them runs
# on this machine.  -dbgsym packages are left out.
#
# Usage: bench/installed-size.sh BUILD_DIR PLAIN_DIR HUGETEXT_DIR
#   BUILD_DIR: where ./run build put bin/hugetext
# Environment: HUGETEXT_PATCHED_DPKG, the build folder of the patched
# dpkg (default: what dpkg-patches/build.sh builds or has built).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "bench/installed-size.sh: $*" >&2; exit 1; }
[ $# -eq 3 ] ||
	die "usage: bench/installed-size.sh BUILD_DIR PLAIN_DIR HUGETEXT_DIR"
build=$(cd "$1" && pwd)
plain=$(cd "$2" && pwd) || die "$2: no such folder"
huge=$(cd "$3" && pwd) || die "$3: no such folder"
hugetext=$build/bin/hugetext
[ -x "$hugetext" ] || die "$hugetext is missing: run ./run build first"
patched=${HUGETEXT_PATCHED_DPKG:-$("$top/dpkg-patches/build.sh" | tail -n 1)}
[ -x "$patched/src/dpkg" ] ||
	die "$patched/src/dpkg is missing (dpkg-patches/build.sh builds it)"
work=$build/bench/installed-size
rm -rf "$work"
mkdir -p "$work"

# The packages: NAME_VERSION_ARCH.deb in PLAIN_DIR, the same file name in
# HUGETEXT_DIR.
debs=()
for deb in "$plain"/*.deb; do
	[ -e "$deb" ] || die "$plain has no .deb"
	name=${deb##*/}
	case $name in *-dbgsym_*) continue ;; esac
	[ -e "$huge/$name" ] || die "$huge has no $name (the same version)"
	debs+=("$name")
done

# strip SIDE: SIDE's packages without maintainer scripts, in work/SIDE.
strip_scripts() {
	local side=$1 dir=$2 name tree
	mkdir -p "$work/$side"
	for name in "${debs[@]}"; do
		tree=$work/$side/tree
		rm -rf "$tree"
		dpkg-deb -R "$dir/$name" "$tree"
		rm -f "$tree"/DEBIAN/{preinst,postinst,prerm,postrm,config,triggers}
		dpkg-deb --root-owner-group -Zgzip -z1 -b "$tree" \
			"$work/$side/$name" >/dev/null
		rm -rf "$tree"
	done
}
strip_scripts plain "$plain"
strip_scripts hugetext "$huge"

# unpack ROOT DPKG_DIR SIDE: SIDE's packages installed into ROOT by
# DPKG_DIR/dpkg, which finds its dpkg-deb in PATH (unpacked and
# configured: their conffiles in place; they have no scripts to run, and
# what they depend on is not there).
unpack() {
	local root=$1 bin=$2 side=$3
	mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info"
	: >"$root/var/lib/dpkg/status"
	PATH=$bin:$PATH "$bin/dpkg" --root="$root" --log=/dev/null \
		--force-not-root --force-script-chrootless --force-depends \
		--no-triggers --install "$work/$side"/*.deb >/dev/null 2>&1 ||
		die "dpkg --install failed in $root"
	PATH=$bin:$PATH "$bin/dpkg" --root="$root" --verify >"$root.verify" ||
		die "dpkg --verify failed in $root"
}

# size ROOT: installed KiB and apparent KiB of ROOT's files.
size() {
	printf '%s %s\n' \
		"$(du -sk --exclude=./var/lib/dpkg "$1" | cut -f1)" \
		"$(du -sk --apparent-size --exclude=./var/lib/dpkg "$1" | cut -f1)"
}

printf '%-14s %12s %12s %8s %14s %14s %s\n' way plain_KiB hugetext_KiB \
	growth plain_app_KiB huge_app_KiB verify
for way in dpkg dpkg+punch patched-dpkg; do
	bin=/usr/bin
	[ "$way" != patched-dpkg ] || bin=$patched/src
	p=()
	for side in plain hugetext; do
		root=$work/$way-$side
		unpack "$root" "$bin" "$side"
		if [ "$way" = dpkg+punch ]; then
			rc=0
			find "$root" -path "$root/var/lib/dpkg" -prune -o \
				-type f -print0 |
				xargs -0r "$hugetext" punch --quiet || rc=$?
			[ "$rc" -eq 0 ] || die "hugetext punch failed ($rc) in $root"
			PATH=$bin:$PATH "$bin/dpkg" --root="$root" --verify \
				>"$root.verify" || die "dpkg --verify failed in $root"
		fi
		read -r k a < <(size "$root")
		p+=("$k" "$a")
	done
	verify=clean
	if [ -s "$work/$way-plain.verify" ] ||
		[ -s "$work/$way-hugetext.verify" ]; then
		verify="not clean ($work/$way-*.verify)"
	fi
	awk -v w="$way" -v v="$verify" -v pk="${p[0]}" -v pa="${p[1]}" \
		-v hk="${p[2]}" -v ha="${p[3]}" 'BEGIN {
		printf "%-14s %12d %12d %7.2f%% %14d %14d %s\n", w, pk, hk,
			(hk / pk - 1) * 100, pa, ha, v }' 
done
