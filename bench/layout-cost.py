#!/usr/bin/env python3
"""The table of bench/layout-cost.sh: for each program, linked several
ways, the file's size (apparent and on disk) and its growth against the
program's first way (its plain link), and the share of its code that a
kernel can map with huge pages.

Usage: layout-cost.py ROWS_TSV

ROWS_TSV has one line per link, tab-separated:
    PROGRAM  WAY  APPARENT_BYTES  DISK_BYTES  CHECK_JSON
where CHECK_JSON is the output of `hugetext check --json FILE` for that
file (a path, relative to ROWS_TSV's folder or absolute).  The first
line of each program is its baseline.  The markdown table, the
definition of the share and notes go to standard output.

Huge-mappable bytes of a code segment (PF_X set, PF_W clear; its code is
[p_vaddr, p_vaddr + code_size), code_size as `hugetext check` measures
it): the code bytes that lie in windows of H bytes (H = the check's
page_size, 2 MiB on x86-64) such that the window
  - starts at a virtual address that is a multiple of H, at run time,
  - lies wholly inside the segment in memory and in the file,
    [p_vaddr, p_vaddr + min(p_filesz, p_memsz)),
  - and p_vaddr == p_offset (mod H), so that the window is H-aligned in
    the file (the page cache can hold it in one huge folio).
"At run time": an ET_EXEC loads at its p_vaddr; Linux places an ET_DYN
(a PIE) at a multiple of its largest PT_LOAD p_align (since 5.10), so
its link-time addresses keep their alignment to H only if that p_align
is at least H.  Otherwise no window qualifies, and the share it would
have at an H-aligned base is given as a note.
"""

import json
import os
import sys

MIB = 1024 * 1024


def die(msg):
    sys.stderr.write("layout-cost.py: %s\n" % msg)
    sys.exit(1)


def mappable(seg, h):
    """Code bytes of SEG in H-aligned windows, at link-time addresses."""
    if (seg["vaddr"] - seg["offset"]) % h:
        return 0
    start = seg["vaddr"]
    end = start + min(seg["filesz"], seg["memsz"])
    lo = -(-start // h) * h        # the first H boundary at or after start
    hi = end // h * h              # the last one at or before end
    code_end = start + seg["code_size"]
    return max(0, min(hi, code_end) - lo)


def measure(doc, path):
    """(code bytes, huge-mappable bytes, the same at an H-aligned base,
    largest p_align, H, verdict) of the one file in DOC."""
    files = doc.get("files") or []
    if len(files) != 1:
        die("%s: expected one file, found %d" % (path, len(files)))
    f = files[0]
    if f.get("verdict") == "error":
        die("%s: hugetext check: %s" % (path, f.get("error", "error")))
    h = f["page_size"]
    segs = f["segments"]
    max_align = max((s["align"] for s in segs), default=0)
    base_aligned = f["type"] == "ET_EXEC" or max_align >= h
    code = linked = 0
    for s in segs:
        if not s["code"]:
            continue
        code += s["code_size"]
        linked += mappable(s, h)
    return (code, linked if base_aligned else 0, linked, max_align, h,
            f["verdict"])


def size_label(n):
    if n >= MIB and n % MIB == 0:
        return "%d MiB" % (n // MIB)
    if n >= 1024 and n % 1024 == 0:
        return "%d KiB" % (n // 1024)
    return str(n)


def growth(value, base):
    if base is None:
        return ""
    ratio = "%.3f" % (value / base) if base else "-"
    mib = "%+.2f" % ((value - base) / MIB)
    if mib in ("+0.00", "-0.00"):
        mib = "0.00"
    return "%s (×%s)" % (mib, ratio)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: layout-cost.py ROWS_TSV\n")
        sys.exit(2)
    rows_path = argv[1]
    folder = os.path.dirname(os.path.abspath(rows_path))
    rows = []
    try:
        lines = open(rows_path).read().splitlines()
    except OSError as e:
        die(str(e))
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 5:
            die("%s:%d: expected 5 tab-separated fields" % (rows_path, n))
        prog, way, apparent, disk, jpath = fields
        jpath = os.path.join(folder, jpath)
        try:
            with open(jpath) as j:
                doc = json.load(j)
        except (OSError, ValueError) as e:
            die("%s:%d: %s" % (rows_path, n, e))
        rows.append((prog, way, int(apparent), int(disk))
                    + measure(doc, jpath))
    if not rows:
        die("no rows in %s" % rows_path)

    print("| program | way | apparent MiB | +MiB (× plain) | on disk MiB "
          "| +MiB (× plain) | code MiB | huge-mappable | MiB on small pages "
          "| largest p_align |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    notes = []
    base = {}
    hs = set()
    for (prog, way, apparent, disk, code, huge, linked, max_align, h,
         verdict) in rows:
        hs.add(h)
        b = base.get(prog)
        if b is None:
            base[prog] = (apparent, disk)
        share = "%.1f %%" % (100.0 * huge / code) if code else "no code"
        print("| %s | %s | %.2f | %s | %.2f | %s | %.2f | %s | %.2f | %s |" % (
            prog, way, apparent / MIB, growth(apparent, b and b[0]),
            disk / MIB, growth(disk, b and b[1]), code / MIB, share,
            (code - huge) / MIB, size_label(max_align)))
        if linked != huge:
            notes.append(
                "%s, %s: %.1f %% of its code would be in H-aligned windows "
                "at its link-time addresses, but its largest p_align is %s, "
                "so Linux loads it at a base that is a multiple of %s only, "
                "not of H." % (prog, way, 100.0 * linked / code,
                              size_label(max_align), size_label(max_align)))
        if "-z hugetext" in way and verdict != "ok":
            notes.append("%s, %s: `hugetext check` says %s." % (
                prog, way, verdict))
    print()
    print("**Huge-mappable**: the share of the code bytes (the bytes from "
          "each code segment's start to the end of its last section, "
          "`code_size` of `hugetext check --json`) that lie in windows of "
          "H = %s that start at a run-time virtual address that is a "
          "multiple of H, lie wholly inside the segment in memory and in "
          "the file, in a segment whose p_vaddr ≡ p_offset (mod H).  "
          "An ET_DYN keeps its link-time alignment to H at run time only "
          "if its largest p_align is at least H (Linux aligns its load "
          "address to that).  **MiB on small pages**: the code bytes "
          "outside such windows.  Sizes are those of the files; growth is "
          "against the program's plain link." %
          " / ".join(size_label(h) for h in sorted(hs)))
    if notes:
        print()
        for n in notes:
            print("- " + n)


if __name__ == "__main__":
    main(sys.argv)
