# shellcheck shell=bash
# Part of toolchain/build-toolchain.sh, which sources it after its settings.
# Built components kept in the cache ($BUILT), for other build folders and
# later runs: a component's build folder as a tarball, named by a key of
# everything that went into it (its configuration, its sources and
# series, the host's compiler, this pipeline's scripts and pins: the
# SCRIPT_ID of build-toolchain.sh), unpacked with its paths rewritten for
# the build folder that takes it; and whether a component's build folder
# must be configured anew (needs_configure).  Entry: built_key,
# restore_built, keep_built, needs_configure.
# Uses: common.sh (msg, die, repo_rel), trees.sh (tree_id).

# A component's build folder (TC/NAME) is kept in the cache, as
# BUILT/NAME-KEY.tar.zst, once it is built and verified; KEY is the hash
# of everything that goes into it: its configuration (flags, target, the
# environment configure records), the working tree's sources and series,
# the host's compiler, the pipeline's scripts and pins.  A build folder
# without TC/NAME unpacks the kept one instead of configuring it; make or
# ninja then run as always and find nothing to do.  The cache keeps the newest
# build of each component.

# built_key NAME CONFIG SRC: the key of NAME's build with the
# configuration CONFIG from the working tree SRC.
built_key() {
	local tree
	# Apart, so that a failure shows where errexit is off (the caller
	# runs as a condition).
	tree=$(tree_id "$3") || return 1
	{
		printf '%s\n' "$1" "$2" "$SCRIPT_ID" "$tree"
		gcc --version | head -n 1
	} | sha256sum | cut -c1-16
}

# rewrite_paths DIR OLD NEW: in the text files under DIR, the folder OLD
# becomes NEW, each file keeping its mtime (binutils' Makefiles and
# dependency files name the sources in the build folder they were built
# in; lld's build records only the paths inside its root).
rewrite_paths() {
	local dir=$1 old=$2 new=$3 re f t
	re=$(printf '%s' "$old" | sed 's/[][\\.*^$|]/\\&/g')
	new=$(printf '%s' "$new" | sed 's/[\\&|]/\\&/g')
	grep -rlIZF -- "$old" "$dir" | while IFS= read -r -d '' f; do
		t=$(stat -c %y "$f")
		sed -i "s|$re|$new|g" "$f"
		touch -d "$t" "$f"
	done
}

# restore_built NAME BUILD CONFIG: when BUILD (TC/NAME) does not exist
# yet (or is an empty folder) and the cache keeps NAME's build of the key
# BUILT_KEY[NAME], unpack it as BUILD, configured with CONFIG.  False if
# there is none.
restore_built() {
	local name=$1 build=$2 config=$3 tar tmp old
	tar=$BUILT/$name-${BUILT_KEY[$name]}.tar.zst
	[ -f "$tar" ] && [ -z "$(ls -A "$build" 2>/dev/null)" ] || return 1
	tmp=$TC/.unpack-$name
	rm -rf "$tmp"
	mkdir -p "$tmp"
	if ! tar -C "$tmp" -I zstd -xf "$tar" ||
		! old=$(cat "$tmp/$name/.hugetext-built-in"); then
		msg "warning: $tar cannot be unpacked; building $name"
		rm -rf "$tmp"
		return 1
	fi
	[ "$old" = "$TC" ] || rewrite_paths "$tmp/$name" "$old" "$TC"
	rm -rf "$build" "$build.configured"
	mv "$tmp/$name" "$build"
	rm -rf "$tmp"
	printf '%s\n' "$config" >"$build.configured"
	BUILT_RESTORED[$name]=1
	msg "$name: unpacked its build from the cache ($(basename "$tar"))"
}

# keep_built NAME: keep TC/NAME, built and verified by this run, in the
# cache (written beside it and renamed: never half a tarball), and drop
# the cache's other builds of NAME.
keep_built() {
	local name=$1 key=${BUILT_KEY[$1]-} tar tmp f rest
	[ -n "$key" ] && [ -z "${BUILT_RESTORED[$name]-}" ] || return 0
	tar=$BUILT/$name-$key.tar.zst
	[ ! -f "$tar" ] || return 0
	mkdir -p "$BUILT"
	printf '%s\n' "$TC" >"$TC/$name/.hugetext-built-in"
	tmp=$(mktemp "$BUILT/.$name.XXXXXX")
	chmod 644 "$tmp"
	if ! tar -C "$TC" -cf - "$name" | zstd -q -1 -T0 >"$tmp"; then
		rm -f "$tmp"
		msg "warning: could not keep $name's build in $BUILT"
		return 0
	fi
	mv -f "$tmp" "$tar"
	for f in "$BUILT/$name"-*.tar.zst; do
		rest=${f#"$BUILT/$name"-}
		case $rest in
		"$key.tar.zst") ;;
		*-*) ;; # another component's (binutils-vanilla-KEY, ...)
		*) rm -f "$f" ;;
		esac
	done
	msg "$name: its build is kept in $(basename "$tar")"
}

# configured_with BUILD MARKER CONFIG: whether BUILD holds a configuration
# (MARKER, a file the configure step leaves, exists) made from CONFIG.
configured_with() {
	[ -f "$1/$2" ] && [ "$(cat "$1.configured" 2>/dev/null)" = "$3" ]
}

# start_configure NAME BUILD: an empty BUILD for a new configuration.
start_configure() {
	msg "$1: configuring in $(repo_rel "$2")"
	rm -rf "$2" "$2.configured" && mkdir -p "$2"
}

# needs_configure NAME SRC BUILD MARKER CONFIG: set NAME's key for the
# configuration CONFIG of the working tree SRC; false where BUILD holds
# that configuration already (configured_with) or the cache's build of
# that key was unpacked as BUILD; else BUILD is an empty folder for it.
# (Called as a condition, where errexit is off: each step says how it
# failed.)
needs_configure() {
	BUILT_KEY[$1]=$(built_key "$1" "$5" "$2") ||
		die "$1: cannot compute the key of its build"
	! configured_with "$3" "$4" "$5" || return 1
	! restore_built "$1" "$3" "$5" || return 1
	start_configure "$1" "$3" || die "$1: cannot make an empty $3"
}
