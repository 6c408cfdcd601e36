"""Print whether HUGE costs what the contract's rule `cost` allows over
PLAIN (H = 2 MiB)."""
import os
import sys

H = 0x200000
plain, huge = (os.stat(p) for p in sys.argv[1:3])
tail = H - 0x280000 % H  # the test's 2.5 MiB of code, padded to 4 MiB
print("apparent growth < 2*H:",
      "yes" if huge.st_size - plain.st_size < 2 * H else "no")
print("disk growth <= tail padding:",
      "yes" if (huge.st_blocks - plain.st_blocks) * 512 <= tail else "no")
