#!/bin/sh
# Install the Debian packages that toolchain/build-toolchain.sh needs, and
# make sure apt knows a deb-src entry for bookworm main (LLVM's sources are
# fetched with "apt-get source").  binutils' sources come from Debian
# unstable, which build-toolchain.sh reads through an apt configuration of
# its own in the cache: nothing here adds sid to the host's apt.
#
# Usage: toolchain/install-deps.sh [--check]
#   --check   change nothing; exit 1 and say what is missing.
#
# A second run finds everything present and returns at once: apt-get is
# only called for what dpkg-query reports as missing.

set -eu

# One package per word; append what your part of the build needs.
#   binutils (a trunk snapshot from Debian unstable): bison and flex, since
#   a snapshot, unlike a release, ships no generated parsers and scanners
#   (ld/ldgram.y, ld/ldlex.l, ...); m4 (without it, configure caches the
#   miss and make fails later); texinfo only for "make info" by hand (the
#   build passes MAKEINFO=true: the snapshot has no .info files);
#   pkg-config to find libzstd; debian-archive-keyring, the keys apt
#   checks sid's index with (build-toolchain.sh reads sid through an apt
#   configuration of its own, nothing is installed from it);
#   dejagnu/expect/bc for ld's test suite; tcl for tclsh (expect pulls in
#   only tclsh8.6), which the kernel matrix's lit tests run.
#   lld: built standalone against Debian's LLVM; llvm-19-tools has lit,
#   FileCheck, not, count, split-file for lld/test.
#   The project's C code and tests: cmake, ninja-build, python3 (lit);
#   clang-19 and libclang-rt-19-dev (libFuzzer) for the fuzzers.
HUGETEXT_DEPS="build-essential make git python3 xz-utils dpkg-dev file
	m4 bison flex texinfo pkg-config zlib1g-dev libzstd-dev
	debian-archive-keyring
	dejagnu expect tcl bc elfutils
	cmake ninja-build clang-19 lld-19 llvm-19 llvm-19-dev llvm-19-tools
	libclang-rt-19-dev qemu-user-static binutils-dev
	qemu-system-x86 busybox-static xfsprogs e2fsprogs libelf-dev"

# The suite whose sources we need, and the file we add for them.
SRC_SUITE=bookworm
SRC_COMPONENT=main
SRC_FILE=/etc/apt/sources.list.d/hugetext-src.sources

msg() { printf 'hugetext-toolchain: %s\n' "$*" >&2; }
die() { msg "error: $*"; exit 1; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# Print the packages of HUGETEXT_DEPS that are not installed.  One
# dpkg-query call for all of them: it exits 1 when it does not know a
# package at all, which only means that one is missing.
missing_packages() {
	# shellcheck disable=SC2086 # one word per package
	installed=$(dpkg-query -W -f='${db:Status-Status} ${Package}\n' \
		$HUGETEXT_DEPS 2>/dev/null |
		awk '$1 == "installed" { print $2 }') || :
	for pkg in $HUGETEXT_DEPS; do
		printf '%s\n' "$installed" | grep -qx -- "$pkg" ||
			printf '%s\n' "$pkg"
	done
}

# apt's own view of its sources, so that deb822 files, one-line files
# and anything in apt.conf are all taken into account.
# Prints "TARGET_OF RELEASE COMPONENT REPO_URI SOURCESENTRY" per index.
# shellcheck disable=SC2016 # apt expands the $(FIELD)s
apt_targets() {
	apt-get indextargets --no-release-info --format \
		'$(TARGET_OF) $(RELEASE) $(COMPONENT) $(REPO_URI) $(SOURCESENTRY)' \
		2>/dev/null | sort -u
}

have_deb_src() {
	apt_targets | awk -v s="$SRC_SUITE" -v c="$SRC_COMPONENT" \
		'$1 == "deb-src" && $2 == s && $3 == c { found = 1 }
		 END { exit !found }'
}

# The "deb" entry for bookworm main: "URI FILE:ENTRY".
deb_entry() {
	apt_targets | awk -v s="$SRC_SUITE" -v c="$SRC_COMPONENT" \
		'$1 == "deb" && $2 == s && $3 == c { print $4, $5; exit }'
}

# Print the Signed-By field (with continuation lines, so an inline key is
# kept) of stanza NUMBER of a deb822 .sources file.
deb822_signed_by() {
	awk -v want="$2" '
		BEGIN { n = 1 }
		/^#/ { next }
		/^[ \t]*$/ { if (seen) n++; seen = 0; infield = 0; next }
		{ seen = 1 }
		n != want { next }
		/^[^ \t]/ { infield = tolower($0) ~ /^signed-by:/ }
		infield { print }
	' "$1"
}

# Print the signed-by= option of line NUMBER of a one-line sources file.
oneline_signed_by() {
	sed -n "${2}p" "$1" |
		sed -n 's/.*\[[^]]*signed-by=\([^] ]*\).*/Signed-By: \1/p'
}

# Write the deb-src stanza, mirroring the URI (and key) of the deb entry.
# Arguments: the output of deb_entry.
deb_src_stanza() {
	uri=$1 entry=$2
	file=${entry%:*} num=${entry##*:}
	printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s\n' \
		"${uri%/}" "$SRC_SUITE" "$SRC_COMPONENT"
	case $file in
	*.sources) deb822_signed_by "$file" "$num" ;;
	*) oneline_signed_by "$file" "$num" ;;
	esac
}

# Print, for someone who is not root, the commands that would fix things.
print_root_commands() {
	missing=$1 src_ok=$2
	msg "missing dependencies; as root, run toolchain/install-deps.sh or:"
	if ! $src_ok; then
		entry=$(deb_entry)
		# shellcheck disable=SC2086 # two words on purpose
		[ -z "$entry" ] || printf "cat > %s <<'EOF'\n%s\nEOF\n" \
			"$SRC_FILE" "$(deb_src_stanza $entry)" >&2
	fi
	printf 'apt-get update\n' >&2
	[ -z "$missing" ] ||
		printf 'apt-get install -y --no-install-recommends %s\n' \
			"$missing" >&2
}

add_deb_src() {
	entry=$(deb_entry)
	[ -n "$entry" ] ||
		die "apt has no 'deb' entry for $SRC_SUITE $SRC_COMPONENT to mirror"
	[ ! -e "$SRC_FILE" ] ||
		die "$SRC_FILE exists but apt does not use it; please check it"
	msg "adding $SRC_FILE (deb-src for $SRC_SUITE $SRC_COMPONENT)"
	# shellcheck disable=SC2086 # two words on purpose
	stanza=$(deb_src_stanza $entry)
	printf '# Added by hugetext toolchain/install-deps.sh\n%s\n' \
		"$stanza" >"$SRC_FILE"
}

main() {
	check_only=false
	case ${1-} in
	"") ;;
	--check) check_only=true ;;
	*) die "usage: $0 [--check]" ;;
	esac

	missing=$(missing_packages | tr '\n' ' ')
	missing=${missing% }
	src_ok=true
	have_deb_src || src_ok=false
	[ -n "$missing" ] || ! $src_ok || exit 0

	[ -z "$missing" ] || msg "missing packages: $missing"
	$src_ok || msg "apt has no deb-src entry for $SRC_SUITE $SRC_COMPONENT"
	if $check_only; then
		msg "run toolchain/install-deps.sh as root"
		exit 1
	fi
	if ! is_root; then
		print_root_commands "$missing" "$src_ok"
		exit 1
	fi

	$src_ok || add_deb_src
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	if [ -n "$missing" ]; then
		# shellcheck disable=SC2086 # one word per package
		apt-get install -y --no-install-recommends $missing
	fi
	msg "dependencies are in place"
}

main "$@"
