#!/usr/bin/env python3
"""The report of ./run distro-check: OUT/report.md, and with --docs the
same text between the markers of docs/distro.md.  Exit status 1 when
there is a finding (a build, test suite or smoke test that failed, a
small ELF file that changed, an eligible file not laid out), else 0.

Usage: report.py --packages "A B" --ways "W1 W2" --machine TEXT
                 --seconds N [--docs FILE] OUT

It also writes OUT/results.sum, a PASS: or FAIL: line per check, as
testsuite/run-tests counts them.  The test summary of a build is what
its log matches of the package's TESTS (distro/packages).
"""

import argparse
import datetime
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402  (distro/packages and distro/ways)

DATA = os.path.dirname(os.path.abspath(__file__))

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


def test_patterns():
    """{package: the TESTS regular expression of distro/packages}."""
    return {r["name"]: re.compile(r["tests"], re.M)
            for r in data.packages(DATA)}


def test_summary(out, pkg, way, pattern):
    """What the build log of PKG's WAY build says of its test suite: the
    matches of PATTERN, in order."""
    log = read(os.path.join(out, pkg, way, "build.log"), "")
    return [m.group(0).strip() for m in pattern.finditer(log)]


def first_error(d):
    """The first line of a failed build's log that says "error", as its
    reason ("", if none does)."""
    for line in read(os.path.join(d, "build.log"), "").splitlines():
        if re.search(r"\berror\b", line, re.I):
            return ": " + short(line.strip(), 160)
    return ""


def summary_cell(tests):
    """A test summary in a table cell: its lines, or how many there are."""
    if len(tests) <= 4:
        return short("; ".join(tests))
    return f"{len(tests)} summary lines, all like \"{short(tests[0], 40)}\"" \
        if len(set(tests)) == 1 else f"{len(tests)} summary lines"


def short(text, n=70):
    return text if len(text) <= n else text[:n - 1] + "…"


class Row:
    """What one build's row collects: its checks (SUMS, as PASS:/FAIL:
    lines) and its findings."""

    def __init__(self, out, pkg, way, findings, sums):
        self.out, self.pkg, self.way = out, pkg, way
        self.dir = os.path.join(out, pkg, way)
        self.findings, self.sums = findings, sums

    def check(self, ok, what):
        self.sums.append(f"{'PASS' if ok else 'FAIL'}: distro: {self.pkg} "
                         f"{self.way}: {what}")

    def find(self, finding):
        """A finding that no check above names: it fails on its own line,
        so that no finding is only words in the report."""
        self.findings.append(finding)
        self.sums.append(f"FAIL: distro: {finding}")

    def read(self, name, default=None):
        return read(os.path.join(self.dir, name), default)


def build_cells(r, ways, pattern):
    """The build's cells (build and tests, build time), and its checks:
    it built, and its test suite sums up as the first way's."""
    # What the build did: a run with --no-tests builds without them.
    tested = r.read("tests", ways[r.way]["tests"]) == "yes"
    reference = next(iter(ways))
    status = r.read("status", "not built")
    secs = r.read("seconds")
    tests = test_summary(r.out, r.pkg, r.way, pattern)
    built = "passed" if status == "ok" else status
    if status == "ok":
        built += ": " + summary_cell(tests) if tested else " (no tests)"
    r.check(status == "ok", "dpkg-buildpackage"
            + (" with its test suite" if tested else ""))
    if status != "ok":
        r.findings.append(f"{r.pkg}: the {r.way} build did not pass: {status}"
                          f"{first_error(r.dir)} (log: {r.dir}/build.log)")
    elif tested and not tests:
        r.find(f"{r.pkg}: the {r.way} build log has no test summary "
               f"(TESTS of distro/packages; log: {r.dir}/build.log)")
    elif tested and r.way != reference and read(
            os.path.join(r.out, r.pkg, reference, "status")) == "ok" and read(
            os.path.join(r.out, r.pkg, reference, "tests")) != "no":
        rtests = test_summary(r.out, r.pkg, reference, pattern)
        r.check(tests == rtests, f"its test suite sums up as the {reference} build's")
        if tests != rtests:
            r.findings.append(f"{r.pkg}/{r.way}: its test suite sums up "
                              f"differently from the {reference} build's: "
                              f"{short('; '.join(tests))} against "
                              f"{short('; '.join(rtests))}")
    return [built, f"{int(secs) // 60} min {int(secs) % 60:02d} s" if secs else "-"]


def smoke_check(r):
    """The smoke test's check; its cell."""
    smoke = r.read("smoke", "-")
    if smoke != "-":
        r.check(smoke == "ok", "installed, its smoke test passes")
    if smoke not in ("ok", "-"):
        r.findings.append(f"{r.pkg}: the {r.way} build's smoke test failed "
                          f"(log: {r.dir}/smoke.log)")
    return smoke if smoke != "ok" else "works"


def compare_cells(r):
    """The comparison with the baseline (compare.json): the cells of small
    ELF files, eligible files and sizes, and their checks."""
    text = r.read("compare.json")
    if not text:
        if r.read("status") == "ok":
            r.find(f"{r.pkg}/{r.way}: built, but not compared with its "
                   f"baseline (no compare.json in {r.dir})")
        return ["-"] * 5
    cmp = json.loads(text)
    small = f"{cmp['small_identical']} of {cmp['elf_small']}"
    if cmp["small_vary"]:
        small += f"; {len(cmp['small_vary'])} vary between plain builds"
    r.check(not cmp["small_differ"], f"small ELF files identical to the "
            f"{cmp['base']} build's ({small})")
    for f in cmp["small_differ"]:
        r.findings.append(f"{r.pkg}/{r.way}: {f} is below the threshold but "
                          f"differs from the {cmp['base']} build")
    elig = cmp["eligible"]
    good = [e for e in elig if e["verdict"] == "ok"]
    r.check(len(good) == len(elig), f"eligible files laid out ({len(good)} "
            f"of {len(elig)})")
    for e in elig:
        if e["verdict"] != "ok":
            r.findings.append(f"{r.pkg}/{r.way}: {e['file']} is eligible but "
                              f"not laid out: {'; '.join(e['problems'][:2])}")
    names = ", ".join(f"`{e['file'].split(':/')[1].rsplit('/', 1)[-1]}` "
                      f"{e['code'] / 1048576:.1f} MiB" for e in elig)
    cells = [small, f"{len(good)} of {len(elig)}" + (f" ({names})" if names else "")]
    sz = cmp["size"]
    if not sz:
        return cells + ["-"] * 3
    w, b = sz["way"], sz["base"]
    return cells + [mib(w["deb"]) + delta(w["deb"], b["deb"]),
                    mib(w["apparent"]) + delta(w["apparent"], b["apparent"]),
                    mib(w["disk"]) + delta(w["disk"], b["disk"])]


def guard_check(r):
    """The guard dh_hugetext runs (guard/hugetext-guard), over the packages
    as shipped: enforced for the ways with the default on."""
    guard = r.read("guard", "-")
    if guard == "-":
        return
    r.check(guard == "ok", "the guard of dh_hugetext passes, enforced")
    if guard != "ok":
        errors = [l for l in (r.read("guard.txt", "") or "").splitlines()
                  if ": error: " in l]
        r.findings.append(f"{r.pkg}/{r.way}: the guard of dh_hugetext failed"
                          f"{': ' + short(errors[0], 120) if errors else ''}"
                          f" (log: {r.dir}/guard.txt)")


def row(out, pkg, way, ways, pattern, findings, sums):
    """The table row of PKG's WAY build; its findings and result lines
    are added to FINDINGS and SUMS.  WAYS: distro/ways' rows by name, in
    order; the first way's test summary is the one to match."""
    r = Row(out, pkg, way, findings, sums)
    on = ways[way]["baseline"] != "-"
    cells = [pkg, way] + build_cells(r, ways, pattern)
    smoke = smoke_check(r)
    cells += compare_cells(r) if on else ["-"] * 5
    if on:
        guard_check(r)
    return "| " + " | ".join(cells + [smoke]) + " |"


# How an install root's dpkg installed a build (distro-check's smoke):
# the file in WAY/installed/, and the words for it.
INSTALLS = (("dpkg", "Debian 12's dpkg"),
            ("dpkg+punch", "dpkg, then `hugetext punch`"),
            ("patched-dpkg", "dpkg with `dpkg-patches/`"))
# The most a build with the default on may take installed beyond its
# baseline where the padding is kept as holes, per mille: 0.1 %.
HOLES_GROWTH_PER_MILLE = 1


def installed(out, pkg, way, how):
    """(KiB, apparent KiB, dpkg --verify's lines) of PKG's WAY build
    installed HOW, or None where it was not measured."""
    d = os.path.join(out, pkg, way, "installed")
    size = read(os.path.join(d, how))
    if not size:
        return None
    kib, app = (int(x) for x in size.split())
    return kib, app, read(os.path.join(d, how + ".verify"), "").splitlines()


def installed_row(out, pkg, way, ways, findings, sums):
    """The row of the table of installed sizes: PKG's WAY build installed
    each way, against its baseline's; its checks go to SUMS."""
    r = Row(out, pkg, way, findings, sums)
    base = ways[way]["baseline"]
    cells = [pkg, way]
    verify = []
    for how, words in INSTALLS:
        got = installed(out, pkg, way, how)
        if got is None:
            tried = how != "patched-dpkg" or r.read("smoke.patched-dpkg")
            cells.append("not measured" if tried
                         else "not tried (--patched-dpkg)")
            continue
        kib, _, lines = got
        ref = installed(out, pkg, base, how) if base != "-" else None
        cells.append(f"{kib} KiB" + (delta(kib, ref[0]) if ref else ""))
        r.check(not lines, f"installed by {words}, dpkg --verify finds every "
                f"file as shipped")
        if lines:
            verify.append(f"{how}: {short(lines[0], 60)}")
            findings.append(f"{pkg}/{way}: installed by {words}, dpkg "
                            f"--verify says: {short(lines[0], 120)}")
        if ref and how != "dpkg":
            ok = kib * 1000 <= ref[0] * (1000 + HOLES_GROWTH_PER_MILLE)
            r.check(ok, f"installed by {words}, at most "
                    f"{HOLES_GROWTH_PER_MILLE / 10} % more than the {base} build")
            if not ok:
                findings.append(f"{pkg}/{way}: installed by {words}, "
                                f"{kib} KiB against the {base} build's "
                                f"{ref[0]} KiB{delta(kib, ref[0])}")
    smoke = r.read("smoke.patched-dpkg")
    if smoke:
        r.check(smoke == "ok", "installed by the patched dpkg, its smoke "
                "test passes")
        if smoke != "ok":
            findings.append(f"{pkg}: the {way} build's smoke test with the "
                            f"patched dpkg failed (log: {r.dir}/"
                            f"smoke-patched-dpkg.log)")
    cells.append("; ".join(verify) or "clean")
    return "| " + " | ".join(cells) + " |"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packages", required=True)
    ap.add_argument("--ways", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--seconds", type=int, required=True)
    ap.add_argument("--docs")
    ap.add_argument("--command", default="./run distro-check",
                    help="the command that made the results, for the report")
    ap.add_argument("--data", help="the folder of packages and ways "
                    "(default: this script's, distro/)")
    ap.add_argument("out")
    a = ap.parse_args()
    global DATA
    DATA = a.data or DATA
    ways = {w["name"]: w for w in data.ways(DATA)}
    patterns = test_patterns()
    findings = []
    sums = []
    build_secs = sum(int(read(os.path.join(a.out, p, w, "seconds"), "0"))
                     for p in a.packages.split()
                     for w in a.ways.split() + [w + "-again" for w in a.ways.split()])
    lines = [f"`{a.command}` on {datetime.date.today().isoformat()}, "
             f"{a.machine}: {a.seconds // 60} min {a.seconds % 60:02d} s "
             f"(packages: {a.packages}; ways: {a.ways}); the builds in the "
             f"table took {build_secs // 60} min {build_secs % 60:02d} s in all "
             f"(one reused from an earlier run counts its own time).",
             "",
             "| package | way | build and tests | build time | small ELF files "
             "identical | eligible files laid out | .debs | installed | on disk | smoke test |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for pkg in a.packages.split():
        for way in a.ways.split():
            lines.append(row(a.out, pkg, way, ways, patterns[pkg], findings, sums))
    lines += ["", "Installed in the install root (the build's INSTALL packages, "
              "their regular files; growth against the baseline way's "
              "build installed the same way):", "",
              "| package | way | " + " | ".join(w for _, w in INSTALLS)
              + " | dpkg --verify |",
              "|---|---|" + "---|" * len(INSTALLS) + "---|"]
    for pkg in a.packages.split():
        for way in a.ways.split():
            lines.append(installed_row(a.out, pkg, way, ways, findings, sums))
    lines.append("")
    if findings:
        lines.append("Findings:")
        lines += [f"- {f}" for f in findings]
    else:
        untested = any(read(os.path.join(a.out, p, w, "tests")) == "no"
                       and ways[w]["tests"] == "yes"
                       for p in a.packages.split() for w in a.ways.split())
        lines.append("No findings: every build with the default on built and "
                     + ("(its test suite not run: --no-tests) "
                        if untested else "passed its test suite, ")
                     + "left its small ELF files byte for "
                     "byte the same, laid out its eligible files, passed the "
                     "guard of dh_hugetext, and worked "
                     "when installed.")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(text)
    with open(os.path.join(a.out, "results.sum"), "w") as f:
        f.write("".join(s + "\n" for s in sums))
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
