#!/usr/bin/env python3
"""Turn the measurements of bench/run-benchmarks into results.md and runs.png.

Usage: bench/report.py [--no-plot] RESULTS_DIR

Reads, from RESULTS_DIR:
  runs.tsv      WORKLOAD VARIANT ROUND NS ITLB_MISSES ("-" when not counted);
                round 0 is the warm-up and is left out
  links.tsv     PROGRAM VARIANT PLAIN_NS HUGETEXT_NS, one line per pair
  sizes.tsv     PROGRAM VARIANT APPARENT_BYTES DISK_BYTES
  status-PROGRAM-VARIANT.json   `hugetext status --json` while it ran
  machine.txt, perf.txt, tlb-reach.txt   shown as they are

The variants, their labels and what each is compared with come from
producers/table (the producers marked "bench"): each is compared with
its baseline there where the benchmarks run that one (ld.lld -z hugetext
with ld.lld's plain link), else with Debian's plain link, run in the same
round; link times with the baseline itself.  The ratio is the median of the per-round ratios,
with a 95 % bootstrap confidence interval (10,000 resamples of the
rounds, fixed seed, so the report is reproducible from the data).
"""

import collections
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "producers"))
from ratio import pct, ratio_ci  # noqa: E402
import producer  # noqa: E402


def variants():
    """The producers the benchmarks run (marked "bench" in
    producers/table), in the table's order: their labels, and the
    variant each is compared with at run time: its baseline where the
    benchmarks run that one, else the first (Debian's plain link)."""
    table = producer.load()
    rows = [r for r in table if "bench" in producer.words(r["in"])]
    names = [r["name"] for r in rows]
    label = {r["name"]: r["label"] for r in table}
    baseline = {}
    for r in rows[1:]:
        baseline[r["name"]] = (r["baseline"] if r["baseline"] in names
                               else names[0])
    return names, baseline, label


VARIANTS, BASELINE, LABEL = variants()
WORKLOADS = {"itlb": "iTLB stress (64 MiB of text)",
             "clang": "clang -O2, 24 files of BFD"}
MIB = 1 << 20


def round_ratio(rows, base_rows):
    """ratio_ci of ROWS against BASE_ROWS (round -> (value, ...)) over the
    rounds both have, or None when they have none in common."""
    common = sorted(set(rows) & set(base_rows))
    if not common:
        return None
    return ratio_ci([(base_rows[r][0], rows[r][0]) for r in common])


def read_rows(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.split() for line in f if line.strip()]


def read_text(path):
    if not os.path.exists(path):
        return "(not measured)"
    with open(path) as f:
        return f.read().strip()


def status_coverage(path, suffix):
    """(text, resident, PMD-mapped) bytes of the mapping whose path ends
    in SUFFIX in the `hugetext status --json` report PATH, or None."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError):
        return None
    for m in report.get("mappings", []):
        if m["path"].endswith(suffix):
            return (m["size"], m.get("rss", m["size"]),
                    m["file_pmd_mapped"] + m["shmem_pmd_mapped"])
    return None


def coverage(results, prog, variant):
    """(text, resident, PMD-mapped) bytes of the program itself, or None."""
    return status_coverage(os.path.join(results, f"status-{prog}-{variant}.json"),
                           f"/{prog}/{variant}")


def runtime_tables(results, runs, out):
    by = collections.defaultdict(dict)   # (workload, variant) -> round -> row
    for workload, variant, rnd, ns, misses in runs:
        if int(rnd) > 0:
            by[workload, variant][int(rnd)] = (int(ns) / 1e9, misses)
    for workload, title in WORKLOADS.items():
        if not any((workload, v) in by for v in VARIANTS):
            continue
        counted = any(m != "-" for v in VARIANTS
                      for _, m in by[workload, v].values())
        out.append(f"### {title}\n")
        head = ("| variant | runs | median s | min–max s | vs. | ratio "
                "| 95 % CI | PMD-mapped of text used | of all text |")
        rule = "|---|---:|---:|---:|---|---:|---:|---:|---:|"
        if counted:
            head += " iTLB misses (median) |"
            rule += "---:|"
        out += [head, rule]
        for v in VARIANTS:
            rows = by[workload, v]
            if not rows:
                continue
            times = [t for t, _ in rows.values()]
            line = (f"| {LABEL[v]} | {len(times)} | "
                    f"{statistics.median(times):.3f} | "
                    f"{min(times):.3f}–{max(times):.3f} |")
            base = BASELINE.get(v)
            ratio = round_ratio(rows, by[workload, base]) if base else None
            if ratio:
                mid, lo, hi = ratio
                line += f" {base} | **{mid:.3f}** | {lo:.3f}–{hi:.3f} |"
            else:
                line += " | | |"
            cov = coverage(results, workload, v)
            if cov and cov[1] > 0:
                size, rss, pmd = cov
                line += (f" {pmd / MIB:.1f} of {rss / MIB:.1f} MiB "
                         f"({100 * pmd / rss:.0f} %) |"
                         f" {100 * pmd / size:.0f} % of {size / MIB:.1f} MiB |")
            else:
                line += " not measured | |"
            if counted:
                misses = [int(m) for _, m in rows.values() if m != "-"]
                line += f" {statistics.median(misses):,} |" if misses else " |"
            out.append(line)
        out.append("")


def link_table(links, out):
    by = collections.OrderedDict()
    for prog, variant, plain, huge in links:
        by.setdefault((prog, variant), []).append((int(plain), int(huge)))
    if not by:
        return
    out += ["### Link time\n",
            "| program | producer | pairs | plain s | hugetext s | ratio "
            "| 95 % CI |",
            "|---|---|---:|---:|---:|---:|---:|"]
    for (prog, variant), pairs in by.items():
        mid, lo, hi = ratio_ci(pairs)
        base = producer.find(producer.load(), variant)["baseline"]
        out.append(
            f"| {prog} | {LABEL[variant]} (vs. {LABEL[base]}) "
            f"| {len(pairs)} "
            f"| {statistics.median(p for p, _ in pairs) / 1e9:.2f} "
            f"| {statistics.median(h for _, h in pairs) / 1e9:.2f} "
            f"| **{mid:.3f}** | {lo:.3f}–{hi:.3f} |")
    out.append("")


def size_table(sizes, out):
    if not sizes:
        return
    out += ["### File size\n",
            "| program | variant | apparent MiB | on disk MiB |",
            "|---|---|---:|---:|"]
    for prog, variant, apparent, disk in sizes:
        out.append(f"| {prog} | {LABEL[variant]} | {int(apparent) / MIB:.2f} "
                   f"| {int(disk) / MIB:.2f} |")
    out.append("")


def plot(runs, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, (workload, title) in zip(axes, WORKLOADS.items()):
        for v in VARIANTS:
            pts = sorted((int(r), int(ns) / 1e9)
                         for w, var, r, ns, _ in runs
                         if w == workload and var == v and int(r) > 0)
            if pts:
                ax.plot([r for r, _ in pts], [t for _, t in pts],
                        marker="o", markersize=3, linewidth=1,
                        linestyle="--" if v.endswith("plain") else "-",
                        label=LABEL[v])
        ax.set_title(title)
        ax.set_xlabel("round")
        ax.set_ylabel("seconds per run")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(results, with_plot=True):
    runs = read_rows(os.path.join(results, "runs.tsv"))
    if not runs:
        sys.exit(f"report.py: no runs in {results}/runs.tsv")
    out = ["## Results\n", "```", read_text(os.path.join(results,
                                                          "machine.txt")),
           read_text(os.path.join(results, "perf.txt")), "```\n"]
    runtime_tables(results, runs, out)
    link_table(read_rows(os.path.join(results, "links.tsv")), out)
    size_table(read_rows(os.path.join(results, "sizes.tsv")), out)
    out += ["### TLB reach of huge pages here (`tlb-reach`)\n", "```",
            read_text(os.path.join(results, "tlb-reach.txt")), "```", ""]
    with open(os.path.join(results, "results.md"), "w") as f:
        f.write("\n".join(out))
    if with_plot:
        plot(runs, os.path.join(results, "runs.png"))


if __name__ == "__main__":
    args = sys.argv[1:]
    with_plot = "--no-plot" not in args
    args = [a for a in args if a != "--no-plot"]
    if len(args) != 1:
        sys.exit("usage: report.py [--no-plot] RESULTS_DIR")
    main(args[0], with_plot)
