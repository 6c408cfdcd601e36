#!/bin/sh
# Prepare the kernel matrix: the kernels of testsuite/kernel/kernels
# (Debian's packages, unpacked, and our own, built), the test programs,
# ext4 and XFS images holding them (made without mounting), and one
# initramfs per kernel (busybox, glibc, hugetext, the modules).
#
# Usage: testsuite/kernel/prepare.sh BUILD_DIR
# Output in BUILD_DIR/kernel-matrix/: "kernels", a line per kernel
# prepared (NAME PACKAGE IMAGE), initrd-NAME.gz, the programs and the
# disk images.  Downloads are cached in $HUGETEXT_CACHE/kernels (default
# ~/.cache/hugetext/kernels).

set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
out=$build/kernel-matrix
cache=${HUGETEXT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugetext}/kernels
list=$here/kernels
mkdir -p "$out" "$cache"

msg() { printf 'kernel-matrix: %s\n' "$*" >&2; }

# A mistake in, or about, the kernel of line $line of the kernels file.
fail_line() {
	msg "$list:$line ($name): $*"
	exit 1
}

# newest PATTERN: the newest package whose name matches PATTERN.
newest() {
	apt-cache search --names-only "$1" | awk '{print $1}' | sort -V | tail -1
}

# check_kernel RELEASE CONFIG: the kernel is what its line says: its
# release is VERSION, it has THP, and READ_ONLY_THP_FOR_FS as ROTHP says.
check_kernel() {
	case $1 in
	"$version".* | "$version"-* | "$version"+*) ;;
	*) fail_line "the kernel is $1, not VERSION $version" ;;
	esac
	grep -q '^CONFIG_TRANSPARENT_HUGEPAGE=y' "$2" ||
		fail_line "the kernel has no CONFIG_TRANSPARENT_HUGEPAGE ($2)"
	have=no
	if grep -q '^CONFIG_READ_ONLY_THP_FOR_FS=y' "$2"; then
		have=yes
	fi
	[ "$have" = "$rothp" ] ||
		fail_line "ROTHP says $rothp, the kernel's configuration $have ($2)"
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

# build_kernel PACKAGE,PATCHES,CONFIG: our own, by build-kernel.sh.
build_kernel() {
	old_ifs=$IFS
	IFS=,
	# shellcheck disable=SC2086	# Split at the commas.
	set -- $1
	IFS=$old_ifs
	image=$(sh "$here/build-kernel.sh" "$build" "$name" "$@") ||
		fail_line "building the kernel failed (see above)"
	obj=${image%/arch/*}
	pkg=$(cat "$obj/.package")+$(basename "$2")
	check_kernel "$(cat "$obj/include/config/kernel.release")" "$obj/.config"
	modules=-
}

# The kernels: every line of the kernels file, checked first.
entries=$(python3 "$here/lib/kernels.py" list "$list") ||
	{ msg "$list has mistakes (above)"; exit 1; }
: >"$out/kernels.new"
: >"$out/modules"
# SEED and NOTE (the _) are the expectations' and the docs'.
while read -r line name arch version _ rothp kind what _; do
	[ "$arch" = amd64 ] ||
		fail_line "ARCH $arch: the matrix boots amd64 kernels only, so far"
	case $kind in
	deb) deb_kernel "$what" ;;
	build) build_kernel "$what" ;;
	esac </dev/null
	echo "$name $pkg $image" >>"$out/kernels.new"
	echo "$name $modules" >>"$out/modules"
done <<EOF
$entries
EOF
mv "$out/kernels.new" "$out/kernels"

sh "$here/build-cases.sh" "$build" "$out" >&2

# The disks: ext4 by mkfs -d, XFS by a proto file.
rm -f "$out/ext4.img" "$out/xfs.img"
stage=$out/stage
rm -rf "$stage"
mkdir -p "$stage"
cp -a "$out/cases" "$stage/"
rm -f "$out/ext4.img"
mkfs.ext4 -q -F -d "$stage" -b 4096 "$out/ext4.img" 192M
proto=$out/xfs.proto
python3 - "$stage" >"$proto" <<'PY'
import os, stat, sys
root = sys.argv[1]
print("/dev/null\n0 0\nd--755 0 0")
def walk(path, depth):
    for name in sorted(os.listdir(path)):
        full = os.path.join(path, name)
        st = os.stat(full)
        mode = "%03o" % (st.st_mode & 0o777)
        pad = " " * depth
        if stat.S_ISDIR(st.st_mode):
            print("%s%s d--%s 0 0" % (pad, name, mode))
            walk(full, depth + 1)
            print("%s$" % pad)
        else:
            print("%s%s ---%s 0 0 %s" % (pad, name, mode, full))
walk(root, 1)
print("$")
PY
truncate -s 320M "$out/xfs.img"
mkfs.xfs -q -f -p "$proto" "$out/xfs.img"
rm -rf "$stage"

# One initramfs per kernel.
while read -r name modules; do
	root=$out/root-$name
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/mnt" \
		"$root/tmp" "$root/modules" "$root/lib/x86_64-linux-gnu" "$root/lib64"
	cp /bin/busybox "$root/bin/"
	cp "$here/init.sh" "$root/init"
	cp "$here/run-cell.sh" "$root/bin/run-cell"
	cp "$build/bin/hugetext" "$root/bin/"
	cp "$build/lib/libhugetext-startup.so" "$root/lib/x86_64-linux-gnu/"
	chmod +x "$root/init" "$root/bin/run-cell"
	for lib in libc.so.6 libm.so.6; do
		cp -L "/lib/x86_64-linux-gnu/$lib" "$root/lib/x86_64-linux-gnu/"
	done
	cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
	: >"$root/modules/order"
	for m in virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev \
		 virtio_pci crc32c_generic crc16 mbcache jbd2 ext4 libcrc32c \
		 xfs virtio_blk; do
		[ "$modules" != - ] || break	# Everything built in.
		ko=$(find "$modules" -name "$m.ko*" 2>/dev/null | head -1)
		[ -n "$ko" ] || continue	# Built in.
		case $ko in
		*.xz) xz -dc "$ko" >"$root/modules/$m.ko" ;;
		*) cp "$ko" "$root/modules/$m.ko" ;;
		esac
		echo "$m" >>"$root/modules/order"
	done
	(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null) |
		gzip -1 >"$out/initrd-$name.gz"
	rm -rf "$root"
done <"$out/modules"
rm -f "$out/modules"
msg "ready: $(wc -l <"$out/kernels") kernels, $(find "$out/cases" -name probe | wc -l) programs"
