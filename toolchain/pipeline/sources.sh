# shellcheck shell=bash
# Part of toolchain/build-toolchain.sh, which sources it after its settings.
# The sources, fetched into the cache once and verified against
# toolchain/pins: the binutils snapshot (Debian unstable's binutils-source
# package, whose tarball holds the tree) and the LLVM release tarball
# (sid's llvm-toolchain orig tarball, only LLVM_PARTS of it).  A pin that
# sid no longer serves stops the build with what sid offers now.  Entry:
# fetch SOURCE (binutils, llvm, buildroot), under the cache's lock; and
# for the other parts pin_line, binutils_pristine_id, llvm_pristine_id,
# pristine_ok, llvm_version_gone and words_after.
# Uses: common.sh (msg, die, now, repo_rel, sha256_of, check_sha256),
# buildroot.sh (fetch_buildroot, which uses this file's pristine_ok,
# llvm_version_gone and words_after in turn).

# What a pristine tree is made from.  When this changes, the tree in the
# cache is extracted again, and the working tree and build start afresh.
binutils_pristine_id() {
	printf 'binutils %s %s skip:%s\n' "$BINUTILS_DEB_VERSION" \
		"$BINUTILS_TARBALL_SHA256" "$BINUTILS_SKIP_DIRS"
}

llvm_pristine_id() {
	printf 'llvm %s %s parts:%s empty:llvm\n' "$LLVM_ORIG" \
		"$LLVM_ORIG_SHA256" "$LLVM_PARTS"
}

# True if the pristine tree TREE was completely extracted from ID.
pristine_ok() {
	[ -d "$1" ] && [ "$(cat "$1.ok" 2>/dev/null)" = "$2" ]
}

# "FILE:LINE" of the line of toolchain/pins that sets VAR: where a move to
# a newer snapshot or LLVM starts.
pin_line() {
	local n
	n=$(grep -n "^$1=" "$HERE/pins" | cut -d: -f1)
	printf '%s:%s\n' "$(repo_rel "$HERE/pins")" "${n:-?}"
}

# sid no longer has the pinned .deb: say what this tree needs, what sid
# has now and where to change the pins.
binutils_version_gone() {
	local offered
	offered=$(sid_offered "$BINUTILS_DEB_PACKAGE" | paste -sd ' ')
	msg "error: Debian unstable (sid) no longer offers" \
		"$BINUTILS_DEB_PACKAGE $BINUTILS_DEB_VERSION"
	msg "  this tree needs: $BINUTILS_DEB_PACKAGE $BINUTILS_DEB_VERSION" \
		"(binutils $BINUTILS_VERSION_STRING)"
	msg "  sid offers now:  ${offered:-none}"
	msg "  the line to change: $(pin_line BINUTILS_DEB_VERSION):" \
		"BINUTILS_DEB_VERSION=$BINUTILS_DEB_VERSION, with the rest of its" \
		"BINUTILS_* block; then re-apply bfd-patches/series and run" \
		"./run test and ./run regress"
	msg "  how: docs/build.md, \"Moving to a newer snapshot\"; a cache" \
		"that holds $BINUTILS_DEB with the pinned SHA256 needs no sid" \
		"($CACHE/binutils/)"
	exit 1
}

# Download the pinned binutils-source .deb from sid into DIR, through the
# cache's own apt configuration (debian-roots/sid-apt.sh), and check it
# against the SHA256 in sid's signed index and the pinned one.
download_binutils_deb() {
	local dir=$1 published tmp
	sid_apt_init "$CACHE/sid-apt"
	sid_update
	published=$(sid_published_sha256 "$BINUTILS_DEB_PACKAGE" \
		"$BINUTILS_DEB_VERSION")
	[ -n "$published" ] || binutils_version_gone
	[ "$published" = "$BINUTILS_DEB_SHA256" ] ||
		die "sid's index gives SHA256 $published for" \
			"$BINUTILS_DEB_PACKAGE $BINUTILS_DEB_VERSION;" \
			"$(pin_line BINUTILS_DEB_SHA256) pins $BINUTILS_DEB_SHA256"
	msg "downloading $BINUTILS_DEB from sid (~25 MB)"
	tmp=$(mktemp -d "$dir/tmp.XXXXXX")
	sid_download "$BINUTILS_DEB_PACKAGE" "$BINUTILS_DEB_VERSION" "$tmp"
	[ -f "$tmp/$BINUTILS_DEB" ] ||
		die "apt-get download gave no $BINUTILS_DEB: $(ls "$tmp")"
	check_sha256 "$tmp/$BINUTILS_DEB" "$published" \
		"$BINUTILS_DEB (sid's index)"
	check_sha256 "$tmp/$BINUTILS_DEB" "$BINUTILS_DEB_SHA256" \
		"$BINUTILS_DEB (pinned)"
	mv "$tmp/$BINUTILS_DEB" "$dir/$BINUTILS_DEB"
	printf '%s  %s\n' "$published" "$BINUTILS_DEB" \
		>"$dir/$BINUTILS_DEB.sha256"
	rm -rf "$tmp"
}

# Check the files of the unpacked .deb in ROOT against the md5sums in
# its control area, when it has one.
check_deb_md5sums() {
	local deb=$1 root=$2 ctrl=$2.control
	dpkg-deb -e "$deb" "$ctrl"
	if [ -f "$ctrl/md5sums" ]; then
		(cd "$root" && md5sum --quiet -c "$ctrl/md5sums") >&2 ||
			die "$deb: files do not match its md5sums"
	else
		msg "note: $(basename "$deb") has no md5sums; the tarball is" \
			"checked against the SHA256 pinned in toolchain/pins"
	fi
}

fetch_binutils() {
	local dir=$CACHE/binutils id tree deb tmp skip=() d
	tree=$dir/$BINUTILS_TREE
	id=$(binutils_pristine_id)
	pristine_ok "$tree" "$id" && return 0

	deb=$dir/$BINUTILS_DEB
	if [ ! -f "$deb" ] ||
		[ "$(sha256_of "$deb")" != "$BINUTILS_DEB_SHA256" ]; then
		rm -f "$deb"
		download_binutils_deb "$dir"
	fi
	check_sha256 "$deb" "$BINUTILS_DEB_SHA256" "$BINUTILS_DEB"

	msg "extracting binutils $BINUTILS_VERSION_STRING into $tree"
	tmp=$(mktemp -d "$dir/tmp.XXXXXX")
	dpkg-deb -x "$deb" "$tmp/deb"
	check_deb_md5sums "$deb" "$tmp/deb"
	check_sha256 "$tmp/deb/$BINUTILS_TARBALL" "$BINUTILS_TARBALL_SHA256" \
		"$BINUTILS_TARBALL"
	for d in $BINUTILS_SKIP_DIRS; do
		skip+=("--exclude=binutils-$BINUTILS_VERSION/$d")
	done
	tar -xJf "$tmp/deb/$BINUTILS_TARBALL" -C "$tmp" "${skip[@]}"
	[ -x "$tmp/binutils-$BINUTILS_VERSION/configure" ] ||
		die "$BINUTILS_TARBALL has no binutils-$BINUTILS_VERSION/configure"
	rm -rf "$tree" "$tree.ok"
	mv "$tmp/binutils-$BINUTILS_VERSION" "$tree"
	printf '%s\n' "$id" >"$tree.ok"
	rm -rf "$tmp"
}

# words_after WORD LINES: "WORD LINE1 WORD LINE2 ...", on one line;
# nothing for no lines.
words_after() {
	awk -v w="$1" 'NF { printf "%s%s %s", sep, w, $0; sep = " " }' <<<"$2"
}

# sid no longer has what VAR (LLVM_VERSION: the sources; LLVM_ROOT_VERSION:
# the build root) pins (WHAT: the orig tarball, or PACKAGE of the build
# root; OFFERED: the versions sid has): say what this tree needs, what
# sid has now and where to change the pins.
llvm_version_gone() {
	local var=$1 what=$2 offered=$3
	msg "error: Debian unstable (sid) no longer offers LLVM" \
		"${!var}: $what"
	msg "  this tree needs: $LLVM_ORIG of $LLVM_SRC_PACKAGE" \
		"(SHA256 $LLVM_ORIG_SHA256) and $LLVM_ROOT_LLVM_PACKAGES" \
		"$LLVM_DEB_UPSTREAM-* for the build root"
	msg "  sid offers now:  ${offered:-none}"
	msg "  the line to change: $(pin_line "$var"):" \
		"$var=${!var}, with the rest of its LLVM_* block;" \
		"then port lld-patches/series and run ./run test"
	msg "  how: docs/build.md, \"Moving to a newer LLVM\"; a cache that" \
		"holds $LLVM_ORIG with the pinned SHA256 ($CACHE/llvm/) and" \
		"the build root ($CACHE/buildroot/) needs no sid"
	exit 1
}

# Download the pinned orig tarball into DIR from sid's pool, once sid's
# signed Sources index has said that it lists it, with the pinned SHA256.
# Not "apt-get source": that needs the .dsc and Debian tarball of one
# revision, and those leave sid long before the orig tarball does.
download_llvm_orig() {
	local dir=$1 found ver sha size pooldir tmp
	sid_apt_init "$CACHE/sid-apt"
	sid_update
	found=$(sid_source_file "$LLVM_SRC_PACKAGE" "$LLVM_ORIG")
	[ -n "$found" ] ||
		llvm_version_gone LLVM_VERSION \
			"its Sources index lists no $LLVM_ORIG" \
			"$(words_after "$LLVM_SRC_PACKAGE" \
				"$(sid_source_versions "$LLVM_SRC_PACKAGE")")"
	# Every revision that lists it must give the pinned SHA256 and size.
	while read -r ver sha size _; do
		if [ "$sha" != "$LLVM_ORIG_SHA256" ] ||
			[ "$size" != "$LLVM_ORIG_SIZE" ]; then
			die "sid's index gives $LLVM_ORIG ($LLVM_SRC_PACKAGE $ver)" \
				"SHA256 $sha, size $size;" \
				"$(pin_line LLVM_ORIG_SHA256) pins $LLVM_ORIG_SHA256, size" \
				"$LLVM_ORIG_SIZE"
		fi
	done <<<"$found"
	msg "sid's Sources index lists $LLVM_ORIG for $LLVM_SRC_PACKAGE" \
		"$(cut -d' ' -f1 <<<"$found" | paste -sd ' ')"
	pooldir=$(head -n 1 <<<"$found" | cut -d' ' -f4)
	msg "downloading $LLVM_ORIG from sid (~210 MB)"
	tmp=$(mktemp -d "$dir/tmp.XXXXXX")
	sid_download_pool_file "$pooldir" "$LLVM_ORIG" "$LLVM_ORIG_SHA256" \
		"$tmp/$LLVM_ORIG"
	check_sha256 "$tmp/$LLVM_ORIG" "$LLVM_ORIG_SHA256" "$LLVM_ORIG (pinned)"
	mv "$tmp/$LLVM_ORIG" "$dir/$LLVM_ORIG"
	printf '%s  %s\n' "$LLVM_ORIG_SHA256" "$LLVM_ORIG" \
		>"$dir/$LLVM_ORIG.sha256"
	rm -rf "$tmp"
}

fetch_llvm() {
	local dir=$CACHE/llvm id tree tmp p members=()
	tree=$dir/llvm-$LLVM_VERSION
	id=$(llvm_pristine_id)
	pristine_ok "$tree" "$id" && return 0

	if [ ! -f "$dir/$LLVM_ORIG" ] ||
		[ "$(sha256_of "$dir/$LLVM_ORIG")" != "$LLVM_ORIG_SHA256" ]; then
		rm -f "$dir/$LLVM_ORIG"
		download_llvm_orig "$dir"
	fi
	check_sha256 "$dir/$LLVM_ORIG" "$LLVM_ORIG_SHA256" "$LLVM_ORIG"

	msg "extracting $LLVM_PARTS from $LLVM_ORIG into $tree"
	for p in $LLVM_PARTS; do
		members+=("$LLVM_ORIG_TOPDIR/$p")
	done
	tmp=$(mktemp -d "$dir/tmp.XXXXXX")
	tar -xJf "$dir/$LLVM_ORIG" -C "$tmp" "${members[@]}"
	[ ! -e "$tmp/$LLVM_ORIG_TOPDIR/llvm/utils/lit/lit.py" ] ||
		die "the lld extract contains llvm/utils/lit (breaks configure)"
	mkdir -p "$tmp/$LLVM_ORIG_TOPDIR/llvm"
	rm -rf "$tree" "$tree.ok"
	mv "$tmp/$LLVM_ORIG_TOPDIR" "$tree"
	printf '%s\n' "$id" >"$tree.ok"
	rm -rf "$tmp"
}


# Fetch a component's sources into the cache, which several build
# directories may share: hold its lock, and drop what an interrupted run
# left behind.
fetch() {
	local what=$1
	mkdir -p "$CACHE/$what"
	exec 8>"$CACHE/$what.lock"
	flock 8
	rm -rf --one-file-system "$CACHE/$what"/tmp.*
	"fetch_$what"
	exec 8>&-
}
