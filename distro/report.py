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


def data(name):
    """The lines of distro/NAME, split into words, without comments."""
    with open(os.path.join(DATA, name)) as f:
        return [line.split() for line in f
                if line.strip() and not line.lstrip().startswith("#")]


def test_patterns():
    """{package: the TESTS regular expression of distro/packages}."""
    with open(os.path.join(DATA, "packages")) as f:
        rows = [line.split(None, 5) for line in f
                if line.strip() and not line.lstrip().startswith("#")]
    return {r[0]: re.compile(r[5].strip(), re.M) for r in rows}


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


def row(out, pkg, way, ways, pattern, findings, sums):
    """The table row of PKG's WAY build; its findings and result lines
    are added to FINDINGS and SUMS.  WAYS: distro/ways' rows by name, in
    order; the first way's test summary is the one to match."""
    d = os.path.join(out, pkg, way)
    base, tested = ways[way][1], ways[way][3] == "yes"
    reference = next(iter(ways))
    status = read(os.path.join(d, "status"), "not built")
    secs = read(os.path.join(d, "seconds"))
    smoke = read(os.path.join(d, "smoke"), "-")
    tests = test_summary(out, pkg, way, pattern)
    built = "passed" if status == "ok" else status
    if status == "ok":
        built += ": " + summary_cell(tests) if tested else " (no tests)"
    cells = [pkg, way, built,
             f"{int(secs) // 60} min {int(secs) % 60:02d} s" if secs else "-"]
    on = base != "-"
    name = f"distro: {pkg} {way}"

    def result(ok, what):
        sums.append(f"{'PASS' if ok else 'FAIL'}: {name}: {what}")

    result(status == "ok", "dpkg-buildpackage" + (" with its test suite" if tested else ""))
    if status != "ok":
        findings.append(f"{pkg}: the {way} build did not pass: {status}"
                        f"{first_error(d)} (log: {d}/build.log)")
    elif tested and not tests:
        findings.append(f"{pkg}: the {way} build log has no test summary "
                        f"(TESTS of distro/packages; log: {d}/build.log)")
    elif tested and way != reference and read(
            os.path.join(out, pkg, reference, "status")) == "ok":
        rtests = test_summary(out, pkg, reference, pattern)
        result(tests == rtests, f"its test suite sums up as the {reference} build's")
        if tests != rtests:
            findings.append(f"{pkg}/{way}: its test suite sums up differently from "
                            f"the {reference} build's: {short('; '.join(tests))} "
                            f"against {short('; '.join(rtests))}")
    if smoke != "-":
        result(smoke == "ok", "installed, its smoke test passes")
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
        result(not cmp["small_differ"], f"small ELF files identical to the "
               f"{cmp['base']} build's ({small})")
        for f in cmp["small_differ"]:
            findings.append(f"{pkg}/{way}: {f} is below the threshold but "
                            f"differs from the {cmp['base']} build")
        elig = cmp["eligible"]
        good = [e for e in elig if e["verdict"] == "ok"]
        result(len(good) == len(elig), f"eligible files laid out ({len(good)} "
               f"of {len(elig)})")
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
    # The guard dh_hugetext runs (guard/hugetext-guard), over the
    # packages as shipped; enforced for the ways with the default on.
    guard = read(os.path.join(d, "guard"), "-")
    if on and guard != "-":
        result(guard == "ok", "the guard of dh_hugetext passes, enforced")
        if guard != "ok":
            errors = [l for l in (read(os.path.join(d, "guard.txt"), "") or "").splitlines()
                      if ": error: " in l]
            findings.append(f"{pkg}/{way}: the guard of dh_hugetext failed"
                            f"{': ' + short(errors[0], 120) if errors else ''}"
                            f" (log: {d}/guard.txt)")
    cells.append(smoke if smoke != "ok" else "works")
    return "| " + " | ".join(cells) + " |"


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
    base = ways[way][1]
    name = f"distro: {pkg} {way}"
    cells = [pkg, way]
    verify = []
    for how, words in INSTALLS:
        got = installed(out, pkg, way, how)
        if got is None:
            cells.append("not measured" if how != "patched-dpkg"
                         else "not tried (--patched-dpkg)")
            continue
        kib, _, lines = got
        ref = installed(out, pkg, base, how) if base != "-" else None
        cells.append(f"{kib} KiB" + (delta(kib, ref[0]) if ref else ""))
        sums.append(f"{'FAIL' if lines else 'PASS'}: {name}: installed by "
                    f"{words}, dpkg --verify finds every file as shipped")
        if lines:
            verify.append(f"{how}: {short(lines[0], 60)}")
            findings.append(f"{pkg}/{way}: installed by {words}, dpkg "
                            f"--verify says: {short(lines[0], 120)}")
        if ref and how != "dpkg":
            ok = kib * 1000 <= ref[0] * (1000 + HOLES_GROWTH_PER_MILLE)
            sums.append(f"{'PASS' if ok else 'FAIL'}: {name}: installed by "
                        f"{words}, at most {HOLES_GROWTH_PER_MILLE / 10} % more than "
                        f"the {base} build")
            if not ok:
                findings.append(f"{pkg}/{way}: installed by {words}, "
                                f"{kib} KiB against the {base} build's "
                                f"{ref[0]} KiB{delta(kib, ref[0])}")
    smoke = read(os.path.join(out, pkg, way, "smoke.patched-dpkg"))
    if smoke:
        sums.append(f"{'PASS' if smoke == 'ok' else 'FAIL'}: {name}: "
                    f"installed by the patched dpkg, its smoke test passes")
        if smoke != "ok":
            findings.append(f"{pkg}: the {way} build's smoke test with the "
                            f"patched dpkg failed (log: {out}/{pkg}/{way}/"
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
    ways = {w[0]: w for w in data("ways")}
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
        lines.append("No findings: every build with the default on built and "
                     "passed its test suite, left its small ELF files byte for "
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
