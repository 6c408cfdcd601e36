# shellcheck shell=sh
# producers/usable.sh, sourced by the scripts that link each producer
# (the demo, bench/link-time.sh, bench/run-benchmarks): the producers'
# one policy, as producers/producer supports answers it.
#
# producer_usable PRODUCER NAME BUILD: return 0 where BUILD can link as
# NAME (PRODUCER: the path of producers/producer); return 1 where it
# cannot and the patch series that gives its linker is empty, a vanilla
# build on purpose: skip NAME, and say why ($PRODUCER_SKIPPED holds the
# reason).  Any other answer is a failure: the reason on stderr, and the
# script exits with producer's status (3: NAME should work here and does
# not; 2: bad input, whose message producer wrote itself).
producer_usable() {
	PRODUCER_SKIPPED=
	if PRODUCER_SKIPPED=$("$1" supports "$2" "$3"); then
		return 0
	else
		set -- "$2" $?
	fi
	[ "$2" -eq 1 ] && return 1
	[ -z "$PRODUCER_SKIPPED" ] || echo "$1: $PRODUCER_SKIPPED" >&2
	exit "$2"
}
