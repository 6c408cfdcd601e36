# shellcheck shell=bash
# Making a Debian root with mmdebstrap, once: sourced by the parts that
# keep roots in the cache (distro/distro-check's build and install roots,
# package/install-test's root, the kernel matrix's sid-qemu), which
# provide msg and die.

# The user who builds in a build root (distro/distro-check's roots,
# debian-binutils/build.sh's): not root, as on Debian's buildds
# (PostgreSQL's tests refuse to run as root).
# shellcheck disable=SC2034 # read by the scripts that source this file
BUILDER_UID=2000

# debian_root TARGET WHAT ARG...: unless TARGET exists, run mmdebstrap
# with ARGs, which are its options (each one word, --name=value), the
# suite and the mirrors, TARGET going after the suite; WHAT names the
# root in the messages.  It runs in a mount namespace of its own (its
# hooks' mounts vanish with it), with no descriptor but 0, 1 and 2, and
# writes TARGET.tmp and renames it, so a failed run leaves no TARGET
# behind; its output goes to TARGET.log, the end of which is shown when
# it fails.  Two runs that want the same TARGET at once (two builds of
# debian-binutils/build.sh, distro-check's ways) make it once: the
# second waits on TARGET.lock for the first.
debian_root() {
	local target=$1 what=$2 args=() seen=false a fd lock
	shift 2
	[ ! -e "$target" ] || return 0
	mkdir -p "$(dirname "$target")"
	exec {lock}>"$target.lock"
	flock "$lock"
	if [ -e "$target" ]; then
		exec {lock}>&-
		return 0
	fi
	for a in "$@"; do
		args+=("$a")
		if ! $seen && [ "${a#-}" = "$a" ]; then
			args+=("$target.tmp")
			seen=true
		fi
	done
	$seen || die "debian_root: no suite among the arguments for $what"
	msg "making $what (mmdebstrap; log: $target.log)"
	rm -rf "$target.tmp"
	# Only descriptors 0, 1 and 2 go with it: mmdebstrap hands apt a hook
	# "cat >&N" for the lowest free N, which dash reads as one digit.
	if ! (
		for fd in /proc/"$BASHPID"/fd/*; do
			fd=${fd##*/}
			[ "$fd" -le 2 ] || eval "exec $fd>&-"
		done
		exec unshare --mount --propagation private -- mmdebstrap "${args[@]}"
	) >"$target.log" 2>&1; then
		tail -n 15 "$target.log" >&2
		rm -rf "$target.tmp"
		die "mmdebstrap of $what failed (log: $target.log)"
	fi
	mv "$target.tmp" "$target"
	exec {lock}>&-
}
