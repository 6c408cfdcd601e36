# install_missing PACKAGE...: apt-get install those of the Debian
# PACKAGEs that are not installed, and linux-perf where there is no perf
# (the benchmarks count iTLB misses with it where the machine lets
# them).  Sourced by bench/run-benchmarks and bench/postgres/pgbench.sh,
# which run as root; needs their say().
install_missing() {
	local p need=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			need+=("$p")
	done
	command -v perf >/dev/null 2>&1 || need+=(linux-perf)
	if [ ${#need[@]} -gt 0 ]; then
		say "installing ${need[*]}"
		apt-get update -q >/dev/null
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null
	fi
}
