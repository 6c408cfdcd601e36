# shellcheck shell=bash
# Part of toolchain/build-toolchain.sh, which sources it after its settings.
# The patch series and the working source trees: a tree in BUILD_DIR per
# tool and sources (patched, vanilla), a copy of the pristine tree in the
# cache with the series applied (git apply); after a change to the
# series, each file the old or the new series touches goes back to its
# pristine copy and the new series is applied, the files it leaves as
# they were keeping their times, so that make and ninja rebuild only what
# the change affects.  Entry: prepare_tree, tree_id, series_hash,
# remove_stale_trees.
# Uses: common.sh (msg, die, repo_rel, tree_git, sha256_of).

# Print the absolute paths of the patches SERIES lists, in order.
# shellcheck disable=SC2094 # repo_rel only prints the name
series_patches() {
	local series=$1 dir line n=0
	[ -f "$series" ] || die "no series file: $(repo_rel "$series")"
	dir=$(dirname "$series")
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line#"${line%%[![:space:]]*}"}
		line=${line%"${line##*[![:space:]]}"}
		case $line in '' | '#'*) continue ;; esac
		[ -f "$dir/$line" ] ||
			die "$(repo_rel "$series"):$n: no such patch: $line"
		printf '%s\n' "$dir/$line"
	done <"$series"
}

# What a series amounts to: the series file and every patch's content.
# PATCHES is the output of series_patches.
series_hash() {
	local series=$1 patches=$2 p
	{
		cat "$series"
		while IFS= read -r p; do
			[ -n "$p" ] || continue
			printf '%s ' "$(repo_rel "$p")"
			sha256_of "$p"
		done <<<"$patches"
	} | sha256sum | cut -d' ' -f1
}

# Print, one per line, the files PATCH creates, changes, deletes or renames
# (both names), relative to the top of the source tree in WORK.  git's own
# parser reports one name per file (-z: verbatim); the old name of a
# rename is only in the "rename from" header.
patch_files() {
	local work=$1 patch=$2 numstat
	numstat=$(tree_git "$work" apply --numstat -z "$patch" | tr '\0' '\n') ||
		die "$(repo_rel "$patch"): git apply cannot parse it"
	{
		printf '%s\n' "$numstat" | cut -f3-
		sed -n '/^diff --git /,$ s/^rename from //p' "$patch"
	} | sed '/^$/d' | sort -u
}

# Refuse file names that would let a restore reach outside the tree.
check_tree_path() {
	case /$1/ in
	*/../* | //* | *'"'*) die "$2: unsupported file name in patch: $1" ;;
	esac
}

# apply_patch NAME WORK PATCH: apply one patch (all of it or nothing, as
# git apply does); if it does not apply, say which patch and which source
# file, and return 1.
apply_patch() {
	local name=$1 work=$2 patch=$3 out where
	if out=$(tree_git "$work" apply --whitespace=warn -p1 "$patch" 2>&1); then
		[ -z "$out" ] || printf '%s\n' "$out" >&2
		return 0
	fi
	printf '%s\n' "$out" >&2
	# "error: patch failed: FILE:LINE", else "error: FILE: why".
	where=$(printf '%s\n' "$out" | sed -n \
		-e 's/^error: patch failed: \(.*\):\([0-9][0-9]*\)$/\1:\2: hunk does not match/p' \
		-e 's/^error: \([^:]*: .*\)/\1/p' | head -n 1)
	msg "error: patch $(repo_rel "$patch") does not apply to $name:" \
		"${where:-see the git apply errors above}"
	return 1
}

# Give each of FILES (one per line) in WORK whose content is the same as
# its copy in SNAP that copy's mtime again.
restore_mtimes() {
	local work=$1 snap=$2 files=$3 f
	while IFS= read -r f; do
		if [ -n "$f" ] && [ -f "$snap/$f" ] && [ -f "$work/$f" ] &&
			cmp -s "$snap/$f" "$work/$f"; then
			touch -r "$snap/$f" "$work/$f"
		fi
	done <<<"$files"
}

# Bring WORK from whatever series it has to the one in PATCHES: put back the
# pristine copy of every file the old or the new series touches, apply the
# new series, then give the files whose content did not change their old
# mtime, so that make and ninja rebuild only what the change affects.
reapply_series() {
	local name=$1 pristine=$2 work=$3 state=$4 patches=$5 hash=$6
	local new old union snap f d p failed=
	new=$(while IFS= read -r p; do
		[ -z "$p" ] || patch_files "$work" "$p"
	done <<<"$patches" | sort -u)
	old=$(cat "$state/touched")
	union=$(printf '%s\n%s\n' "$old" "$new" | sed '/^$/d' | sort -u)

	# From here on the tree is between two series; if this run stops, the
	# next one restores every file either of them touches.
	printf 'dirty\n' >"$state/series"
	printf '%s\n' "$union" >"$state/touched"

	# Forks are slow on these machines: no dirname, mkdir only when needed.
	snap=$state/snapshot
	rm -rf "$snap"
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		check_tree_path "$f" "$name"
		d=${f%/*}
		[ "$d" != "$f" ] || d=.
		if [ -f "$work/$f" ]; then
			[ -d "$snap/$d" ] || mkdir -p "$snap/$d"
			cp -p "$work/$f" "$snap/$f"
		fi
		if [ -f "$pristine/$f" ]; then
			[ -d "$work/$d" ] || mkdir -p "$work/$d"
			# A new inode: the pristine mode, and a fresh mtime.
			cp --remove-destination "$pristine/$f" "$work/$f"
		else
			rm -f "$work/$f"
		fi
	done <<<"$union"

	while IFS= read -r p; do
		[ -n "$p" ] || continue
		apply_patch "$name" "$work" "$p" || { failed=$p; break; }
	done <<<"$patches"

	# Also after a failure: the files that ended up as they were need not
	# be rebuilt once the series is fixed.
	restore_mtimes "$work" "$snap" "$union"
	rm -rf "$snap"
	[ -z "$failed" ] || exit 1

	printf '%s\n' "$new" | sed '/^$/d' >"$state/touched"
	printf '%s\n' "$hash" >"$state/series"
}

# settle_mtimes PRISTINE WORK FILES: give each of FILES (one per line)
# in WORK, a new working tree, the mtime of its pristine copy, or that of
# the pristine tree's top folder for a file the series adds.  A new tree
# then has the same mtimes in every build folder, older than anything
# built from it, so that a build kept in the cache and unpacked beside
# it is up to date.
settle_mtimes() {
	local pristine=$1 work=$2 files=$3 f
	while IFS= read -r f; do
		if [ -z "$f" ] || [ ! -f "$work/$f" ]; then
			continue
		elif [ -f "$pristine/$f" ]; then
			touch -r "$pristine/$f" "$work/$f"
		else
			touch -r "$pristine" "$work/$f"
		fi
	done <<<"$files"
}

# prepare_tree NAME PRISTINE ID WORK SERIES BUILD...: make WORK a copy of
# the pristine tree with SERIES applied, touching as little as possible
# (SERIES "none": no series at all, WORK stays pristine).
# WORK.state/ records what WORK holds: the pristine ID, the hash of the
# applied series and the files that series touches.  A new copy of the
# sources (with the pristine mtimes) invalidates the objects in every
# BUILD made from WORK, so those go too.
prepare_tree() {
	local name=$1 pristine=$2 id=$3 work=$4 series=$5
	local state=$4.state patches hash n fresh=false
	shift 5
	if [ "$series" = none ]; then
		patches='' hash=none
	else
		patches=$(series_patches "$series")
		hash=$(series_hash "$series" "$patches")
	fi

	if [ ! -d "$work" ] ||
		[ "$(cat "$state/pristine" 2>/dev/null)" != "$id" ]; then
		msg "$name: new working source tree $(repo_rel "$work")"
		rm -rf "$state" "$work" "$@"
		mkdir -p "$(dirname "$work")"
		cp -a "$pristine" "$work"
		mkdir -p "$state"
		: >"$state/touched"
		printf 'none\n' >"$state/series"
		printf '%s\n' "$id" >"$state/pristine"
		fresh=true
	fi
	[ "$(cat "$state/series")" != "$hash" ] || return 0

	n=$(printf '%s' "$patches" | grep -c '^' || :)
	msg "$name: applying $(repo_rel "$series") ($n patches)"
	reapply_series "$name" "$pristine" "$work" "$state" "$patches" "$hash"
	! $fresh || settle_mtimes "$pristine" "$work" "$(cat "$state/touched")"
}

# tree_id WORK: what the working tree WORK holds (its pristine sources
# and applied series), for the key of what is built from it.
tree_id() {
	cat "$1.state/pristine" "$1.state/series"
}

# remove_stale_trees PREFIX ID: remove the working trees PREFIX-* made
# from other pristine trees than ID (an older snapshot or LLVM) and what
# was built from them.  Their builds go when the
# working trees of this snapshot are made (prepare_tree).
remove_stale_trees() {
	local prefix=$1 id=$2 state
	for state in "$TC/src/$prefix"-*.state; do
		[ -d "$state" ] || continue
		[ "$(cat "$state/pristine" 2>/dev/null)" != "$id" ] || continue
		msg "removing $(repo_rel "${state%.state}") (other sources)"
		rm -rf "${state%.state}" "$state"
	done
}
