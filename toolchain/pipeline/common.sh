# shellcheck shell=bash
# Part of toolchain/build-toolchain.sh, which sources it after its settings.
# The helpers every part of the pipeline uses: messages (msg, die), a
# timed step (now, step, and the timings printed on exit: on_exit), a
# command whose output goes to a log (run_logged), hashes (sha256_of,
# check_sha256), paths relative to the repository (repo_rel), git in a
# working tree (tree_git), a folder made where a stale link may stand
# (make_dir) and a tool's version (check_version).  Entry: all of them.  Reads REPO, VERBOSE, TIMINGS and
# CURRENT_STEP.
# Uses: nothing of the other parts.

msg() { printf 'hugetext-toolchain: %s\n' "$*" >&2; }
die() { msg "error: $*"; exit 1; }

now() { date +%s.%N; }

# step NAME COMMAND...: run COMMAND and remember how long it took.
step() {
	local name=$1 t0
	shift
	CURRENT_STEP=$name
	t0=$(now)
	"$@"
	TIMINGS+=("$(awk -v n="$name" -v a="$t0" -v b="$(now)" \
		'BEGIN { printf "  %-30s %8.1f s", n, b - a }')")
	CURRENT_STEP=
}

print_timings() {
	[ ${#TIMINGS[@]} -gt 0 ] || return 0
	msg "time per step:"
	printf '%s\n' "${TIMINGS[@]}" >&2
}

on_exit() {
	local rc=$?
	print_timings
	if [ "$rc" -ne 0 ] && [ -n "$CURRENT_STEP" ]; then
		msg "failed in step: $CURRENT_STEP"
	fi
}

# run_logged LOG COMMAND...: run an external COMMAND with its output in
# LOG; on failure show the end of LOG.
run_logged() {
	local log=$1
	shift
	mkdir -p "$(dirname "$log")"
	if [ "$VERBOSE" = 1 ]; then
		"$@" 2>&1 | tee "$log" || die "$1 failed; log: $log"
		return 0
	fi
	if ! "$@" >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "$1 failed; full log: $log"
	fi
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# check_sha256 FILE EXPECTED WHAT
check_sha256() {
	local got
	got=$(sha256_of "$1")
	[ "$got" = "$2" ] ||
		die "$3: SHA256 of $1 is $got, expected $2"
}

# Path of FILE relative to the repository, for messages.
repo_rel() {
	case $1 in
	"$REPO"/*) printf '%s\n' "${1#"$REPO"/}" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# Run git in directory DIR without letting it find an enclosing repository.
# The working trees live in BUILD_DIR, usually inside this repository, and
# there "git apply" would silently skip every file (and exit 0) because
# the paths lie outside the current directory of that repository.
tree_git() {
	local dir=$1
	shift
	(cd "$dir" && env -u GIT_DIR -u GIT_WORK_TREE -u GIT_INDEX_FILE \
		GIT_CEILING_DIRECTORIES="$(dirname "$dir")" git "$@")
}

# make_dir DIR: mkdir -p DIR, where a link to nowhere may stand in its
# place (a build folder copied from another one whose folders are gone).
make_dir() {
	if [ -L "$1" ] && [ ! -e "$1" ]; then
		rm -f "$1"
	fi
	mkdir -p "$1"
}

# check_version TOOL EXPECTED: the first line of "TOOL --version" (TOOL:
# a path) starts with EXPECTED.
check_version() {
	local got
	got=$("$1" --version | head -n 1)
	case $got in
	"$2"*) msg "$(repo_rel "$1"): $got" ;;
	*) die "$1 --version says '$got', expected '$2...'" ;;
	esac
}
