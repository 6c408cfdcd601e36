#!/bin/bash
# The kernel matrix's guest side, for the kernels prepare.sh listed in
# OUT/kernels (NAME ARCH PAGE PACKAGE IMAGE) and OUT/modules (NAME
# MODULES: the folder of Debian's modules, or "-" for a kernel with
# everything built in): the test programs (build-cases.sh), the ext4
# and XFS disk images holding them (made without mounting), and one
# initramfs per kernel (busybox, glibc, hugetext, the modules).
#
# Usage: testsuite/kernel/make-images.sh BUILD_DIR OUT_DIR
#
# What it makes in OUT:
#   cases/, cases-arm64/,  the programs of each architecture that a
#   cases-arm64-16k/       kernel of OUT/kernels has (build-cases.sh;
#                          OUT/trees lists them: ARCH TREE, ARCH being
#                          arm64-16k for a kernel with 16 KiB pages)
#   ext4.img, xfs.img      both disks hold every case tree at their root,
#                          and folios.bin, the folio probe's data file
#   initrd-NAME.gz         a kernel's initramfs, of its architecture: its
#                          /etc/hugetext-cases names the case tree its
#                          init.sh and run-cell use
# The busybox of another architecture is Debian's busybox-static for it
# from the suite the arches table names (arm64: Debian 12, as the host's
# amd64 one; riscv64: unstable, Debian 12 has no riscv64), fetched once
# into the cache ($HUGETEXT_CACHE/kernels, default
# ~/.cache/hugetext/kernels) through an apt configuration of that
# folder's own (SUITE-apt-ARCH/, debian-roots/sid-apt.sh's: one per
# suite and architecture, as each run of apt-get update replaces the
# index of another set of architectures), never the host's; its glibc is the cross compiler's (libc6-ARCH-cross), its
# hugetext the build for its target (BUILD_DIR/aarch64, riscv64: made by
# build-cases.sh).

set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
out=$2
cache=${HUGETEXT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugetext}/kernels

msg() { printf 'kernel-matrix: %s\n' "$*" >&2; }
die() { msg "error: $*"; exit 1; }

# What a guest of each architecture runs (testsuite/kernel/arches), on
# the host: busybox (arm64's is fetched: see arm64_busybox), the folder
# of glibc's libraries and their folder in the guest, the dynamic loader
# and its path in the guest, the folder of the build whose bin/hugetext,
# lib/libhugetext-startup.so, lib/hugetext-audit.so and its advice-only
# variant lib/hugetext-audit-hint.so it gets.
guests=$(python3 "$here/../../tables/arches.py" guests) ||
	die "testsuite/kernel/arches cannot be read"

# Reading a Debian suite without touching the host's apt state.
# shellcheck source=debian-roots/sid-apt.sh
. "$here/../../debian-roots/sid-apt.sh"

# debian_busybox ARCH SUITE: the path of Debian SUITE's static busybox
# for ARCH (its newest version there), downloaded and unpacked into the
# cache the first time.
debian_busybox() {
	local dir=$cache/$2-$1-busybox-static version bb
	if [ ! -f "$dir.ok" ]; then
		sid_apt_init "$cache/$2-apt-$1" "$2"
		SID_APT_OPTS+=(-o "APT::Architectures::=$1")
		SID_UPDATED=false
		sid_update
		version=$(sid_offered "busybox-static:$1" | sort -V | tail -1)
		[ -n "$version" ] || die "Debian $2 has no busybox-static for $1"
		msg "fetching busybox-static $version for $1 from Debian $2"
		rm -rf "$dir" "$dir.debs"
		mkdir -p "$dir.debs"
		sid_download "busybox-static:$1" "$version" "$dir.debs"
		dpkg -x "$dir.debs"/busybox-static_*.deb "$dir"
		rm -rf "$dir.debs"
		touch "$dir.ok"
	fi
	# Debian 12 has it in bin/, later suites in usr/bin/.
	for bb in "$dir/bin/busybox" "$dir/usr/bin/busybox"; do
		[ ! -x "$bb" ] || { echo "$bb"; return; }
	done
	die "busybox-static for $1 from Debian $2 holds no busybox"
}

sh "$here/build-cases.sh" "$build" "$out" >&2

# The disks: ext4 by mkfs -d, XFS by a proto file, each with every case
# tree and room to spare (XFS needs 300 MiB at least).  The programs of
# cases-arm64-16k are mostly holes: mkfs.ext4 -d keeps them (sized by
# du), mkfs.xfs's proto file (xfsprogs 6.1) writes them out as zeros
# (sized by the files' apparent size).
rm -f "$out/ext4.img" "$out/xfs.img"
stage=$out/stage
rm -rf "$stage"
mkdir -p "$stage"
while read -r _ tree; do
	cp -a "$out/$tree" "$stage/"
done <"$out/trees"
# The folio probe's data file (run-cell folios), outside the case trees,
# so that init.sh does not copy it into tmpfs: 8 MiB of text, no zeros
# that a disk might keep as holes; it shows folios of up to 8 MiB.
yes "hugetext folio probe data" | head -c 8M >"$stage/folios.bin"
mib=$(du -sm "$stage" | awk '{print $1}')
apparent=$(du -sm --apparent-size "$stage" | awk '{print $1}')
mkfs.ext4 -q -F -d "$stage" -b 4096 "$out/ext4.img" "$((mib + mib / 4 + 64))M"
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
truncate -s "$((apparent + apparent / 4 + 320))M" "$out/xfs.img"
mkfs.xfs -q -f -p "$proto" "$out/xfs.img"
# Its zeros need no room on the host.
fallocate --dig-holes "$out/xfs.img"
rm -rf "$stage"

# One initramfs per kernel, of its architecture.
while read -r name arch page _; do
	modules=$(awk -v n="$name" '$1 == n {print $2}' "$out/modules")
	line=$(echo "$guests" | awk -v a="$arch" '$1 == a')
	# The tree of the architecture and page size (build-cases.sh).
	key=$(python3 "$here/../../tables/arches.py" tree-of "$arch" "$page") || key=
	tree=$(awk -v a="$key" '$1 == a {print $2}' "$out/trees")
	if [ -z "$line" ] || [ -z "$tree" ] || [ -z "$modules" ]; then
		die "$name: no guest for architecture '$arch', or no programs, or no modules line"
	fi
	# shellcheck disable=SC2086	# The columns of the line.
	set -- $line
	busybox=$2 libs=$3 guest_libs=$4 loader=$5 guest_loader=$6 sub=$7
	# A clang:TRIPLET compiler's sysroot (build-cases.sh links it).
	libs=${libs//\{sysroot\}/$build/$sub/sysroot}
	loader=${loader//\{sysroot\}/$build/$sub/sysroot}
	case $busybox in
	/*) ;;
	*) busybox=$(debian_busybox "$arch" "$busybox") ;;
	esac
	root=$out/root-$name
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/mnt" \
		"$root/tmp" "$root/modules" "$root/etc" "$root$guest_libs" \
		"$root$(dirname "$guest_loader")"
	cp "$busybox" "$root/bin/busybox"
	cp "$here/init.sh" "$root/init"
	cp "$here/run-cell.sh" "$root/bin/run-cell"
	echo "$tree" >"$root/etc/hugetext-cases"
	cp "$build/$sub/bin/hugetext" "$root/bin/"
	cp "$build/$sub/lib/libhugetext-startup.so" \
		"$build/$sub/lib/hugetext-audit.so" \
		"$build/$sub/lib/hugetext-audit-hint.so" "$root$guest_libs/"
	chmod +x "$root/init" "$root/bin/run-cell"
	for lib in libc.so.6 libm.so.6; do
		cp -L "$libs/$lib" "$root$guest_libs/"
	done
	cp -L "$loader" "$root$guest_loader"
	# And in the library folder, as Debian has it: ld.so finds itself
	# there by name when it loads an audit module (LD_AUDIT) into a
	# namespace of its own, whose libc.so.6 needs it.
	[ "$(dirname "$guest_loader")" = "$guest_libs" ] ||
		ln -s "$guest_loader" "$root$guest_libs/$(basename "$guest_loader")"
	# The other loaders of this architecture (prepare.sh's OUT/loaders:
	# NAME ARCH DIR TUNABLES): /loader/NAME holds its ld.so, libc and
	# libm, and the tunables of its method (run-cell).
	while read -r lname larch ldir tunables; do
		[ "$larch" = "$arch" ] || continue
		ld=$(find "$ldir" -name 'ld-linux*.so.*' | head -n 1)
		[ -n "$ld" ] || die "loader $lname: no ld-linux*.so.* in $ldir"
		mkdir -p "$root/loader/$lname"
		cp -L "$ld" "$(dirname "$ld")/libc.so.6" "$(dirname "$ld")/libm.so.6" \
			"$root/loader/$lname/"
		echo "$tunables" >"$root/loader/$lname/tunables"
	done < <(cat "$out/loaders" 2>/dev/null)
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
done <"$out/kernels"
