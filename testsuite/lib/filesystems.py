"""The filesystems' facts, lib/filesystems.def, for the tests and
scripts: which filesystems hold large folios from which kernel, how large
they get, and the kernel facts beside them.  The C code reads the file
with #include; everything else reads it here, and asks the questions
below rather than answering them again."""

import os
import re

DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                   "lib", "filesystems.def")
FS_LINE = re.compile(r'^HT_FS\s*\(\s*"([^"]*)",\s*(0x[0-9a-fA-F]+),\s*(\w+),'
                     r'\s*(\w+)\s*(?:,([^)]*))?\)')
KERNEL_LINE = re.compile(r"^HT_KERNEL\s*\(\s*(\w+),\s*(\d+),\s*(\w+)\s*\)")


def _read(path):
    rows, facts = [], {}
    with open(path) as f:
        for line in f:
            m, k = FS_LINE.match(line), KERNEL_LINE.match(line)
            if m:
                rest = [w.strip() for w in (m.group(5) or "").split(",")]
                since = m.group(3)
                rows.append({"name": m.group(1), "magic": int(m.group(2), 16),
                             "since": int(since) if since.isdigit() else since,
                             "kind": m.group(4), "max_folio": rest[0]})
            elif k:
                facts[k.group(1)] = (int(k.group(2)), int(k.group(3), 0))
            elif line.startswith(("HT_FS", "HT_KERNEL")):
                raise ValueError("%s: cannot read: %s" % (path, line.strip()))
    return rows, facts


_cache = {}


def table(path=DEF):
    """The HT_FS lines as dicts (name, magic, since: a version as major *
    1000 + minor or a word such as HT_FS_NEVER, kind, max_folio: a word
    or a number as written), and the HT_KERNEL facts {NAME: (SINCE,
    VALUE)}."""
    if path not in _cache:
        _cache[path] = _read(path)
    return _cache[path]


def by_name(name, path=DEF):
    """The first line of filesystem NAME."""
    for row in table(path)[0]:
        if row["name"] == name:
            return row
    raise KeyError("lib/filesystems.def has no %s" % name)


def by_magic(magic, path=DEF):
    """The line of the filesystem with statfs f_type MAGIC, or None."""
    for row in table(path)[0]:
        if row["magic"] == magic:
            return row
    return None


def kernel_fact(name, path=DEF):
    """(SINCE, VALUE) of the HT_KERNEL line NAME."""
    facts = table(path)[1]
    if name not in facts:
        raise ValueError("%s: no HT_KERNEL (%s, ...)" % (path, name))
    return facts[name]


def max_folio(row):
    """The largest folio of a filesystem line, in bytes; None: PMD size."""
    return None if row["max_folio"] == "HT_FS_PMD" else int(row["max_folio"], 0)


def large_folios(fs, version):
    """Whether the page cache of FS holds large folios on kernel VERSION
    (major * 1000 + minor), and the reason in words."""
    since = by_name(fs)["since"]
    text = "%d.%d" % (version // 1000, version % 1000)
    if not isinstance(since, int):
        return False, ("%s has no large folios on Linux %s "
                       "(lib/filesystems.def: %s)" % (fs, text, since))
    if since == 0:
        return True, ("%s has large folios on every kernel "
                      "(lib/filesystems.def)" % fs)
    first = "%d.%d" % (since // 1000, since % 1000)
    if version < since:
        return False, ("%s has no large folios before Linux %s "
                       "(lib/filesystems.def)" % (fs, first))
    return True, ("%s has large folios from Linux %s (lib/filesystems.def)"
                  % (fs, first))


def pmd_folios(fs, version, h, where):
    """Whether the page cache of FS holds folios of H bytes (a PMD) on
    kernel VERSION, and the reason: large folios, and a largest folio
    that reaches H.  WHERE names the machine in the reason ("arm64 with
    16k pages")."""
    large, why = large_folios(fs, version)
    if not large:
        return False, why
    top = max_folio(by_name(fs))
    if top is not None and top < h:
        return False, ("%s, but its folios stop at %d KiB, below the %d KiB "
                       "PMD of %s (lib/filesystems.def)" %
                       (why, top >> 10, h >> 10, where))
    return True, why


def is_shmem(fs):
    """Whether FS is tmpfs-like: its huge pages come from shmem."""
    return by_name(fs)["kind"] == "HT_FS_SHMEM"
