"""The filesystems' facts, lib/filesystems.def, for the tests and
scripts: which filesystems hold large folios from which kernel, how large
they get, and the kernel facts beside them.  The C code reads the file
with #include; everything else reads it here, and asks the questions
below rather than answering them again."""

import os
import re
import subprocess

DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
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


def large_folios(fs, version, path=DEF):
    """Whether the page cache of FS holds large folios on kernel VERSION
    (major * 1000 + minor), and the reason in words."""
    return _large(by_name(fs, path), version)


def _large(row, version):
    fs, since = row["name"], row["since"]
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


def size_words(size):
    """SIZE in bytes as "4 KiB", "2 MiB"."""
    if size >= 1 << 20 and size % (1 << 20) == 0:
        return "%d MiB" % (size >> 20)
    return "%d KiB" % (size >> 10)


def pow2_floor(size):
    """The largest power of two no larger than SIZE (> 0)."""
    return 1 << (size.bit_length() - 1)


def readahead_folio(row, version, h, page, read_ahead, path=DEF):
    """The largest folio that readahead of a MADV_HUGEPAGE mapping brings
    into the page cache of the filesystem of line ROW (a dict of table())
    on kernel VERSION (major * 1000 + minor) with PMD size H, base page
    PAGE and a device whose read_ahead_kb is READ_AHEAD bytes, for a file
    read front to back: (LOW, HIGH, why), the bounds it lies between, in
    bytes.  PAGE where the filesystem has no large folios on VERSION;
    else H (readahead asks for folios of PMD order), but no more than its
    MAXFOLIO; and from the version of HT_HUGEPAGE_READAHEAD_CAP on, where
    that is more than the cap, at least the cap (the fault's own folios)
    and at most the largest power of two within the readahead window,
    twice the cap or READ_AHEAD where larger (how far the later rounds
    take it depends on the file's size and where each round starts).
    (None, None, why) where the table does not say (SINCE
    HT_FS_UNKNOWN_VERSION: tmpfs, fuse, overlayfs).  lit's large-folios
    feature is LOW being H where the tests run; the kernel matrix's folio
    cells (testsuite/kernel/lib/model.py) and
    testsuite/lit/kernel/host-folios.test measure it, in the guests and
    here."""
    if row["since"] == "HT_FS_UNKNOWN_VERSION":
        return None, None, ("%s: lib/filesystems.def does not say what its "
                            "page cache holds (HT_FS_UNKNOWN_VERSION)" %
                            row["name"])
    large, why = _large(row, version)
    if not large:
        return page, page, why
    size, why = h, "%s, and readahead asks for PMD-size folios (%s)" % (
        why, size_words(h))
    top = max_folio(row)
    if top is not None and top < size:
        size, why = top, "%s, but its folios stop at %s (MAXFOLIO)" % (
            why, size_words(top))
    cap_since, cap = kernel_fact("HT_HUGEPAGE_READAHEAD_CAP", path)
    if version < cap_since or cap >= size:
        return size, size, why
    window = max(2 * cap, read_ahead)
    high = min(size, pow2_floor(window))
    return cap, high, (
        "%s; from Linux %d.%d MADV_HUGEPAGE readahead reads %s folios at the "
        "fault (HT_HUGEPAGE_READAHEAD_CAP) and none larger than its window "
        "after it (%s: read_ahead_kb %d or twice the cap)" %
        (why, cap_since // 1000, cap_since % 1000, size_words(cap),
         size_words(window), read_ahead >> 10))


def device_read_ahead(folder, sys_dir="/sys"):
    """The read_ahead_kb of the device that holds FOLDER, in bytes, as
    lib/thp.c's ht_read_ahead_dev reads it: its backing device's
    (class/bdi/MAJOR:MINOR), else, for a partition, its disk's
    (dev/block/MAJOR:MINOR/../bdi); 0 where it has none."""
    dev = os.stat(folder).st_dev
    name = "%d:%d" % (os.major(dev), os.minor(dev))
    for path in ("class/bdi/%s/read_ahead_kb" % name,
                 "dev/block/%s/../bdi/read_ahead_kb" % name):
        try:
            with open(os.path.join(sys_dir, path)) as f:
                return int(f.read()) << 10
        except (OSError, ValueError):
            continue
    return 0


def host_readahead_folio(folder, path=DEF):
    """readahead_folio for a file in FOLDER on this machine: (LOW, HIGH, H,
    why), LOW and HIGH in bytes or None, from its kernel's release
    (uname), THP's hpage_pmd_size, its base page, the statfs magic of
    FOLDER and its device's read_ahead_kb; (None, None, None, why) where
    the kernel has no THP, (None, None, H, why) where FOLDER's filesystem
    has no line in the table."""
    thp = "/sys/kernel/mm/transparent_hugepage"
    try:
        with open(os.path.join(thp, "hpage_pmd_size")) as f:
            h = int(f.read())
    except (OSError, ValueError):
        return None, None, None, "no transparent huge pages (%s)" % thp
    release = os.uname().release
    m = re.match(r"(\d+)\.(\d+)", release)
    if not m:
        return None, None, h, "cannot read the kernel release %r" % release
    version = int(m.group(1)) * 1000 + int(m.group(2))
    st = subprocess.run(["stat", "-f", "-c", "%t", folder],
                        capture_output=True, text=True)
    try:
        magic = int(st.stdout.strip(), 16)
    except ValueError:
        return None, None, h, "stat -f %s: %s" % (folder, st.stderr.strip())
    row = by_magic(magic, path)
    if row is None:
        return None, None, h, ("%s: its filesystem (statfs magic %#x) has no "
                               "line in lib/filesystems.def" % (folder, magic))
    low, high, why = readahead_folio(row, version, h,
                                     os.sysconf("SC_PAGE_SIZE"),
                                     device_read_ahead(folder), path)
    return low, high, h, "Linux %s, %s" % (release, why)
