#!/usr/bin/env python3
"""The census of distro/census: what a -z hugetext default would do to
Debian's code, read from the packages as shipped.

  census.py sample --rules FILE --packages FILE --contents FILE
      The sample (distro/census-sample's rules over the suite's Packages
      and Contents indexes): a line "NAME VERSION SIZE SHA256 WHY" per
      package, by name.
  census.py scan --hugetext PROG --out DIR DEB...
      Each DEB's ELF files judged by `hugetext check --json` (the
      project's own reader): DIR/NAME_VERSION.json, one per package;
      kept while the .deb's SHA256 is the same.
  census.py report --results DIR --out DIR [--docs FILE] [--command TEXT]
                   [--seconds N] [--download BYTES] [--machine TEXT]
      The table, per package and in total, and a plot of code in
      eligible files against padding: OUT/census.md, OUT/census.svg,
      and with --docs the table between the markers of FILE (the plot
      beside it, as census.svg in FILE's folder).

What a file counts for, per eligible code segment (hugetext check's
"eligible": code, at least the min size of its machine's H):
  - padding: what a -z hugetext link adds to it, by the contract
    (docs/contract.md): the code moves to the next H boundary in the
    file (nothing where it starts on one, as a segment that holds the
    ELF headers does), and its end is padded to the next boundary;
  - installed as zeros: that padding in whole 4 KiB blocks, as dpkg
    writes it today;
  - installed with holes: the blocks the file takes beyond the plain
    file's where the padding is a hole (hugetext punch, the patched
    dpkg): the blocks that the data after each inserted zero run now
    starts or ends part way into, counting every byte of the file but
    the padding as data (an upper bound: at most two blocks a segment);
  - congruent: the address and file offset of the code agree modulo H
    already as shipped, as GNU ld's and LLD's usual layouts give (the
    text at an address equal to its offset); then "in whole H blocks" is
    the code in the H-aligned blocks that lie wholly inside it, what
    huge pages can back without relinking where the loader maps the
    file on an H boundary (ld.so does for objects of at least H on
    filesystems with huge folios), against all of it with -z hugetext;
  - beyond the series: more than one eligible code segment (the linker
    patches lay out one).
"""

import argparse
import datetime
import gzip
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

BLOCK = 4096
# The version of what scan keeps per package: a kept result of another
# version is read again.
FORMAT = 2
BEGIN = "<!-- census: begin (written by distro/census --write-docs) -->"
END = "<!-- census: end -->"


def die(msg):
    sys.exit("census: " + msg)


# --- The sample ------------------------------------------------------------

def read_rules(path):
    """distro/census-sample as {key: [values]} ("include": [(name, why)])."""
    rules = {"include": [], "exclude": [], "priority": []}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, _, rest = line.strip().partition(" ")
            rest = rest.strip()
            if key == "include":
                name, _, why = rest.partition(" ")
                rules["include"].append((name, why.strip()))
            elif key in ("exclude", "priority"):
                rules[key] += [rest] if key == "exclude" else rest.split()
            elif key in ("suite", "arch", "top", "elf-path",
                         "exclude-section"):
                rules[key] = rest
            else:
                die(f"{path}:{n}: unknown rule '{key}'")
    for key in ("suite", "arch", "top", "elf-path"):
        if key not in rules:
            die(f"{path}: no '{key}' rule")
    return rules


def read_packages(path):
    """{name: {field: value}} of a Packages index (the newest version of
    each name)."""
    recs, cur, field = {}, {}, None

    def flush():
        if "Package" in cur:
            old = recs.get(cur["Package"])
            if old is None or newer(cur["Version"], old["Version"]):
                recs[cur["Package"]] = dict(cur)

    with open(path, errors="replace") as f:
        for line in f:
            if line == "\n":
                flush()
                cur.clear()
            elif line[0] not in " \t" and ":" in line:
                field, _, value = line.partition(":")
                cur[field] = value.strip()
    flush()
    return recs


def newer(a, b):
    return subprocess.run(["dpkg", "--compare-versions", a, "gt", b]
                          ).returncode == 0


def elf_candidates(contents, pattern):
    """The names of the packages that Contents lists a matching path for."""
    rx = re.compile(pattern)
    names = set()
    opener = gzip.open if contents.endswith(".gz") else open
    with opener(contents, "rt", errors="replace") as f:
        for line in f:
            path, _, where = line.rstrip("\n").rpartition(" ")
            if rx.search(path.strip()):
                names.update(w.rsplit("/", 1)[-1] for w in where.split(","))
    return names


def cmd_sample(args):
    rules = read_rules(args.rules)
    recs = read_packages(args.packages)
    elf = elf_candidates(args.contents, rules["elf-path"])
    excl = [re.compile(x) for x in rules["exclude"]]
    section = rules.get("exclude-section")
    cand = [r for n, r in recs.items()
            if n in elf and not any(x.search(n) for x in excl)
            and r.get("Section", "").rsplit("/", 1)[-1] != section]
    cand.sort(key=lambda r: (-int(r.get("Installed-Size", "0")),
                             r["Package"]))
    why = {}
    for r in cand[:int(rules["top"])]:
        why.setdefault(r["Package"], "top")
    for r in cand:
        if r.get("Priority") in rules["priority"]:
            why.setdefault(r["Package"], "priority " + r["Priority"])
    missing = [n for n, _ in rules["include"] if n not in recs]
    if missing:
        die("the suite has no package " + ", ".join(missing) +
            f" (an include rule of {args.rules})")
    for name, reason in rules["include"]:
        why.setdefault(name, "include: " + reason)
    for name in sorted(why):
        r = recs[name]
        print(name, r["Version"], r["Size"], r["SHA256"], why[name])
    return 0


# --- Scanning ----------------------------------------------------------------

def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def deb_field(deb, field):
    return subprocess.run(["dpkg-deb", "-f", deb, field], check=True,
                          capture_output=True, text=True).stdout.strip()


def judge(hugetext, paths):
    """hugetext check --json over PATHS: {path: its "files" entry}.  A file
    that check cannot read (a truncated or odd ELF file) gets an entry
    with "error": the reason check gave."""
    run = subprocess.run([hugetext, "check", "--json"] + paths,
                         capture_output=True, text=True)
    try:
        out = {f["file"]: f for f in json.loads(run.stdout)["files"]}
    except (ValueError, KeyError):
        out = {}
    if len(out) == len(paths):
        return out
    if len(paths) > 1:
        out = {}
        for path in paths:
            out.update(judge(hugetext, [path]))
        return out
    return {paths[0]: {"error": (run.stderr.strip() or
                                 f"exit status {run.returncode}")[-200:]}}


def align_up(n, h):
    return (n + h - 1) // h * h


def blocks(ranges):
    """The BLOCK-sized blocks that the byte ranges (start, end), in
    ascending order, touch."""
    count, last = 0, -1
    for start, end in ranges:
        if end <= start:
            continue
        first, final = max(start // BLOCK, last + 1), (end - 1) // BLOCK
        count += max(0, final - first + 1)
        last = max(last, final)
    return count


def hole_blocks(offset, code, front, tail, size):
    """The blocks more that a file of SIZE bytes takes with FRONT bytes of
    holes inserted before its code at OFFSET and TAIL after the CODE
    bytes of it, every other byte counted as data."""
    new = blocks([(0, offset), (offset + front, offset + front + code),
                  (offset + front + code + tail, size + front + tail)])
    return (new - blocks([(0, size)])) * BLOCK


def file_facts(entry, size):
    """What one judged ELF file counts for (see the module's text)."""
    h = entry.get("page_size") or 0
    segs = entry.get("segments", [])
    code = sum(s["code_size"] for s in segs if s.get("code"))
    elig = [s for s in segs if s.get("eligible")]
    if not h or entry.get("page_size_assumed"):
        elig = []		# No H known for its machine: not judged.

    facts = {"size": size, "machine": entry.get("machine", "?"),
             "error": entry.get("error"),
             "code": code, "eligible": bool(elig),
             "eligible_code": sum(s["code_size"] for s in elig),
             "segments": len(elig), "padding": 0, "zeros": 0, "holes": 0,
             "whole": 0,
             "congruent": bool(elig), "laid_out": bool(elig) and
             entry.get("verdict") == "pass"}
    for s in elig:
        front = align_up(s["offset"], h) - s["offset"]
        tail = align_up(s["code_size"], h) - s["code_size"]
        facts["padding"] += front + tail
        facts["zeros"] += align_up(front, BLOCK) + align_up(tail, BLOCK)
        facts["holes"] += hole_blocks(s["offset"], s["code_size"], front,
                                      tail, size)
        if (s["vaddr"] - s["offset"]) % h:
            facts["congruent"] = False
        else:
            facts["whole"] += max(0, (s["offset"] + s["code_size"]) // h * h
                                  - align_up(s["offset"], h))
    if not facts["congruent"]:
        facts["whole"] = 0
    if facts["laid_out"]:
        facts["padding"] = facts["zeros"] = facts["holes"] = 0
    return facts


def scan_deb(hugetext, deb, out):
    name, version = deb_field(deb, "Package"), deb_field(deb, "Version")
    digest = sha256(deb)
    dest = os.path.join(out, f"{name}_{version.replace(':', '%3a')}.json")
    try:
        with open(dest) as f:
            kept = json.load(f)
            if kept["sha256"] == digest and kept.get("format") == FORMAT:
                return dest
    except (FileNotFoundError, ValueError, KeyError):
        pass
    installed = int(deb_field(deb, "Installed-Size") or 0) * 1024
    files, sizes = {}, {}
    with tempfile.TemporaryDirectory(prefix="census-") as tmp:
        tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb],
                               stdout=subprocess.PIPE)
        paths = []
        with tarfile.open(fileobj=tar.stdout, mode="r|") as t:
            for m in t:
                if not m.isreg() or m.size < 64:
                    continue
                src = t.extractfile(m)
                head = src.read(4)
                if head != b"\x7fELF":
                    continue
                local = os.path.join(tmp, str(len(paths)))
                with open(local, "wb") as f:
                    f.write(head)
                    shutil.copyfileobj(src, f)
                paths.append(local)
                sizes[local] = (m.name.lstrip("."), m.size)
                if len(paths) % 200 == 0:
                    files.update(judged(hugetext, paths[-200:], sizes))
        if tar.wait() != 0:
            die(f"{deb}: dpkg-deb --fsys-tarfile failed")
        rest = len(paths) % 200
        if rest:
            files.update(judged(hugetext, paths[-rest:], sizes))
    result = {"format": FORMAT, "package": name, "version": version,
              "sha256": digest,
              "deb_size": os.path.getsize(deb), "installed": installed,
              "files": files}
    tmpdest = dest + ".tmp"
    with open(tmpdest, "w") as f:
        json.dump(result, f, sort_keys=True)
    os.replace(tmpdest, dest)
    return dest


def judged(hugetext, paths, sizes):
    """The facts of PATHS, by their names in the package; each temporary
    copy removed once judged."""
    out = {}
    for path, entry in judge(hugetext, paths).items():
        name, size = sizes[path]
        out[name] = file_facts(entry, size)
        os.unlink(path)
    return out


def cmd_scan(args):
    os.makedirs(args.out, exist_ok=True)
    for deb in args.debs:
        print(scan_deb(args.hugetext, deb, args.out), flush=True)
    return 0


# --- The report --------------------------------------------------------------

def mib(n):
    return f"{n / 1048576:.1f}"


def package_rows(results):
    rows = []
    for name in sorted(os.listdir(results)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(results, name)) as f:
            r = json.load(f)
        files = r["files"].values()
        elig = [x for x in files if x["eligible"]]
        rows.append({
            "package": r["package"], "version": r["version"],
            "deb": r["deb_size"], "installed": r["installed"],
            "elf": len(r["files"]), "code": sum(x["code"] for x in files),
            "eligible": len(elig),
            "eligible_code": sum(x["eligible_code"] for x in elig),
            "padding": sum(x["padding"] for x in elig),
            "zeros": sum(x["zeros"] for x in elig),
            "holes": sum(x["holes"] for x in elig),
            "congruent": sum(1 for x in elig if x["congruent"]),
            "whole": sum(x["whole"] for x in elig),
            "laid_out": sum(1 for x in elig if x["laid_out"]),
            "beyond": sorted(n for n, x in r["files"].items()
                             if x["segments"] > 1),
            "errors": sum(1 for x in files if x.get("error")),
            "largest": max(((x["eligible_code"], n)
                            for n, x in r["files"].items()
                            if x["eligible"]), default=(0, "")),
        })
    return rows


def total(rows):
    keys = ("deb", "installed", "elf", "code", "eligible", "eligible_code",
            "whole", "padding", "zeros", "holes", "congruent", "laid_out")
    t = {k: sum(r[k] for r in rows) for k in keys}
    t["beyond"] = [f"{r['package']}:{n}" for r in rows for n in r["beyond"]]
    t["errors"] = sum(r["errors"] for r in rows)
    return t


def pct(a, b):
    return f"{100.0 * a / b:.1f} %" if b else "-"


def table(rows, t, args):
    out = []
    when = args.date or datetime.date.today().isoformat()
    out.append(f"Run on {when}"
               + (f" on {args.machine}" if args.machine else "")
               + (f", `{args.command}`" if args.command else "")
               + (f", in {args.seconds // 60} min {args.seconds % 60} s"
                  if args.seconds is not None else "")
               + f"; {len(rows)} packages, {mib(t['deb'])} MiB of .debs"
               + (f" downloaded ({mib(args.download)} MiB new in this run)"
                  if args.download is not None else "") + ".")
    out.append("")
    out.append("| | packages | ELF files | eligible files | code, MiB | "
               "code in eligible files, MiB (share) | congruent as shipped "
               "| their code in whole H blocks, MiB | padding, MiB | "
               "installed as zeros, MiB (of installed) | installed with "
               "holes, MiB (of installed) |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|")
    out.append(f"| all | {len(rows)} | {t['elf']} | {t['eligible']} | "
               f"{mib(t['code'])} | {mib(t['eligible_code'])} "
               f"({pct(t['eligible_code'], t['code'])}) | {t['congruent']} "
               f"| {mib(t['whole'])} | {mib(t['padding'])} | "
               f"{mib(t['zeros'])} ({pct(t['zeros'], t['installed'])}) | "
               f"{mib(t['holes'])} ({pct(t['holes'], t['installed'])}) |")
    out.append("")
    out.append(f"Beyond the series (more than one eligible code segment): "
               f"{', '.join(t['beyond']) or 'none'}.  Already laid out: "
               f"{t['laid_out']} files.  ELF files that hugetext check "
               f"could not read: {t['errors']}.")
    out.append("")
    out.append("The packages with eligible files, by code in them:")
    out.append("")
    out.append("| package | ELF files | eligible | code in eligible files, "
               "MiB (share of its code) | largest | congruent | in whole H "
               "blocks | padding, MiB | installed as zeros (of installed) | "
               "with holes |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted((r for r in rows if r["eligible"]),
                    key=lambda r: (-r["eligible_code"], r["package"])):
        out.append(f"| {r['package']} | {r['elf']} | {r['eligible']} | "
                   f"{mib(r['eligible_code'])} "
                   f"({pct(r['eligible_code'], r['code'])}) | "
                   f"`{os.path.basename(r['largest'][1])}` "
                   f"{mib(r['largest'][0])} | {r['congruent']} | "
                   f"{mib(r['whole'])} | {mib(r['padding'])} | {mib(r['zeros'])} "
                   f"({pct(r['zeros'], r['installed'])}) | "
                   f"{r['holes'] // 1024} KiB |")
    none = sorted(r["package"] for r in rows if not r["eligible"])
    out.append("")
    out.append(f"No eligible file ({len(none)} packages): "
               + ", ".join(none) + ".")
    return "\n".join(out) + "\n"


def plot(rows, path):
    """An SVG scatter plot, log-log: code in eligible files (x) against
    padding (y), MiB, one dot per package with eligible files."""
    import math
    pts = [(r["eligible_code"] / 1048576, r["padding"] / 1048576,
            r["package"]) for r in rows if r["eligible"]]
    w, h, m = 640, 420, 60
    lo_x, hi_x, lo_y, hi_y = 1, 1024, 0.01, 256

    def x(v):
        v = min(max(v, lo_x), hi_x)
        return m + (w - 2 * m) * math.log(v / lo_x) / math.log(hi_x / lo_x)

    def y(v):
        v = min(max(v, lo_y), hi_y)
        return h - m - (h - 2 * m) * math.log(v / lo_y) / math.log(hi_y / lo_y)

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
         f'font-family="sans-serif" font-size="11">',
         f'<rect width="{w}" height="{h}" fill="white"/>']
    for v in (1, 4, 16, 64, 256, 1024):
        s.append(f'<line x1="{x(v):.1f}" y1="{m}" x2="{x(v):.1f}" '
                 f'y2="{h - m}" stroke="#ddd"/><text x="{x(v):.1f}" '
                 f'y="{h - m + 14}" text-anchor="middle">{v}</text>')
    for v in (0.01, 0.1, 1, 10, 100):
        s.append(f'<line x1="{m}" y1="{y(v):.1f}" x2="{w - m}" '
                 f'y2="{y(v):.1f}" stroke="#ddd"/><text x="{m - 4}" '
                 f'y="{y(v) + 4:.1f}" text-anchor="end">{v:g}</text>')
    s.append(f'<text x="{w / 2}" y="{h - 18}" text-anchor="middle">code in '
             f'eligible files, MiB (log)</text>')
    s.append(f'<text x="16" y="{h / 2}" text-anchor="middle" transform='
             f'"rotate(-90 16 {h / 2})">padding a -z hugetext link adds, '
             f'MiB (log)</text>')
    for px, py, name in pts:
        s.append(f'<circle cx="{x(px):.1f}" cy="{y(py):.1f}" r="3" '
                 f'fill="#36c" fill-opacity="0.6"><title>'
                 f'{html.escape(name)}: {px:.1f} MiB of code, {py:.2f} MiB '
                 f'of padding</title></circle>')
    for px, py, name in sorted(pts, reverse=True)[:8]:
        s.append(f'<text x="{x(px) + 5:.1f}" y="{y(py) - 5:.1f}">'
                 f'{html.escape(name)}</text>')
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def cmd_report(args):
    rows = package_rows(args.results)
    if not rows:
        die(f"no results in {args.results}")
    t = total(rows)
    text = table(rows, t, args)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "census.md"), "w") as f:
        f.write(text)
    plot(rows, os.path.join(args.out, "census.svg"))
    sys.stdout.write(text)
    if args.docs:
        with open(args.docs) as f:
            doc = f.read()
        if BEGIN not in doc or END not in doc:
            die(f"{args.docs} has no census markers")
        head, _, rest = doc.partition(BEGIN)
        _, _, tail = rest.partition(END)
        with open(args.docs, "w") as f:
            f.write(head + BEGIN + "\n\n" + text + "\n![code in eligible "
                    "files against padding, per package](census.svg)\n\n"
                    + END + tail)
        shutil.copy(os.path.join(args.out, "census.svg"),
                    os.path.join(os.path.dirname(args.docs), "census.svg"))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("--rules", required=True)
    s.add_argument("--packages", required=True)
    s.add_argument("--contents", required=True)
    s = sub.add_parser("scan")
    s.add_argument("--hugetext", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("debs", nargs="+")
    s = sub.add_parser("report")
    s.add_argument("--results", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--docs")
    s.add_argument("--command")
    s.add_argument("--machine")
    s.add_argument("--date")
    s.add_argument("--seconds", type=int)
    s.add_argument("--download", type=int)
    args = p.parse_args()
    return {"sample": cmd_sample, "scan": cmd_scan,
            "report": cmd_report}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
