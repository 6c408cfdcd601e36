# shellcheck shell=bash
# Part of toolchain/build-toolchain.sh, which sources it after its settings.
# The table of components, toolchain/components: read and checked whole
# before anything is fetched (read_components), a line per component
# with "@" lines made once per cross target (toolchain/cross-targets);
# build_component NAME builds one with its tool's part; component_builds
# and component_ld name a component's build folders and linker, and
# verify_lists checks that its ld lists -z hugetext.  Entry:
# read_components, component_line, build_component, component_builds,
# component_ld, verify_lists.
# Uses: common.sh (die, step, repo_rel), kept.sh (keep_built), and the
# build_TOOL and verify_default_on_TOOL of binutils.sh and lld.sh.

# read_components: COMPONENT_LINES, the lines of toolchain/components with
# each "@" line repeated for every cross target: NAME TOOL SOURCES
# OPTIONS BIN CHECK DEFAULT TRIPLET (TRIPLET "-" where none); and
# COMPONENTS, what to build.
read_components() {
	local file=$HERE/components
	# awk prints the lines, or the first bad line's error alone.
	COMPONENT_LINES=$(awk -v cross="$(printf '%s\n' "$CROSS_TARGETS" |
		paste -sd ' ')" -v file="$(repo_rel "$file")" '
		BEGIN { n = split(cross, w, " ") }
		/^#/ || NF == 0 { next }
		NF != 7 || $2 !~ /^(binutils|lld)$/ || $3 !~ /^(patched|vanilla)$/ ||
		    $5 !~ /^(\.|[A-Za-z0-9_-]+)$/ ||
		    $6 !~ /^(lists|default-on|-)$/ || $7 !~ /^(yes|no)$/ {
			bad = sprintf("%s:%d: not NAME TOOL SOURCES OPTIONS BIN " \
			    "CHECK DEFAULT (TOOL binutils or lld, SOURCES patched " \
			    "or vanilla, BIN . or a folder name, CHECK lists, " \
			    "default-on or -, DEFAULT yes or no)", file, FNR)
			exit
		}
		$1 ~ /@/ && $2 != "binutils" {
			bad = sprintf("%s:%d: %s: only a binutils component has " \
			    "a line per cross target (one lld links for all)",
			    file, FNR, $1)
			exit
		}
		$1 !~ /@/ { add($1, $0 " -"); next }
		{
			for (i = 1; i + 1 <= n; i += 2) {
				name = $1; opts = $4
				sub(/@/, w[i], name)
				gsub(/@/, "--target=" w[i + 1], opts)
				add(name, name " " $2 " " $3 " " opts " " $5 " " $6 \
				    " " $7 " " w[i + 1])
			}
		}
		function add(name, line) {
			if (name in seen && bad == "")
				bad = sprintf("%s:%d: %s is named twice", file, FNR,
				    name)
			seen[name] = 1
			out[++m] = line
		}
		END {
			if (bad != "") { print bad; exit 1 }
			for (i = 1; i <= m; i++) print out[i]
		}' "$file") || die "$COMPONENT_LINES"
	COMPONENTS=${HUGETEXT_COMPONENTS:-$(awk '$7 == "yes" { print $1 }' \
		<<<"$COMPONENT_LINES" | paste -sd ' ')}
}

# component_line NAME: NAME's line of COMPONENT_LINES; nothing if none.
component_line() {
	awk -v c="$1" '$1 == c' <<<"$COMPONENT_LINES"
}

# build_component NAME: build the component NAME as its line of
# toolchain/components says, check it and keep its build in the cache.
build_component() {
	local name tool sources options bin check triplet ld
	local -a opts
	read -r name tool sources options bin check _ triplet \
		<<<"$(component_line "$1")"
	opts=()
	[ "$options" = - ] || IFS=, read -r -a opts <<<"$options"
	[ "$bin" = . ] && bin=$BIN || bin=$BIN/$bin
	"build_$tool" "$name" "$sources" "$bin" "$triplet" "${opts[@]}"
	ld=$(component_ld "$tool" "$bin" "$triplet")
	case $check in
	lists) step "$name: --help" verify_lists "$ld" ;;
	default-on) step "$name: default" "verify_default_on_$tool" "$ld" ;;
	esac
	step "$name: keep" keep_built "$name"
}

# component_builds TOOL SOURCES: the build folders of the components
# built from TOOL's working tree of SOURCES (patched or vanilla).
component_builds() {
	awk -v t="$1" -v s="$2" -v tc="$TC" '$2 == t && $3 == s {
		print tc "/" $1 }' <<<"$COMPONENT_LINES"
}

# component_ld TOOL DIR TRIPLET: the linker a component of TOOL linked
# into DIR.
component_ld() {
	case $1 in
	lld) printf '%s\n' "$2/ld.lld" ;;
	*) [ "$3" = - ] && printf '%s\n' "$2/ld.bfd" ||
		printf '%s\n' "$2/$3-ld" ;;
	esac
}

# verify_lists LD: "LD --help" lists -z hugetext.
verify_lists() {
	# Not "grep -q": it stops reading, and with pipefail ld's SIGPIPE
	# would fail the check now and then.
	"$1" --help | grep -- '-z hugetext ' >/dev/null ||
		die "$1 --help does not list -z hugetext"
}
