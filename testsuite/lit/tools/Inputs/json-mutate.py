#!/usr/bin/env python3
"""Break one field of a good `hugetext SUB --json` document (stdin) and
print the document: json-mutate.py SUB MUTATION.  Each mutation
contradicts one rule of testsuite/lib/json-fields.py."""

import json
import sys

MUTATIONS = {
    # warm: an array of files.
    "pmd-over-size": lambda d: d[0].update(pmd_mapped=d[0]["size"] + 1),
    "left-over-rest": lambda d: d[0].update(small_folios_left=d[0]["size"]),
    "error-status-0": lambda d: d[0].update(error="x", status=0),
    "status-error-no-error": lambda d: d[0].update(status=7),
    "status-0-in-part": lambda d: d[0].update(pmd_mapped=0),
    "in-part-status-3": lambda d: d[0].update(pmd_mapped=0, status=3),
    "offset-not-multiple": lambda d: d[0].update(offset=4096),
    "below-with-size": lambda d: d[0].update(code_size=1, min_size=2),
    "budget-status-0": lambda d: d[0].update(
        note="left as it is: its text would pass the budget", status=0),
    # status: one process.
    "end-start": lambda d: d["mappings"][0].update(
        end=d["mappings"][0]["end"] + 1),
    "pmd-over-eligible": lambda d: d["mappings"][0].update(
        file_pmd_mapped=d["mappings"][0]["eligible"] + 4096),
    "eligible-over-size": lambda d: d["mappings"][0].update(
        eligible=d["mappings"][0]["size"] + 4096),
    "rss-over-size": lambda d: d["mappings"][0].update(
        rss=d["mappings"][0]["size"] + 4096),
    "incongruent-eligible": lambda d: d["mappings"][0].update(
        congruent=False),
    "reason-flipped": lambda d: d["mappings"][0].update(
        reason=None if d["mappings"][0].get("reason") else "x"),
    # check: {"files": [...]}.
    "verdict-error-no-error": lambda d: d["files"][0].update(
        verdict="error"),
    "failing-count": lambda d: d["files"][0].update(failing_segments=5),
    "eligible-count": lambda d: d["files"][0].update(eligible_segments=5),
    "verdict-fail-none-failing": lambda d: d["files"][0].update(
        verdict="fail"),
    "ok-with-problems": lambda d: d["files"][0]["segments"][1].update(
        problems=["start.vaddr"]),
    "padding-sum": lambda d: d["files"][0]["segments"][1].update(
        padding=d["files"][0]["segments"][1]["padding"] + 1),
    "holes-over-padding": lambda d: d["files"][0]["segments"][1].update(
        padding_holes=d["files"][0]["segments"][1]["padding"] + 1),
    "eligible-not-code": lambda d: d["files"][0]["segments"][1].update(
        code=False),
    "vaddr-aligned": lambda d: d["files"][0]["segments"][1].update(
        vaddr_aligned=False),
    "offset-aligned": lambda d: d["files"][0]["segments"][1].update(
        offset_aligned=False),
}

doc = json.load(sys.stdin)
MUTATIONS[sys.argv[1]](doc)
json.dump(doc, sys.stdout)
