#!/bin/sh
# The kernel matrix's guest side, for the kernels prepare.sh listed in
# OUT/kernels (NAME ARCH PAGE PACKAGE IMAGE) and OUT/modules (NAME
# MODULES: the folder of Debian's modules, or "-" for a kernel with
# everything built in): the test programs (build-cases.sh), the ext4
# and XFS disk images holding them (made without mounting), and one
# initramfs per kernel (busybox, glibc, hugetext, the modules).
#
# Usage: testsuite/kernel/make-images.sh BUILD_DIR OUT_DIR

set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
out=$2

msg() { printf 'kernel-matrix: %s\n' "$*" >&2; }

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
