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


def paired(read, stock_path, ours_path):
    """READ (a function of a path returning (keys in order, {key: ...}))
    of Debian's 7.2's file and of ours: (keys, stock's, ours').  Exits 1
    where the two have different keys."""
    order, stock = read(stock_path)
    order_ours, ours = read(ours_path)
    if order != order_ours:
        sys.exit("%s and %s have different sections" % (stock_path,
                                                        ours_path))
    return order, stock, ours
