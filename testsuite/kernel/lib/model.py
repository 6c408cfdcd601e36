#!/usr/bin/env python3
"""The kernel matrix's model: which cells a kernel of the kernels file
gets, and what each should show, from the kernel's properties (its
columns in testsuite/kernel/kernels), the filesystems' facts
(lib/filesystems.def), the producers (producers/table) and the other
loaders (testsuite/kernel/loaders).  The rules, in order, are the table
of docs/kernel-matrix.md.  The DejaGnu tool (lib/kernel-matrix.exp) asks
it for its plan and only drives the VMs.

Usage:
  model.py plan KERNELS     for each kernel, its columns, its cells and
                            what each expects, one Tcl list a line, of
                            a record's kind, its kernel and its values:
                              kernel NAME COLUMNS
                              cell NAME CELL EXPECTATION
                              khugepaged NAME CELL
                              expect NAME CELL EXPECTATION
                              folios NAME {MODE FS LOW HIGH READ_AHEAD_KB
                                           REASON}
                              at - {SECONDS...}
                              coverage WORD {TCL_EXPR WORDS}
                            ("kernel": the kernel's line of the kernels
                            file as a Tcl dict of tables/kernels.py's
                            LISTED columns; "cell": a cell of the matrix,
                            {MODE FS PRODUCER KIND METHOD}, in order;
                            "khugepaged": a khugepaged cell; "expect":
                            what one of them expects at METHOD
                            khugepaged-Ns; "folios": a folio cell, what
                            readahead of a MADV_HUGEPAGE mapping brings
                            from the disk FS in THP MODE and the disk's
                            read_ahead_kb; "coverage": a word of
                            COVERAGES)
  model.py expect KERNELS NAME MODE FS PRODUCER KIND METHOD
                            one cell's expectation, as a Tcl list

An expectation is (aligned, coverage, reason[, warm statuses]): coverage
one of the words of COVERAGES, each of which asserts something of the
PMD-mapped bytes (FilePmdMapped/ShmemPmdMapped) of the text.
"""

import functools
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tables"))
import arches  # noqa: E402
import filesystems  # noqa: E402
import kernels  # noqa: E402

PRODUCER = os.path.join(HERE, "..", "..", "..", "producers", "producer")
LOADERS = os.path.join(HERE, "..", "loaders")
MODES = ("always", "madvise", "never")
FILESYSTEMS = ("ext4", "xfs", "tmpfs")
DISKS = ("ext4", "xfs")
# The seconds after its start at which a khugepaged cell's probe measures
# again: its methods are khugepaged-10s and so on.  The last asserts what
# khugepaged has done by then; each earlier one that it is no more than
# the next (khugepaged only adds PMD mappings while the probe runs).
KHUGEPAGED_AT = (10, 30, 60)

# The coverage words of the expectations: what each asserts of the bytes
# $pmd of a cell's text of $text bytes that the kernel maps with PMDs, as
# a Tcl expression (lib/kernel-matrix.exp's km_judge evaluates it; $h:
# the kernel's PMD size; $later: $pmd at the cell's next measurement, for
# the khugepaged cells), and in words.  No word asserts nothing: a cell
# whose answer varies names its bounds, and its reason says why.  A word
# that is not here fails its cell (km_judge).
COVERAGES = (
    ("full", "$pmd == $text", "all of the text"),
    ("zero", "$pmd == 0", "none of the text"),
    ("partial", "$pmd > 0 && $pmd < $text",
     "more than none of the text and less than all"),
    ("head", "$pmd > 0 && $pmd == $text / $h * $h",
     "each whole PMD of the text from its start, not the tail"),
    ("some", "$pmd > 0", "at least one PMD of the text"),
    ("at-most-later", "$pmd <= $later",
     "no more than the next measurement's"),
)

# The read_ahead_kb of the VM's disks (QEMU's virtio-blk) from a kernel
# version (major * 1000 + minor) on, newest first: measured 128 on 6.1 and
# 6.12 and 8192 on 7.2 (testsuite/lit/kernel/readaround.test); at which
# version between 6.12 and 7.2 it changed is not known here.  The folio
# cells (folio_cells) check it on every kernel of the matrix.
DISK_READ_AHEAD_KB = ((7002, 8192), (0, 128))


# --- The producers and loaders ----------------------------------------------

@functools.lru_cache(maxsize=None)
def _producer(*args):
    return subprocess.run([PRODUCER] + list(args), check=True,
                          capture_output=True, text=True).stdout.strip()


def producers(*args):
    """producer list --in matrix ARGS: the matrix's producers."""
    return _producer("list", "--in", "matrix", *args).split()


def producer_kinds(name):
    return _producer("kinds", name).split()


def producer_page_size(name):
    return _producer("page-size", name)


def lays_out(name):
    """Whether producer NAME lays the text out for H (its hugetext column,
    or a post step that changes a hugetext layout): not a plain link."""
    return name in producers("--hugetext") or _producer("post", name) != ""


def lowers_p_align(name):
    """Whether producer NAME's post step lowers the code segment's p_align
    to the base page (producers/table's align-4k): aligned in the file,
    not asking the loader to align it."""
    return _producer("post", name) == "align-4k"


def loaders():
    """The other loaders of testsuite/kernel/loaders: (NAME, ARCH)."""
    out = []
    with open(LOADERS) as f:
        for line in f:
            if line.strip() and not line.lstrip().startswith("#"):
                out.append(tuple(line.split()[:2]))
    return out


# --- Facts of a kernel --------------------------------------------------------

def version(k):
    major, minor = (int(x) for x in k["version"].split("."))
    return major * 1000 + minor


def h(k):
    """The kernel's PMD size in bytes."""
    return int(k["h_kib"]) * 1024


def page(k):
    """The kernel's base page in bytes."""
    return int(k["page"].rstrip("k")) * 1024


def pmd_folios(fs, k):
    return filesystems.pmd_folios(fs, version(k), h(k), "%s with %s pages" %
                                  (k["arch"], k["page"]))


def layout_h(k, producer):
    """The H in bytes that PRODUCER's layout is for: its
    -z hugetext-page-size (producers/table), or the default of K's
    architecture (LAYOUT_H_KIB: lib/machines.def's first line of it)."""
    size = producer_page_size(producer)
    return int(size, 0) if size else int(k["layout_h_kib"]) * 1024


def disk_read_ahead_kb(k):
    """The read_ahead_kb of the VM's disks under kernel K."""
    for since, kb in DISK_READ_AHEAD_KB:
        if version(k) >= since:
            return kb
    raise ValueError("DISK_READ_AHEAD_KB has no line for %s" % k["version"])


def can_collapse(k, pmd):
    """MADV_COLLAPSE of file text works on K: READ_ONLY_THP_FOR_FS
    (any), or a kernel that collapses where the page cache has PMD-size
    folios and it has them."""
    return k["collapse"] == "any" or (k["collapse"] == "pmd-folios" and pmd)


# --- The expectations -------------------------------------------------------

def plain(k, fs, kind):
    """What a plain link (Debian's ld.bfd 2.40) gives on K's
    architecture, from GNU ld's defaults for it (lib/machines.def's
    SEP_CODE, MAX_PAGE and TEXT_START).  With
    -z separate-code (x86-64) the text starts one page into its PMD, in
    a segment of its own.  Without it (aarch64, riscv64) the ELF header
    and the text share a segment at file offset 0, so text that lands on
    a PMD boundary is congruent: a non-PIE program's where its image base
    is one; a shared object's where the loader maps it wherever the
    kernel puts it (p_align no larger than the base page: the
    filesystem's get_unmapped_area puts a mapping of at least PMD size
    on a PMD boundary).  A PIE is loaded at a random address in steps of
    its p_align (ASLR is on in the guest), so its text is on a PMD
    boundary by chance only, which the matrix tells by the probe's
    palign (lib/kernel-matrix.exp)."""
    arch = k["arch"]
    machine = kernels.file_machine(arch)
    base = page(k)
    if machine["separate_code"]:
        return (0, "zero", "a plain link: -z separate-code puts the text "
                "one page into its PMD")
    if kind == "pie":
        align = max(machine["max_page_kib"] * 1024, base)
        return (0, "zero", "a plain %s PIE: the kernel loads it at a random "
                "address in steps of its p_align, %d KiB, so its text is on "
                "a PMD boundary only by chance" % (arch, align >> 10))
    if kind == "shared" and machine["max_page_kib"] * 1024 > base:
        return (0, "zero", "a plain %s shared object asks for %d KiB "
                "(p_align), and the loader places it there" %
                (arch, machine["max_page_kib"]))
    if kind == "shared":
        where = ("a plain %s shared object: the loader maps it where the "
                 "filesystem's get_unmapped_area puts a mapping of at "
                 "least PMD size, a PMD boundary, and its text starts at "
                 "file offset 0" % arch)
    else:
        text = machine["text_start"]
        if text % h(k):
            return (0, "zero", "plain %s text starts at %#x, no multiple of "
                    "the kernel's PMD" % (arch, text))
        where = ("plain %s text starts at file offset 0 and at %#x "
                 "(static-pie: the kernel loads it on a 2 MiB boundary)" %
                 (arch, text))
    if filesystems.is_shmem(fs):
        return (1, "head", "%s: tmpfs maps each whole PMD of it, but not "
                "the tail past the last boundary" % where)
    return (1, "zero", "%s, but readahead without MADV_HUGEPAGE brings "
            "folios smaller than PMD size" % where)


def warm_status(k, fs, producer):
    """The exit statuses `hugetext warm --collapse` may have on a cell of
    kernel K with a page other than 4 KiB (tools/hugetext/hugetext.h).
    For a layout for that H: 8 (HT_EXIT_FILESYSTEM) where the filesystem
    cannot hold folios of the kernel's H (ext4: 8 MiB at most, H 32 MiB),
    else 0.  For a layout for a smaller H: 1 (no code segment whose
    address and file offset are congruent modulo H: warm says that of a
    file whatever its filesystem), or, where they happen to be (bfd's
    aarch64 PIE starts its text at address 0 and offset 0), what a layout
    for H gets: 8 where the filesystem refuses, else 0 (warm collapses it
    into folios of H that its 2 MiB-aligned mapping cannot map with a
    PMD)."""
    refused = not filesystems.is_shmem(fs) and not pmd_folios(fs, k)[0]
    if layout_h(k, producer) < h(k):
        return (1, 8) if refused else (0, 1)
    return (8,) if refused else (0,)


def _small_layout(k, producer):
    return (0, "zero", "a layout for H %d MiB: the loader places the text on "
            "a 2 MiB boundary, not on one of the kernel's %d MiB PMD, which "
            "no method changes; the folios behind it (recorded, not "
            "asserted) are 64 KiB from exec readahead on ext4 and XFS, "
            "PMD-size on tmpfs, where each naturally aligned 2 MiB of them "
            "may be mapped with contiguous PTEs (arm64's contpte; not "
            "visible from user space)" %
            (layout_h(k, producer) >> 20, h(k) >> 20))


def _audit(k, pmd, why):
    """The audit module sees each object as ld.so maps it, before the
    first fault of its text, the library loaded with dlopen included."""
    if pmd:
        return (1, "full", "%s: the audit module advises the text before its "
                "first fault and drops the small folios that ld.so's faults "
                "in the file's other mappings read into it, so the first "
                "fault reads PMD-size folios; under QEMU TCG on arm64 and "
                "riscv64 a first run now and then gets less, by timing "
                "(measured: arm64 full in 34 of 36 cells, once 2 and once 0 "
                "of 4 MiB, both on XFS; riscv64 full in 71 of 72, once 0), "
                "which is what the second run of a cell is for" % why)
    if k["collapse"] == "any":
        return (1, "full", "MADV_COLLAPSE (READ_ONLY_THP_FOR_FS) works "
                "whatever the filesystem: the audit module collapses the "
                "text once the link map is consistent, before its first "
                "fault")
    return (1, "zero", "%s: the page cache holds no PMD-size folios for it, "
            "and MADV_COLLAPSE cannot make them" % why)


def _collapsed(k, pmd, why, method):
    """warm and the helper where MADV_COLLAPSE works; None elsewhere."""
    if not can_collapse(k, pmd) or method not in ("warm", "helper"):
        return None
    if k["collapse"] == "any":
        how = ("MADV_COLLAPSE (READ_ONLY_THP_FOR_FS) works whatever the "
               "filesystem")
    else:
        how = "%s, so MADV_COLLAPSE works on it" % why
    if method == "warm":
        return (1, "full", "%s: warm puts the text in PMD-size folios" % how)
    return (1, "some", "%s: the helper collapses at startup; the process's own "
            "mapping gets a huge page back for at least part of the text "
            "(measured: 2 or 4 of 4 MiB, by timing)" % how)


def _glibc(k, why):
    """ld.so with glibc.elf.thp=1 maps the object and advises its text
    where the filesystem has PMD-size folios and the kernel neither reads
    them on its own (EXEC pmd) nor can collapse them."""
    kb = disk_read_ahead_kb(k)
    if kb * 1024 >= 4 * h(k):
        return (1, "zero", "%s: with the tunable, ld.so advises the segment "
                "(MADV_HUGEPAGE) right after mapping it, but the read-around "
                "of its first faults in the file's other segments, a window "
                "of %d KiB (the disks' read_ahead_kb on this kernel: "
                "DISK_READ_AHEAD_KB), has read all of the text in small "
                "folios first (measured: 0 of 4 MiB on 7.2)" % (why, kb))
    return (1, "partial", "%s: with the tunable, ld.so advises the segment "
            "(MADV_HUGEPAGE) right after mapping it; the reads and "
            "read-around of its first faults in the file's other segments, "
            "%d KiB at a time (the disks' read_ahead_kb on this kernel: "
            "DISK_READ_AHEAD_KB), have read part of the text in small folios, "
            "and the rest comes in PMD-size folios (measured: 2 of 4 MiB on "
            "6.1 and 6.12)" % (why, kb))


def expected_cell(k, mode, fs, producer, kind, method):
    """A cell's (aligned, coverage, reason)."""
    if method.startswith("khugepaged-"):
        return expected_khugepaged(k, fs, producer, kind, method)
    if kind == "dlopen":
        kind = "shared"
    if method == "ra128":
        method = "exec"
    seed = k["seed"] == "yes"
    loader = method not in ("exec", "warm", "helper", "audit")
    if not lays_out(producer):
        return plain(k, fs, kind)
    if layout_h(k, producer) < h(k):
        # arm64 with 16 KiB pages, a 2 MiB layout: measured on Debian's
        # 7.2 (docs/kernel-matrix.md).
        return _small_layout(k, producer)
    if loader:
        # ld.so maps the program itself: for a mapping of at least PMD
        # size the filesystem's get_unmapped_area picks a PMD boundary,
        # so text aligned in the file is aligned in memory whatever
        # p_align says.  What the page cache holds is as for a plain exec.
        method = "exec"
    elif lowers_p_align(producer) and not (seed and mode == "always"):
        return (0, "zero", "p_align 4 KiB: the loader need not align the "
                "PIE; only the seed patch in always mode does")
    if filesystems.is_shmem(fs):
        return (1, "full", "tmpfs huge=always holds the file in PMD-size "
                "folios; the fault maps them whole in any THP mode")
    pmd, why = pmd_folios(fs, k)
    # Our readahead patches: in always mode, or in madvise mode where the
    # glibc method's ld.so advised the text, the first fault reads each
    # PMD range of the text as one PMD-size folio, and faults in the
    # file's other mappings read nothing into it (the third patch).
    if k["exec"] == "pmd" and pmd and (
            mode == "always" or (mode == "madvise" and loader)):
        return (1, "full", "%s: the kernel's exec readahead reads "
                "PMD-aligned text in PMD-size folios, and readahead from "
                "the file's other mappings stays out of it" % why)
    if method == "audit":
        return _audit(k, pmd, why)
    collapsed = _collapsed(k, pmd, why, method)
    if collapsed:
        return collapsed
    if not pmd:
        return (1, "zero", "%s: the page cache holds no PMD-size folios for "
                "it, and MADV_COLLAPSE cannot make them" % why)
    if loader:
        return _glibc(k, why)
    if method == "warm":
        return (1, "full", "%s: hugetext warm's MADV_HUGEPAGE readahead "
                "filled the cache with PMD-size folios; the fault maps them "
                "in any THP mode" % why)
    if method == "helper":
        return (1, "zero", "%s, but the startup helper advises only after "
                "the first faults, whose readahead, and the sequential "
                "readahead after them, bring the text in small folios "
                "(measured: 0 of 4 MiB on 6.1 and 6.12)" % why)
    return (1, "zero", "readahead of a mapping without MADV_HUGEPAGE brings "
            "folios smaller than PMD size")


def expected_khugepaged(k, fs, producer, kind, method):
    """A khugepaged cell at METHOD khugepaged-Ns."""
    if kind == "dlopen":
        kind = "shared"
    if not lays_out(producer):
        cold = plain(k, fs, kind)
        if not cold[0]:
            return cold
    else:
        cold = expected_cell(k, "always", fs, producer, kind, "exec")
    if cold[1] == "full":
        return cold
    pmd, why = pmd_folios(fs, k)
    collapse = k["collapse"]
    if not can_collapse(k, pmd):
        return (1, "zero", "khugepaged cannot collapse file text here "
                "(COLLAPSE %s; %s)" % (collapse, why))
    last = KHUGEPAGED_AT[-1]
    if method != "khugepaged-%ds" % last:
        at = int(method[len("khugepaged-"):-1])
        later = KHUGEPAGED_AT[KHUGEPAGED_AT.index(at) + 1]
        return (1, "at-most-later", "khugepaged collapses the text when its "
                "scan reaches the process, which depends on how many others "
                "it scans first (measured at 10 s: 0 to 4 MiB of 4), and "
                "nothing splits it while the probe runs: at %d s no more of "
                "it PMD-mapped than at %d s" % (at, later))
    return (1, "some", "khugepaged collapses file text here (COLLAPSE %s; "
            "%s): by %d s its scan (pages_to_scan 4096 every 10 s, as the "
            "kernel boots) has reached every probe's text (measured: 2 or 4 "
            "of 4 MiB)" % (collapse, why, last))


def expected(k, mode, fs, producer, kind, method):
    """A cell's expectation; on a kernel whose base page is not 4 KiB
    (arm64 with 16 KiB pages) a "warm" cell's has a fourth element, the
    exit statuses hugetext warm may have there, which the matrix checks
    too."""
    e = expected_cell(k, mode, fs, producer, kind, method)
    if k["page"] != "4k" and method == "warm":
        e = e + (warm_status(k, fs, producer),)
    return e


# --- The cells --------------------------------------------------------------

def kinds(producer, method, mode):
    """The kinds of PRODUCER's cells for METHOD in THP MODE: its output
    kinds, and where it makes shared objects, "dlopen" (that library,
    loaded with dlopen by probe-dlopen once the program runs) for exec,
    warm and audit, in "always" and "madvise": the startup helper sees
    only the objects loaded at startup, and "never" gives dlopen what it
    gives the shared kind."""
    out = producer_kinds(producer)
    if "shared" in out and method in ("exec", "warm", "audit") and \
       mode != "never":
        out = out + ["dlopen"]
    return out


def tree_arch(k):
    """The case tree of K's ARCH and PAGE (testsuite/kernel/arches), as
    producers/table names it: amd64, arm64, arm64-16k, riscv64."""
    return arches.tree_of(k["arch"], k["page"])


def methods(k):
    """K's case tree's METHODS (testsuite/kernel/arches): "all", or the
    list of helper, audit and khugepaged it gets in THP "always"."""
    m = arches.load()[1][tree_arch(k)]["methods"]
    return m if m == "all" else [x for x in m.split(",") if x != "-"]


def takes(k, kind):
    """K's case tree has programs of KIND (its KINDS in
    testsuite/kernel/arches; dlopen loads the shared kind's library)."""
    kinds_ = arches.load()[1][tree_arch(k)]["kinds"]
    return kinds_ == "all" or \
        ("shared" if kind == "dlopen" else kind) in kinds_.split(",")


def cells_big_page(k):
    """A kernel whose case tree's METHODS is not "all" (the trees of
    16 and 64 KiB pages): THP always; the producers of its own case
    tree, the kinds the tree takes; exec, and hugetext warm on the
    hugetext producers' programs; and where METHODS lists them, the
    startup helper (the producer that links it in) and the audit module
    on the hugetext producers' dynamic kinds.  No other loader."""
    arch = ("--arch", tree_arch(k))
    by_method = {"exec": producers(*arch, "--lacks", "extra"),
                 "warm": producers(*arch, "--hugetext", "--lacks", "extra",
                                   "--lacks", "post")}
    if "helper" in methods(k):
        by_method["helper"] = producers(*arch, "--has", "extra")
    out = [("always", fs, p, kind, method)
           for fs in FILESYSTEMS for method in ("exec", "warm", "helper")
           for p in by_method.get(method, [])
           for kind in kinds(p, method, "always")]
    if "audit" in methods(k):
        out += [("always", fs, p, kind, "audit")
                for fs in FILESYSTEMS for p in by_method["warm"]
                for kind in kinds(p, "audit", "always")
                if kind in ("pie", "shared", "dlopen")]
    return [c for c in out if takes(k, c[3])]


def cells(k):
    """The cells, for every THP mode and filesystem: a plain exec of every
    producer's every kind (the seed case is bfd's PIE, post-processed),
    but those that link extra objects; hugetext warm on every hugetext
    producer's output; the startup helper (the producer that links it
    in); readahead of a typical disk; the other loaders; the audit
    module.  "never" last: going from it to another mode starts
    khugepaged's thread again, which scans at once (init.sh)."""
    if methods(k) != "all":
        return cells_big_page(k)
    arch = ("--arch", k["arch"])
    by_method = {"exec": producers(*arch, "--lacks", "extra"),
                 "warm": producers(*arch, "--hugetext", "--lacks", "extra",
                                   "--lacks", "post"),
                 "helper": producers(*arch, "--has", "extra")}
    out = [(mode, fs, p, kind, method)
           for mode in MODES for fs in FILESYSTEMS
           for method in ("exec", "warm", "helper")
           for p in by_method[method] for kind in kinds(p, method, mode)]
    # The disk's read_ahead_kb 128 (a typical SATA or NVMe disk) besides
    # QEMU's 8192: exec in "always", on the disks, a PIE and a shared
    # library.
    out += [("always", fs, p, kind, "ra128")
            for fs in DISKS for p in by_method["exec"]
            for kind in producer_kinds(p) if kind in ("pie", "shared")]
    # The other loaders of the kernel's architecture: the dynamic kinds of
    # the producers in "loaders" (plain, bfd and the seed case), where the
    # mode decides something.
    out += [(mode, fs, p, kind, method)
            for method, arch_ in loaders() if arch_ == k["arch"]
            for mode in ("always", "madvise") for fs in DISKS
            for p in _producer("list", "--in", "loaders").split()
            for kind in kinds(p, "exec", mode)
            if kind in ("pie", "shared", "dlopen")]
    # The audit module on the hugetext producers' dynamic kinds, the
    # library loaded with dlopen included.
    out += [(mode, fs, p, kind, "audit")
            for mode in ("always", "madvise") for fs in FILESYSTEMS
            for p in by_method["warm"] for kind in kinds(p, "audit", mode)
            if kind in ("pie", "shared", "dlopen")]
    out = [c for c in out if takes(k, c[3])]
    return ([c for c in out if c[0] != "never"]
            + [c for c in out if c[0] == "never"])


def khugepaged_cells(k):
    """THP "always", the disks, the PIE, shared library and dlopen'd
    library of the producers in "khugepaged" (plain and the hugetext
    linkers), each probe left running with
    khugepaged's boot settings and measured at KHUGEPAGED_AT, on every
    kernel whose case tree's METHODS is "all" or lists khugepaged."""
    if methods(k) != "all" and "khugepaged" not in methods(k):
        return []
    return [("always", fs, p, kind, "khugepaged")
            for fs in DISKS
            for p in _producer("list", "--in", "khugepaged", "--arch",
                               tree_arch(k)).split()
            for kind in ("pie", "shared", "dlopen") if takes(k, kind)]


def folio_cells(k):
    """The folio cells of K, one per disk, in THP "always": what the guest's
    folio probe (fsfolios.c: readahead of a MADV_HUGEPAGE mapping of a data
    file, the folios read from /proc/kpageflags) must find, as
    lib/filesystems.def says for K's VERSION, H and base page and the
    disks' read_ahead_kb (filesystems.readahead_folio: the bounds LOW and
    HIGH of the largest folio; lib/thp.c decides hugetext warm's exit 8
    and lit's large-folios feature by the same facts), and the disks'
    read_ahead_kb (DISK_READ_AHEAD_KB): (MODE, FS, LOW, HIGH,
    READ_AHEAD_KB, REASON)."""
    out = []
    kb = disk_read_ahead_kb(k)
    for fs in DISKS:
        low, high, why = filesystems.readahead_folio(
            filesystems.by_name(fs), version(k), h(k), page(k), kb << 10)
        out.append(("always", fs, low, high, kb, why))
    return out


# --- Output -------------------------------------------------------------------

def _tcl_special(c):
    """Whether C is a character a Tcl list element must quote."""
    return c.isspace() or c in '{}"\\;$[]'


def tcl_word(value):
    """VALUE as one element of a Tcl list: a tuple as a list."""
    text = tcl_list(value) if isinstance(value, tuple) else str(value)
    special = _tcl_special
    if text and not any(special(c) for c in text):
        return text
    # Braces keep the text as it is where they balance and no line ends
    # in it (the plan is read a line a record); else each special
    # character is escaped, a line end or other blank as its \ escape.
    depth = 0
    for c in text:
        depth += {"{": 1, "}": -1}.get(c, 0)
        if depth < 0:
            break
    if depth == 0 and "\\" not in text and not any(
            c.isspace() and c not in " \t" for c in text):
        return "{" + text + "}"
    escapes = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v",
               "\f": "\\f"}
    return "".join(escapes.get(c, "\\" + c if special(c) else c)
                   for c in text)


def tcl_list(values):
    return " ".join(tcl_word(v) for v in values)


def read_kernels(path):
    found, errors = kernels.parse(path)
    if errors:
        sys.exit("\n".join(errors))
    return found


def plan(path):
    lines = []
    for k in read_kernels(path):
        name = k["name"]
        columns = tuple(v for c in kernels.LISTED for v in (c, k[c]))
        lines.append(tcl_list(("kernel", name, columns)))
        for cell in cells(k):
            lines.append(tcl_list(("cell", name, cell,
                                   expected(k, *cell))))
        for cell in khugepaged_cells(k):
            lines.append(tcl_list(("khugepaged", name, cell)))
            for at in KHUGEPAGED_AT:
                c = cell[:4] + ("khugepaged-%ds" % at,)
                lines.append(tcl_list(("expect", name, c, expected(k, *c))))
        for folio in folio_cells(k):
            lines.append(tcl_list(("folios", name, folio)))
    lines.append(tcl_list(("at", "-", KHUGEPAGED_AT)))
    for word, test, words in COVERAGES:
        lines.append(tcl_list(("coverage", word, (test, words))))
    return lines


def main(argv):
    if len(argv) == 3 and argv[1] == "plan":
        print("\n".join(plan(argv[2])))
        return 0
    if len(argv) == 9 and argv[1] == "expect":
        ks = {k["name"]: k for k in read_kernels(argv[2])}
        if argv[3] not in ks:
            sys.exit("model.py: no kernel %s in %s" % (argv[3], argv[2]))
        print(tcl_list(expected(ks[argv[3]], *argv[4:9])))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
