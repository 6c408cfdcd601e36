#!/usr/bin/env python3
"""The one reader of testsuite/kernel/arches, the kernel matrix's table of
architectures and case trees (its header says what each column is).

Usage:
  arches.py arches                 the architectures' names, one a line
  arches.py trees                  the case trees' names, one a line
  arches.py arch NAME FIELD        a column of an architecture's line
  arches.py tree NAME FIELD        a column of a case tree's line
  arches.py tree-of ARCH PAGE      the case tree of ARCH's kernels with
                                   PAGE pages
  arches.py cases                  the case builder's lines: TREE CC BUILD
                                   CASES KINDS CODE BODY
  arches.py guests                 the image builder's lines: ARCH BUSYBOX
                                   LIBS GUEST_LIBS LOADER GUEST_LOADER BUILD
  arches.py qemu                   the VM's table, as a Tcl dict: ARCH
                                   {QEMU {MACHINE...} CONSOLE BOOT_S
                                   MEMORY}
  arches.py vm-memory              the most memory a VM has, in MiB
  arches.py kernel-make ARCH       how to make ARCH's kernel: its ARCH=
                                   and CROSS_COMPILE ("-" for none: CC
                                   is the host's), blank-separated

A mistake in the table stops each of them with FILE:LINE: what.
"""

import os
import sys

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                     "testsuite", "kernel", "arches")
ARCH_COLUMNS = ("name", "e_machine", "cc", "build", "qemu", "machine",
                "console", "boot_s", "memory", "busybox", "libs", "guest_libs",
                "loader", "guest_loader", "body", "kernel")
TREE_COLUMNS = ("name", "arch", "page", "cases", "kinds", "code",
                "methods")
# The methods a tree's METHODS may list besides "all" and "-".
TREE_METHODS = ("helper", "audit", "khugepaged")


class Bad(Exception):
    pass


def load(path=TABLE):
    """({arch name: row}, {tree name: row}), rows as dicts, in order."""
    arches, trees = {}, {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            where = "%s:%d: " % (path, number)
            kind, _, rest = line.strip().partition(" ")
            columns = {"arch": ARCH_COLUMNS, "tree": TREE_COLUMNS}.get(kind)
            if columns is None:
                raise Bad(where + "a line is 'arch ...' or 'tree ...'")
            fields = [f.strip() for f in rest.split("|")]
            if len(fields) != len(columns) or not all(fields):
                raise Bad(where + "%s wants %d columns: %s" %
                          (kind, len(columns), " | ".join(columns)))
            row = dict(zip(columns, fields))
            if kind == "arch" and not row["memory"].isdigit():
                raise Bad(where + "MEMORY is a number of MiB, not %r" %
                          row["memory"])
            if kind == "arch" and row["kernel"] != "-" and \
                    len(row["kernel"].split(" ")) != 2:
                raise Bad(where + "KERNEL is '-' or 'ARCH IMAGE' (one "
                          "blank between)")
            if kind == "tree" and row["methods"] not in ("all", "-") and \
                    not set(row["methods"].split(",")) <= set(TREE_METHODS):
                raise Bad(where + "METHODS is 'all', '-' or some of %s, "
                          "comma-separated, not %r" %
                          (",".join(TREE_METHODS), row["methods"]))
            table = arches if kind == "arch" else trees
            if row["name"] in table:
                raise Bad(where + "%s %s twice" % (kind, row["name"]))
            table[row["name"]] = row
    for name, row in trees.items():
        if row["arch"] not in arches:
            raise Bad("%s: tree %s: no arch %s" % (path, name, row["arch"]))
    return arches, trees


def tree_of(arch, page, path=TABLE):
    """The case tree of ARCH's kernels with PAGE pages, or None."""
    for name, row in load(path)[1].items():
        if row["arch"] == arch and row["page"] == page:
            return name
    return None


def kernel_make(arches, arch):
    """ "KARCH CROSS" for ARCH's kernel: KERNEL's ARCH=, and CC's prefix
    as CROSS_COMPILE ("-": none)."""
    row = arches.get(arch)
    if row is None:
        raise Bad("no arch %s" % arch)
    if row["kernel"] == "-":
        raise Bad("arch %s: its KERNEL is -: no kernel of it is made here"
                  % arch)
    if row["cc"] == "cc":
        cross = "-"
    elif row["cc"].endswith("-gcc"):
        cross = row["cc"][:-len("gcc")]
    else:
        raise Bad("arch %s: its compiler %s cannot build a kernel"
                  % (arch, row["cc"]))
    return "%s %s" % (row["kernel"].split(" ")[0], cross)


def main(argv):
    try:
        arches, trees = load()
        cmd = argv[1] if len(argv) > 1 else ""
        if cmd == "arches" and len(argv) == 2:
            out = list(arches)
        elif cmd == "trees" and len(argv) == 2:
            out = list(trees)
        elif cmd in ("arch", "tree") and len(argv) == 4:
            table = arches if cmd == "arch" else trees
            if argv[2] not in table or argv[3] not in table[argv[2]]:
                raise Bad("no %s %s with a column %s" % (cmd, argv[2],
                                                         argv[3]))
            out = [table[argv[2]][argv[3]]]
        elif cmd == "tree-of" and len(argv) == 4:
            name = tree_of(argv[2], argv[3])
            if name is None:
                raise Bad("no tree of %s with %s pages" % (argv[2], argv[3]))
            out = [name]
        elif cmd == "cases" and len(argv) == 2:
            out = [" ".join((n, arches[t["arch"]]["cc"],
                             arches[t["arch"]]["build"], t["cases"],
                             t["kinds"], t["code"],
                             arches[t["arch"]]["body"]))
                   for n, t in trees.items()]
        elif cmd == "guests" and len(argv) == 2:
            out = [" ".join((n, a["busybox"], a["libs"], a["guest_libs"],
                             a["loader"], a["guest_loader"], a["build"]))
                   for n, a in arches.items()]
        elif cmd == "qemu" and len(argv) == 2:
            out = [" ".join("%s {%s {%s} %s %s %s}" % (
                n, a["qemu"], a["machine"], a["console"], a["boot_s"],
                a["memory"]) for n, a in arches.items())]
        elif cmd == "vm-memory" and len(argv) == 2:
            out = [str(max(int(a["memory"]) for a in arches.values()))]
        elif cmd == "kernel-make" and len(argv) == 3:
            out = [kernel_make(arches, argv[2])]
        else:
            sys.stderr.write(__doc__)
            return 2
    except Bad as e:
        sys.stderr.write("arches.py: %s\n" % e)
        return 1
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
