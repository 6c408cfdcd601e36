#!/usr/bin/env python3
"""Programs of the foreign machines, linked and run.

For each cross toolchain of lib/machines.def (HT_CROSS lines), the test
program (a main that calls across 33 MiB of code, which reads a global
through the GOT or TOC and one directly) is linked by each producer in
every output kind, checked with `hugetext check` against the machine's H
(its first HT_MACHINE line), and run under qemu-user, where it must
print "ok".  33 MiB: more than the largest H (LoongArch's 32 MiB) and
than PowerPC64's direct branch range (32 MiB), so that the calls across
it need long-branch stubs there.  The zeros of the code are made holes
after each link (fallocate --dig-holes).

Where testsuite/cross/asm/TRIPLET/ exists (LoongArch: clang emits no
R_LARCH_RELAX, so its C objects are never relaxed), the same program is
also built from that folder's main.s, big.s and far.s, assembled by the
build's cross gas (BUILD/bin/TRIPLET-as), which marks them for
relaxation, and each of those cases ("... KIND relaxed") checks with
BUILD/bin/TRIPLET-objdump what the folder's "relaxed" file says the
linker must have relaxed, besides the check and the run.

Producers:
  bfd     the build's cross GNU ld (BUILD/bin/TRIPLET-ld), -z hugetext
          with its own default H; the non-PIE executables with
          -z separate-code (riscv64's image base, 0x10000, is not a
          multiple of H, and GNU ld leaves a code segment that holds the
          ELF headers there alone), the other kinds with the target's
          default (-z noseparate-code: the code segment holds the
          headers at an image base of 0)
  lld     the build's ld.lld, -z hugetext with its own default H
  plugin  Debian 12's cross ld.bfd 2.40 (binutils-TRIPLET) with the
          build's hugetext.so, where Debian 12 has that ld

Usage: testsuite/cross/run-cross.py BUILD_DIR
Prints a line per case, "PASS: cross: TRIPLET PRODUCER KIND[ relaxed]",
FAIL or UNSUPPORTED with the reason; exit status 1 if a case failed.
"""

import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "tables"))
sys.path.insert(0, os.path.join(TOP, "producers"))
import cross  # noqa: E402
import producer as producer_table  # noqa: E402  (the output kinds' flags)

CODE = 0x2100000
KINDS = producer_table.KINDS
ASM = os.path.join(HERE, "asm")

MAIN_C = r"""
#include <stdio.h>
int bigfn (void);
int farfn (void);
int h = 3;
static int k[4] = { 1, 2, 3, 4 };
int
main (void)
{
  if (bigfn () != 0 || farfn () != 2 || h + k[3] != 7)
    return 1;
  puts ("ok");
  return 0;
}
"""

BIG_C = r"""
int g = 1;
int bigfn (void) { return g - 1; }
int bigfn2 (void) { return g - 1; }
"""

FAR_C = r"""
int bigfn2 (void);
extern int g;
int farfn (void) { return bigfn2 () + g + 1; }
"""

# Between big.c's code and far.c's, in the order the objects are linked.
PAD_S = """\t.section .text.pad,"ax",@progbits
\t.skip %#x
""" % CODE


def producers(t, work):
    """The producers for target T: (name, the driver's flags) or (name,
    the reason why not)."""
    out = []
    if os.path.exists(t.gnu_ld()):
        out.append(("bfd", t.ld_flags(t.gnu_ld(), work) +
                    ["-Wl,-z,hugetext"]))
    else:
        out.append(("bfd", "no %s (toolchain/cross-targets)" % t.gnu_ld()))
    out.append(("lld", t.ld_flags(t.lld(), work) + ["-Wl,-z,hugetext"]))
    debian_ld = "/usr/bin/%s-ld.bfd" % t.triplet
    plugin = os.path.join(t.build, "lib", "hugetext.so")
    if t.clang or not os.path.exists(debian_ld):
        out.append(("plugin", "Debian 12 has no %s" % debian_ld))
    else:
        out.append(("plugin", ["-fuse-ld=bfd", "-Wl,-plugin," + plugin,
                               "-Wl,-z,separate-code"]))
    return out


def case(t, work, objset, producer, flags, kind):
    """Link, check and run one case with the objects of OBJSET ("obj",
    compiled from C, or "asm", assembled by gas); None or the reason it
    failed."""
    d = os.path.join(work, objset, producer, kind)
    os.makedirs(d, exist_ok=True)
    o = os.path.join(work, objset)
    cc = t.cc
    kind_flags = producer_table.KIND_FLAGS
    if kind == "shared":
        made = os.path.join(d, "libbig.so")
        steps = [cc + flags + kind_flags["shared"] +
                 [o + "/big-pic.o", o + "/pad.o", o + "/far-pic.o", "-o", made],
                 cc + t.plain + kind_flags["pie"] +
                 [o + "/main-pie.o", "-L" + d, "-lbig", "-Wl,-rpath,$ORIGIN",
                  "-o", os.path.join(d, "prog")]]
    else:
        made = os.path.join(d, "prog")
        pic = [o + "/big-pic.o", o + "/pad.o", o + "/far-pic.o"]
        nopic = [o + "/big.o", o + "/pad.o", o + "/far.o"]
        main = "/main-pie.o" if kind in ("pie", "static-pie") else "/main.o"
        objs = kind_flags[kind] + [o + main] + (
            pic if kind in ("pie", "static-pie") else nopic)
        if producer == "bfd" and kind in ("exec", "static"):
            objs = objs + ["-Wl,-z,separate-code"]
        steps = [cc + flags + objs + ["-o", made]]
    for cmd in steps:
        code, out = cross.run(cmd)
        if code != 0:
            return "link failed: " + " ".join(out.split())[:300]
    cross.run(["fallocate", "--dig-holes", made])
    code, out = cross.run([os.path.join(t.build, "bin", "hugetext"), "check",
                     "--brief", "--page-size=%#x" % t.h, made])
    if code != 0:
        return "hugetext check: " + " ".join(out.split())[:300]
    code, out = cross.run([t.qemu, "-L", t.libc, "./prog"], cwd=d)
    if code != 0 or out.strip() != "ok":
        return "under %s: exit %d, %r" % (t.qemu, code, out.strip()[:200])
    if objset == "asm":
        files = [made] + ([os.path.join(d, "prog")] if kind == "shared"
                          else [])
        return check_relaxed(t, files, relaxed_checks(t.triplet))
    return None


def relaxed_checks(triplet):
    """The (function, mnemonic, present) lines of asm/TRIPLET/relaxed;
    ValueError for a line that is not one."""
    out = []
    path = os.path.join(ASM, triplet, "relaxed")
    with open(path) as f:
        for number, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) != 2 or words[1].lstrip("!") == "":
                raise ValueError("%s:%d: not FUNCTION [!]MNEMONIC: %r"
                                 % (path, number, line.strip()))
            fn, insn = words
            out.append((fn, insn.lstrip("!"), not insn.startswith("!")))
    if not out:
        raise ValueError("%s: no check" % path)
    return out


def mnemonics(t, made, fn):
    """The mnemonics of FN's code in MADE (TRIPLET-objdump); None if MADE
    does not define FN."""
    code, out = cross.run([t.gnu_objdump(), "-d", "--no-show-raw-insn",
                           "--disassemble=" + fn, made])
    if code != 0:
        sys.exit("run-cross.py: %s failed on %s: %s"
                 % (t.gnu_objdump(), made, out.strip()[:200]))
    if "<%s>:" % fn not in out:
        return None
    return [line.split("\t")[1].strip() for line in out.splitlines()
            if line.startswith(" ") and line.count("\t") >= 1
            and ":" in line.split("\t")[0]]


def check_relaxed(t, files, checks):
    """None, or which of CHECKS (relaxed_checks) FILES break: each
    function must be defined by one of FILES (the shared kind's library
    and the program that loads it; the program of the other kinds)."""
    for fn, insn, present in checks:
        for path in files:
            got = mnemonics(t, path, fn)
            if got is not None:
                break
        else:
            return "no %s in %s (asm/%s/relaxed)" % (
                fn, " or ".join(os.path.basename(p) for p in files),
                t.triplet)
        if (insn in got) != present:
            return "%s: %s %s (relaxation: %s)" % (
                os.path.basename(path), fn,
                "has no " + insn if present else "still has " + insn,
                " ".join(got))
    return None


def compile_objects(t, work):
    """The objects compiled from C, or the reason they could not be
    made."""
    o = os.path.join(work, "obj")
    os.makedirs(o, exist_ok=True)
    for name, text in (("main.c", MAIN_C), ("big.c", BIG_C),
                       ("far.c", FAR_C), ("pad.s", PAD_S)):
        with open(os.path.join(o, name), "w") as f:
            f.write(text)
    for src, obj, flags in (("main.c", "main.o", ["-fno-pie"]),
                            ("main.c", "main-pie.o", ["-fPIE"]),
                            ("big.c", "big.o", ["-fno-pie"]),
                            ("big.c", "big-pic.o", ["-fPIC"]),
                            ("far.c", "far.o", ["-fno-pie"]),
                            ("far.c", "far-pic.o", ["-fPIC"]),
                            ("pad.s", "pad.o", [])):
        code, out = cross.run(t.cc + ["-O1", "-c"] + flags +
                        [os.path.join(o, src), "-o", os.path.join(o, obj)])
        if code != 0:
            return "compiling %s failed: %s" % (src, " ".join(out.split()))
    return None


def assemble_objects(t, work):
    """The objects of asm/TRIPLET, assembled by the build's cross gas with
    its default, relaxation, under the C objects' names; or the reason
    they could not be made."""
    o = os.path.join(work, "asm")
    os.makedirs(o, exist_ok=True)
    gas = t.gnu_as()
    for tool in (gas, t.gnu_objdump()):
        if not os.path.exists(tool):
            return "no %s (toolchain/cross-targets)" % tool
    try:
        relaxed_checks(t.triplet)
    except ValueError as e:
        return str(e)
    with open(os.path.join(o, "pad.s"), "w") as f:
        f.write(PAD_S)
    srcs = [os.path.join(ASM, t.triplet, n) for n in ("main.s", "big.s",
                                                     "far.s")]
    srcs.append(os.path.join(o, "pad.s"))
    for src in srcs:
        base = os.path.basename(src)[:-2]
        obj = os.path.join(o, base + ".o")
        code, out = cross.run([gas, src, "-o", obj])
        if code != 0:
            return "assembling %s failed: %s" % (src, " ".join(out.split()))
        # The C cases' names (main-pie.o, big-pic.o, far-pic.o): gas's
        # code is the same for every kind.
        alias = {"main": "main-pie.o", "big": "big-pic.o",
                 "far": "far-pic.o"}.get(base)
        if alias:
            shutil.copyfile(obj, os.path.join(o, alias))
    return None


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: testsuite/cross/run-cross.py BUILD_DIR")
    build = os.path.abspath(sys.argv[1])
    failed = False
    for t in cross.toolchains(build):
        work = os.path.join(build, "testsuite", "cross", t.triplet)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        why = t.why_not
        if why is None and shutil.which(t.qemu) is None:
            why = "no %s (qemu-user-static)" % t.qemu
        objsets = [("obj", "", compile_objects)]
        if os.path.isdir(os.path.join(ASM, t.triplet)):
            objsets.append(("asm", " relaxed", assemble_objects))
        for objset, suffix, make in objsets:
            if why is None:
                err = make(t, work)
                if err is not None:
                    print("FAIL: cross: %s%s: %s" % (t.triplet, suffix, err))
                    failed = True
                    continue
            failed |= run_cases(t, work, why, objset, suffix)
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


def run_cases(t, work, why, objset, suffix):
    """Each producer's each kind with the objects of OBJSET; whether one
    failed."""
    failed = False
    for producer, flags in producers(t, work):
        for kind in KINDS:
            name = "cross: %s %s %s%s" % (t.triplet, producer, kind,
                                          suffix)
            if why is not None:
                print("UNSUPPORTED: %s: %s" % (name, why))
                continue
            if isinstance(flags, str):
                print("UNSUPPORTED: %s: %s" % (name, flags))
                continue
            if kind == "static-pie" and not t.has_static_pie():
                print("UNSUPPORTED: %s: the C library has no rcrt1.o"
                      % name)
                continue
            err = case(t, work, objset, producer, flags, kind)
            if err is None:
                print("PASS: " + name)
            else:
                print("FAIL: %s: %s" % (name, err))
                failed = True
            sys.stdout.flush()
    return failed


if __name__ == "__main__":
    sys.exit(main())
