#!/bin/bash
# The layout cost of the alternatives to -z hugetext: file size and the
# share of the code that a kernel can map with huge pages.
#
# Usage: bench/layout-cost.sh [--ld LD] [BUILD_DIR]   (default: build)
#
# Links each program six ways with one GNU ld, LD (default
# BUILD_DIR/bin/ld.bfd, or $HUGETEXT_BENCH_LD; it must take -z hugetext),
# through gcc -B, so that every row differs from the plain one only in
# its -z options:
#   plain                  -z separate-code (the x86-64 default)
#   noseparate-code        -z noseparate-code
#   max-page-size 2M       -z max-page-size=0x200000 (every segment
#                          aligned to 2 MiB)
#   max-page-size 2M, nosep  the same with -z noseparate-code
#   hugetext               -z hugetext
#   hugetext, nosep        -z hugetext -z noseparate-code
# The programs: "big", the 40 MiB program of bench/link-time.sh
# (demo/gen-text.sh 42000 and demo/main.c), the demo program (4 MiB),
# and clang (bench/clang/) if bench/run-benchmarks already built its
# objects under BUILD_DIR/bench/work/clang (skipped otherwise: they take
# long to build).  For each link: the apparent size, the size on disk
# (st_blocks * 512, after an fsync) and their growth against the plain
# link, and from `hugetext check --json` the code size, the share of it
# a kernel can map with huge pages and the MiB left on small pages
# (bench/layout-cost.py says exactly how it counts, under the table).
# Output files go to BUILD_DIR/bench/layout-cost; the report, a markdown
# table with the command, date and machine above it, to standard output
# and BUILD_DIR/bench/layout-cost.md.

set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
say() { printf '%s\n' "$*"; }
die() { say "layout-cost: $*" >&2; exit 1; }
usage() { say "usage: bench/layout-cost.sh [--ld LD] [BUILD_DIR]" >&2; exit 2; }

cmdline="${HUGETEXT_BENCH_LD:+HUGETEXT_BENCH_LD=$HUGETEXT_BENCH_LD }bench/layout-cost.sh${*:+ $*}"
ld=${HUGETEXT_BENCH_LD:-}
build_arg=
while [ $# -gt 0 ]; do
	case $1 in
	--ld) [ $# -ge 2 ] || usage; ld=$2; shift 2 ;;
	--ld=*) ld=${1#--ld=}; shift ;;
	-h|--help) usage ;;
	-*) usage ;;
	*) [ -z "$build_arg" ] || usage; build_arg=$1; shift ;;
	esac
done
build=$(cd "${build_arg:-$top/build}" && pwd) || die "no build folder ${build_arg:-$top/build}"
bin=$build/bin
ld=${ld:-$bin/ld.bfd}
hugetext=$bin/hugetext
work=$build/bench/layout-cost

[ -x "$ld" ] || die "no linker $ld (./run build makes it; --ld LD names another)"
[ -x "$hugetext" ] || die "no $hugetext (./run build makes it)"
ld=$(cd "$(dirname "$ld")" && pwd)/$(basename "$ld")
# Whole outputs, not pipes into grep -q or head: with pipefail, an early
# exit of the reader would fail the writer (SIGPIPE).
ld_help=$("$ld" --help) || die "$ld --help failed"
case $ld_help in
*'-z hugetext'*) ;;
*) die "$ld does not take -z hugetext: the comparison needs the patched GNU ld" ;;
esac
ld_version=$("$ld" --version) || die "$ld --version failed"
ld_version=${ld_version%%$'\n'*}

mkdir -p "$work"
# The driver finds the linker under test as ld and ld.bfd here.
rm -rf "$work/ld"
mkdir "$work/ld"
ln -s "$ld" "$work/ld/ld"
ln -s "$ld" "$work/ld/ld.bfd"
driver_flags=(-B"$work/ld/" -fuse-ld=bfd)

# Objects: the programs of bench/programs.sh.
"$top/bench/programs.sh" "$work" "$bin"

# The driver must run LD, not another ld.
got=$(gcc "${driver_flags[@]}" "$work/main.o" "$work/demo.o" -Wl,--version \
	-o "$work/version-probe" 2>/dev/null) || true
got=${got%%$'\n'*}
[ "$got" = "$ld_version" ] ||
	die "gcc ${driver_flags[*]} runs '$got', not $ld ('$ld_version')"

# H, x86-64's huge page (lib/machines.def), as max-page-size takes it.
h_kib=$(python3 "$top/tables/machines.py" h_kib x86-64) ||
	die "lib/machines.def gives no H for x86-64"
h=$(printf '%#x' $((h_kib * 1024)))
ways=(
	"plain (\`-z separate-code\`)|-z separate-code"
	"\`-z noseparate-code\`|-z noseparate-code"
	"\`-z max-page-size=$h\`|-z max-page-size=$h"
	"\`-z max-page-size=$h -z noseparate-code\`|-z max-page-size=$h -z noseparate-code"
	"\`-z hugetext\`|-z hugetext"
	"\`-z hugetext -z noseparate-code\`|-z hugetext -z noseparate-code"
)

rows=$work/rows.tsv
: >"$rows"
skipped=()

# measure PROGRAM DRIVER INPUTS...: link PROGRAM each way, a row each.
measure() {
	local prog=$1 drv=$2 i o label opts zflags out apparent blocks rc
	shift 2
	mkdir -p "$work/$prog"
	for i in "${!ways[@]}"; do
		label=${ways[$i]%%|*}
		opts=${ways[$i]#*|}
		zflags=()
		for o in $opts; do
			[ "$o" = -z ] || zflags+=("-Wl,-z,$o")
		done
		out=$work/$prog/way$i
		say "linking $prog: $opts" >&2
		"$drv" "${driver_flags[@]}" "$@" "${zflags[@]}" -o "$out" ||
			die "linking $prog with $opts failed"
		sync "$out"
		read -r apparent blocks < <(stat -c '%s %b' "$out")
		rc=0
		"$hugetext" check --json "$out" >"$out.json" || rc=$?
		[ $rc -le 1 ] || die "hugetext check $out failed (exit $rc)"
		printf '%s\t%s\t%s\t%s\t%s\n' "$prog" "$label" "$apparent" \
			$((blocks * 512)) "$prog/way$i.json" >>"$rows"
	done
}

measure big gcc "$work/main.o" "$work/big.o"
measure demo gcc "$work/main.o" "$work/demo.o"

clang_dir=$build/bench/work/clang
if [ -f "$clang_dir/link-inputs" ]; then
	mapfile -t clang_inputs <"$clang_dir/link-inputs"
	missing=
	for f in "${clang_inputs[@]}"; do
		case $f in -*) ;; *) [ -e "$f" ] || missing=$f ;; esac
	done
	if [ -n "$missing" ]; then
		skipped+=("clang: skipped: $missing (listed in $clang_dir/link-inputs) is missing")
	else
		measure clang g++ "${clang_inputs[@]}"
	fi
else
	skipped+=("clang: skipped: no objects in $clang_dir (bench/run-benchmarks builds them)")
fi

fs=$(df -T "$work" | awk 'NR == 2 { print $2 }')
{
	say '```'
	say "command: $cmdline"
	say "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	say "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), Linux $(uname -r)"
	say "linker: $ld ($ld_version)"
	say "files on: $work ($fs)"
	for s in "${skipped[@]}"; do say "$s"; done
	say '```'
	say
	python3 "$top/bench/layout-cost.py" "$rows"
} | tee "$work.md.tmp"
mv "$work.md.tmp" "$build/bench/layout-cost.md"
