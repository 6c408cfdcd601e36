"""The reader of producers/table, the table of the ways to link.

Usage:
  producer list [--hugetext | --plain] [--kind KIND] [--in SET]
                [--arch ARCH] [--has COLUMN] [--lacks COLUMN]
      the producers' names, one a line, in the table's order: those that
      give the hugetext layout (or do not), make KIND (pie exec static
      static-pie shared), are linked by SET (matrix bench demo; loaders
      khugepaged: the matrix's cells of those), make
      programs for ARCH (a case tree of testsuite/kernel/arches), have something (or "-") in COLUMN
      (baseline extra post)
  producer flags NAME BUILD_DIR     the compiler driver's flags, one line
  producer extra NAME BUILD_DIR     objects to link into the program after
                                    the inputs (an empty line: none)
  producer linker NAME BUILD_DIR    the path of the ld it runs
  producer kinds NAME               the output kinds it makes, one line
  producer arches NAME              the architectures it makes programs
                                    for, one line
  producer baseline NAME            the producer it is compared with (an
                                    empty line: none)
  producer describe NAME            its description
  producer label NAME               its short name for tables and plots
  producer post NAME                its post step (an empty line: none)
  producer page-size NAME           the H its flags ask for with
                                    -z hugetext-page-size, as given (an
                                    empty line: the target's default);
                                    `hugetext check --page-size` takes it
  producer finish NAME FILE         its post step on the linked FILE
                                    (nothing where it has none)
  producer kind-flags KIND          the compiler driver's flags that make
                                    an output of KIND, one line
  producer command NAME BUILD_DIR KIND OUT INPUT...
                                    the arguments of the compiler driver
                                    that links INPUTs into OUT as NAME
                                    does, one a line (the link below,
                                    without the driver and the post step:
                                    for callers that time the link)
  producer link [--cc DRIVER] NAME BUILD_DIR KIND OUT INPUT...
                                    link OUT: DRIVER (default: $CC, split
                                    at blanks, else cc) with the
                                    arguments of command, then the post
                                    step; the output is made beside OUT
                                    (OUT.tmp) and renamed at the end, so
                                    that a failed link or post step
                                    leaves OUT as it was: a failed link
                                    exits 1 (the driver's messages on
                                    stderr), a failed post step 2
  producer series NAME              "yes" where the patch series that gives
                                    its linker names a patch, "no" where
                                    it is empty (HUGETEXT_BFD_SERIES,
                                    HUGETEXT_LLD_SERIES, else FOLDER/series,
                                    as the pipeline reads them), then the
                                    series file's path; exit 2
                                    where it cannot be read or the linker
                                    is Debian's
  producer supports NAME BUILD_DIR  exit 0 if BUILD_DIR can link it: its
                                    linker and files exist and, where it
                                    asks for -z hugetext, the linker takes
                                    it; else print why, and exit 1 where
                                    the patch series that gives its
                                    linker is empty (a vanilla build: skip
                                    it), 3 where it names patches or the
                                    linker is Debian's (a failure)

A link: DRIVER $(flags) $(kind-flags KIND) INPUTS... $(extra) -o OUT,
then, where post says there is a post step, finish NAME OUT.  A shared
library gets no extra objects (they go into the program that loads it).
Bad usage, an unknown producer, a missing BUILD_DIR or a malformed table:
a message on stderr and exit status 2.  HUGETEXT_PRODUCERS names another
table (for tests).
"""

import os
import re
import shlex
import struct
import subprocess
import sys

COLUMNS = ("name", "linker", "hugetext", "kinds", "arches", "in", "baseline",
           "flags", "extra", "post", "label", "description")
# Each output kind, and the compiler driver's flags that make it (gcc's
# and clang's alike).
KIND_FLAGS = {"pie": ["-pie"], "exec": ["-no-pie"], "static": ["-static"],
              "static-pie": ["-static-pie"], "shared": ["-shared"]}
KINDS = tuple(KIND_FLAGS)
# The kernel matrix's case trees (testsuite/kernel/arches).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                "..", "tables"))
import arches  # noqa: E402
import machines  # noqa: E402
ARCHES = tuple(arches.load()[1])
# {h:MACHINE}: the H of MACHINE (lib/machines.def), in bytes, in hex.
H_PLACEHOLDER = re.compile(r"\{h:([^}]*)\}")
SETS = ("matrix", "bench", "demo", "loaders", "khugepaged")
OPTIONAL = ("baseline", "extra", "post")
LINKERS = ("/usr/bin/ld.bfd", "{bin}/ld.bfd", "{bin}/ld.lld")
TABLE = os.environ.get("HUGETEXT_PRODUCERS") or os.path.join(
    os.path.dirname(os.path.realpath(__file__)), "table")


class Bad(Exception):
    """Bad input: the message is printed and the exit status is 2."""


def align_4k(path):
    """Lower the p_align of every executable PT_LOAD to 4 KiB."""
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        if data[:6] != b"\x7fELF\x02\x01":
            raise Bad("%s is not an ELF64 little-endian file" % path)
        phoff, = struct.unpack_from("<Q", data, 32)
        phentsize, phnum = struct.unpack_from("<HH", data, 54)
        for i in range(phnum):
            off = phoff + i * phentsize
            ptype, pflags = struct.unpack_from("<II", data, off)
            if ptype == 1 and pflags & 1:
                struct.pack_into("<Q", data, off + 48, 0x1000)
        f.seek(0)
        f.write(data)


POSTS = {"align-4k": align_4k}
# Each machine's H in bytes, by name (the first line of a name).
H_BYTES = {m["name"]: m["h_kib"] * 1024 for m in machines.first_of("name")}


def words(field):
    return [] if field == "-" else field.split()


def check_row(row, where):
    """Raise Bad unless ROW (a dict of COLUMNS) is well formed."""
    def need(cond, what):
        if not cond:
            raise Bad("%s: %s" % (where, what))

    need(re.fullmatch(r"[a-z0-9][a-z0-9-]*", row["name"]),
         "bad name '%s'" % row["name"])
    need(row["linker"] in LINKERS,
         "linker '%s' is none of %s" % (row["linker"], " ".join(LINKERS)))
    need(row["hugetext"] in ("yes", "no"), "hugetext must be yes or no")
    need(words(row["kinds"]) and set(words(row["kinds"])) <= set(KINDS),
         "kinds must be some of %s" % " ".join(KINDS))
    need(words(row["arches"]) and set(words(row["arches"])) <= set(ARCHES),
         "arches must be some of %s" % " ".join(ARCHES))
    need(set(words(row["in"])) <= set(SETS),
         "in must be some of %s, or -" % " ".join(SETS))
    need(row["post"] == "-" or row["post"] in POSTS,
         "post must be - or one of %s" % " ".join(POSTS))
    need(row["label"] not in ("", "-"), "no label")
    need(row["description"] != "", "no description")
    flags = words(row["flags"])
    need(flags, "no flags")
    for field in ("linker", "flags", "extra"):
        for name in re.findall(r"\{([^}]*)\}", row[field]):
            need(name in ("bin", "lib")
                 or (field == "flags" and name.startswith("h:")),
                 "unknown placeholder {%s} in %s" % (name, field))
    for name in H_PLACEHOLDER.findall(row["flags"]):
        need(name in H_BYTES, "{h:%s}: no machine %s in lib/machines.def "
             "(there are: %s)" % (name, name, " ".join(H_BYTES)))
    # The flags must run the linker the table names.
    ld = os.path.basename(row["linker"])[len("ld."):]
    need("-fuse-ld=" + ld in flags, "flags lack -fuse-ld=" + ld)
    own = row["linker"].startswith("{bin}/")
    need(own == ("-B{bin}/" in flags) and
         all(f == "-B{bin}/" for f in flags if f.startswith("-B")),
         "flags must have -B{bin}/ exactly when the linker is {bin}'s")


def load():
    """The table: a list of dicts, in its order."""
    rows = []
    try:
        with open(TABLE) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise Bad("cannot read %s: %s" % (TABLE, e.strerror))
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = "%s:%d" % (TABLE, number)
        fields = [f.strip() for f in line.split("|", len(COLUMNS) - 1)]
        if len(fields) != len(COLUMNS):
            raise Bad("%s: %d columns, not %d" % (where, len(fields),
                                                  len(COLUMNS)))
        row = dict(zip(COLUMNS, fields))
        check_row(row, where)
        row["flags"] = H_PLACEHOLDER.sub(
            lambda m: "0x%x" % H_BYTES[m.group(1)], row["flags"])
        if any(r["name"] == row["name"] for r in rows):
            raise Bad("%s: '%s' twice" % (where, row["name"]))
        rows.append(row)
    names = [r["name"] for r in rows]
    for row in rows:
        if row["baseline"] not in names + ["-"]:
            raise Bad("%s: %s's baseline '%s' is no producer" % (
                TABLE, row["name"], row["baseline"]))
    return rows


def find(rows, name):
    for row in rows:
        if row["name"] == name:
            return row
    raise Bad("no producer '%s' in %s (there are: %s)" % (
        name, TABLE, " ".join(r["name"] for r in rows)))


def build_dir(path):
    if not os.path.isdir(path):
        raise Bad("no build folder '%s' (run ./run build first)" % path)
    path = os.path.abspath(path)
    if re.search(r"\s", path):
        raise Bad("the build folder '%s' has blanks in its path; the "
                  "consumers split flags at blanks" % path)
    return path


def fill(text, build):
    """TEXT with {bin} and {lib} of BUILD; "-" is empty."""
    if text == "-":
        return ""
    return text.replace("{bin}", os.path.join(build, "bin")).replace(
        "{lib}", os.path.join(build, "lib"))


def takes_hugetext(linker):
    """Whether LINKER accepts -z hugetext (its patch series is applied).

    GNU ld lists it in --help.  ld.lld does not list -z values, but warns
    about an unknown one, which --fatal-warnings makes an error."""
    def run(*args):
        return subprocess.run([linker] + list(args), capture_output=True,
                              text=True, timeout=30)
    try:
        version = run("--fatal-warnings", "-z", "hugetext", "--version")
        if version.returncode != 0:
            return False
        return "LLD" in version.stdout or "hugetext" in run("--help").stdout
    except (OSError, subprocess.TimeoutExpired):
        return False


def why_not(row, build):
    """Why BUILD cannot link ROW's producer, or None if it can."""
    linker = fill(row["linker"], build)
    if not os.access(linker, os.X_OK):
        return "%s is missing (run ./run build first)" % linker
    for path in re.findall(r"\{(?:bin|lib)\}[^\s,]*",
                           row["flags"] + " " + row["extra"]):
        if not os.path.exists(fill(path, build)):
            return "%s is not built" % fill(path, build)
    if "-Wl,-z,hugetext" in row["flags"].split() and \
            not takes_hugetext(linker):
        return ("%s does not know -z hugetext (its patch series does not "
                "add it yet)" % linker)
    return None


def cmd_list(rows, args):
    want = {}
    while args:
        opt = args.pop(0)
        if opt in ("--hugetext", "--plain"):
            want["hugetext"] = "yes" if opt == "--hugetext" else "no"
        elif opt in ("--has", "--lacks") and args:
            column = args.pop(0)
            if column not in OPTIONAL:
                raise Bad("%s takes one of %s, not '%s'" % (
                    opt, " ".join(OPTIONAL), column))
            want[(opt, column)] = None
        elif opt in ("--kind", "--in", "--arch") and args:
            value = args.pop(0)
            column, known = {"--kind": ("kinds", KINDS),
                             "--in": ("in", SETS),
                             "--arch": ("arches", ARCHES)}[opt]
            if value not in known:
                raise Bad("%s must be one of %s, not '%s'" % (
                    opt, " ".join(known), value))
            want[column] = value
        else:
            raise Bad("list: unknown or incomplete option '%s'" % opt)
    def matches(row, k, v):
        if isinstance(k, tuple):
            return (row[k[1]] != "-") == (k[0] == "--has")
        return row[k] == v if k == "hugetext" else v in words(row[k])

    for row in rows:
        if all(matches(row, k, v) for k, v in want.items()):
            print(row["name"])
    return 0


def page_size(row):
    """The value of -z hugetext-page-size in ROW's flags, or ""."""
    size = ""
    for flag in words(row["flags"]):
        for arg in flag.split(",") if flag.startswith("-Wl,") else [flag]:
            if arg.startswith("hugetext-page-size="):
                size = arg[len("hugetext-page-size="):]
    return size


# The patch series that gives a linker of the build, as
# toolchain/build-toolchain.sh reads it: the file its variable names (an
# empty file: the vanilla tool), else FOLDER/series.  Debian's linkers
# have none.
SERIES = {"{bin}/ld.bfd": ("HUGETEXT_BFD_SERIES", "bfd-patches"),
          "{bin}/ld.lld": ("HUGETEXT_LLD_SERIES", "lld-patches")}


def series_empty(row):
    """Whether the series that gives ROW's linker names no patch (the
    build is vanilla on purpose); False where there is none."""
    if row["linker"] not in SERIES:
        return False
    return not series_names_patches(row)


def series_path(row):
    """The series file that gives ROW's linker (one of SERIES)."""
    var, folder = SERIES[row["linker"]]
    return os.environ.get(var) or os.path.normpath(os.path.join(
        os.path.dirname(os.path.realpath(__file__)), "..", folder, "series"))


def series_names_patches(row):
    """Whether the series that gives ROW's linker (one of SERIES) names a
    patch; Bad where it cannot be read."""
    path = series_path(row)
    try:
        with open(path) as f:
            # As series_patches in toolchain/pipeline/trees.sh: blanks
            # around a line do not count, nor does a comment.
            return any(line.strip() and not line.strip().startswith("#")
                       for line in f)
    except OSError as e:
        raise Bad("cannot read the series %s: %s" % (path, e.strerror))


def cmd_series(row):
    if row["linker"] not in SERIES:
        raise Bad("%s links with Debian's linker: no patch series gives it"
                  % row["name"])
    print("yes" if series_names_patches(row) else "no", series_path(row))
    return 0


def cmd_supports(row, build):
    """The one policy of every consumer (the tests, the demo, the
    benchmarks): a producer this build cannot link is skipped, with the
    reason, only where the series that gives it is empty; else it is a
    failure."""
    reason = why_not(row, build)
    if reason:
        print(reason)
        return 1 if series_empty(row) else 3
    return 0


def cmd_finish(row, path):
    if row["post"] == "-":
        return 0
    if not os.path.isfile(path):
        raise Bad("no file '%s'" % path)
    POSTS[row["post"]](path)
    return 0


def kind(row, name):
    """NAME, an output kind that ROW's producer makes."""
    if name not in KINDS:
        raise Bad("unknown output kind '%s' (one of %s)" % (
            name, " ".join(KINDS)))
    if name not in words(row["kinds"]):
        raise Bad("%s makes no %s output (it makes %s)" % (
            row["name"], name, row["kinds"]))
    return name


def command(row, build, kind_name, out, inputs):
    """The compiler driver's arguments of a link of INPUTS into OUT."""
    extra = [] if kind_name == "shared" else words(fill(row["extra"], build))
    return (words(fill(row["flags"], build)) + KIND_FLAGS[kind_name] +
            inputs + extra + ["-o", out])


def cmd_command(row, build, kind_name, out, *inputs):
    for word in command(row, build, kind(row, kind_name), out, list(inputs)):
        print(word)
    return 0


def cmd_link(row, build, kind_name, out, *inputs, driver=None):
    tmp = out + ".tmp"
    args = command(row, build, kind(row, kind_name), tmp, list(inputs))
    argv = [driver] if driver else shlex.split(os.environ.get("CC") or "cc")
    try:
        try:
            subprocess.run(argv + args, check=True)
        except OSError as e:
            raise Bad("cannot run %s: %s" % (argv[0], e.strerror))
        except subprocess.CalledProcessError:
            print("producer: %s: linking %s (%s) failed" % (
                row["name"], out, kind_name), file=sys.stderr)
            return 1
        if not os.path.isfile(tmp):
            raise Bad("%s made no %s" % (argv[0], tmp))
        cmd_finish(row, tmp)
        try:
            os.replace(tmp, out)
        except OSError as e:
            raise Bad("cannot rename %s to %s: %s" % (tmp, out, e.strerror))
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
    return 0


# Subcommand: (its arguments after NAME, what it does).
COMMANDS = {
    "flags": (["BUILD_DIR"], lambda r, b: print(fill(r["flags"], b))),
    "extra": (["BUILD_DIR"], lambda r, b: print(fill(r["extra"], b))),
    "linker": (["BUILD_DIR"], lambda r, b: print(fill(r["linker"], b))),
    "supports": (["BUILD_DIR"], cmd_supports),
    "series": ([], cmd_series),
    "kinds": ([], lambda r: print(r["kinds"])),
    "arches": ([], lambda r: print(r["arches"])),
    "baseline": ([], lambda r: print(" ".join(words(r["baseline"])))),
    "post": ([], lambda r: print(" ".join(words(r["post"])))),
    "describe": ([], lambda r: print(r["description"])),
    "label": ([], lambda r: print(r["label"])),
    "page-size": ([], lambda r: print(page_size(r))),
    "finish": (["FILE"], cmd_finish),
    "command": (["BUILD_DIR", "KIND", "OUT", "INPUT..."], cmd_command),
    "link": (["BUILD_DIR", "KIND", "OUT", "INPUT..."], cmd_link),
}


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if not argv:
        raise Bad("no command (see --help)")
    rows = load()
    command, args = argv[0], argv[1:]
    if command == "list":
        return cmd_list(rows, args)
    if command == "kind-flags":
        if len(args) != 1 or args[0] not in KINDS:
            raise Bad("usage: producer kind-flags KIND (one of %s)" %
                      " ".join(KINDS))
        print(" ".join(KIND_FLAGS[args[0]]))
        return 0
    if command not in COMMANDS:
        raise Bad("unknown command '%s' (see --help)" % command)
    params, run = COMMANDS[command]
    options = {}
    if command == "link" and args[:1] == ["--cc"]:
        if len(args) < 2:
            raise Bad("--cc takes a DRIVER")
        options["driver"] = args[1]
        args = args[2:]
    variadic = params[-1:] == ["INPUT..."]
    if len(args) != 1 + len(params) and not (
            variadic and len(args) >= 1 + len(params)):
        raise Bad("usage: producer %s %sNAME %s" % (
            command, "[--cc DRIVER] " if command == "link" else "",
            " ".join(params)))
    row = find(rows, args[0])
    if params[:1] == ["BUILD_DIR"]:
        args[1] = build_dir(args[1])
    return run(row, *args[1:], **options) or 0


def run(argv):
    """The command producers/producer: main, with bad input reported."""
    try:
        return main(argv)
    except Bad as e:
        print("producer: %s" % e, file=sys.stderr)
        return 2
