"""The machine table, lib/machines.def, for the tests and scripts.

The C code reads the file with #include; everything else reads it here,
so that a machine's facts are written once."""

import os
import re
import sys

DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                   "lib", "machines.def")
FIELDS = ("name", "e_machine", "elf_class", "base_page_kib", "h_kib",
          "max_page_kib", "separate_code", "trap_len", "trap", "triplet")
LINE = re.compile(r"^HT_MACHINE \((.*)\)\s*$")
CROSS_FIELDS = ("triplet", "deb_arch", "qemu", "cc")
CROSS_LINE = re.compile(r"^HT_CROSS \((.*)\)\s*$")


def _rows(path, pattern, fields):
    """The lines of the table that PATTERN matches, each as a dict of
    FIELDS, their values stripped of blanks and quotes."""
    out = []
    with open(path) as f:
        for line in f:
            m = pattern.match(line)
            if not m:
                continue
            values = [v.strip().strip('"') for v in m.group(1).split(",")]
            if len(values) != len(fields):
                raise ValueError("%s: %d fields, not %d: %s"
                                 % (path, len(values), len(fields), line))
            out.append(dict(zip(fields, values)))
    return out


def machines(path=DEF):
    """Every line of the table, in order, as a dict of FIELDS."""
    out = _rows(path, LINE, FIELDS)
    for row in out:
        for k in ("elf_class", "base_page_kib", "h_kib", "max_page_kib",
                  "separate_code", "trap_len"):
            row[k] = int(row[k], 0)
    return out


def defaults(path=DEF):
    """The entry each machine's files are judged by: the first line of each
    e_machine and class."""
    seen, out = set(), []
    for m in machines(path):
        key = (m["e_machine"], m["elf_class"])
        if key not in seen:
            seen.add(key)
            out.append(m)
    return out


def crosses(path=DEF):
    """The cross toolchains (HT_CROSS lines), in order, as dicts of
    CROSS_FIELDS, each with "machine": the first machine of its triplet."""
    first = {}
    for m in machines(path):
        first.setdefault(m["triplet"], m)
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


def main(argv):
    """machines.py FIELD NAME: the FIELD of the machine NAME (its first
    line), for shell scripts; exit 1 if there is none."""
    if len(argv) != 3 or argv[1] not in FIELDS:
        sys.stderr.write("usage: machines.py FIELD NAME  (FIELD: %s)\n"
                         % " ".join(FIELDS))
        return 2
    for m in machines():
        if m["name"] == argv[2]:
            print(m[argv[1]])
            return 0
    sys.stderr.write("machines.py: no machine %r in %s\n" % (argv[2], DEF))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
