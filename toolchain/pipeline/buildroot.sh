# shellcheck shell=bash
# Part of toolchain/build-toolchain.sh, which sources it after its settings.
# The build root of lld: a Debian unstable (sid) chroot in the cache,
# made by mmdebstrap with Debian's LLVM of the pinned release series
# (LLVM_ROOT_VERSION) and what the build needs, named by its packages'
# versions and kept until they change.  Entry: fetch_buildroot (through
# fetch in sources.sh), buildroot_dir.
# Uses: common.sh (msg, die, run_logged), sources.sh (pristine_ok,
# llvm_version_gone, words_after).

# The build root is made (mmdebstrap), and used (mount, chroot), as root.
need_root() {
	[ "$(id -u)" -eq 0 ] ||
		die "the lld component needs root: its sid build root is made" \
			"with mmdebstrap and used with mount and chroot (run as root," \
			"or leave lld out of HUGETEXT_COMPONENTS)"
}

# What the build root is made of.  Its folder in the cache is named by the
# hash of this: other pins or packages give another root.
buildroot_id() {
	printf 'buildroot sid variant:apt llvm:%s packages:%s %s\n' \
		"$LLVM_DEB_UPSTREAM" "$LLVM_ROOT_LLVM_PACKAGES" "$LLVM_ROOT_PACKAGES"
}

buildroot_dir() {
	printf '%s/buildroot/llvm-%s-%s\n' "$CACHE" "$LLVM_ROOT_VERSION" \
		"$(buildroot_id | sha256sum | cut -c1-12)"
}

# The LLVM packages of the build root pinned to the version of each that
# sid's index has for upstream $LLVM_ROOT_VERSION ("PACKAGE=VERSION", one per
# line); sid's index has none of that version: say so and stop.
buildroot_llvm_pins() {
	local p offered v
	for p in $LLVM_ROOT_LLVM_PACKAGES; do
		offered=$(sid_offered "$p")
		v=$(awk -v u="$LLVM_DEB_UPSTREAM-" 'index($0, u) == 1 { print; exit }' \
			<<<"$offered")
		case $v in
		"$LLVM_DEB_UPSTREAM"-*) printf '%s=%s\n' "$p" "$v" ;;
		*) llvm_version_gone LLVM_ROOT_VERSION \
			"its Packages index has no $p $LLVM_DEB_UPSTREAM-*" \
			"$(words_after "$p" "$offered")" ;;
		esac
	done
}

# check_buildroot ROOT LIST: the LLVM packages in ROOT, whose dpkg-query
# output is LIST, are of upstream $LLVM_ROOT_VERSION, and it has what the build
# and the launcher need.
check_buildroot() {
	local root=$1 list=$2 p v
	for p in $LLVM_ROOT_LLVM_PACKAGES; do
		v=$(awk -v p="$p" '$1 == p { print $2 }' <<<"$list")
		case $v in
		"$LLVM_DEB_UPSTREAM"-*) ;;
		*) die "the new build root has $p ${v:-(none)}," \
			"not $LLVM_DEB_UPSTREAM-*" ;;
		esac
	done
	for p in /lib64/ld-linux-x86-64.so.2 "$LLVM_PREFIX/bin/lit" \
		"$LLVM_PREFIX/lib/cmake/llvm/LLVMConfig.cmake"; do
		[ -e "$root$p" ] || die "the new build root has no $p"
	done
}

# mmdebstrap in a mount namespace of its own: nothing it mounts in the
# root while it installs can outlive it, also when it fails.  It gets no
# descriptor but 0, 1 and 2: mmdebstrap hands apt a hook "cat >&N" for
# the lowest free N, and dash, which runs it, reads only one digit, so
# N >= 10 (our lock, make's or ninja's descriptors) fails the root.
mmdebstrap_isolated() {
	(
		local fd
		for fd in /proc/"$BASHPID"/fd/*; do
			fd=${fd##*/}
			[ "$fd" -gt 2 ] && eval "exec $fd>&-"
		done
		exec unshare --mount --propagation private -- mmdebstrap "$@"
	)
}

# make_buildroot DIR PINS: mmdebstrap a sid chroot into DIR with the LLVM
# packages in PINS and the rest of the root's packages, check it, and
# list its packages and their versions in DIR.packages.
make_buildroot() {
	local dir=$1 pins=$2
	run_logged "$CACHE/buildroot/mmdebstrap.log" \
		mmdebstrap_isolated --variant=apt \
		--include="$(paste -sd, <<<"$pins"),${LLVM_ROOT_PACKAGES// /,}" \
		sid "$dir" \
		"deb [signed-by=$SID_KEYRING check-valid-until=no] $SID_MIRROR sid main"
	# shellcheck disable=SC2016 # dpkg-query expands the ${FIELD}s
	chroot "$dir" dpkg-query -W -f '${Package} ${Version}\n' >"$dir.packages"
	check_buildroot "$dir" "$(cat "$dir.packages")"
}

# A sid chroot with Debian's LLVM $LLVM_ROOT_VERSION, made with mmdebstrap
# into a temporary folder and renamed when it is complete and checked.
# sid's Release may be past its Valid-Until: check-valid-until=no is an
# option of the root's one source, sid (the signature is still checked).
fetch_buildroot() {
	local root id tmp pins list
	root=$(buildroot_dir)
	id=$(buildroot_id)
	need_root
	pristine_ok "$root" "$id" && return 0

	sid_apt_init "$CACHE/sid-apt"
	sid_update
	pins=$(buildroot_llvm_pins)
	msg "making the sid build root $root (~1.2 GB):" \
		"$(paste -sd ' ' <<<"$pins") $LLVM_ROOT_PACKAGES"
	tmp=$(mktemp -d "$CACHE/buildroot/tmp.XXXXXX")
	if ! (make_buildroot "$tmp/root" "$pins"); then
		rm -rf --one-file-system "$tmp"
		exit 1
	fi
	list=$(cat "$tmp/root.packages")
	rm -rf --one-file-system "$root" "$root.ok" "$root.packages"
	printf '%s\n' "$list" >"$root.packages"
	mv "$tmp/root" "$root"
	printf '%s\n' "$id" >"$root.ok"
	rm -rf --one-file-system "$tmp"
	msg "build root ready: $(grep -E "^(${LLVM_ROOT_LLVM_PACKAGES// /|}) " \
		"$root.packages" | paste -sd ' ')"
}
