#!/usr/bin/env python3
"""What `hugetext warm` adds to the page cache, against its budget, cold.

Usage (as root): bench/warm-budget.py HUGETEXT [WARM-ARGUMENTS...]

  HUGETEXT        the hugetext program (build/bin/hugetext)
  WARM-ARGUMENTS  what `hugetext warm` is given, --budget included; for
                  the default unit: --running --budget=10%

1. Lists the files the warm takes: `hugetext warm --json --budget=1`
   with the same arguments (a budget of one byte leaves every file as it
   is, and names it).
2. Empties the page cache (sync; drop_caches 3), then reads, for those
   files, the bytes cached (mincore, one byte a page, on a mapping that
   is never touched) and /proc/meminfo's Cached.
3. Runs `hugetext warm --json WARM-ARGUMENTS`, and reads both again.

Prints, for the whole warm: the budget, the ranges warmed (the sum of
"size" over the files warmed), the page cache added by the files
(mincore, after less before) and Cached (after less before; the rest of
the machine's activity counts there too), and the files whose added
pages pass their range, each with where (hugetext's own libraries,
which loading it brings in, are named apart).  The added bytes are the
measure; the budget is the ceiling they must stay under.
"""

import ctypes
import json
import mmap
import os
import subprocess
import sys

libc = ctypes.CDLL(None, use_errno=True)
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
PAGE = os.sysconf("SC_PAGE_SIZE")


def cached_pages(path):
    """The pages of PATH cached now: a set of page numbers."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return set()
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            return set()
        addr = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
    finally:
        os.close(fd)
    if addr == ctypes.c_void_p(-1).value:
        sys.exit(f"warm-budget: mmap {path}: "
                 f"{os.strerror(ctypes.get_errno())}")
    n = (size + PAGE - 1) // PAGE
    vec = ctypes.create_string_buffer(n)
    rc = libc.mincore(addr, size, vec)
    libc.munmap(addr, size)
    if rc != 0:
        sys.exit(f"warm-budget: mincore {path}: "
                 f"{os.strerror(ctypes.get_errno())}")
    return {i for i in range(n) if vec.raw[i] & 1}


def own_libraries(hugetext):
    """The files that running HUGETEXT maps itself (its libraries, as
    ldd lists them): their pages are the tool's own loading, not the
    warm's."""
    r = subprocess.run(["ldd", hugetext], capture_output=True, text=True)
    return {os.path.realpath(w) for line in r.stdout.splitlines()
            for w in line.split() if w.startswith("/")}


def meminfo_cached():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("Cached:"):
                return int(line.split()[1]) * 1024
    sys.exit("warm-budget: no Cached in /proc/meminfo")


def warm(hugetext, args):
    r = subprocess.run([hugetext, "warm", "--json"] + args,
                       capture_output=True, text=True)
    try:
        return json.loads(r.stdout), r.returncode
    except ValueError:
        sys.exit(f"warm-budget: hugetext warm {' '.join(args)} exited "
                 f"{r.returncode} with no JSON: {r.stderr.strip()}")


def warmed(e):
    """The range warm warmed for the file of E, its JSON object: none for
    an error or a file the budget left as it is."""
    if e.get("error") or "pass the budget" in e.get("note", ""):
        return 0
    return e.get("size", 0)


def mib(n):
    return f"{n / 1048576:.1f} MiB"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.split("\n\n")[1])
    if os.geteuid() != 0:
        sys.exit("warm-budget: run it as root (it drops the page cache)")
    hugetext, args = sys.argv[1], sys.argv[2:]
    listed, _ = warm(hugetext, [a for a in args
                                if not a.startswith("--budget")]
                     + ["--budget=1"])
    files = sorted({e["file"] for e in listed})
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")
    before = {p: cached_pages(p) for p in files}
    cached0 = meminfo_cached()
    done, status = warm(hugetext, args)
    cached1 = meminfo_cached()
    after = {p: cached_pages(p) for p in files}
    ranges = sum(warmed(e) for e in done)
    added = {p: len(after[p] - before[p]) * PAGE for p in files}
    print(f"hugetext warm {' '.join(args)}: exit {status}, "
          f"{len(files)} files")
    print(f"  ranges warmed:            {mib(ranges)}")
    print(f"  added, mincore of files:  {mib(sum(added.values()))}")
    print(f"  added, Cached:            {mib(cached1 - cached0)}")
    own = own_libraries(hugetext)
    worst = 0
    for e in done:
        p = e["file"]
        if os.path.realpath(p) in own:
            if added.get(p, 0) > warmed(e):
                print(f"  {p}: {mib(added[p])} added by loading hugetext "
                      "itself (one of its own libraries)")
            continue
        size = warmed(e)
        if added.get(p, 0) > size:
            over = sorted(after[p] - before[p])
            lo = e.get("offset", 0) // PAGE
            hi = lo + size // PAGE
            out = [i for i in over if i < lo or i >= hi]
            print(f"  over its range: {p}: {mib(added[p])} added for "
                  f"{mib(size)}; {len(out)} pages outside it, from "
                  f"{out[0] * PAGE:#x}" if out else "")
            worst = 1
    return worst


if __name__ == "__main__":
    sys.exit(main())
