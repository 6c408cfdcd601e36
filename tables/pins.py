"""The versions the build pins, toolchain/pins, for the tests and
scripts: one NAME=VALUE a line (the shell sources the file itself).

Usage: pins.py NAME        the value of NAME
       pins.py host-clang  the host's clang driver (clang-HOST_LLVM)"""

import os
import re
import sys

PINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                    "toolchain", "pins")


def pin(name, path=PINS):
    """The value of NAME in PATH; KeyError where no line sets it."""
    with open(path) as f:
        for line in f:
            m = re.match(r"(%s)=(\S*)\s*$" % re.escape(name), line)
            if m:
                return m.group(2)
    raise KeyError("%s: no %s= line" % (path, name))


def host_clang():
    """Debian 12's clang, the host's (clang-N)."""
    return "clang-" + pin("HOST_LLVM")


def main(argv):
    if len(argv) == 2 and argv[1] == "host-clang":
        print(host_clang())
        return 0
    if len(argv) != 2:
        sys.stderr.write("usage: pins.py NAME | host-clang\n")
        return 2
    try:
        print(pin(argv[1]))
    except KeyError as e:
        sys.stderr.write("pins.py: %s\n" % e.args[0])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
