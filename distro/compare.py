#!/usr/bin/env python3
"""Compare one package's build with hugetext on by default against its
baseline build: prints one JSON document (distro/report.py reads it).

Usage: compare.py --hugetext PATH [--again DIR] BASE_DIR WAY_DIR

Each DIR is a build's results folder with its .debs in DIR/debs.  For
each binary package of WAY_DIR, its files are compared with the same
package's files in BASE_DIR:
  - an ELF file with an eligible code segment (hugetext check says so)
    must meet the layout contract ("hugetext check" exits 0);
  - every other ELF file must be byte for byte the baseline's; where it
    is not, and --again DIR (a second baseline build) differs from the
    first baseline too, the file varies between plain builds and is
    listed as such, not as a finding.
Sizes are the sums over all binary packages: the .deb files, and the
files they install, apparent (st_size) and on disk (st_blocks), as
dpkg-deb -x writes them (dpkg writes no holes either).  The -dbgsym
packages are left out: their files are named by build ID, which any
change of a program changes, and nobody installs them to run it.
"""

import argparse
import filecmp
import json
import os
import subprocess
import sys
import tempfile


def deb_field(deb, field):
    return subprocess.run(["dpkg-deb", "-f", deb, field], check=True,
                          capture_output=True, text=True).stdout.strip()


def unpack(results, into):
    """{package: (deb path, extracted tree)} of a results folder."""
    debs = {}
    folder = os.path.join(results, "debs")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".deb"):
            continue
        deb = os.path.join(folder, name)
        pkg = deb_field(deb, "Package")
        if pkg.endswith("-dbgsym"):
            continue
        tree = os.path.join(into, pkg)
        os.makedirs(tree)
        subprocess.run(["dpkg-deb", "-x", deb, tree], check=True)
        debs[pkg] = (deb, tree)
    return debs


def files_of(tree):
    """Regular files of TREE, relative paths."""
    out = []
    for root, _, names in os.walk(tree):
        for n in names:
            p = os.path.join(root, n)
            if os.path.isfile(p) and not os.path.islink(p):
                out.append(os.path.relpath(p, tree))
    return sorted(out)


def is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def sizes(debs):
    deb = apparent = disk = 0
    for path, tree in debs.values():
        deb += os.path.getsize(path)
        for rel in files_of(tree):
            st = os.lstat(os.path.join(tree, rel))
            apparent += st.st_size
            disk += st.st_blocks * 512
    return {"deb": deb, "apparent": apparent, "disk": disk}


def check(hugetext, paths):
    """hugetext check --json of PATHS: {path: file record}."""
    if not paths:
        return {}
    r = subprocess.run([hugetext, "check", "--json"] + paths,
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit("compare.py: hugetext check failed: " + r.stderr.strip())
    return {f["file"]: f for f in json.loads(r.stdout)["files"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hugetext", required=True)
    ap.add_argument("--again")
    ap.add_argument("base")
    ap.add_argument("way")
    a = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="distro-compare.") as tmp:
        base = unpack(a.base, os.path.join(tmp, "base"))
        way = unpack(a.way, os.path.join(tmp, "way"))
        again = unpack(a.again, os.path.join(tmp, "again")) if a.again else None

        out = {"base": os.path.basename(a.base), "way": os.path.basename(a.way),
               "again": bool(again),
               "packages_only_in_base": sorted(set(base) - set(way)),
               "packages_only_in_way": sorted(set(way) - set(base)),
               "files_only_in_base": [], "files_only_in_way": [],
               "elf_small": 0, "small_identical": 0, "small_differ": [],
               "small_vary": [], "eligible": [], "other_differ": 0,
               "size": {"base": sizes(base), "way": sizes(way)}}

        elves = {}
        for pkg in sorted(set(base) & set(way)):
            btree, wtree = base[pkg][1], way[pkg][1]
            bfiles, wfiles = files_of(btree), files_of(wtree)
            out["files_only_in_base"] += [f"{pkg}:/{f}" for f in sorted(set(bfiles) - set(wfiles))]
            out["files_only_in_way"] += [f"{pkg}:/{f}" for f in sorted(set(wfiles) - set(bfiles))]
            for rel in sorted(set(bfiles) & set(wfiles)):
                wpath = os.path.join(wtree, rel)
                if is_elf(wpath):
                    elves[wpath] = (pkg, rel, os.path.join(btree, rel))
                elif not filecmp.cmp(wpath, os.path.join(btree, rel), shallow=False):
                    out["other_differ"] += 1

        verdicts = check(a.hugetext, sorted(elves))
        for wpath, (pkg, rel, bpath) in sorted(elves.items()):
            name = f"{pkg}:/{rel}"
            rec = verdicts.get(wpath)
            if rec is not None and rec.get("eligible_segments", 0) > 0:
                problems = [p for s in rec["segments"] for p in s["problems"]]
                code = max(s["code_size"] for s in rec["segments"] if s["eligible"])
                out["eligible"].append({"file": name, "verdict": rec["verdict"],
                                        "code": code, "problems": problems})
                continue
            out["elf_small"] += 1
            if filecmp.cmp(wpath, bpath, shallow=False):
                out["small_identical"] += 1
                continue
            apath = None
            if again and pkg in again:
                apath = os.path.join(again[pkg][1], rel)
            if apath and os.path.exists(apath) and \
                    not filecmp.cmp(bpath, apath, shallow=False):
                out["small_vary"].append(name)
            else:
                out["small_differ"].append(name)
        json.dump(out, sys.stdout, indent=1)
        print()


if __name__ == "__main__":
    main()
