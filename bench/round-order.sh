# shellcheck shell=bash
# Sourced by bench/run-benchmarks and bench/postgres/pgbench.sh: the
# order in which a benchmark's round runs its variants.
#
# round_order ROUND WORD...: the WORDs in an order drawn for ROUND
# (bash's RANDOM seeded with it: the same on every machine), so that no
# variant always runs first or after the same neighbour.  A Fisher-Yates
# shuffle.
round_order() {
	local -a v=("${@:2}")
	local i j t
	RANDOM=$1
	for ((i = ${#v[@]} - 1; i > 0; i--)); do
		j=$((RANDOM % (i + 1)))
		t=${v[i]} v[i]=${v[j]} v[j]=$t
	done
	echo "${v[@]}"
}
