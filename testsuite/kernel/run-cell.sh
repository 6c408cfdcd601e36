#!/bin/sh
# One cell of the kernel matrix, inside the VM:
#   run-cell MODE FS PRODUCER KIND METHOD
# Sets the THP mode, starts from an empty page cache, prepares the file as
# METHOD says (exec: nothing; warm: hugetext warm --collapse; helper: the
# program has libhugetext-startup linked in, HUGETEXT_STARTUP=collapse;
# the name of a loader of /loader/: the probe runs under that ld.so,
# which maps the program itself, with that loader's GLIBC_TUNABLES),
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
	# --collapse: MADV_COLLAPSE where the kernel can collapse file text
	# (lib/filesystems.def says where), MADV_HUGEPAGE readahead first.
	hugetext warm --collapse "$target" >/tmp/warm.out 2>&1
	echo "WARM status=$? $(head -c 200 /tmp/warm.out | tr '\n' ' ')" ;;
helper)
	export HUGETEXT_STARTUP=collapse ;;
esac
if [ -d "/loader/$method" ]; then
	l=/loader/$method
	GLIBC_TUNABLES=$(cat "$l/tunables") exec "$l"/ld-linux*.so.* \
		--library-path "$l:$dir" "$dir/probe" $arg
fi
"$dir/probe" $arg
