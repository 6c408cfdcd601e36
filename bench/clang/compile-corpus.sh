#!/bin/sh
# The clang workload: compile every file of the corpus at -O2, one after
# the other.  Usage: bench/clang/compile-corpus.sh CLANG CORPUS_DIR
set -eu
for f in "$2"/*.i; do
	"$1" -O2 -w -c "$f" -o /dev/null
done
