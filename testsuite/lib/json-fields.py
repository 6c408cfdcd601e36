#!/usr/bin/env python3
"""Check that the fields of a `hugetext SUB --json` document never
contradict each other.

Usage: json-fields.py check|status|warm [FILE]   (default: stdin)

Each rule below ties two or more fields that one fact gives; a document
that breaks one is reported, a line a broken rule naming the rule, the
object and the values, and the exit status is 1.  Otherwise it prints
"SUB: N objects, no field contradicts another" and exits 0.  The rules
are what hugetext(1) says of the fields; tools/json-fields.test gives
each one a document that breaks it.
"""

import json
import sys

# warm's statuses where the file was not read or not warmed for a
# reason of its own (an error): hugetext(1), EXIT STATUS.
WARM_ERRORS = {2, 4, 5, 6, 7, 8}


def warm_rules(o):
    """(rule, holds) for one object of warm's array."""
    size, pmd = o.get("size", 0), o.get("pmd_mapped", 0)
    left, st = o.get("small_folios_left", 0), o.get("status")
    h = o.get("page_size", 0)
    err = "error" in o
    budget = "pass the budget" in o.get("note", "")
    yield "pmd_mapped <= size", pmd <= size
    yield "small_folios_left <= size - pmd_mapped", left <= size - pmd
    yield "status of an error => error", st not in WARM_ERRORS or err
    yield "error => status not 0", not err or st != 0
    yield "status 0 => all of size PMD-mapped", st != 0 or pmd == size
    yield ("size > pmd_mapped, read => status 1",
           err or size == pmd or st == 1)
    yield "offset and size are multiples of page_size", \
        err or h == 0 or (o.get("offset", 0) % h == 0 and size % h == 0)
    yield "code_size < min_size => size 0, status 0, note below", \
        "code_size" not in o or (
            o["code_size"] < o.get("min_size", 0) and size == 0
            and st == 0 and o.get("note") == "below the min size")
    yield "left by the budget => status 1", not budget or st == 1


def status_rules(m):
    """(rule, holds) for one mapping of status's report."""
    size = m["size"]
    pmd = m.get("file_pmd_mapped", 0) + m.get("shmem_pmd_mapped", 0)
    yield "end - start == size", m["end"] - m["start"] == size
    yield "PMD-mapped <= eligible", pmd <= m.get("eligible", 0)
    yield "eligible <= size", m.get("eligible", 0) <= size
    yield "rss <= size", m.get("rss", 0) <= size
    yield "not congruent => nothing eligible", \
        m.get("congruent", True) or m.get("eligible", 0) == 0
    yield "a reason <=> not all PMD-mapped", \
        (m.get("reason") is not None) == (pmd < size)


def check_rules(f):
    """(rule, holds) for one file of check's report."""
    segs = f.get("segments", [])
    verdict = f.get("verdict")
    yield "error <=> verdict error", ("error" in f) == (verdict == "error")
    if verdict == "error":
        return
    failing = sum(1 for s in segs if not s["ok"])
    yield "failing_segments counts the segments not ok", \
        f.get("failing_segments") == failing
    yield "eligible_segments counts the eligible ones", \
        f.get("eligible_segments") == sum(1 for s in segs if s["eligible"])
    yield "verdict ok <=> no failing segment", \
        (verdict == "ok") == (failing == 0)
    h = f.get("page_size", 0)
    for s in segs:
        yield "ok <=> no problems", s["ok"] == (not s["problems"])
        yield "padding == front_gap + tail_padding", \
            s["padding"] == s["front_gap"] + s["tail_padding"]
        yield "padding_holes <= padding", s["padding_holes"] <= s["padding"]
        yield "eligible => code, code_size >= min_size", \
            not s["eligible"] or (s["code"]
                                  and s["code_size"] >= f["min_size"])
        yield "vaddr_aligned == vaddr % page_size == 0", \
            h == 0 or s["vaddr_aligned"] == (s["vaddr"] % h == 0)
        yield "offset_aligned == offset % page_size == 0", \
            h == 0 or s["offset_aligned"] == (s["offset"] % h == 0)


def objects(sub, doc):
    """(name, rules) for each object of DOC, the JSON of SUB."""
    if sub == "warm":
        for o in doc:
            yield o.get("file", "?"), warm_rules(o)
    elif sub == "status":
        for d in doc if isinstance(doc, list) else [doc]:
            for m in d.get("mappings", []):
                yield f"{d.get('pid')}:{m.get('path')}", status_rules(m)
    else:
        for f in doc["files"]:
            yield f.get("file", "?"), check_rules(f)


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in (
            "check", "status", "warm"):
        sys.exit("usage: json-fields.py check|status|warm [FILE]")
    sub = sys.argv[1]
    text = open(sys.argv[2]).read() if len(sys.argv) == 3 \
        else sys.stdin.read()
    try:
        doc = json.loads(text)
    except ValueError as e:
        print(f"json-fields: {sub}: not a JSON document: {e}")
        return 1
    n = broken = 0
    for name, rules in objects(sub, doc):
        n += 1
        for rule, holds in rules:
            if not holds:
                print(f"json-fields: {sub}: {name}: breaks "
                      f"'{rule}'")
                broken += 1
    if broken == 0:
        print(f"{sub}: {n} objects, no field contradicts another")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
