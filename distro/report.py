#!/usr/bin/env python3
"""The report of ./run distro-check: OUT/report.md, and with --docs the
same text between the markers of docs/distro.md.  Exit status 1 when
there is a finding (a build, test suite or smoke test that failed, a
small ELF file that changed, an eligible file not laid out), else 0.

Usage: report.py --packages "A B" --ways "W1 W2" --machine TEXT
                 --seconds N [--docs FILE] OUT
"""

import argparse
import datetime
import json
import os
import sys

BEGIN = "<!-- distro-check: begin (written by ./run distro-check --write-docs) -->"
END = "<!-- distro-check: end -->"


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read().strip()
    except FileNotFoundError:
        return default


def mib(n):
    return f"{n / 1048576:.1f} MiB" if n >= 1048576 else f"{n / 1024:.0f} KiB"


def delta(new, old):
    if not old:
        return ""
    return f" ({(new - old) / old * 100:+.1f} %)"


def baseline_of(ways_file):
    base = {}
    with open(ways_file) as f:
        for line in f:
            w = line.split()
            if w and not w[0].startswith("#"):
                base[w[0]] = w[1]
    return base


def row(out, pkg, way, base, findings):
    d = os.path.join(out, pkg, way)
    status = read(os.path.join(d, "status"), "not built")
    secs = read(os.path.join(d, "seconds"))
    smoke = read(os.path.join(d, "smoke"), "-")
    cells = [pkg, way, "passed" if status == "ok" else status,
             f"{int(secs) // 60} min {int(secs) % 60:02d} s" if secs else "-"]
    on = base.get(way, "-") != "-"
    if status != "ok":
        findings.append(f"{pkg}: the {way} build did not pass: {status} "
                        f"(log: {d}/build.log)")
    if smoke not in ("ok", "-"):
        findings.append(f"{pkg}: the {way} build's smoke test failed (log: {d}/smoke.log)")
    cmp = None
    if on:
        cmp_text = read(os.path.join(d, "compare.json"))
        cmp = json.loads(cmp_text) if cmp_text else None
    if cmp is None:
        cells += ["-", "-"]
        sz = None
    else:
        small = f"{cmp['small_identical']} of {cmp['elf_small']}"
        if cmp["small_vary"]:
            small += f"; {len(cmp['small_vary'])} vary between plain builds"
        for f in cmp["small_differ"]:
            findings.append(f"{pkg}/{way}: {f} is below the threshold but "
                            f"differs from the {cmp['base']} build")
        elig = cmp["eligible"]
        good = [e for e in elig if e["verdict"] == "ok"]
        for e in elig:
            if e["verdict"] != "ok":
                findings.append(f"{pkg}/{way}: {e['file']} is eligible but not laid "
                                f"out: {'; '.join(e['problems'][:2])}")
        names = ", ".join(f"`{e['file'].split(':/')[1].rsplit('/', 1)[-1]}` "
                          f"{e['code'] / 1048576:.1f} MiB" for e in elig)
        cells += [small, f"{len(good)} of {len(elig)}" + (f" ({names})" if names else "")]
        sz = cmp["size"]
    if sz:
        w, b = sz["way"], sz["base"]
        cells += [mib(w["deb"]) + delta(w["deb"], b["deb"]),
                  mib(w["apparent"]) + delta(w["apparent"], b["apparent"]),
                  mib(w["disk"]) + delta(w["disk"], b["disk"])]
    else:
        cells += ["-", "-", "-"]
    cells.append(smoke if smoke != "ok" else "works")
    return "| " + " | ".join(cells) + " |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packages", required=True)
    ap.add_argument("--ways", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--seconds", type=int, required=True)
    ap.add_argument("--docs")
    ap.add_argument("out")
    a = ap.parse_args()
    base = baseline_of(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ways"))
    findings = []
    lines = [f"`./run distro-check` on {datetime.date.today().isoformat()}, "
             f"{a.machine}: {a.seconds // 60} min {a.seconds % 60:02d} s "
             f"(packages: {a.packages}; ways: {a.ways}).",
             "",
             "| package | way | build and tests | build time | small ELF files "
             "identical | eligible files laid out | .debs | installed | on disk | smoke test |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for pkg in a.packages.split():
        for way in a.ways.split():
            lines.append(row(a.out, pkg, way, base, findings))
    lines.append("")
    if findings:
        lines.append("Findings:")
        lines += [f"- {f}" for f in findings]
    else:
        lines.append("No findings: every build with the default on built and "
                     "passed its test suite, left its small ELF files byte for "
                     "byte the same, laid out its eligible files, and worked "
                     "when installed.")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    if a.docs:
        with open(a.docs) as f:
            doc = f.read()
        if BEGIN not in doc or END not in doc:
            sys.exit(f"report.py: {a.docs} has no distro-check markers")
        head, rest = doc.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        tmp = a.docs + ".tmp"
        with open(tmp, "w") as f:
            f.write(head + BEGIN + "\n" + text + END + tail)
        os.replace(tmp, a.docs)
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
