#!/bin/sh
# Build the kernel matrix's own kernel: linux-source-6.12 from Debian, with
# testsuite/kernel/patches/ applied, a minimal configuration with
# READ_ONLY_THP_FOR_FS, and everything the VM needs built in.
#
# Usage: testsuite/kernel/build-kernel.sh BUILD_DIR
# Prints the path of the bzImage.  The source is cached in
# $HUGETEXT_CACHE/kernels/src; the build goes to BUILD_DIR/kernel-matrix/linux.

set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
cache=${HUGETEXT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugetext}/kernels
jobs=${HUGETEXT_JOBS:-$(nproc)}
src=$cache/src/linux-source-6.12
work=$build/kernel-matrix/linux-src
obj=$build/kernel-matrix/linux

msg() { printf 'build-kernel: %s\n' "$*" >&2; }

if [ ! -f "$cache/src/extracted.ok" ]; then
	mkdir -p "$cache/src"
	(cd "$cache" && ls linux-source-6.12_*.deb >/dev/null 2>&1) ||
		(cd "$cache" && apt-get download linux-source-6.12 >/dev/null 2>&1) ||
		{ msg "apt-get download linux-source-6.12 failed"; exit 1; }
	msg "extracting linux-source-6.12"
	rm -rf "$src"
	dpkg-deb --fsys-tarfile "$(ls "$cache"/linux-source-6.12_*.deb | tail -1)" |
		tar -xO ./usr/src/linux-source-6.12.tar.xz |
		xz -dc -T"$jobs" | tar -x -C "$cache/src"
	touch "$cache/src/extracted.ok"
fi

# A working tree of hard links; patch replaces the files it changes.
stamp=$(cat "$here"/patches/*.patch | md5sum | cut -c1-16)
if [ "$(cat "$work.stamp" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$work" "$obj"
	# Hard links where the cache and the build share a filesystem.
	cp -al "$src" "$work" 2>/dev/null || { rm -rf "$work"; cp -a "$src" "$work"; }
	for p in "$here"/patches/*.patch; do
		patch -s -p1 -d "$work" <"$p" ||
			{ msg "$(basename "$p") does not apply"; exit 1; }
	done
	echo "$stamp" >"$work.stamp"
fi

mkdir -p "$obj"
if [ ! -f "$obj/.config" ]; then
	make -s -C "$work" O="$obj" tinyconfig >/dev/null
	cfg="$work/scripts/config --file $obj/.config"
	$cfg -e 64BIT -e PRINTK -e TTY -e SERIAL_8250 -e SERIAL_8250_CONSOLE \
		-e BLK_DEV_INITRD -e RD_GZIP -e BINFMT_ELF -e BINFMT_SCRIPT \
		-e PROC_FS -e PROC_SYSCTL -e SYSCTL -e SYSFS -e DEVTMPFS \
		-e TMPFS -e SHMEM -e TRANSPARENT_HUGEPAGE \
		-e READ_ONLY_THP_FOR_FS -e ADVISE_SYSCALLS -e PROC_PAGE_MONITOR \
		-e PCI -e VIRTIO_MENU -e VIRTIO -e VIRTIO_PCI -e BLOCK -e BLK_DEV \
		-e VIRTIO_BLK -e EXT4_FS -e XFS_FS -e FUTEX -e MULTIUSER \
		-e FILE_LOCKING -e POSIX_TIMERS -e EPOLL -e SIGNALFD -e TIMERFD \
		-e EVENTFD -e UNIX -e NET -e RSEQ -e CRC32 -e LIBCRC32C \
		-e CRYPTO -e CRYPTO_CRC32C -e ELF_CORE -e SYSVIPC \
		-e TRANSPARENT_HUGEPAGE_ALWAYS
	make -s -C "$work" O="$obj" olddefconfig >/dev/null
	for opt in TRANSPARENT_HUGEPAGE READ_ONLY_THP_FOR_FS VIRTIO_BLK \
		   EXT4_FS XFS_FS PROC_PAGE_MONITOR ADVISE_SYSCALLS; do
		grep -q "^CONFIG_$opt=y" "$obj/.config" ||
			{ msg "CONFIG_$opt did not stick"; exit 1; }
	done
fi
msg "make -j$jobs bzImage (log: $obj/build.log)"
make -C "$work" O="$obj" -j"$jobs" bzImage >"$obj/build.log" 2>&1 ||
	{ tail -20 "$obj/build.log" >&2; msg "the kernel build failed"; exit 1; }
echo "$obj/arch/x86/boot/bzImage"
