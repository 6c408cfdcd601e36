# shellcheck shell=bash
# Reading Debian unstable (sid) without touching the host's apt state.
# Sourced by build-toolchain.sh and the kernel matrix's scripts, which
# provide msg and die (and apt_helper, for sid_download_pool_file).
#
# apt runs with a configuration of its own, in a folder of the cache:
#
#   DIR/sources.list   sid main only (deb and deb-src), signed by
#                      debian-archive-keyring
#   DIR/preferences    sid pinned to -1: nothing can be installed from it
#   DIR/lists/         its package index (about 25 MB)
#   DIR/cache/         its package cache
#   DIR/update.log     the output of the last "apt-get update"
#
# The host's sources, preferences and lists are never read or written
# (Dir::Etc::SourceParts and Dir::Etc::PreferencesParts point at
# /dev/null); its apt.conf.d still applies, for proxies.  Only "apt-get
# update", "apt-cache show / madison / showsrc", "apt-get download" and
# apt-helper's download-file (a file of the pool that the signed Sources
# index lists, with its SHA256) run with this configuration; what is
# downloaded is unpacked with dpkg-deb -x or tar, never installed.
# Acquire::Check-Valid-Until=false is for this configuration only, whose
# only source is sid: a mirror may serve a sid Release file that is past
# its Valid-Until, and the signature is still checked.

# apt-get as root puts downloads into the _apt sandbox user's hands, which
# cannot write to a cache under $HOME; download as ourselves instead.
apt_get() {
	if [ "$(id -u)" -eq 0 ]; then
		apt-get -o APT::Sandbox::User=root "$@"
	else
		apt-get "$@"
	fi
}

# apt's helper, run as apt_get runs apt-get: its download-file checks a
# hash, its cat-file reads an index as apt stored it (compressed or not).
apt_helper() {
	if [ "$(id -u)" -eq 0 ]; then
		/usr/lib/apt/apt-helper -o APT::Sandbox::User=root "$@"
	else
		/usr/lib/apt/apt-helper "$@"
	fi
}

SID_MIRROR=http://deb.debian.org/debian
# The host's own suite, Debian 12, for what is read from it the same way
# (the kernel matrix's arm64 busybox, distro-check's packages).
HOST_SUITE=bookworm
SID_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# sid_apt_init DIR [SUITE]: write the configuration into DIR and set
# SID_APT_DIR and SID_APT_OPTS, the options that select it.  SUITE is sid
# unless given (the kernel matrix reads experimental's glibc the same
# way, into a folder of its own).
sid_apt_init() {
	local suite=${2:-sid}
	SID_APT_DIR=$1
	SID_APT_NAME="Debian unstable (sid)"
	[ "$suite" = sid ] || SID_APT_NAME="Debian $suite"
	mkdir -p "$1/lists/partial" "$1/cache/archives/partial"
	printf '%s [signed-by=%s] %s %s main\n' \
		deb "$SID_KEYRING" "$SID_MIRROR" "$suite" \
		deb-src "$SID_KEYRING" "$SID_MIRROR" "$suite" >"$1/sources.list"
	printf '%s\n' "# Nothing is ever installed from $suite: only apt-get download." \
		"Package: *" "Pin: release n=$suite" "Pin-Priority: -1" \
		>"$1/preferences"
	SID_APT_OPTS=(
		-o "Dir::Etc::SourceList=$1/sources.list"
		-o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$1/lists"
		-o "Dir::Cache=$1/cache"
		-o "Dir::Etc::Preferences=$1/preferences"
		-o Dir::Etc::PreferencesParts=/dev/null
		-o Acquire::Check-Valid-Until=false
		-o Acquire::Languages=none
	)
}

sid_apt_get() { apt_get "${SID_APT_OPTS[@]}" "$@"; }
sid_apt_cache() { apt-cache "${SID_APT_OPTS[@]}" "$@"; }

# sid_update: fetch sid's index, or stop with apt's reasons: the mirror
# cannot be reached, or its index cannot be verified.  --error-on=any:
# otherwise apt-get update exits 0 when it could fetch nothing.  Once per
# run: later calls use the index the first one read.
SID_UPDATED=false
sid_update() {
	local log=$SID_APT_DIR/update.log
	! $SID_UPDATED || return 0
	msg "reading $SID_APT_NAME's index from $SID_MIRROR"
	if sid_apt_get --error-on=any update >"$log" 2>&1; then
		SID_UPDATED=true
		return 0
	fi
	grep '^[EW]: ' "$log" | sed 's/^/  /' >&2 || tail -n 5 "$log" >&2
	die "cannot read $SID_APT_NAME from $SID_MIRROR:" \
		"apt-get update failed (its errors are above; full log: $log)." \
		"This is the network or the mirror, not the pinned version:" \
		"nothing was looked up."
}


# sid_published_sha256 PACKAGE VERSION: the SHA256 that sid's signed index
# gives for PACKAGE's .deb of VERSION; nothing if sid does not have it.
sid_published_sha256() {
	{ sid_apt_cache show "$1=$2" 2>/dev/null || :; } |
		sed -n 's/^SHA256: //p' | head -n 1
}

# sid_offered PACKAGE: the versions of PACKAGE that sid offers now, one
# per line ("apt-cache madison"); nothing if none.
sid_offered() {
	{ sid_apt_cache madison "$1" 2>/dev/null || :; } |
		awk -F'|' -v p="$1" '{ gsub(/ /, "") }
			$1 == p && $2 != "" && !seen[$2]++ { print $2 }'
}

# sid_download PACKAGE VERSION DIR: "apt-get download" PACKAGE=VERSION
# into DIR; apt checks it against the index it has just read.
sid_download() {
	local log=$3.log
	if ! (cd "$3" && sid_apt_get download "$1=$2") >"$log" 2>&1; then
		tail -n 10 "$log" >&2
		die "apt-get download $1=$2 from sid failed (above; log: $log)"
	fi
	rm -f "$log"
}

# sid_source_file PACKAGE FILE: for each version of source PACKAGE whose
# record in sid's signed Sources index lists FILE, one line "VERSION
# SHA256 SIZE DIRECTORY" (Checksums-Sha256 and Directory of the record);
# nothing if no version lists it.
sid_source_file() {
	{ sid_apt_cache showsrc "$1" 2>/dev/null || :; } |
		awk -v p="$1" -v f="$2" '
			/^$/ { flush(); next }
			/^[^ ]/ { sums = 0 }
			/^Package: / { pkg = $2 }
			/^Version: / { ver = $2 }
			/^Directory: / { dir = $2 }
			/^Checksums-Sha256:/ { sums = 1; next }
			sums && /^ / && $3 == f { sha = $1; size = $2 }
			function flush() {
				if (pkg == p && sha != "" && !seen[ver]++)
					print ver, sha, size, dir
				pkg = ver = dir = sha = size = ""; sums = 0
			}
			END { flush() }'
}

# sid_source_versions PACKAGE: the versions of source PACKAGE in sid's
# Sources index, one per line; nothing if none.
sid_source_versions() {
	{ sid_apt_cache showsrc "$1" 2>/dev/null || :; } |
		awk -v p="$1" '/^Package: / { pkg = $2 }
			/^Version: / && pkg == p && !seen[$2]++ { print $2 }'
}

# sid_download_pool_file DIRECTORY FILE SHA256 DEST: download FILE from
# DIRECTORY (a Directory: of sid's Sources index) of the mirror to DEST
# with apt's own downloader, which checks SHA256 (the index's).
sid_download_pool_file() {
	local log=$4.log
	if ! apt_helper "${SID_APT_OPTS[@]}" download-file \
		"$SID_MIRROR/$1/$2" "$4" "SHA256:$3" >"$log" 2>&1; then
		tail -n 10 "$log" >&2
		die "downloading $SID_MIRROR/$1/$2 failed (above; log: $log)"
	fi
	rm -f "$log"
}
