#!/bin/sh
# Grow a fuzz corpus: run a libFuzzer target for a while, starting from
# the committed corpus, then merge what covers new code back into it
# (minimized, so the corpus stays small enough to replay in every test run).
#
# Usage: fuzz/run-fuzzer.sh [SECONDS] [BUILD_DIR] [TARGET]
#        (defaults: 300, build, elf; TARGET is elf, smaps or needed)
# A crash stops the run and leaves its input as ./crash-* for a new test.

set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-300}
build=${2:-$top/build}
target=${3:-elf}
fuzzer=$build/bin/fuzz-$target
corpus=$top/fuzz/corpus/$target

[ -x "$fuzzer" ] || {
	echo "run-fuzzer: $fuzzer not built (needs Debian's clang and libclang-rt-dev of HOST_LLVM, toolchain/pins)" >&2
	exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/new" "$corpus"

"$fuzzer" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
	"$work/new" "$corpus"
"$fuzzer" -merge=1 "$corpus" "$work/new"
echo "run-fuzzer: corpus now has $(ls "$corpus" | wc -l) inputs"
