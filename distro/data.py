#!/usr/bin/env python3
"""The one reader of distro-check's data: distro/packages and distro/ways.

Usage (distro-check and bench/postgres/pgbench.sh run it; Python callers,
distro/report.py, import it):
  data.py check                  check both tables, and that each package
                                 has its smoke test (distro/smoke/NAME)
  data.py packages [--short] [COLUMN...]
  data.py ways [--short] [COLUMN...]
                                 the names, one a line, in the table's
                                 order (--short: those of the short check),
                                 each followed by the COLUMNs asked for
  data.py package NAME COLUMN    a column of NAME's line ("line": its
  data.py way NAME COLUMN        line number)

The columns are documented at the top of each table.  A name that is in
no line: a message and exit status 1.  A bad table or usage, an unknown
column: a message naming the file and line on stderr and exit status 2.  The tables are read from the folder this file is in.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Each table's columns; the last takes the rest of the line.
COLUMNS = {
    "packages": ("name", "version", "install", "limit", "short", "tests"),
    "ways": ("name", "baseline", "linker", "tests", "short", "what"),
}


class Bad(Exception):
    """Bad data or usage: the message is printed and the exit status is 2."""


class Unknown(Exception):
    """A name that is in no line: the message is printed, exit status 1."""


def read(table, folder):
    """TABLE's rows in FOLDER (dicts of its columns, and "line")."""
    path = os.path.join(folder, table)
    columns = COLUMNS[table]
    rows = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise Bad("cannot read distro/%s: %s" % (
            table, getattr(e, "strerror", None) or e))
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split(None, len(columns) - 1)
        if len(fields) < len(columns):
            raise Bad("distro/%s:%d: fewer than %d columns" % (
                table, number, len(columns)))
        row = dict(zip(columns, (f.strip() for f in fields)))
        row["line"] = str(number)
        rows.append(row)
    return rows


def check_package(row, where):
    try:
        re.compile(row["tests"])
    except re.error:
        raise Bad("%s: TESTS is not a regular expression: %s" % (
            where, row["tests"]))
    if not re.fullmatch(r"[1-9][0-9]*", row["limit"]):
        raise Bad("%s: LIMIT is not a number of minutes: %s" % (
            where, row["limit"]))
    if row["short"] not in ("yes", "no"):
        raise Bad("%s: SHORT is yes or no, not %s" % (where, row["short"]))


def check_way(row, where, names):
    if row["linker"] not in ("debian", "plugin") and \
            not row["linker"].startswith(("bin:", "debs:")):
        raise Bad("%s: unknown LINKER %s" % (where, row["linker"]))
    for column in ("tests", "short"):
        if row[column] not in ("yes", "no"):
            raise Bad("%s: %s is yes or no, not %s" % (
                where, column.upper(), row[column]))
    if row["baseline"] != "-" and row["baseline"] not in names:
        raise Bad("%s: no way %s (its BASELINE)" % (where, row["baseline"]))


def packages(folder=HERE):
    """distro/packages' rows (FOLDER's packages instead), checked."""
    rows = read("packages", folder)
    for row in rows:
        check_package(row, "distro/packages:%s" % row["line"])
    return rows


def ways(folder=HERE):
    """distro/ways' rows (FOLDER's ways instead), checked."""
    rows = read("ways", folder)
    names = [r["name"] for r in rows]
    for row in rows:
        check_way(row, "distro/ways:%s" % row["line"], names)
    return rows


def find(rows, table, name):
    for row in rows:
        if row["name"] == name:
            return row
    raise Unknown("no %s %s in distro/%s" % (table[:-1], name, table))


def column(table, name):
    """NAME, a column of TABLE, or "line" (the line's number)."""
    if name not in COLUMNS[table] + ("line",):
        raise Bad("distro/%s has no column %s (%s, or line)" % (
            table, name, " ".join(COLUMNS[table])))
    return name


def main(argv):
    readers = {"packages": packages, "ways": ways}
    if argv == ["check"]:
        for row in packages():
            if not os.access(os.path.join(HERE, "smoke", row["name"]),
                             os.X_OK):
                raise Bad("distro/packages:%s: no smoke test distro/smoke/%s"
                          % (row["line"], row["name"]))
        ways()
        return 0
    if argv[:1] in (["packages"], ["ways"]):
        table, args = argv[0], argv[1:]
        short = args[:1] == ["--short"]
        columns = [column(table, c) for c in args[short:]]
        for row in readers[table]():
            if not short or row["short"] == "yes":
                print(" ".join([row["name"]] + [row[c] for c in columns]))
        return 0
    if len(argv) == 3 and argv[0] in ("package", "way"):
        table = argv[0] + "s"
        row = find(readers[table](), table, argv[1])
        print(row[column(table, argv[2])])
        return 0
    raise Bad("usage: data.py check | packages|ways [--short] [COLUMN...] "
              "| package|way NAME COLUMN")


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Unknown as e:
        print(e, file=sys.stderr)
        sys.exit(1)
    except Bad as e:
        print(e, file=sys.stderr)
        sys.exit(2)
