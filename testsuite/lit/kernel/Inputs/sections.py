"""What the kernel tests' Inputs scripts share: a vm-run's output cut into
sections, each opened by a marker line ("GROUP ...", "CELL ..."), and the
KEY=NUMBER fields of a result line."""

import re
import sys


def fields(line):
    """The KEY=NUMBER fields of LINE, as a dict of ints."""
    return {k: int(v) for k, v in re.findall(r"(\w+)=(-?\d+)", line)}


def sections(path, marker, width):
    """The sections of the file PATH: [(key, lines)], key the WIDTH words
    after MARKER on the line that opens the section, lines those after it
    up to the next.  Exits 1 where there is none."""
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith(marker + " "):
                out.append((tuple(line.split()[1:1 + width]), []))
            elif out:
                out[-1][1].append(line)
    if not out:
        sys.exit("%s: no %s line" % (path, marker))
    return out
