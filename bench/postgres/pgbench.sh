#!/bin/bash
# PostgreSQL 15 under pgbench, the server linked plain and with hugetext
# (as root):
#
#   bench/postgres/pgbench.sh [--ways WAY,WAY...] [--from DIR]
#        [--rounds N] [--seconds N] [--rw-seconds N] [--warmup N]
#        [--clients N] [--scale N] [--shared-buffers SIZE] [--out DIR]
#        [--dry-run]
#
# 1. Takes the postgresql-15_*.deb that distro/distro-check built each
#    way (DIR/WAY/debs/, DIR default build/distro/postgresql-15; the ways
#    and their baselines are distro/ways') and extracts it (dpkg-deb -x).
#    Default: every way whose .deb is there and whose baseline's is too,
#    with its baseline (today: plain vs plugin, bfd-off vs bfd).  --ways
#    names them instead; a way with a baseline needs that baseline.
#    --dry-run says which ways and .debs it would take, and stops.
# 2. Copies each way's server (usr/lib/postgresql/15 and
#    usr/share/postgresql/15) to a tmpfs mounted huge=always, where the
#    kernel can map text with huge pages; the postgres binary afresh
#    before each run, as bench/run-benchmarks does.  Data: one cluster,
#    initdb'd by the first way and filled by pgbench -i -s N (default
#    10, about 160 MB: in shared_buffers, default 1GB), on a second
#    tmpfs, copied afresh for each run.  Server: fsync=off, autovacuum
#    off, jit off, listening on a unix socket in the work folder only,
#    run as the user postgres.  Client: the host's pgbench (package
#    postgresql-15; installed if missing), -c N -j N (default 2), on the
#    same cores as the server.
# 3. Rounds: round 0 is a warm-up, not counted, and samples the server
#    with `hugetext status` (build/bin/hugetext) halfway through each
#    workload: the postmaster and a client backend.  Then --rounds
#    rounds (default 5), the ways in an order drawn for each round: for
#    each way a server, --warmup seconds (default 2) of pgbench -S not
#    counted, then `pgbench -S -T SECONDS` (default 15); then, with a new
#    server and data, the same for pgbench's TPC-B-like default
#    (--rw-seconds, default 15).  Where perf can count iTLB misses it
#    counts them, in the server's processes, for each measured run.
# 4. Writes DIR/results.md (bench/postgres/results.py): tps, and the
#    ratio of each way to its baseline, the median of the per-round
#    ratios with a 95 % bootstrap interval; the coverage of the text.
#    DIR default build/bench/pgbench.
#
# The defaults take about 7 minutes for two ways, 14 for four.  The THP
# setting is restored, the servers stopped and the tmpfs unmounted on
# exit, also on failure.  HUGETEXT_PGBENCH_PERF_EVENTS replaces the perf
# events (the first is the one reported per transaction), to try the
# perf path on a machine that cannot count iTLB misses.

set -euo pipefail
shopt -s inherit_errexit
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${HUGETEXT_BUILD_DIR:-$top/build}
command_line="bench/postgres/pgbench.sh${*:+ $*}"
ways_arg=
from=$build/distro/postgresql-15
rounds=5
seconds=15
rw_seconds=15
warmup=2
clients=2
scale=10
shared_buffers=1GB
out=
port=5432
dry_run=no

die() { echo "pgbench.sh: $*" >&2; exit 1; }
say() { printf '%s\n' "$*"; }
positive() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 must be a positive number, not '$2'"; }
count() { [[ $2 =~ ^[0-9]+$ ]] || die "$1 must be a number, not '$2'"; }

while [ $# -gt 0 ]; do
	case $1 in
	--ways) [ -n "${2-}" ] || die "--ways needs WAY,WAY..."; ways_arg=$2; shift 2 ;;
	--from) [ -n "${2-}" ] || die "--from needs a folder"; from=$2; shift 2 ;;
	--rounds) positive "$1" "${2-}"; rounds=$2; shift 2 ;;
	--seconds) positive "$1" "${2-}"; seconds=$2; shift 2 ;;
	--rw-seconds) positive "$1" "${2-}"; rw_seconds=$2; shift 2 ;;
	--warmup) count "$1" "${2-}"; warmup=$2; shift 2 ;;
	--clients) positive "$1" "${2-}"; clients=$2; shift 2 ;;
	--scale) positive "$1" "${2-}"; scale=$2; shift 2 ;;
	--shared-buffers)
		[[ ${2-} =~ ^[1-9][0-9]*(kB|MB|GB)$ ]] ||
			die "--shared-buffers takes a size such as 1GB, not '${2-}'"
		shared_buffers=$2; shift 2 ;;
	--out) [ -n "${2-}" ] || die "--out needs a folder"; out=$2; shift 2 ;;
	--dry-run) dry_run=yes; shift ;;
	-h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
out=${out:-$build/bench/pgbench}
work=$build/bench/work/pgbench
hugetext=$build/bin/hugetext
results=$top/bench/postgres/results.py
[ -d "$from" ] || die "no folder $from (distro/distro-check leaves the builds there)"
from=$(cd "$from" && pwd)

# --- The ways: distro/ways' names, baselines and descriptions ----------------

declare -A baseline what deb
all_ways=()
while read -r way base rest; do
	all_ways+=("$way")
	baseline[$way]=$base
	what[$way]=$rest
done < <("$top/distro/data.py" ways baseline what)
[ ${#all_ways[@]} -gt 0 ] || die "distro/ways lists no ways (or cannot be read: distro/data.py check)"

# The server's .deb of WAY, or nothing.
find_deb() {
	local -a d
	mapfile -t d < <(compgen -G "$from/$1/debs/postgresql-15_*.deb" || true)
	[ ${#d[@]} -le 1 ] || die "$from/$1/debs: several postgresql-15_*.deb: ${d[*]}"
	[ ${#d[@]} -eq 0 ] || echo "${d[0]}"
}
for w in "${all_ways[@]}"; do
	deb[$w]=$(find_deb "$w")
done

ways=()
if [ -n "$ways_arg" ]; then
	IFS=, read -r -a ways <<<"$ways_arg"
	for w in "${ways[@]}"; do
		[ -n "${baseline[$w]+x}" ] || die "--ways: no way '$w' in distro/ways (${all_ways[*]})"
		[ -n "${deb[$w]}" ] || die "no $from/$w/debs/postgresql-15_*.deb (distro-check has not built it)"
		b=${baseline[$w]}
		[ "$b" = - ] || [[ ",$ways_arg," == *",$b,"* ]] ||
			die "--ways: $w is compared with $b: name it too"
	done
else
	for w in "${all_ways[@]}"; do
		b=${baseline[$w]}
		if [ "$b" = - ] || [ -z "${deb[$w]}" ] || [ -z "${deb[$b]:-}" ]; then
			continue
		fi
		[[ " ${ways[*]} " == *" $b "* ]] || ways+=("$b")
		ways+=("$w")
	done
	[ ${#ways[@]} -gt 0 ] || die "no way with its baseline built in $from" \
		"(ls $from/*/debs/; distro/distro-check builds them)"
fi
pairs=0
for w in "${ways[@]}"; do [ "${baseline[$w]}" = - ] || pairs=$((pairs + 1)); done
[ $pairs -gt 0 ] || die "--ways: no way with a baseline among ${ways[*]}: nothing to compare"
say "ways: ${ways[*]}"
if [ $dry_run = yes ]; then
	for w in "${ways[@]}"; do
		b=${baseline[$w]}
		[ "$b" = - ] && b= || b=" against $b"
		say "$w$b: ${deb[$w]}"
	done
	exit 0
fi
[ "$(id -u)" -eq 0 ] || die "run as root: it mounts tmpfs, installs packages and runs the server as postgres"
[ -x "$hugetext" ] || die "no $hugetext: run ./run build first"

# --- Packages, the user ------------------------------------------------------

pgbin=/usr/lib/postgresql/15/bin
# shellcheck source=bench/install-missing.sh
. "$top/bench/install-missing.sh"
# shellcheck source=bench/round-order.sh
. "$top/bench/round-order.sh"
install_missing postgresql-15 postgresql-client-15
pgbench=$pgbin/pgbench
for f in "$pgbench" "$pgbin/pg_isready"; do
	[ -x "$f" ] || die "no $f after installing postgresql-15"
done
id -u postgres >/dev/null 2>&1 ||
	useradd --system --user-group --home-dir /var/lib/postgresql \
		--shell /bin/bash postgres
# Run as postgres, exec'd (so that $! of a server is the postmaster).
as_postgres=(setpriv --reuid=postgres --regid=postgres --init-groups --)

mkdir -p "$work" "$out"
out=$(cd "$out" && pwd)
cd /	# the server runs as postgres, who may not read the caller's folder
rm -rf "${out:?}/logs"
rm -f "$out"/*.tsv "$out"/*.txt "$out"/*.json "$out/results.md"
mkdir -p "$out/logs"

# --- The machine, and what it lets us measure ---------------------------------

thp=/sys/kernel/mm/transparent_hugepage
{
	say "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	say "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores" \
		"(server and clients share them)," \
		"$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
	vendor=$(lscpu | sed -n 's/^Hypervisor vendor: *//p')
	if grep -qw hypervisor /proc/cpuinfo; then
		say "hypervisor: ${vendor:-yes} (a VM: the CPU's hypervisor flag)"
	else
		say "hypervisor: none (bare metal)"
	fi
	say "kernel: $(uname -r) (THP enabled=$(sed 's/.*\[\(.*\)\].*/\1/' $thp/enabled)," \
		"shmem_enabled=$(sed 's/.*\[\(.*\)\].*/\1/' $thp/shmem_enabled);" \
		"the servers run from a tmpfs mounted huge=always)"
	say "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
	say "commit: $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo none)"
	say "client: $("$pgbench" --version)," \
		"-c $clients -j $clients, scale $scale; server: shared_buffers=$shared_buffers," \
		"fsync=off, autovacuum=off, jit=off"
	say "runs: $rounds rounds after a warm-up round; pgbench -S $seconds s," \
		"read-write $rw_seconds s, each after $warmup s of pgbench -S not counted"
} >"$out/machine.txt"
say "$command_line" >"$out/command.txt"

perf_events=${HUGETEXT_PGBENCH_PERF_EVENTS:-iTLB-load-misses,iTLB-loads,cycles,instructions}
perf_event=${perf_events%%,*}
say "$perf_event" >"$out/perf-event.txt"
perf_ok=no
if command -v perf >/dev/null 2>&1; then
	probe=$(perf stat -x, -e "$perf_events" true 2>&1 >/dev/null || true)
	if [ "$(python3 "$results" perf <(printf '%s\n' "$probe") "$perf_event")" != - ] ||
		printf '%s\n' "$probe" | grep -q "^<not counted>,[^,]*,[^,]*$perf_event"; then
		perf_ok=yes
		say "perf: counts $perf_events in the server's processes" >"$out/perf.txt"
	else
		say "perf: cannot count $perf_event on this machine:" \
			"$(printf '%s\n' "$probe" | grep -- "$perf_event" | head -n 1)" \
			>"$out/perf.txt"
	fi
else
	say "perf: not installed" >"$out/perf.txt"
fi
cat "$out/perf.txt"

# --- The servers: extracted, checked, on a huge-page tmpfs ---------------------

mnt=$work/mnt		# huge=always: the servers' files
data=$work/data		# the clusters
sock=$work/socket
server='' perf_pid=''
saved_enabled=$(sed 's/.*\[\(.*\)\].*/\1/' $thp/enabled)
stop_server() {
	[ -n "$server" ] || return 0
	kill -INT "$server" 2>/dev/null || true
	local i
	for ((i = 0; i < 300; i++)); do
		kill -0 "$server" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$server" 2>/dev/null || true
	wait "$server" 2>/dev/null || true
	server=
}
cleanup() {
	if [ -n "$perf_pid" ]; then
		kill -INT "$perf_pid" 2>/dev/null || true
		wait "$perf_pid" 2>/dev/null || true
	fi
	stop_server
	echo "$saved_enabled" >$thp/enabled || true
	local m
	for m in "$mnt" "$data"; do
		if mountpoint -q "$m"; then
			umount "$m" || umount -l "$m" || true
		fi
	done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for m in "$mnt" "$data"; do
	mkdir -p "$m"
	! mountpoint -q "$m" || umount "$m"
done
# THP "never" would keep the kernel from mapping even tmpfs text huge on
# some kernels; madvise changes nothing else here.
[ "$saved_enabled" != never ] || echo madvise >$thp/enabled
mount -t tmpfs -o huge=always,size=2g,mode=0755 hugetext-pgbench "$mnt"
mount -t tmpfs -o size=16g,mode=0755 hugetext-pgbench-data "$data"
chown postgres: "$data"
rm -rf "$sock" && mkdir -p "$sock" && chown postgres: "$sock"

rel_bin=usr/lib/postgresql/15/bin
: >"$out/checks.txt"
for w in "${ways[@]}"; do
	say "== $w: ${deb[$w]##*/}"
	rm -rf "${work:?}/tree/$w"
	mkdir -p "$work/tree/$w"
	dpkg-deb -x "${deb[$w]}" "$work/tree/$w"
	[ -x "$work/tree/$w/$rel_bin/postgres" ] || die "${deb[$w]} has no $rel_bin/postgres"
	mkdir -p "$mnt/$w/usr/lib/postgresql" "$mnt/$w/usr/share/postgresql"
	cp -a "$work/tree/$w/usr/lib/postgresql/15" "$mnt/$w/usr/lib/postgresql/"
	cp -a "$work/tree/$w/usr/share/postgresql/15" "$mnt/$w/usr/share/postgresql/"
	{
		say "$w (${what[$w]}): ${deb[$w]#"$top"/}"
		say "  $("$work/tree/$w/$rel_bin/postgres" --version)"
		say "  hugetext check: $("$hugetext" check "$work/tree/$w/$rel_bin/postgres" 2>&1 |
			tail -n 1 | sed 's/^[^ ]*: //')"
	} >>"$out/checks.txt"
	b=${baseline[$w]}
	[ "$b" = - ] || "$hugetext" check "$work/tree/$w/$rel_bin/postgres" >/dev/null ||
		say "warning: $w's postgres does not meet the layout contract (see $out/checks.txt)"
done
cat "$out/checks.txt"

# The report's list: each way, its baseline among those run, what it is.
for w in "${ways[@]}"; do
	say "$w ${baseline[$w]} ${what[$w]}"
done >"$out/ways.tsv"

pg_options=(-k "$sock" -p "$port" -c listen_addresses=
	-c shared_buffers="$shared_buffers" -c fsync=off -c autovacuum=off
	-c jit=off -c huge_pages=off -c max_wal_size=8GB
	-c checkpoint_timeout=1h -c max_connections=$((clients + 10)))

# start_server WAY CLUSTER: the server of WAY on CLUSTER, ready; $server
# is the postmaster's PID (setpriv execs it).
start_server() {
	local w=$1 cluster=$2 i
	"${as_postgres[@]}" "$mnt/$w/$rel_bin/postgres" -D "$cluster" "${pg_options[@]}" \
		>>"$out/logs/server-$w.log" 2>&1 &
	server=$!
	for ((i = 0; i < 600; i++)); do
		"$pgbin/pg_isready" -q -h "$sock" -p "$port" && return 0
		kill -0 "$server" 2>/dev/null ||
			die "the server of $w did not start (see $out/logs/server-$w.log)"
		sleep 0.1
	done
	die "the server of $w was not ready after a minute (see $out/logs/server-$w.log)"
}

bench() { "$pgbench" -h "$sock" -p "$port" -U postgres "$@" postgres; }

say "== the cluster: initdb by ${ways[0]}, pgbench -i -s $scale"
"${as_postgres[@]}" "$mnt/${ways[0]}/$rel_bin/initdb" -D "$data/template" -U postgres \
	--auth=trust --no-sync -E UTF8 --locale=C >"$out/logs/initdb.log" 2>&1 ||
	die "initdb failed (see $out/logs/initdb.log)"
start_server "${ways[0]}" "$data/template"
bench -i -q -s "$scale" >"$out/logs/pgbench-init.log" 2>&1 ||
	die "pgbench -i failed (see $out/logs/pgbench-init.log)"
stop_server

# sample WORKLOAD WAY DELAY: after DELAY seconds, `hugetext status` of
# the postmaster and of one client backend.
sample() {
	local workload=$1 w=$2 backend
	sleep "$3"
	"$hugetext" status --json "$server" \
		>"$out/status-$workload-$w-postmaster.json" ||
		say "status of $w's postmaster: not measured"
	backend=$(pgrep -P "$server" -f '\[local\]' | head -n 1 || true)
	if [ -n "$backend" ]; then
		"$hugetext" status --json "$backend" \
			>"$out/status-$workload-$w-backend.json" ||
			say "status of $w's backend: not measured"
	else
		say "status of $w's backend: no client backend found"
	fi
}

# session WORKLOAD WAY ROUND: a fresh copy of the server and of the
# cluster, a warm-up, one measured pgbench run, a line of runs.tsv.
session() {
	local workload=$1 w=$2 round=$3 secs=$seconds flags=(-S) log misses=- pgpid
	[ "$workload" = select ] || { secs=$rw_seconds flags=(); }
	log=$out/logs/$workload-$w-$round.txt
	rm -f "$mnt/$w/$rel_bin/postgres"
	cp "$work/tree/$w/$rel_bin/postgres" "$mnt/$w/$rel_bin/postgres"
	rm -rf "$data/run"
	cp -a "$data/template" "$data/run"
	start_server "$w" "$data/run"
	[ "$warmup" -eq 0 ] ||
		bench -n -S -c "$clients" -j "$clients" -T "$warmup" >/dev/null 2>&1 ||
		die "the warm-up of $w failed"
	if [ $perf_ok = yes ]; then
		perf stat -x, -o "$work/perf.out" -e "$perf_events" -p "$server" &
		perf_pid=$!
		sleep 0.3
	fi
	bench -n "${flags[@]}" -c "$clients" -j "$clients" -T "$secs" >"$log" 2>&1 &
	pgpid=$!
	[ "$round" -ne 0 ] || sample "$workload" "$w" $((secs / 2))
	wait "$pgpid" || die "pgbench ($workload, $w) failed (see $log)"
	if [ -n "$perf_pid" ]; then
		kill -INT "$perf_pid" 2>/dev/null || true
		wait "$perf_pid" || true
		perf_pid=
		misses=$(python3 "$results" perf "$work/perf.out" "$perf_event")
	fi
	stop_server
	say "$workload $w $round $(python3 "$results" parse "$log") $misses" \
		>>"$out/runs.tsv"
}

minutes=$(( ((rounds + 1) * ${#ways[@]} * (seconds + rw_seconds + 2 * warmup + 3) + 59) / 60 ))
say "== $rounds rounds and a warm-up of ${ways[*]} (about $minutes minutes)"
for ((r = 0; r <= rounds; r++)); do
	order=("${ways[@]}")
	[ "$r" -eq 0 ] || read -r -a order <<<"$(round_order "$r" "${ways[@]}")"
	for workload in select rw; do
		for w in "${order[@]}"; do
			session "$workload" "$w" "$r"
		done
	done
	printf 'round %d: %s\n' "$r" "${order[*]}"
done

cleanup
trap - EXIT INT TERM
say "== report"
python3 "$results" report "$out"
say "results: $out/results.md"
