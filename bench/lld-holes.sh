#!/bin/bash
# Where the link time of ld.lld -z hugetext goes on a small program: the
# demo program (4 MiB of code, bench/programs.sh) linked by BUILD's
# ld.lld with and without -z hugetext, three ways, in interleaved
# rounds of BATCH links each:
#   default         the link gcc asks for (--build-id included)
#   random          the same, with the output's shared mapping advised
#                   MADV_RANDOM (a preloaded mmap wrapper), so that the
#                   kernel reads nothing around a write fault
#   random,no-id    the same without --build-id, whose hash reads the
#                   whole output, holes included
# The front gap and the padding of a -z hugetext output are holes: what
# reads them (the hash, the kernel's read-around) fills the page cache
# with zeroed pages for them.  Prints the ratio hugetext / plain of each
# way (bench/ratio.py) and how much of each output the page cache holds.
#
# Usage: bench/lld-holes.sh BUILD_DIR [ROUNDS [BATCH]]   (default 8, 30)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "bench/lld-holes.sh: $*" >&2; exit 1; }
[ $# -ge 1 ] || die "usage: bench/lld-holes.sh BUILD_DIR [ROUNDS [BATCH]]"
build=$(cd "$1" && pwd) rounds=${2:-8} batch=${3:-30}
lld=$build/bin/ld.lld
[ -x "$lld" ] || die "$lld is missing: run ./run build first"
work=$build/bench/lld-holes
mkdir -p "$work"
"$top/bench/programs.sh" "$work" "$build/bin"

# The ld.lld command line gcc gives for each side, without -o, one
# argument a line (collect2's, less gcc's plugin and -fuse-ld).
ld_args() {
	# shellcheck disable=SC2086 # FLAGS: one word per flag
	gcc -B"$build/bin/" -fuse-ld=lld $1 "$work/main.o" "$work/demo.o" \
		-o "$work/out" -v 2>&1 | grep collect2 | tail -n 1 |
		python3 -c '
import shlex, sys
a = shlex.split(sys.stdin.read())[1:]
out, skip = [], False
for x in a:
    if skip:
        skip = False
    elif x in ("-plugin", "-o"):
        skip = True
    elif not x.startswith(("-plugin-opt", "-fuse-ld")):
        out.append(x)
print("\n".join(out))'
}
mapfile -t plain < <(ld_args "")
mapfile -t huge < <(ld_args "-Wl,-z,hugetext")
if [ ${#plain[@]} -eq 0 ] || [ ${#huge[@]} -eq 0 ]; then
	die "cannot get ld.lld's command line from gcc -v"
fi

printf '%s\n' '#define _GNU_SOURCE' '#include <dlfcn.h>' \
	'#include <sys/mman.h>' \
	'void *mmap (void *a, size_t l, int p, int f, int fd, off_t o)' \
	'{' \
	'  static void *(*real) (void *, size_t, int, int, int, off_t);' \
	'  void *r;' \
	'  if (!real) real = dlsym (RTLD_NEXT, "mmap");' \
	'  r = real (a, l, p, f, fd, o);' \
	'  if (r != MAP_FAILED && (f & MAP_SHARED) && (p & PROT_WRITE) && fd >= 0)' \
	'    madvise (r, l, MADV_RANDOM);' \
	'  return r;' \
	'}' >"$work/random.c"
cc -O2 -shared -fPIC -o "$work/random.so" "$work/random.c" -ldl

# batch WAY SIDE...: BATCH links, in ns.
batch() {
	local way=$1 t0 t1 i pre=() args
	shift
	args=("$@")
	case $way in
	random*) pre=(env "LD_PRELOAD=$work/random.so") ;;
	esac
	case $way in
	*no-id) mapfile -t args < <(printf '%s\n' "$@" | grep -v '^--build-id') ;;
	esac
	t0=$(date +%s%N)
	for ((i = 0; i < batch; i++)); do
		"${pre[@]}" "$lld" "${args[@]}" -o "$work/out"
	done
	t1=$(date +%s%N)
	echo $((t1 - t0))
}

results=$work/pairs.txt
: >"$results"
echo "== $rounds rounds of $batch links, $(uname -r), $(nproc) CPUs, output on $(stat -f -c %T "$work")"
for r in $(seq "$rounds"); do
	for way in default random random,no-id; do
		if [ $((r % 2)) -eq 1 ]; then
			p=$(batch $way "${plain[@]}") h=$(batch $way "${huge[@]}")
		else
			h=$(batch $way "${huge[@]}") p=$(batch $way "${plain[@]}")
		fi
		echo "$way demo $p $h" >>"$results"
	done
done
python3 "$top/bench/ratio.py" "$results"
for way in default random,no-id; do
	batch "$way" "${huge[@]}" >/dev/null
	echo "$way: page cache holds $(fincore -n -o RES "$work/out" | tr -d ' ') of $(du -h --apparent-size "$work/out" | cut -f1) of the hugetext output"
done
