# shellcheck shell=bash
# Part of toolchain/build-toolchain.sh, which sources it after its settings.
# A binutils component (toolchain/components): the snapshot's ld, gas and
# binutils, native or for a cross target, configured with
# BINUTILS_CONFIGURE_FLAGS and the component's options, built with make,
# linked into its BIN folder and checked (the tools' versions; "lists":
# ld --help lists -z hugetext; "default-on": it is the default).
# Entry: build_binutils.
# Uses: common.sh (msg, die, step, run_logged, repo_rel, make_dir,
# check_version), sources.sh (fetch, binutils_pristine_id), trees.sh
# (prepare_tree, remove_stale_trees), kept.sh (needs_configure),
# components.sh (component_builds).

binutils_config() {
	local triplet
	triplet=$(gcc -dumpmachine)
	# The environment that configure bakes into the build is part of it.
	# shellcheck disable=SC2086 # one word per option
	printf '%s\n' "CC=${CC-} CFLAGS=${CFLAGS-} CPPFLAGS=${CPPFLAGS-}" \
		"LDFLAGS=${LDFLAGS-}" "--build=$triplet" $BINUTILS_CONFIGURE_FLAGS \
		"$@"
}

# configure_binutils NAME SRC BUILD [OPTION...]: configure binutils
# (NAME: for messages and logs) with the common flags and OPTIONs.
configure_binutils() {
	local name=$1 src=$2 build=$3 config
	shift 3
	config=$(binutils_config "$@")
	needs_configure "$name" "$src" "$build" config.status "$config" ||
		return 0
	# shellcheck disable=SC2046 # one word per option
	(cd "$build" && run_logged "$LOGS/$name-configure.log" \
		"$src/configure" $(printf '%s\n' "$config" | grep '^--'))
	printf '%s\n' "$config" >"$build.configured"
}

# make_binutils NAME BUILD
make_binutils() {
	local log=$LOGS/$1-make.log
	msg "$1: make $BINUTILS_TARGETS (log: $(repo_rel "$log"))"
	# shellcheck disable=SC2086 # one word per variable and target
	run_logged "$log" make -C "$2" -j"$JOBS" $BINUTILS_MAKE_VARS \
		$BINUTILS_TARGETS
}

# link_tool DIR NAME TARGET: DIR/NAME -> BUILD_DIR/TARGET, a relative link
# (DIR is BIN or a folder in it).
link_tool() {
	local dir=$1 up=..
	if [ ! -f "$BUILD_DIR/$3" ] || [ ! -x "$BUILD_DIR/$3" ]; then
		die "$BUILD_DIR/$3 was not built"
	fi
	[ "$dir" = "$BIN" ] || up=../..
	ln -sfn "$up/$3" "$dir/$2"
}

# install_binutils BUILD DIR: link the tools of the binutils build
# BUILD_DIR/BUILD into DIR.
install_binutils() {
	local b=$1 dir=$2
	make_dir "$dir"
	link_tool "$dir" ld.bfd "$b/ld/ld-new"
	ln -sfn ld.bfd "$dir/ld"
	link_tool "$dir" as "$b/gas/as-new"
	link_tool "$dir" objcopy "$b/binutils/objcopy"
	link_tool "$dir" strip "$b/binutils/strip-new"
	link_tool "$dir" readelf "$b/binutils/readelf"
	link_tool "$dir" objdump "$b/binutils/objdump"
	link_tool "$dir" nm "$b/binutils/nm-new"
	link_tool "$dir" ar "$b/binutils/ar"
	link_tool "$dir" ranlib "$b/binutils/ranlib"
	link_tool "$dir" size "$b/binutils/size"
	link_tool "$dir" strings "$b/binutils/strings"
}

# verify_binutils DIR: the tools in DIR are the pinned snapshot's.
verify_binutils() {
	local v=$BINUTILS_VERSION_STRING
	check_version "$1/ld.bfd" "GNU ld (GNU Binutils) $v"
	check_version "$1/as" "GNU assembler (GNU Binutils) $v"
	check_version "$1/objcopy" "GNU objcopy (GNU Binutils) $v"
}

# The pristine tree in the cache, once per run.
fetch_binutils_once() {
	! $BINUTILS_FETCHED || return 0
	step "binutils: fetch" fetch binutils
	remove_stale_trees binutils "$(binutils_pristine_id)"
	BINUTILS_FETCHED=true
}

# prepare_binutils_tree SOURCES SRC: the binutils working tree in SRC,
# made once per run, whichever component comes first.  SOURCES
# "patched": the series applied, shared by the native, the default-on and
# the cross builds; "vanilla": no series, shared by binutils-vanilla and
# the binutils-vanilla-NAME cross builds.  A new copy removes what was
# built from the old one.
prepare_binutils_tree() {
	local sources=$1 src=$2 name=binutils series=$BFD_SERIES what=patch
	local -a builds
	case " $TREES_READY " in *" binutils-$sources "*) return 0 ;; esac
	fetch_binutils_once
	if [ "$sources" = vanilla ]; then
		name=binutils-vanilla series=none what=sources
	fi
	mapfile -t builds < <(component_builds binutils "$sources")
	step "$name: $what" prepare_tree "$name" \
		"$CACHE/binutils/$BINUTILS_TREE" "$(binutils_pristine_id)" \
		"$src" "$series" "${builds[@]}"
	TREES_READY="$TREES_READY binutils-$sources"
}

# link_cross_tools NAME TRIPLET DIR: DIR/TRIPLET-ld, -as and -objdump,
# the tools of the cross binutils NAME that the tests of foreign
# programs use (testsuite/cross).
link_cross_tools() {
	make_dir "$3"
	link_tool "$3" "$2-ld" "toolchain/$1/ld/ld-new"
	link_tool "$3" "$2-as" "toolchain/$1/gas/as-new"
	link_tool "$3" "$2-objdump" "toolchain/$1/binutils/objdump"
}

# build_binutils NAME SOURCES DIR TRIPLET [OPTION...]: configure and make
# the binutils component NAME from the working tree of SOURCES with
# OPTIONs, and link its tools into DIR: all of them, or for a cross
# binutils (TRIPLET not "-", each with the target's own max page size and
# separate-code default, whose ld testsuite runs the -z hugetext tests
# there too) its ld, as and objdump as DIR/TRIPLET-ld and so on.
build_binutils() {
	local name=$1 sources=$2 dir=$3 triplet=$4 src=$TC/src/$BINUTILS_TREE
	local v="GNU ld (GNU Binutils) $BINUTILS_VERSION_STRING"
	shift 4
	[ "$sources" = patched ] || src=$src-$sources
	prepare_binutils_tree "$sources" "$src"
	step "$name: configure" configure_binutils "$name" "$src" "$TC/$name" "$@"
	step "$name: make" make_binutils "$name" "$TC/$name"
	if [ "$triplet" = - ]; then
		step "$name: install" install_binutils "toolchain/$name" "$dir"
		step "$name: verify" verify_binutils "$dir"
	else
		step "$name: install" link_cross_tools "$name" "$triplet" "$dir"
		step "$name: verify" check_version "$dir/$triplet-ld" "$v"
	fi
}

# verify_default_on_binutils LD: "LD --help" marks -z hugetext as the default,
# as --enable-hugetext makes it (bfd-patches/ 0003).
verify_default_on_binutils() {
	local help
	help=$("$1" --help) || die "$1 --help failed"
	grep -Eq -- '^ +-z hugetext +.*\(default\)$' <<<"$help" ||
		die "$1 --help does not mark -z hugetext as the default:" \
			"$(grep -E -- '^ +-z (no)?hugetext ' <<<"$help" | paste -sd '|')" \
			"(does the bfd series have patch 0003, --enable-hugetext?)"
	msg "$(repo_rel "$1") --help: -z hugetext is the default"
}
