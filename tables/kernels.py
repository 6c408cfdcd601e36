#!/usr/bin/env python3
"""The kernel matrix's kernels file (testsuite/kernel/kernels): the one
reader of it, for prepare.sh, run-matrix, the model (whose plan gives the
DejaGnu tool each kernel's columns, LISTED) and the tests.

Usage:
  kernels.py list KERNELS [FIELD...]
                                 one line per kernel, fields separated by
                                 tabs, the FIELDs named (in their order;
                                 line, name, arch, ... as LISTED), else
                                 all of them: LINE NAME ARCH PAGE VERSION SEED
                                 EXEC COLLAPSE H_KIB LAYOUT_H_KIB KIND WHAT
                                 NOTE (H_KIB: the PMD size of ARCH with
                                 PAGE; LAYOUT_H_KIB: the H a linker lays
                                 ARCH's files out for by default; both
                                 from lib/machines.def; KIND deb:
                                 WHAT is the package regex; KIND sid:
                                 WHAT is RELEASE=VERSION; KIND build:
                                 WHAT is PACKAGE[=VERSION],PATCHES,CONFIG)
  kernels.py check KERNELS [DOC] only check KERNELS, and that the table
                                 of kernels in DOC (docs/kernel-matrix.md)
                                 has a row for each kernel and no other
  kernels.py h-kib ARCH PAGE     the PMD size in KiB of ARCH's kernels
                                 with PAGE pages (4k, 16k), from
                                 lib/machines.def; exit 1 where it has
                                 no such machine

Either one prints every mistake as FILE:LINE: what, and exits 1.  The
columns are documented at the top of the kernels file.
"""

import os
import re
import sys

import arches
import filesystems
import machines

# The ELF machine of each Debian architecture's kernels
# (testsuite/kernel/arches).
E_MACHINES = {name: row["e_machine"] for name, row in arches.load()[0].items()}


def collapse_pmd_since():
    """The first version (major * 1000 + minor) whose MADV_COLLAPSE of
    file text needs PMD-size folios and no READ_ONLY_THP_FOR_FS: the
    HT_KERNEL HT_COLLAPSE_PMD_FOLIOS line of lib/filesystems.def."""
    return filesystems.kernel_fact("HT_COLLAPSE_PMD_FOLIOS")[0]


def pages(arch):
    """The base page sizes ARCH's kernels may have: those of the lines of
    lib/machines.def with its e_machine, as 4k, 16k..."""
    out = []
    for m in machines.machines():
        if m["e_machine"] == E_MACHINES[arch] and m["elf_class"] == 64:
            page = "%dk" % m["base_page_kib"]
            if page not in out:
                out.append(page)
    return tuple(out)


def h_kib(arch, page):
    """The PMD size, in KiB, of ARCH's kernels with base page PAGE (4k,
    16k): the machine of lib/machines.def with that e_machine and base
    page."""
    for m in machines.machines():
        if m["e_machine"] == E_MACHINES[arch] and m["elf_class"] == 64 \
           and "%dk" % m["base_page_kib"] == page:
            return m["h_kib"]
    return None


def file_machine(arch):
    """The machine ARCH's files are judged by: the first line of its
    e_machine in lib/machines.def (its default H, and what GNU ld 2.40
    does for it: MAX_PAGE, SEP_CODE)."""
    for m in machines.defaults():
        if m["e_machine"] == E_MACHINES[arch] and m["elf_class"] == 64:
            return m
    return None


def layout_h_kib(arch):
    """The default H, in KiB, of ARCH's files."""
    m = file_machine(arch)
    return m["h_kib"] if m else None

ARCHES = tuple(E_MACHINES)
EXECS = ("small", "64k", "pmd")
COLLAPSES = ("no", "any", "pmd-folios")
COLUMNS = "NAME ARCH PAGE VERSION SEED EXEC COLLAPSE SOURCE NOTE"


# What "list" prints of each kernel, in order, and the keys of the
# kernel's dict in the kernel matrix's plan (testsuite/kernel/lib/model.py).
LISTED = ("line", "name", "arch", "page", "version", "seed", "exec",
          "collapse", "h_kib", "layout_h_kib", "kind", "what", "note")


def name_errors(k, names):
    """NAME: a word of its own, once."""
    name = k["name"]
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+-]*", name):
        return ["NAME '%s': letters, digits and ._+- only" % name]
    if name in names:
        return ["NAME '%s' twice" % name]
    return []


def machine_errors(k):
    """ARCH and PAGE: a machine of lib/machines.def; sets k's H."""
    arch, page = k["arch"], k["page"]
    if arch not in ARCHES:
        return ["ARCH '%s': one of %s" % (arch, ", ".join(ARCHES))]
    if page not in pages(arch):
        return ["PAGE '%s': %s for %s" % (page, " or ".join(pages(arch)),
                                          arch)]
    k["h_kib"] = h_kib(arch, page)
    k["layout_h_kib"] = layout_h_kib(arch)
    if k["h_kib"] is None:
        return ["no machine in lib/machines.def for %s with %s pages" %
                (arch, page)]
    return []


def version_errors(k):
    """VERSION: major.minor, and COLLAPSE as that version behaves."""
    version, collapse = k["version"], k["collapse"]
    if not re.fullmatch(r"[0-9]+\.[0-9]+", version):
        return ["VERSION '%s': major.minor" % version]
    if collapse not in COLLAPSES:
        return []
    major, minor = (int(x) for x in version.split("."))
    since = collapse_pmd_since()
    modern = major * 1000 + minor >= since
    if modern != (collapse == "pmd-folios"):
        return ["COLLAPSE '%s': Linux %d.%d and later collapse where the "
                "filesystem has PMD-size folios (pmd-folios), earlier "
                "kernels do not (lib/filesystems.def: "
                "HT_COLLAPSE_PMD_FOLIOS)" %
                (collapse, since // 1000, since % 1000)]
    return []


def choice_errors(k):
    """SEED, EXEC and COLLAPSE: one of their words."""
    return ["%s '%s': %s" % (column, k[key], " or ".join(allowed))
            for column, key, allowed in (
                ("SEED", "seed", ("yes", "no")), ("EXEC", "exec", EXECS),
                ("COLLAPSE", "collapse", COLLAPSES))
            if k[key] not in allowed]


def source_errors(k, here):
    """SOURCE: deb:REGEX, sid:RELEASE=VERSION or build:PACKAGE[=VERSION],
    PATCHES,CONFIG, each as it must be.  Returns the errors, and whether
    the line is a kernel at all (a build source of the wrong shape is
    not)."""
    kind, what = k["kind"], k["what"]
    version = k["version"]
    if kind == "deb":
        try:
            re.compile(what)
        except re.error as e:
            return ["SOURCE: bad regex: %s" % e], True
        return [], True
    if kind == "sid":
        release, _, pin = what.partition("=")
        if not re.fullmatch(r"[0-9][A-Za-z0-9.+~-]*", release) or \
           not re.fullmatch(r"[0-9][A-Za-z0-9.+~:-]*", pin):
            return ["SOURCE: sid:RELEASE=VERSION "
                    "(sid:7.2.13+deb14-amd64=7.2.13-1)"], True
        if not release.startswith(version + "."):
            return ["SOURCE: release '%s' is not VERSION %s" %
                    (release, version)], True
        return [], True
    if kind == "build":
        parts = what.split(",")
        if len(parts) != 3:
            return ["SOURCE: build:PACKAGE[=VERSION],PATCHES,CONFIG"], False
        package, patches, config = parts
        package = package.partition("=")[0]
        errors = []
        if package != "linux-source-" + version:
            errors.append("SOURCE: package '%s' is not linux-source-%s "
                          "(VERSION)" % (package, version))
        if not os.path.isdir(os.path.join(here, patches)):
            errors.append("SOURCE: no folder '%s'" % patches)
        for c in config.split("+"):
            if not os.path.isfile(os.path.join(here, c)):
                errors.append("SOURCE: no file '%s'" % c)
        if k["arch"] in arches.load()[0] and \
                arches.load()[0][k["arch"]]["kernel"] == "-":
            errors.append("SOURCE: build: for %s, whose KERNEL in "
                          "testsuite/kernel/arches is '-' (no kernel is "
                          "built for it)" % k["arch"])
        return errors, True
    return ["SOURCE '%s': deb:REGEX, sid:RELEASE=VERSION or "
            "build:PACKAGE[=VERSION],PATCHES,CONFIG" % k["source"]], True


def parse(path):
    """The kernels of PATH as dicts, and the list of mistakes."""
    here = os.path.dirname(os.path.abspath(path))
    kernels, errors = [], []
    names = set()
    ncol = len(COLUMNS.split())
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            where = "%s:%d: " % (path, number)
            fields = line.split(None, ncol - 1)
            if len(fields) < ncol:
                errors.append(where + "%d columns, want %d: %s" %
                              (len(fields), ncol, COLUMNS))
                continue
            name, arch, page, version, seed, execra, collapse, source, \
                note = fields
            kind, _, what = source.partition(":")
            k = dict(line=number, name=name, arch=arch, page=page,
                     version=version, seed=seed, exec=execra,
                     collapse=collapse, source=source, kind=kind, what=what,
                     note=note.strip())
            found = (name_errors(k, names) + machine_errors(k)
                     + version_errors(k) + choice_errors(k))
            names.add(name)
            more, is_kernel = source_errors(k, here)
            errors += [where + e for e in found + more]
            if is_kernel:
                kernels.append(k)
    if not kernels and not errors:
        errors.append("%s: no kernel" % path)
    return kernels, errors


def check_doc(kernels, doc):
    """Mistakes in DOC's table of kernels: the first table after the
    heading "## Kernels", whose first column names a kernel as `NAME`."""
    rows, section, errors = {}, False, []
    with open(doc) as f:
        for number, line in enumerate(f, 1):
            if line.startswith("## "):
                section = line.strip() == "## Kernels"
            elif section and rows and not line.startswith("|"):
                break
            elif section:
                m = re.match(r"\|\s*`([^`]+)`\s*\|", line)
                if m:
                    rows[m.group(1)] = number
    names = {k["name"] for k in kernels}
    for k in kernels:
        if k["name"] not in rows:
            errors.append("%s: the table of kernels has no row for `%s` "
                          "(kernels line %d)" % (doc, k["name"], k["line"]))
    for name, number in sorted(rows.items(), key=lambda r: r[1]):
        if name not in names:
            errors.append("%s:%d: `%s` is not in the kernels file" %
                          (doc, number, name))
    if not rows:
        errors.append("%s: no table of kernels under '## Kernels'" % doc)
    return errors


def main(argv):
    if argv[1:2] == ["h-kib"] and len(argv) == 4:
        if argv[2] not in E_MACHINES:
            sys.stderr.write("kernels.py: no architecture %s\n" % argv[2])
            return 1
        kib = h_kib(argv[2], argv[3])
        if kib is None:
            sys.stderr.write("kernels.py: lib/machines.def has no machine "
                             "for %s with %s pages\n" % (argv[2], argv[3]))
            return 1
        print(kib)
        return 0
    fields = argv[3:] if argv[1:2] == ["list"] else []
    if len(argv) < 3 or argv[1] not in ("list", "check") or \
       (argv[1] == "check" and len(argv) > 4) or \
       any(f not in LISTED for f in fields):
        sys.stderr.write(__doc__)
        return 2
    kernels, errors = parse(argv[2])
    if argv[1] == "check" and len(argv) == 4:
        errors += check_doc(kernels, argv[3])
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        return 1
    if argv[1] == "list":
        for k in kernels:
            print("\t".join(str(k[c]) for c in fields or LISTED))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
