# shellcheck shell=bash
# Part of toolchain/build-toolchain.sh, which sources it after its settings.
# Built components kept in the cache ($BUILT), for other build folders and
# later runs: a component's build folder as a tarball, named by a key of
# everything that went into it (its configuration, its sources and
# series, the host's compiler, this pipeline's scripts and pins: the
# SCRIPT_ID of build-toolchain.sh), unpacked with its paths rewritten for
# the build folder that takes it.  Entry: built_key, restore_built,
# keep_built.

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
