#!/usr/bin/env python3
"""What -z hugetext and -z max-page-size=H cost in file size on a
machine of lib/machines.def with a cross toolchain (HT_CROSS lines):
LoongArch's question (H is 32 MiB there, with 16 KiB pages).

Two programs, each a PIE and a non-PIE executable: "hello" (puts, well
below H) and "code" (a main that calls into CODE MiB of code, default 40;
the code is not zeros, as real code is not).  Each is linked by the
build's cross GNU ld and by its ld.lld, three ways:
  plain      no option
  hugetext   -z hugetext, with each linker's own default H (the table's
             H for every machine with a cross toolchain)
  maxpage    -z max-page-size=H, today's way to get the code segment
             aligned (every segment then is)
and the files are measured as the linker wrote them: apparent size
(st_size) and size on disk (st_blocks).  A hello linked with -z hugetext
is compared byte for byte with the plain link.

Usage: bench/file-size.py [--debs DIR] BUILD_DIR MACHINE [CODE_MIB]
  MACHINE: a name of lib/machines.def whose triplet has an HT_CROSS line
  (loongarch64, riscv64, ppc64, s390x, aarch64)
  --debs DIR: also package each linker's outputs of each way as a .deb,
  DIR/WAY-LINKER/hugetext-size-probe_1_all.deb, WAY one of plain,
  hugetext, maxpage and LINKER GNUld or ld.lld (the four programs in
  /usr/lib/hugetext-size-probe; "all", so that this machine's dpkg
  installs it: the files are what counts), for bench/installed-size.sh
  (DIR/plain-GNUld against DIR/hugetext-GNUld, and so on); where a link
  fails, no .deb is made and those of an earlier run are removed
Prints one line per program, kind, linker and way; exit status 1 if a
link failed.
"""

import filecmp
import os
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tables"))
import cross  # noqa: E402
import machines  # noqa: E402

HELLO_C = '#include <stdio.h>\nint main (void) { puts ("hello"); return 0; }\n'
CODE_C = ('int bigfn (void);\n'
          'int main (void) { return bigfn (); }\n')


def code_s(mib):
    """bigfn: returns at once (the machine's own return is not needed:
    the program is never run), then MIB MiB of non-zero bytes."""
    return ("\t.text\n\t.globl bigfn\n\t.type bigfn, @function\nbigfn:\n"
            "\t.skip %#x, 0x5a\n\t.size bigfn, .-bigfn\n" % (mib << 20))


DEB = "hugetext-size-probe"
CONTROL = """Package: %s
Version: 1
Architecture: all
Maintainer: hugetext <hugetext@localhost>
Description: programs of bench/file-size.py, linked one way
""" % DEB


def make_deb(outdir, files):
    """OUTDIR/DEB_1_all.deb holding FILES (NAME, PATH) in /usr/lib/DEB:
    the same names for every way, so that two ways' packages hold the
    same paths."""
    tree = os.path.join(outdir, "tree")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(os.path.join(tree, "DEBIAN"))
    dest = os.path.join(tree, "usr", "lib", DEB)
    os.makedirs(dest)
    with open(os.path.join(tree, "DEBIAN", "control"), "w") as f:
        f.write(CONTROL)
    for fname, path in files:
        # A copy as cp makes it, keeping the holes: what dpkg-deb packs
        # is the contents either way.
        subprocess.run(["cp", "--sparse=always", path,
                        os.path.join(dest, fname)], check=True)
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "-z1", "-b",
                    tree, os.path.join(outdir, "%s_1_all.deb" % DEB)],
                   check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(tree)


def main():
    usage = ("usage: bench/file-size.py [--debs DIR] BUILD_DIR MACHINE "
             "[CODE_MIB]")
    args = sys.argv[1:]
    debs = None
    if args[:1] == ["--debs"]:
        if len(args) < 2:
            sys.exit("file-size.py: --debs wants a folder\n" + usage)
        debs = os.path.abspath(args[1])
        args = args[2:]
    elif args[:1] and args[0].startswith("--debs="):
        debs = os.path.abspath(args[0][len("--debs="):])
        args = args[1:]
    if len(args) not in (2, 3) or any(a.startswith("-") for a in args):
        sys.exit(usage)
    build = os.path.abspath(args[0])
    name = args[1]
    if len(args) == 3 and not args[2].isdigit():
        sys.exit("file-size.py: CODE_MIB is a whole number of MiB, not %r"
                 % args[2])
    mib = int(args[2]) if len(args) == 3 else 40
    machine = [m for m in machines.machines() if m["name"] == name]
    if not machine:
        sys.exit("file-size.py: %s: no such machine in lib/machines.def"
                 % name)
    crosses = [c for c in machines.crosses()
               if c["triplet"] == machine[0]["triplet"]]
    if not crosses:
        sys.exit("file-size.py: %s (%s) has no HT_CROSS line in "
                 "lib/machines.def" % (name, machine[0]["triplet"]))
    t = cross.Toolchain(crosses[0], build)
    if t.why_not:
        sys.exit("file-size.py: %s: %s" % (t.triplet, t.why_not))
    h = machine[0]["h_kib"] * 1024
    work = os.path.join(build, "bench", "file-size", t.triplet)
    os.makedirs(work, exist_ok=True)
    for f, text in (("hello.c", HELLO_C), ("code.c", CODE_C),
                    ("code.s", code_s(mib))):
        with open(os.path.join(work, f), "w") as out:
            out.write(text)
    objs = {}
    for kind, pic in (("pie", "-fPIE"), ("exec", "-fno-pie")):
        for src in ("hello.c", "code.c", "code.s"):
            obj = os.path.join(work, "%s-%s.o" % (src, kind))
            code, out = cross.run(t.cc + ["-O2", pic, "-c",
                                          os.path.join(work, src), "-o", obj])
            if code != 0:
                sys.exit("file-size.py: compiling %s: %s" % (src, out))
            objs[(src, kind)] = obj
    linkers = (("GNU ld", t.gnu_ld()), ("ld.lld", t.lld()))
    ways = (("plain", []), ("hugetext", ["-Wl,-z,hugetext"]),
            ("maxpage", ["-Wl,-z,max-page-size=%#x" % h]))
    print("# %s (%s), H %d MiB; %s; sizes in KiB" % (
        name, t.triplet, h >> 20, " ".join(t.cc)))
    print("%-12s %-5s %-7s %-9s %12s %12s %s" % (
        "program", "kind", "linker", "way", "apparent", "on disk",
        "vs plain"))
    failed = False
    made = {}
    for prog, srcs in (("hello", ["hello.c"]),
                       ("code-%dMiB" % mib, ["code.c", "code.s"])):
        for kind in ("pie", "exec"):
            for lname, ld in linkers:
                plain = None
                for way, flags in ways:
                    out = os.path.join(work, "%s-%s-%s-%s" % (
                        prog, kind, lname.replace(" ", ""), way))
                    cmd = (t.cc + t.ld_flags(ld, work) + flags +
                           ["-" + ("pie" if kind == "pie" else "no-pie")] +
                           [objs[(s, kind)] for s in srcs] + ["-o", out])
                    code, msg = cross.run(cmd)
                    if code != 0:
                        print("%-12s %-5s %-7s %-9s link failed: %s" % (
                            prog, kind, lname, way, " ".join(msg.split())))
                        failed = True
                        continue
                    made.setdefault((way, lname), []).append(
                        ("%s-%s" % (prog, kind), out))
                    st = os.stat(out)
                    note = ""
                    if way == "plain":
                        plain = out
                    elif plain is not None:
                        p = os.stat(plain)
                        note = "%.2fx apparent, %.2fx on disk" % (
                            st.st_size / p.st_size,
                            st.st_blocks / p.st_blocks)
                        if filecmp.cmp(plain, out, shallow=False):
                            note += ", byte for byte the same"
                    print("%-12s %-5s %-7s %-9s %12d %12d %s" % (
                        prog, kind, lname, way, st.st_size >> 10,
                        st.st_blocks // 2, note))
                    sys.stdout.flush()
    if debs is not None and failed:
        for way, _ in ways:
            for lname, _ in linkers:
                shutil.rmtree(os.path.join(debs, "%s-%s" % (
                    way, lname.replace(" ", ""))), ignore_errors=True)
        print("file-size.py: a link failed: no .deb made in %s" % debs,
              file=sys.stderr)
    elif debs is not None:
        for (way, lname), files in sorted(made.items()):
            d = os.path.join(debs, "%s-%s" % (way, lname.replace(" ", "")))
            os.makedirs(d, exist_ok=True)
            make_deb(d, files)
            print("# %s: %s" % (d, ", ".join(f for f, _ in files)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
