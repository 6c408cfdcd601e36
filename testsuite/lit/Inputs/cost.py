"""Print whether HUGE costs what the contract's rule `cost` allows over
PLAIN: H = 2 MiB, one eligible segment.  The gap before the code and the
padding after it are holes, so the file grows on disk by a few blocks at
most (FEW: 64 KiB, room for a file system's allocation granularity)."""
import os
import sys

H = 0x200000
FEW = 0x10000
plain, huge = (os.stat(p) for p in sys.argv[1:3])
print("apparent growth < 2*H:",
      "yes" if huge.st_size - plain.st_size < 2 * H else "no")
print("disk growth a few blocks:",
      "yes" if (huge.st_blocks - plain.st_blocks) * 512 <= FEW else "no")
