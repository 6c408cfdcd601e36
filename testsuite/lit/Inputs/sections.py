"""Print what rule `side-effects` keeps for the ELF file given: each
allocated section but the padding section as NAME TYPE SIZE FLAGS, and
where etext, _etext and __etext lie relative to the start of .text."""
import re
import subprocess
import sys

path = sys.argv[1]
out = subprocess.run(["llvm-readelf", "-SW", path], capture_output=True,
                     text=True, check=True).stdout
addr = {}
for line in out.splitlines():
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+"
                 r"([0-9a-f]+)\s+[0-9a-f]+\s+([A-Za-z]*)\s+\d+\s+\d+\s+\d+$",
                 line)
    if not m:
        continue
    name, type_, address, size, flags = m.groups()
    addr[name] = int(address, 16)
    if "A" in flags and not name.startswith(".hugetext_padding"):
        print("section", name, type_, size, flags)
syms = subprocess.run(["llvm-nm", path], capture_output=True, text=True,
                      check=True).stdout
for line in syms.splitlines():
    value, _, name = line.split()[-3:] if len(line.split()) == 3 else ("", "", "")
    if name in ("etext", "_etext", "__etext"):
        print("symbol", name, "at .text +", hex(int(value, 16) - addr[".text"]))
