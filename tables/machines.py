"""The machine table, lib/machines.def, for the tests and scripts.

The C code reads the file with #include; everything else reads it here,
so that a machine's facts are written once."""

import os
import re
import sys

DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                   "lib", "machines.def")
FIELDS = ("name", "e_machine", "elf_class", "base_page_kib", "h_kib",
          "max_page_kib", "separate_code", "text_start", "trap_len", "trap",
          "triplet")
LINE = re.compile(r"^HT_MACHINE \((.*)\)\s*$")
CROSS_FIELDS = ("triplet", "deb_arch", "qemu", "cc")
CROSS_LINE = re.compile(r"^HT_CROSS \((.*)\)\s*$")


def _rows(path, pattern, fields):
    """The lines of the table that PATTERN matches, each as a dict of
    FIELDS, their values stripped of blanks and quotes.  A line that
    starts with PATTERN's macro but is not written as the table writes
    them (a blank before the parenthesis, nothing after the closing one)
    is an error, not a line skipped."""
    macro = pattern.pattern[1:].split(" ")[0]
    out = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            m = pattern.match(line)
            if not m:
                if re.match(r"%s\b" % macro, line):
                    raise ValueError("%s:%d: not %s (FIELD, ...): %s"
                                     % (path, number, macro, line.strip()))
                continue
            values = [v.strip().strip('"') for v in m.group(1).split(",")]
            if len(values) != len(fields):
                raise ValueError("%s:%d: %d fields, not %d: %s"
                                 % (path, number, len(values), len(fields),
                                    line.strip()))
            out.append(dict(zip(fields, values)))
    return out


def machines(path=DEF):
    """Every line of the table, in order, as a dict of FIELDS."""
    out = _rows(path, LINE, FIELDS)
    names = set()
    for row in out:
        for k in ("elf_class", "base_page_kib", "h_kib", "max_page_kib",
                  "separate_code", "text_start", "trap_len", "trap"):
            try:
                row[k] = int(row[k], 0)
            except ValueError:
                raise ValueError("%s: %s: %s is not a number: %r"
                                 % (path, row["name"], k.upper(), row[k]))
        if row["elf_class"] not in (32, 64):
            raise ValueError("%s: %s: CLASS is 32 or 64, not %d"
                             % (path, row["name"], row["elf_class"]))
        if row["name"] in names:
            raise ValueError("%s: %s is named twice" % (path, row["name"]))
        names.add(row["name"])
    return out


def first_of(key, path=DEF):
    """The first line of each value of KEY, a field name or a tuple of
    them, in order: the table's rule, as ht_machine_find applies it in C,
    is that the first line of a value speaks for it (of e_machine and
    class: the default H of a file; of "triplet": the machine a cross
    binutils is named after; of "name": the machine NAME)."""
    fields = key if isinstance(key, tuple) else (key,)
    seen, out = set(), []
    for m in machines(path):
        value = tuple(m[f] for f in fields)
        if value not in seen:
            seen.add(value)
            out.append(m)
    return out


def defaults(path=DEF):
    """The entry each machine's files are judged by: the first line of each
    e_machine and class."""
    return first_of(("e_machine", "elf_class"), path)


def crosses(path=DEF):
    """The cross toolchains (HT_CROSS lines), in order, as dicts of
    CROSS_FIELDS, each with "machine": the first machine of its triplet."""
    first = {m["triplet"]: m for m in first_of("triplet", path)}
    out = _rows(path, CROSS_LINE, CROSS_FIELDS)
    for row in out:
        if row["triplet"] not in first:
            raise ValueError("%s: HT_CROSS of %s, which no HT_MACHINE has"
                             % (path, row["triplet"]))
        if row["cc"] not in ("gcc", "clang"):
            raise ValueError("%s: HT_CROSS of %s: CC %r is not gcc or clang"
                             % (path, row["triplet"], row["cc"]))
        row["machine"] = first[row["triplet"]]
    return out


# The triplets the native x86-64 binutils covers: its ld emulates i386
# and x32 too, so no cross binutils is built for them.
NATIVE_TRIPLET = re.compile(r"^(x86_64|i[3-6]86)-")

USAGE = """usage: machines.py FIELD NAME      the FIELD of the machine NAME (its
                                   first line)
       machines.py FIELD --triplet TRIPLET
                                   the FIELD of the first machine of
                                   TRIPLET
       machines.py cross-targets   the cross binutils to build, "NAME
                                   TRIPLET" a line
       machines.py cross [--cc CC] FIELD...
                                   the FIELDs of each HT_CROSS line (of CC
                                   only), one line each
FIELD: %s; of HT_CROSS: %s
"""


def main(argv):
    """The command line, for shell scripts; exit 1 where nothing is
    found, 2 on bad usage."""
    usage = USAGE % (" ".join(FIELDS), " ".join(CROSS_FIELDS))
    if len(argv) == 2 and argv[1] == "cross-targets":
        for m in first_of("triplet"):
            if not NATIVE_TRIPLET.match(m["triplet"]):
                print(m["name"], m["triplet"])
        return 0
    if len(argv) >= 3 and argv[1] == "cross":
        args, cc = argv[2:], None
        if args[0] == "--cc" and len(args) >= 3:
            cc, args = args[1], args[2:]
        if any(f not in CROSS_FIELDS for f in args):
            sys.stderr.write(usage)
            return 2
        rows = [r for r in crosses() if cc is None or r["cc"] == cc]
        for r in rows:
            print(" ".join(r[f] for f in args))
        return 0 if rows else 1
    by_triplet = len(argv) == 4 and argv[2] == "--triplet"
    if not (len(argv) == 3 or by_triplet) or argv[1] not in FIELDS:
        sys.stderr.write(usage)
        return 2
    key, value = ("triplet", argv[3]) if by_triplet else ("name", argv[2])
    for m in first_of(key):
        if m[key] == value:
            hex_fields = ("text_start", "trap")
            print(("%#x" if argv[1] in hex_fields else "%s") % m[argv[1]])
            return 0
    sys.stderr.write("machines.py: no machine of %s %r in %s\n"
                     % (key, value, DEF))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
