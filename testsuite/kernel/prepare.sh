#!/bin/bash
# Prepare the kernel matrix: the kernels of testsuite/kernel/kernels
# (Debian's packages, unpacked, and our own, built), then the guest side
# (make-images.sh: the test programs, ext4 and XFS images holding them,
# one initramfs per kernel).
#
# Usage: testsuite/kernel/prepare.sh BUILD_DIR
# Output in BUILD_DIR/kernel-matrix/: "kernels", a line per kernel
# prepared (NAME ARCH PAGE PACKAGE IMAGE), initrd-NAME.gz, the programs
# and the disk images.  Downloads are cached in $HUGETEXT_CACHE/kernels
# (default ~/.cache/hugetext/kernels); Debian unstable's index is read
# through an apt configuration of that folder's own (sid-apt/), never
# the host's.  HUGETEXT_KERNELS names another kernels file (the tests').

set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
out=$build/kernel-matrix
cache=${HUGETEXT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugetext}/kernels
list=${HUGETEXT_KERNELS:-$here/kernels}
mkdir -p "$out" "$cache"

msg() { printf 'kernel-matrix: %s\n' "$*" >&2; }
die() { msg "error: $*"; exit 1; }

# A mistake in, or about, the kernel of line $line of the kernels file.
fail_line() {
	msg "$list:$line ($name): $*"
	exit 1
}

# Debian unstable's index, for sid: lines and build: lines with a
# version: debian-roots/sid-apt.sh, with the packages of every
# architecture of testsuite/kernel/arches.
# shellcheck source=debian-roots/sid-apt.sh
. "$here/../../debian-roots/sid-apt.sh"
sid_ready=false
sid_ready() {
	local a arches
	$sid_ready && return 0
	arches=$(python3 "$here/../../tables/arches.py" arches) ||
		die "testsuite/kernel/arches cannot be read"
	sid_apt_init "$cache/sid-apt"
	for a in $arches; do
		SID_APT_OPTS+=(-o "APT::Architectures::=$a")
	done
	sid_update
	sid_ready=true
}

# newest PATTERN: the newest package whose name matches PATTERN.
newest() {
	apt-cache search --names-only "$1" | awk '{print $1}' | sort -V | tail -1
}

# check_kernel RELEASE CONFIG: the kernel is what its line says: its
# release is VERSION, it has THP, its base page size is PAGE, and
# READ_ONLY_THP_FOR_FS is as COLLAPSE says (any: =y; no: "is not set";
# pmd-folios: the option does not exist, so the configuration does not
# name it at all).
check_kernel() {
	case $1 in
	"$version".* | "$version"-* | "$version"+*) ;;
	*) fail_line "the kernel is $1, not VERSION $version" ;;
	esac
	grep -q '^CONFIG_TRANSPARENT_HUGEPAGE=y' "$2" ||
		fail_line "the kernel has no CONFIG_TRANSPARENT_HUGEPAGE ($2)"
	have=4k
	if grep -Eq '^CONFIG_(ARM64_16K_PAGES|PAGE_SIZE_16KB)=y' "$2"; then
		have=16k
	elif grep -Eq '^CONFIG_(ARM64_64K_PAGES|PAGE_SIZE_64KB)=y' "$2"; then
		have=64k
	fi
	[ "$have" = "$page" ] ||
		fail_line "PAGE says $page, the kernel's configuration $have ($2)"
	if grep -q '^CONFIG_READ_ONLY_THP_FOR_FS=y' "$2"; then
		have=any
	elif grep -q 'CONFIG_READ_ONLY_THP_FOR_FS' "$2"; then
		have=no
	else
		have=pmd-folios
	fi
	[ "$have" = "$collapse" ] ||
		fail_line "COLLAPSE says $collapse, the kernel's configuration $have ($2: CONFIG_READ_ONLY_THP_FOR_FS)"
}

# deb_kernel REGEX: the newest Debian package whose whole name matches
# REGEX, unpacked in the cache, never installed.
deb_kernel() {
	pkg=$(newest "^$1\$")
	[ -n "$pkg" ] ||
		fail_line "no package named like '$1' in the apt index: run apt-get update, or, if Debian has dropped it, change this line"
	dir=$cache/$pkg
	if [ ! -f "$dir.ok" ]; then
		msg "fetching $pkg"
		(cd "$cache" && apt-get download "$pkg" >"$cache/download.log" 2>&1) || {
			tail -3 "$cache/download.log" >&2
			fail_line "apt-get download $pkg failed: run apt-get update, or, if it has left the archive, change this line"
		}
		rm -rf "$dir"
		dpkg -x "$cache/${pkg}"_*.deb "$dir"
		touch "$dir.ok"
	fi
	for image in "$dir"/boot/vmlinuz-*; do break; done
	[ -f "$image" ] || fail_line "$pkg holds no boot/vmlinuz-*"
	release=${image##*/vmlinuz-}
	check_kernel "$release" "$dir/boot/config-$release"
	modules=$dir/lib/modules
}

# sid_kernel RELEASE=VERSION: Debian unstable's kernel RELEASE, split in
# three packages since 7.x (linux-binary: the image; linux-modules;
# linux-base: config and System.map), each exactly VERSION, unpacked
# into one folder of the cache, never installed.
sid_kernel() {
	local release=${1%%=*} pin=${1#*=} p q have now dir
	pkg=linux-binary-$release=$pin
	dir=$cache/sid-$release-$pin
	if [ ! -f "$dir.ok" ]; then
		sid_ready
		# All three first: nothing is fetched for a pin sid has left.
		for p in linux-binary linux-modules linux-base; do
			# apt names a package of a foreign architecture PKG:ARCH.
			q=$p-$release
			[ "$arch" = "$(dpkg --print-architecture)" ] || q=$q:$arch
			have=$(sid_offered "$q")
			case " $(echo $have) " in
			*" $pin "*) continue ;;
			esac
			now=$(sid_apt_cache pkgnames "$p-" 2>/dev/null |
				grep -E "^$p-[0-9.]+\\+deb[0-9]+-${release#*+deb*-}\$" |
				sort -V | tail -1) || :
			fail_line "Debian unstable (sid) no longer has $p-$release $pin (it has: ${have:-no such package}; newest $p for this flavour: ${now:-none}): change the sid: line of this kernel to a release and version sid has (and VERSION if it changed), then run again"
		done
		rm -rf "$dir" "$dir.debs"
		mkdir -p "$dir" "$dir.debs"
		for p in linux-binary linux-modules linux-base; do
			q=$p-$release
			[ "$arch" = "$(dpkg --print-architecture)" ] || q=$q:$arch
			msg "fetching $p-$release $pin from sid"
			sid_download "$q" "$pin" "$dir.debs"
			dpkg -x "$dir.debs"/"$p-${release}"_*.deb "$dir"
		done
		rm -rf "$dir.debs"
		touch "$dir.ok"
	fi
	image=$dir/usr/lib/modules/$release/vmlinuz
	[ -f "$image" ] || fail_line "linux-binary-$release holds no usr/lib/modules/$release/vmlinuz"
	check_kernel "$release" "$dir/usr/lib/modules/$release/config"
	modules=$dir/usr/lib/modules
}

# build_kernel PACKAGE[=VERSION],PATCHES,CONFIG: our own, by
# build-kernel.sh.
build_kernel() {
	old_ifs=$IFS
	IFS=,
	# shellcheck disable=SC2086	# Split at the commas.
	set -- $1
	IFS=$old_ifs
	image=$(bash "$here/build-kernel.sh" "$build" "$name" "$@" "$arch") ||
		fail_line "building the kernel failed (see above)"
	obj=${image%/arch/*}
	pkg=$(cat "$obj/.package")+$(basename "$2")
	check_kernel "$(cat "$obj/include/config/kernel.release")" "$obj/.config"
	modules=-
}

# The kernels: every line of the kernels file, checked first.
# The columns this script needs, by name (the others are the model's).
entries=$(python3 "$here/../../tables/kernels.py" list "$list" \
	line name arch page version collapse kind what) ||
	{ msg "$list has mistakes (above)"; exit 1; }
: >"$out/kernels.new"
: >"$out/modules"
while IFS=$'\t' read -r line name arch page version collapse kind what; do
	case $kind in
	deb) deb_kernel "$what" ;;
	sid) sid_kernel "$what" ;;
	build) build_kernel "$what" ;;
	esac </dev/null
	echo "$name $arch $page $pkg $image" >>"$out/kernels.new"
	echo "$name $modules" >>"$out/modules"
done <<EOF
$entries
EOF
mv "$out/kernels.new" "$out/kernels"

# Debian unstable's QEMU, where an architecture of these kernels needs it
# (testsuite/kernel/arches: QEMU sid:NAME): its root, made once.
for arch in $(awk '{print $2}' "$out/kernels" | sort -u); do
	qemu=$(python3 "$here/../../tables/arches.py" arch "$arch" qemu) ||
		die "testsuite/kernel/arches has no QEMU for $arch"
	case $qemu in
	sid:*) bash "$here/sid-qemu" --prepare >/dev/null; break ;;
	esac
done

# The other loaders (the loaders file): each one's package, exactly the
# version pinned, unpacked in the cache; OUT/loaders: NAME ARCH DIR
# TUNABLES, DIR holding the package's ld.so and libraries.
loaders=${HUGETEXT_LOADERS:-$here/loaders}
: >"$out/loaders.new"
line=0
while read -r lname larch suite lpkg tunables _; do
	line=$((line + 1))
	case $lname in '' | '#'*) continue ;; esac
	name=$lname list=$loaders	# For fail_line.
	lp=${lpkg%%=*} lv=${lpkg#*=}
	dir=$cache/$suite-$lp-$lv-$larch
	if [ ! -f "$dir.ok" ]; then
		sid_apt_init "$cache/$suite-apt" "$suite"
		SID_APT_OPTS+=(-o "APT::Architectures::=$larch")
		SID_UPDATED=false
		sid_update
		q=$lp
		[ "$larch" = "$(dpkg --print-architecture)" ] || q=$q:$larch
		have=$(sid_offered "$q")
		case " $(echo $have) " in
		*" $lv "*) ;;
		*) fail_line "Debian $suite no longer has $lp $lv (it has: ${have:-no such package}): change this line to a version it has, then run again" ;;
		esac
		rm -rf "$dir" "$dir.debs"
		mkdir -p "$dir.debs"
		msg "fetching $lp $lv from $suite"
		sid_download "$q" "$lv" "$dir.debs"
		dpkg -x "$dir.debs"/"${lp}"_*.deb "$dir"
		rm -rf "$dir.debs"
		touch "$dir.ok"
	fi
	echo "$lname $larch $dir $tunables" >>"$out/loaders.new"
done <"$loaders"
mv "$out/loaders.new" "$out/loaders"

bash "$here/make-images.sh" "$build" "$out"
programs=$(while read -r _ tree; do find "$out/$tree" -name probe; done <"$out/trees" | wc -l)
msg "ready: $(wc -l <"$out/kernels") kernels, $programs programs"
