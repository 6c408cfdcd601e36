#!/bin/sh
# The benchmark programs' objects, in one place: the demo program (4 MiB
# of code) and the same generator at ten times the size ("big", 40 MiB).
#
# Usage: bench/programs.sh WORK_DIR BIN_DIR
#
# Writes WORK_DIR/main.o and WORK_DIR/NAME.o for NAME in demo and big,
# assembled with the tools in BIN_DIR (gcc -B).  bench/link-time.sh and
# bench/layout-cost.sh link them.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
work=$1 bin=$2
gcc -B"$bin/" -O2 -c "$top/demo/main.c" -o "$work/main.o"
for p in demo:4200 big:42000; do
	name=${p%%:*} funcs=${p#*:}
	"$top/demo/gen-text.sh" "$funcs" >"$work/$name.s"
	gcc -B"$bin/" -c "$work/$name.s" -o "$work/$name.o"
done
