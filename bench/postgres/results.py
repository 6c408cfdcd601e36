#!/usr/bin/env python3
"""The parts of bench/postgres/pgbench.sh that are logic, not shell.

Usage:
  results.py parse PGBENCH_OUTPUT   print "TPS TRANSACTIONS LATENCY_MS FAILED"
  results.py perf PERF_CSV EVENT    the count of EVENT in `perf stat -x,`
                                    output (summed over PMUs), or "-"
  results.py report RESULTS_DIR     write RESULTS_DIR/results.md

The report reads, from RESULTS_DIR:
  runs.tsv    WORKLOAD VARIANT ROUND TPS TRANSACTIONS LATENCY_MS FAILED
              ITLB_MISSES ("-" when not counted); WORKLOAD is "select"
              (pgbench -S) or "rw" (pgbench's TPC-B-like default); round 0
              is the warm-up and is left out
  ways.tsv    VARIANT BASELINE LABEL...: the variants in the order of the
              report, the one each is compared with ("-": none), and
              what it is
  status-WORKLOAD-VARIANT-ROLE.json   `hugetext status --json` of the
              server while it ran (ROLE: postmaster, backend)
  perf-event.txt   the event counted in ITLB_MISSES (default
              iTLB-load-misses)
  machine.txt, perf.txt, checks.txt, command.txt   shown as they are

Each variant with a baseline is compared with it in the same round: the
ratio is TPS / baseline's TPS (above 1: faster), the median of the
per-round ratios with a 95 % bootstrap interval, computed by
bench/report.py's ratio_ci, the one the clang benchmark uses.
"""

import collections
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from report import read_rows, read_text, round_ratio, status_coverage  # noqa: E402

WORKLOADS = {"select": "pgbench -S (select only)",
             "rw": "pgbench, TPC-B-like read-write (fsync off)"}
ROLES = {"backend": "a client backend", "postmaster": "the postmaster"}
MIB = 1 << 20


def fail(message):
    sys.exit(f"results.py: {message}")


def parse_pgbench(text, name="pgbench output"):
    """(tps, transactions, latency ms, failed) of one pgbench run."""
    def field(pattern, what):
        m = re.search(pattern, text, re.M)
        if not m:
            fail(f"{name}: no {what} (did pgbench fail?)")
        return m.group(1)
    # pgbench 14 and later: "tps = N (without initial connection time)";
    # older ones print two lines, "excluding connections establishing"
    # being the one to take.
    tps = re.search(r"^tps = ([0-9.]+) \((without initial connection time|"
                    r"excluding connections establishing)\)", text, re.M)
    if not tps:
        fail(f"{name}: no tps line (did pgbench fail?)")
    txns = field(r"^number of transactions actually processed: (\d+)",
                 "number of transactions")
    latency = field(r"^latency average = ([0-9.]+) ms", "latency average")
    failed = re.search(r"^number of failed transactions: (\d+)", text, re.M)
    return (float(tps.group(1)), int(txns), float(latency),
            int(failed.group(1)) if failed else 0)


def perf_count(text, event):
    """The count of EVENT in `perf stat -x,` output, summed over PMUs
    (cpu_core/EVENT/, cpu_atom/EVENT/ on hybrid CPUs), or None."""
    total, seen = 0, False
    for line in text.splitlines():
        fields = line.split(",")
        if len(fields) < 3 or not re.fullmatch(r"\d+", fields[0]):
            continue
        name = fields[2]
        if name == event or re.fullmatch(r"[\w-]+/" + re.escape(event) +
                                         r"/\w*", name):
            total += int(fields[0])
            seen = True
    return total if seen else None


def read_ways(results):
    ways = collections.OrderedDict()
    for row in read_rows(os.path.join(results, "ways.tsv")):
        if len(row) < 2:
            fail(f"{results}/ways.tsv: expected VARIANT BASELINE LABEL")
        ways[row[0]] = (None if row[1] == "-" else row[1],
                        " ".join(row[2:]) or row[0])
    return ways


def coverage(results, workload, variant, role):
    """(text, resident, PMD-mapped) bytes of the server's own text."""
    return status_coverage(
        os.path.join(results, f"status-{workload}-{variant}-{role}.json"),
        "/bin/postgres")


def coverage_cell(cov):
    if not cov or cov[1] <= 0:
        return "not measured | |"
    size, rss, pmd = cov
    return (f"{pmd / MIB:.1f} of {rss / MIB:.1f} MiB "
            f"({100 * pmd / rss:.0f} %) | "
            f"{100 * pmd / size:.0f} % of {size / MIB:.1f} MiB |")


def coverage_notes(results, workload, variant, base):
    """What the coverage of a backend says against what its way should
    give: a hugetext way (one with a baseline) its text PMD-mapped, a
    baseline none of it."""
    cov = coverage(results, workload, variant, "backend")
    if not cov or cov[1] <= 0:
        return []
    pmd = cov[2]
    if base and pmd == 0:
        return [f"{variant}: none of its text PMD-mapped: this comparison "
                f"measures no huge pages (see `hugetext check` below)"]
    if not base and pmd > 0:
        return [f"{variant}: {pmd / MIB:.1f} MiB of its text PMD-mapped, "
                f"though it is a baseline"]
    return []


def tables(results, runs, ways, event, out):
    by = collections.defaultdict(dict)    # (workload, variant) -> round -> row
    for row in runs:
        if len(row) != 8:
            fail(f"{results}/runs.tsv: expected 8 fields, not "
                 f"'{' '.join(row)}'")
        workload, variant, rnd, tps, txns, lat, failed, misses = row
        if variant not in ways:
            fail(f"{results}/runs.tsv: variant {variant} is not in ways.tsv")
        if int(rnd) > 0:
            by[workload, variant][int(rnd)] = (float(tps), int(txns),
                                               float(lat), int(failed),
                                               misses)
    for workload, title in WORKLOADS.items():
        if not any((workload, v) in by for v in ways):
            continue
        counted = any(r[4] != "-" for v in ways
                      for r in by[workload, v].values())
        out.append(f"### {title}\n")
        head = ("| way | runs | median tps | min–max tps | latency ms "
                "| vs. | tps ratio | 95 % CI | change "
                "| PMD-mapped of text used (a backend) | of all text |")
        rule = "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
        if counted:
            head += f" {event} per transaction |"
            rule += "---:|"
        out += [head, rule]
        notes = []
        for v, (base, label) in ways.items():
            rows = by[workload, v]
            if not rows:
                continue
            tps = [r[0] for r in rows.values()]
            line = (f"| {v} | {len(tps)} | "
                    f"{statistics.median(tps):.0f} | "
                    f"{min(tps):.0f}–{max(tps):.0f} | "
                    f"{statistics.median(r[2] for r in rows.values()):.3f} |")
            ratio = round_ratio(rows, by[workload, base]) if base else None
            if ratio:
                mid, lo, hi = ratio
                line += (f" {base} | **{mid:.3f}** | {lo:.3f}–{hi:.3f} "
                         f"| {100 * (mid - 1):+.1f} % |")
            else:
                line += " | | | |"
            line += " " + coverage_cell(coverage(results, workload, v,
                                                 "backend"))
            if counted:
                per = [int(r[4]) / r[1] for r in rows.values()
                       if r[4] != "-" and r[1] > 0]
                line += f" {statistics.median(per):.1f} |" if per else " |"
            out.append(line)
            failed = sum(r[3] for r in rows.values())
            if failed:
                notes.append(f"{v}: {failed} failed transactions")
            notes += coverage_notes(results, workload, v, base)
        out.append("")
        for n in notes:
            out.append(f"- {n}")
        if notes:
            out.append("")


def postmaster_lines(results, ways, out):
    lines = []
    for v in ways:
        cov = coverage(results, "select", v, "postmaster")
        if cov and cov[1] > 0:
            size, rss, pmd = cov
            lines.append(f"- {v}: {pmd / MIB:.1f} of {rss / MIB:.1f} MiB "
                         f"used ({100 * pmd / rss:.0f} %), "
                         f"{100 * pmd / size:.0f} % of {size / MIB:.1f} MiB")
    if lines:
        out += ["### The postmaster's own text (`hugetext status`)\n"] + \
            lines + [""]


def report(results):
    runs = read_rows(os.path.join(results, "runs.tsv"))
    if not runs:
        fail(f"no runs in {results}/runs.tsv")
    ways = read_ways(results)
    if not ways:
        fail(f"no variants in {results}/ways.tsv")
    out = ["## PostgreSQL (pgbench)\n", "```"]
    for name in ("command.txt", "machine.txt", "perf.txt"):
        out.append(read_text(os.path.join(results, name)))
    out += ["```\n", "| way | what it is | compared with |", "|---|---|---|"]
    for v, (base, label) in ways.items():
        out.append(f"| {v} | {label} | {base or ''} |")
    out.append("")
    event = read_text(os.path.join(results, "perf-event.txt"))
    tables(results, runs, ways,
           "iTLB-load-misses" if event == "(not measured)" else event, out)
    postmaster_lines(results, ways, out)
    out += ["### `hugetext check` of each server binary\n", "```",
            read_text(os.path.join(results, "checks.txt")), "```", ""]
    with open(os.path.join(results, "results.md"), "w") as f:
        f.write("\n".join(out))


def main(args):
    if len(args) == 2 and args[0] == "parse":
        try:
            with open(args[1]) as f:
                text = f.read()
        except OSError as e:
            fail(f"{args[1]}: {e.strerror}")
        tps, txns, lat, failed = parse_pgbench(text, args[1])
        print(f"{tps:.6f} {txns} {lat:.3f} {failed}")
    elif len(args) == 3 and args[0] == "perf":
        try:
            with open(args[1]) as f:
                count = perf_count(f.read(), args[2])
        except OSError:
            count = None
        print("-" if count is None else count)
    elif len(args) == 2 and args[0] == "report":
        report(args[1])
    else:
        sys.exit("usage: results.py parse PGBENCH_OUTPUT | "
                 "perf PERF_CSV EVENT | report RESULTS_DIR")


if __name__ == "__main__":
    main(sys.argv[1:])
