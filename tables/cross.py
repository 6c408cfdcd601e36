"""The cross toolchains of lib/machines.def (HT_CROSS lines): how to
compile, link and run a program of a foreign machine.  Read by
testsuite/cross/run-cross.py and bench/file-size.py."""

import os
import shutil
import subprocess

import machines
import pins

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, cwd=None):
    """Run CMD; its exit status and its output (stdout and stderr)."""
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


class Toolchain:
    """One HT_CROSS line, made usable: cc (the compiler driver, a list),
    libc (the C library's folder, qemu's -L), qemu (its binary), h (the
    machine's H in bytes), plain (the driver's flags for a link by the
    default linker of the target) and why_not (None, or why it cannot be
    used here)."""

    def __init__(self, cross, build):
        self.triplet = cross["triplet"]
        self.qemu = cross["qemu"]
        self.clang = cross["cc"] == "clang"
        self.h = cross["machine"]["h_kib"] * 1024
        self.build = build
        self.why_not = None
        self.plain = []
        if not self.clang:
            self.cc = [self.triplet + "-gcc"]
            self.libc = "/usr/" + self.triplet
            if shutil.which(self.cc[0]) is None:
                self.why_not = "no %s (./run deps installs it)" % self.cc[0]
            return
        code, out = run([os.path.join(TOP, "toolchain", "cross-sysroot"),
                         self.triplet])
        if code != 0:
            self.why_not = "no sysroot: " + out.strip().splitlines()[-1]
            return
        sysroot = out.strip().splitlines()[-1]
        self.cc = [pins.host_clang(), "--target=" + self.triplet,
                   "--sysroot=" + sysroot]
        self.libc = os.path.join(sysroot, "usr", self.triplet)
        if self.qemu.startswith("sid:"):
            self.qemu = os.path.join(sysroot, "qemu", self.qemu[4:])
        # No Debian 12 linker for it: the cross GNU ld is the default.
        self.plain = self.ld_flags(self.gnu_ld(), None)

    def gnu_ld(self):
        """The build's cross GNU ld for this target."""
        return os.path.join(self.build, "bin", self.triplet + "-ld")

    def gnu_as(self):
        """The build's cross GNU as for this target."""
        return os.path.join(self.build, "bin", self.triplet + "-as")

    def gnu_objdump(self):
        """The build's cross objdump for this target."""
        return os.path.join(self.build, "bin", self.triplet + "-objdump")

    def lld(self):
        return os.path.join(self.build, "bin", "ld.lld")

    def ld_flags(self, ld, work):
        """The driver's flags that make it link with LD: clang takes its
        path; gcc looks for ld.bfd or ld.lld in a -B folder (for another
        name, WORK/bin gets an ld.bfd link to it)."""
        if self.clang:
            return ["--ld-path=" + ld]
        if os.path.basename(ld) == "ld.lld":
            return ["-B" + os.path.dirname(ld) + "/", "-fuse-ld=lld"]
        bindir = os.path.join(work, "bin")
        os.makedirs(bindir, exist_ok=True)
        link = os.path.join(bindir, "ld.bfd")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(ld, link)
        return ["-B" + bindir + "/", "-fuse-ld=bfd"]

    def has_static_pie(self):
        return os.path.exists(os.path.join(self.libc, "lib", "rcrt1.o"))


def toolchains(build):
    """A Toolchain for each HT_CROSS line, in order."""
    return [Toolchain(c, build) for c in machines.crosses()]
