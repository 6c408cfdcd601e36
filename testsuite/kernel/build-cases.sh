#!/bin/sh
# Build the kernel matrix's programs: every producer x every output kind,
# into OUT/cases/PRODUCER/KIND/ (probe, and libbig.so for "shared").
#
# Usage: testsuite/kernel/build-cases.sh BUILD_DIR OUT_DIR
#
# Producers: plain (Debian's ld.bfd), bfd and lld (the patched linkers,
# -z hugetext), plugin (Debian's ld.bfd with hugetext.so), helper (bfd,
# with libhugetext-startup linked in), seed (bfd's PIE with p_align
# lowered to 4 KiB: aligned in the file, not asking the loader to align).

set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
out=$2
bin=$build/bin
work=$out/work
rm -rf "$out/cases" "$work"
mkdir -p "$work"

cc -O1 -c "$here/probe.c" -o "$work/probe.o"
cc -O1 -fPIE -c "$here/probe.c" -o "$work/probe-pie.o"
cc -c "$here/../lib/big-text.s" -o "$work/big.o"

# flags PRODUCER: the linker flags of a producer.
flags() {
	case $1 in
	plain) echo "-fuse-ld=bfd" ;;
	bfd | helper | seed) echo "-B$bin/ -fuse-ld=bfd -Wl,-z,hugetext" ;;
	lld) echo "-B$bin/ -fuse-ld=lld -Wl,-z,hugetext" ;;
	plugin) echo "-fuse-ld=bfd -Wl,-plugin,$build/lib/hugetext.so" ;;
	esac
}

for producer in plain bfd lld plugin helper; do
	f=$(flags $producer)
	extra=
	[ $producer = helper ] && extra=$build/lib/hugetext-startup.o
	for kind in pie exec static static-pie shared; do
		d=$out/cases/$producer/$kind
		mkdir -p "$d"
		case $kind in
		pie) cc $f -pie "$work/probe-pie.o" "$work/big.o" $extra -o "$d/probe" ;;
		exec) cc $f -no-pie "$work/probe.o" "$work/big.o" $extra -o "$d/probe" ;;
		static) cc $f -static "$work/probe.o" "$work/big.o" $extra -o "$d/probe" ;;
		static-pie) cc $f -static-pie "$work/probe-pie.o" "$work/big.o" $extra -o "$d/probe" ;;
		shared)
			# The library is the producer's; the program is a plain link.
			cc $f -shared "$work/big.o" -o "$d/libbig.so"
			cc -fuse-ld=bfd -pie "$work/probe-pie.o" -L"$d" -lbig \
				-Wl,-rpath,'$ORIGIN' $extra -o "$d/probe" ;;
		esac
	done
done

# seed: the bfd PIE, with the code segment's p_align lowered to 4 KiB.
mkdir -p "$out/cases/seed/pie"
cp "$out/cases/bfd/pie/probe" "$out/cases/seed/pie/probe"
python3 - "$out/cases/seed/pie/probe" <<'PY'
import struct, sys
path = sys.argv[1]
with open(path, "r+b") as f:
    data = bytearray(f.read())
    phoff, = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    for i in range(phnum):
        off = phoff + i * phentsize
        ptype, pflags = struct.unpack_from("<II", data, off)
        if ptype == 1 and pflags & 1:
            struct.pack_into("<Q", data, off + 48, 0x1000)
    f.seek(0)
    f.write(data)
PY
"$bin/hugetext" check "$out/cases/bfd/pie/probe" >/dev/null
rm -rf "$work"
echo "build-cases: $(find "$out/cases" -name probe | wc -l) programs in $out/cases"
