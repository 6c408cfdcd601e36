#!/bin/busybox sh
# /init of the kernel matrix's initramfs: mount what the tests need, then
# give expect a shell on the console.  Busybox only, no udev.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /modules/order 2>/dev/null); do
	insmod "/modules/$m.ko" 2>/dev/null
done
# ASLR on, as users run: load addresses are random.  A text segment whose
# p_align is below the PMD size can land on a PMD boundary by chance (1 in
# 512 with 4 KiB pages); the matrix tells that from the kernel's or the
# loader's alignment by the probe's palign (lib/kernel-matrix.exp).
echo 2 >/proc/sys/kernel/randomize_va_space
# khugepaged asleep: in "always" mode its background scan may collapse a
# program's text while a cell runs (seen in the first cell after boot);
# the cells measure what exec, warm and the helper give, not its timing.
# The values the kernel booted with are kept for the khugepaged cells
# (run-cell khugepaged wake).
k=/sys/kernel/mm/transparent_hugepage/khugepaged
for f in scan_sleep_millisecs alloc_sleep_millisecs pages_to_scan; do
	echo "$f $(cat $k/$f 2>/dev/null)"
done >/etc/khugepaged.boot
echo 3600000 >$k/scan_sleep_millisecs 2>/dev/null
echo 3600000 >$k/alloc_sleep_millisecs 2>/dev/null
# Asleep is not enough: khugepaged scans at once when a process registers
# with it while none is (and when its thread starts again, THP "never" to
# another mode: the matrix runs the "never" cells last).  So one process
# stays registered all along: dd's buffer, an anonymous mapping of two
# PMDs made in "always" mode, held while dd waits on a pipe nobody reads.
t=/sys/kernel/mm/transparent_hugepage
if echo always >$t/enabled 2>/dev/null; then
	h=$(cat $t/hpage_pmd_size)
	# shellcheck disable=SC2216	# sleep is not to read: dd is to wait.
	dd if=/dev/zero bs=$((2 * h)) count=1 2>/dev/null | sleep 2147483647 &
fi
# The case tree of this initramfs's architecture (make-images.sh).
cases=$(cat /etc/hugetext-cases)
mkdir -p /mnt/ext4 /mnt/xfs /mnt/tmpfs
mount -o ro -t ext4 /dev/vda /mnt/ext4 || echo "HUGETEXT-VM-ERROR ext4"
mount -o ro -t xfs /dev/vdb /mnt/xfs || echo "HUGETEXT-VM-ERROR xfs"
# 1200m: the 16 KiB-page tree's programs take 64 to 128 MiB each there
# (32 MiB folios; busybox cp fills their holes).  The guest has 1536m.
if mount -t tmpfs -o huge=always,size=1200m tmpfs /mnt/tmpfs; then
	cp -a "/mnt/ext4/$cases" /mnt/tmpfs/
else
	echo "HUGETEXT-VM-ERROR tmpfs"
fi
thp=/sys/kernel/mm/transparent_hugepage/enabled
echo "HUGETEXT-VM-READY kernel=$(uname -r) thp=$(cat $thp 2>/dev/null | tr ' ' ,)"
export PS1='HT# '
exec setsid cttyhack sh
