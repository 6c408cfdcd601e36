# shellcheck shell=bash
# Part of toolchain/build-toolchain.sh, which sources it after its settings.
# An lld component: ld.lld of the LLVM release with lld-patches/series,
# configured with CMake against the build root's LLVM and built with
# ninja inside the root (as the same paths for every build folder, so
# that a kept build serves any of them), installed into BIN and checked
# (its version, that gcc links with it, "default-on").  Entry: build_lld.
# Uses: common.sh (msg, die, step, run_logged, repo_rel, make_dir,
# check_version), sources.sh (fetch, llvm_pristine_id), buildroot.sh
# (buildroot_dir), trees.sh (prepare_tree, remove_stale_trees), kept.sh
# (needs_configure), components.sh (component_builds).

# Paths that go into the generated scripts: no quoting needed.
check_script_path() {
	case $1 in
	/* ) ;;
	*) die "not an absolute path: $1" ;;
	esac
	case $1 in
	*[!A-Za-z0-9_./+@%:=,-]*) die "unsupported character in the path $1" ;;
	esac
}

# write_script FILE TEXT...: FILE, executable, holds the lines TEXT; made
# beside it and renamed, so that FILE is never half written.
write_script() {
	local file=$1
	shift
	printf '%s\n' "$@" >"$file.tmp"
	chmod 755 "$file.tmp"
	mv -f "$file.tmp" "$file"
}

# write_lld_in_root NAME ROOT SRC BUILD: TC/NAME-in-root COMMAND... runs
# COMMAND in the build root ROOT with the lld sources SRC at LLD_GUEST_SRC
# and the build BUILD at LLD_GUEST_BUILD (debian-roots/in-root), in that
# folder, with LLVM's bin folder first in PATH.  The build and the tests'
# lit runs use it (TC/lld-in-root: run-tests, "lit test/ELF";
# TC/lld-default-in-root: default-regress).
write_lld_in_root() {
	local name=$1 root=$2 src=$3 build=$4 p
	for p in "$REPO" "$root" "$src" "$build"; do
		check_script_path "$p"
	done
	mkdir -p "$build"
	write_script "$TC/$name-in-root" '#!/bin/sh' \
		"# Made by toolchain/build-toolchain.sh: COMMAND in ld.lld's sid" \
		"# build root, in its build folder ($LLD_GUEST_BUILD there)." \
		"exec $REPO/debian-roots/in-root $root $src=$LLD_GUEST_SRC \\" \
		"	$build=$LLD_GUEST_BUILD -- \\" \
		"	env PATH=$LLVM_PREFIX/bin:/usr/bin:/bin \\" \
		"	sh -c 'cd $LLD_GUEST_BUILD && exec \"\$@\"' sh \"\$@\""
}

# The folder, in the build folder, of a LLVMConfig.cmake of our own.
LLD_LLVM_CMAKE=hugetext-llvm-cmake

# lld_llvm_dir: the folder, inside the build root, of the LLVMConfig.cmake
# that the lld build finds.  A standalone lld takes its version from the
# LLVM it is built against; where the build root's LLVM is a later point
# release of the series than the sources (LLVM_ROOT_VERSION), the build
# folder gets a LLVMConfig.cmake that reads the root's and then gives the
# version of the sources, so that ld.lld --version and .comment say what
# was built.
lld_llvm_dir() {
	if [ "$LLVM_ROOT_VERSION" = "$LLVM_VERSION" ]; then
		printf '%s\n' "$LLVM_PREFIX/lib/cmake/llvm"
		return 0
	fi
	printf '%s\n' "$LLD_GUEST_BUILD/$LLD_LLVM_CMAKE"
}

# write_llvm_dir BUILD: write lld_llvm_dir's LLVMConfig.cmake into the
# build folder BUILD, where it is not the root's own.
write_llvm_dir() {
	local dir=$1/$LLD_LLVM_CMAKE v=$LLVM_VERSION
	[ "$(lld_llvm_dir)" != "$LLVM_PREFIX/lib/cmake/llvm" ] || return 0
	mkdir -p "$dir"
	printf '%s\n' "# Made by toolchain/build-toolchain.sh: sid's LLVM" \
		"# $LLVM_ROOT_VERSION, named as the lld sources ($v) are." \
		"include($LLVM_PREFIX/lib/cmake/llvm/LLVMConfig.cmake)" \
		"set(LLVM_PACKAGE_VERSION $v)" \
		"set(LLVM_VERSION_PATCH ${v##*.})" >"$dir/LLVMConfig.cmake"
}

# lld_config [OPTION...]: the whole configuration of an lld build, the
# common options and then OPTIONs (cmake's), one per line.
lld_config() {
	printf '%s\n' -G Ninja -DCMAKE_BUILD_TYPE=Release \
		"-DCMAKE_C_COMPILER=$LLD_CC" "-DCMAKE_CXX_COMPILER=$LLD_CXX" \
		"-DLLVM_DIR=$(lld_llvm_dir)" \
		-DLLVM_INCLUDE_TESTS=ON \
		"-DLLVM_EXTERNAL_LIT=$LLVM_PREFIX/bin/lit"
	# Linking with lld (lld-N in the root) is quicker; only clang takes
	# -fuse-ld=lld for sure.
	case $LLD_CXX in clang++*) printf '%s\n' -DLLVM_USE_LINKER=lld ;; esac
	[ $# -eq 0 ] || printf '%s\n' "$@"
	# Another root (other packages, other versions) configures afresh.
	printf '%s\n' "CFLAGS=${CFLAGS-} CXXFLAGS=${CXXFLAGS-}" \
		"LDFLAGS=${LDFLAGS-}" "ROOT=$(buildroot_dir)" \
		"PATHS=$LLD_GUEST_SRC $LLD_GUEST_BUILD"
}

# configure_lld NAME SRC BUILD [OPTION...]: cmake in the build root
# (through TC/NAME-in-root), with the common options and OPTIONs.
configure_lld() {
	local name=$1 src=$2 build=$3 config args=()
	shift 3
	config=$(lld_config "$@")
	needs_configure "$name" "$src" "$build" build.ninja "$config" ||
		return 0
	write_llvm_dir "$build"
	mapfile -t args < <(printf '%s\n' "$config" | grep -v '^[A-Z]*=')
	# in-root clears the environment: CMake takes the flags from here.
	run_logged "$LOGS/$name-cmake.log" "$TC/$name-in-root" \
		env CFLAGS="${CFLAGS-}" CXXFLAGS="${CXXFLAGS-}" \
		LDFLAGS="${LDFLAGS-}" \
		cmake -S "$LLD_GUEST_SRC/lld" -B "$LLD_GUEST_BUILD" "${args[@]}"
	printf '%s\n' "$config" >"$build.configured"
}

# The default target builds bin/lld and its ld.lld link, all that
# check-lld needs: lit can then run lld/test/ELF from the build directory.
# ninja_lld NAME
ninja_lld() {
	local log=$LOGS/$1-ninja.log
	msg "$1: ninja in the build root (log: $(repo_rel "$log"))"
	run_logged "$log" "$TC/$1-in-root" ninja -j "$JOBS"
}

# install_lld BUILD DIR: DIR/ld.lld (DIR: BIN or a folder in it), a
# launcher that runs BUILD/bin/lld with the build root's loader and
# libraries (it is linked against sid's glibc, libstdc++ and libLLVM), as
# ld.lld.  So "gcc -B DIR/ -fuse-ld=lld" and every test use it from the
# host.  No DIR/lld: nothing uses it.
install_lld() {
	local build=$1 dir=$2 root
	root=$(buildroot_dir)
	[ -x "$build/bin/lld" ] || die "$build/bin/lld was not built"
	check_script_path "$build"
	check_script_path "$root"
	make_dir "$dir"
	rm -f "$dir/lld"
	write_script "$dir/ld.lld" '#!/bin/sh' \
		"# Made by toolchain/build-toolchain.sh: ld.lld $LLVM_VERSION, built" \
		"# in a sid build root, run with that root's loader and libraries." \
		"exec $root/lib64/ld-linux-x86-64.so.2 \\" \
		"	--library-path $root/usr/lib/x86_64-linux-gnu:$root$LLVM_PREFIX/lib \\" \
		"	--argv0 ld.lld $build/bin/lld \"\$@\""
}

# verify_lld BUILD DIR: DIR/ld.lld is LLD $LLVM_VERSION, loads every
# library from the build root, and gcc -B DIR/ -fuse-ld=lld links with it.
verify_lld() {
	local build=$1 dir=$2 root libs foreign out
	out=$TC/$(basename "$build")-verify
	root=$(buildroot_dir)
	check_version "$dir/ld.lld" "LLD $LLVM_VERSION "
	libs=$("$root/lib64/ld-linux-x86-64.so.2" --list --library-path \
		"$root/usr/lib/x86_64-linux-gnu:$root$LLVM_PREFIX/lib" \
		"$build/bin/lld" | awk '$2 == "=>" { print $3 }')
	foreign=$(grep -v "^$root/" <<<"$libs" || :)
	[ -z "$foreign" ] ||
		die "$build/bin/lld loads libraries from outside the build root:" \
			"$foreign"
	rm -rf "$out"
	mkdir -p "$out"
	printf 'int main(void) { return 0; }\n' >"$out/t.c"
	gcc -B "$dir/" -fuse-ld=lld -o "$out/t" "$out/t.c" ||
		die "gcc -B $dir/ -fuse-ld=lld cannot link"
	"$out/t" || die "a program linked by $dir/ld.lld does not run"
	readelf -p .comment "$out/t" | grep "Linker: LLD $LLVM_VERSION" >/dev/null ||
		die "gcc -B $dir/ -fuse-ld=lld did not link with LLD $LLVM_VERSION"
	msg "gcc -B $(repo_rel "$dir")/ -fuse-ld=lld links with LLD $LLVM_VERSION"
	rm -rf "$out"
}

# verify_default_on_lld LD: LD (a launcher) lays out code for huge pages
# without -z hugetext: 64 KiB of code with a 64 KiB huge page size (as
# lld/test/ELF/hugetext-default.s does) gets a code segment aligned to it,
# and -z nohugetext turns that off.
verify_default_on_lld() {
	local ld=$1 out=$TC/lld-default-verify on off
	rm -rf "$out"
	mkdir -p "$out"
	printf '%s\n' '.globl _start' '_start:' '.space 0x10000, 0x90' \
		>"$out/t.s"
	as -o "$out/t.o" "$out/t.s"
	"$ld" -z hugetext-page-size=0x10000 -o "$out/on" "$out/t.o" ||
		die "$ld cannot link"
	"$ld" -z nohugetext -z hugetext-page-size=0x10000 -o "$out/off" \
		"$out/t.o" || die "$ld -z nohugetext cannot link"
	on=$(readelf -lW "$out/on" | awk '$1 == "LOAD" && /R E/ { print $NF }')
	off=$(readelf -lW "$out/off" | awk '$1 == "LOAD" && /R E/ { print $NF }')
	if [ "$on" != 0x10000 ] || [ "$off" = 0x10000 ]; then
		die "$ld: the code segment's p_align is '$on' by default and" \
			"'$off' with -z nohugetext; expected 0x10000 and the page size" \
			"(does the lld series have patch 0002, LLD_DEFAULT_HUGETEXT?)"
	fi
	msg "$(repo_rel "$ld"): -z hugetext is the default"
	rm -rf "$out"
}

# prepare_lld_tree SOURCES SRC: the LLVM source tree in SRC (SOURCES:
# patched, or vanilla without a series) and the build root, shared by the
# lld components; made once per run, whichever component comes first.
prepare_lld_tree() {
	local sources=$1 src=$2 series=$LLD_SERIES name=lld what=patch
	local -a builds
	case " $TREES_READY " in *" lld-$sources "*) return 0 ;; esac
	[ "$sources" = patched ] || series=none name=lld-$sources what=sources
	case " $TREES_READY " in
	*" lld-"*) ;;
	*)
		step "lld: fetch" fetch llvm
		step "lld: build root" fetch buildroot
		remove_stale_trees llvm "$(llvm_pristine_id)"
		;;
	esac
	mapfile -t builds < <(component_builds lld "$sources")
	step "$name: $what" prepare_tree "$name" \
		"$CACHE/llvm/llvm-$LLVM_VERSION" "$(llvm_pristine_id)" "$src" \
		"$series" "${builds[@]}"
	TREES_READY="$TREES_READY lld-$sources"
}

# build_lld NAME SOURCES DIR TRIPLET [OPTION...]: configure and build the
# lld component NAME from the LLVM tree of SOURCES with cmake's OPTIONs in
# the build root, with TC/NAME-in-root for lit in its build, and write the
# launcher DIR/ld.lld.  One lld links for every target: no TRIPLET.
build_lld() {
	local name=$1 sources=$2 dir=$3 src=$TC/src/llvm-$LLVM_VERSION
	local build=$TC/$1
	[ "$4" = - ] || die "$name: an lld component has no cross target"
	shift 4
	[ "$sources" = patched ] || src=$src-$sources
	prepare_lld_tree "$sources" "$src"
	write_lld_in_root "$name" "$(buildroot_dir)" "$src" "$build"
	step "$name: configure" configure_lld "$name" "$src" "$build" "$@"
	step "$name: ninja" ninja_lld "$name"
	step "$name: install" install_lld "$build" "$dir"
	step "$name: verify" verify_lld "$build" "$dir"
}
