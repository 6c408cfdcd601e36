#!/bin/sh
# One cell of the kernel matrix, inside the VM:
#   run-cell MODE FS PRODUCER KIND METHOD
# Sets the THP mode, starts from an empty page cache, prepares the file as
# METHOD says (exec: nothing; warm: hugetext warm --collapse; helper: the
# program has libhugetext-startup linked in, HUGETEXT_STARTUP=collapse),
# runs the probe and prints its RESULT line.
mode=$1 fs=$2 producer=$3 kind=$4 method=$5
# The case tree of this initramfs's architecture (make-images.sh).
dir=/mnt/$fs/$(cat /etc/hugetext-cases)/$producer/$kind
[ -x "$dir/probe" ] || { echo "RESULT error=no-such-case"; exit 2; }
echo "$mode" >/sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null ||
	{ echo "RESULT error=no-thp"; exit 2; }
sync
echo 3 >/proc/sys/vm/drop_caches
arg=
target=$dir/probe
if [ "$kind" = shared ]; then
	arg=lib
	target=$dir/libbig.so
fi
case $method in
warm)
	# --collapse: MADV_COLLAPSE where the kernel has READ_ONLY_THP_FOR_FS,
	# MADV_HUGEPAGE readahead everywhere.
	hugetext warm --collapse "$target" >/tmp/warm.out 2>&1
	echo "WARM status=$? $(head -c 200 /tmp/warm.out | tr '\n' ' ')" ;;
helper)
	export HUGETEXT_STARTUP=collapse ;;
esac
"$dir/probe" $arg
