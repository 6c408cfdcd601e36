# lit configuration for the hugetext testsuite: cross-producer layout tests
# that link real programs and judge them with `hugetext check`.
#
# Tools come from the project's build folder (build/bin), never from the
# system by accident: a missing linker turns its tests UNSUPPORTED, with
# the reason in the feature name.

import gzip
import os
import re
import subprocess
import sys

import lit.formats

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tables"))
import filesystems  # noqa: E402
import pins  # noqa: E402

config.name = "hugetext"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".s", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hugetext_build_dir, "testsuite",
                                     "lit")

bindir = os.path.join(config.hugetext_build_dir, "bin")
libdir = os.path.join(config.hugetext_source_dir, "testsuite", "lib")
llvm_bindir = config.llvm_bindir

# FileCheck, not, split-file and llvm-mc from Debian's LLVM; everything
# that is under test from build/bin.
config.environment["PATH"] = os.pathsep.join(
    [llvm_bindir, "/usr/bin", "/bin"])
config.environment["LC_ALL"] = "C"
# The sanitizers must fail a test, not just print: an error ends the
# sanitized program (hugetext-san) with an exit status of its own
# (HUGETEXT_SANITIZER_EXIT, lib/sanitize.c), which no %expect-exit of a
# verdict and no reader of the tool's JSON (compare-verdicts.py, the
# guard) accepts.  Options set here must not set exitcode.
config.environment["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0"
config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
# lit passes LSAN_OPTIONS on from the caller: fixed here too.
config.environment["LSAN_OPTIONS"] = "print_suppressions=0"
config.substitutions.append(("%sanitizer-exit",
                             config.hugetext_sanitizer_exit))
config.substitutions.append(("%sanitizer-probe", os.path.join(
    config.hugetext_build_dir, "testsuite", "unit", "sanitizer-probe")))


def built(name):
    path = os.path.join(bindir, name)
    return path if os.access(path, os.X_OK) else None


# The table of the ways to link (producers/table) and its reader,
# which also says whether a linker takes -z hugetext.
producer = os.path.join(config.hugetext_source_dir, "producers", "producer")
config.substitutions.append(("%producer", producer))


def ask_producer(*args):
    """The output of `producer ARGS`; a failure of the table or its reader
    stops the run (it must never turn tests into no tests)."""
    run = subprocess.run([producer] + list(args), capture_output=True,
                         text=True)
    if run.returncode != 0:
        lit_config.fatal("producers/producer %s: %s" % (
            " ".join(args), run.stderr.strip() or run.stdout.strip()))
    return run.stdout.strip()


def supports(name):
    """Whether this build can link the way producer NAME does, by the
    producers' one policy (producer supports): where the patch series
    that gives it is empty, the tests that need it are skipped; else they
    never are, and a build that cannot stops the run."""
    run = subprocess.run([producer, "supports", name,
                          config.hugetext_build_dir],
                         capture_output=True, text=True)
    if run.returncode == 1:
        lit_config.note("producer %s: %s" % (name, run.stdout.strip()))
        return False
    if run.returncode != 0:
        lit_config.fatal("producer %s: %s" % (
            name, (run.stdout + run.stderr).strip()))
    return True


# %flags-NAME: the compiler driver's flags of producer NAME, so that a
# test links "the bfd way" as the table says.  Longest names first: lit
# substitutes in order, and %flags-bfd is a prefix of %flags-bfd-plain.
for _name in sorted(ask_producer("list").split(), key=len, reverse=True):
    config.substitutions.append((
        "%flags-" + _name,
        ask_producer("flags", _name, config.hugetext_build_dir)))

# The sanitized build of the tool is what the tests run.
config.substitutions.append(("%hugetext", built("hugetext-san")))
# debhelper's Perl library, for dh_hugetext's test.
if subprocess.run(["perl", "-MDebian::Debhelper::Dh_Lib", "-e", "1"],
                  stdout=subprocess.DEVNULL,
                  stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("debhelper")
config.substitutions.append(("%dh_hugetext", os.path.join(
    config.hugetext_build_dir, "guard", "dh_hugetext")))

# The packaging guard (guard/, docs/guard.md), run against this tool.
config.substitutions.append(("%guard", "python3 %s --hugetext %s" % (
    os.path.join(config.hugetext_source_dir, "guard", "hugetext-guard"),
    built("hugetext-san"))))
config.substitutions.append(("%json-fields", "python3 " + os.path.join(
    libdir, "json-fields.py")))
config.substitutions.append(("%wait-for", os.path.join(libdir, "wait-for")))
config.substitutions.append(("%expect-exit",
                             os.path.join(libdir, "expect-exit")))
config.substitutions.append(("%compare-verdicts", "%s %s %s" % (
    "python3", os.path.join(libdir, "compare-verdicts.py"),
    built("hugetext-san"))))

for tool, feature in (("ld.bfd", "ld.bfd"), ("ld.lld", "ld.lld"),
                      ("objcopy", "objcopy"), ("strip", "strip"),
                      ("readelf", "readelf")):
    path = built(tool)
    if path:
        config.available_features.add(feature)
        config.substitutions.append(("%" + tool, path))
    else:
        # Keep the substitution so a test without REQUIRES fails loudly.
        config.substitutions.append(
            ("%" + tool, "missing-%s-run-toolchain-build" % tool))

# Where the build puts programs and libraries (the plugin, the startup
# helper), for tests that link against them.
config.substitutions.append(("%bindir", bindir))
config.substitutions.append(("%libdir", os.path.join(
    config.hugetext_build_dir, "lib")))
# The benchmark's scripts, for the tests of their parts.
config.substitutions.append(("%bench", os.path.join(
    config.hugetext_source_dir, "bench")))

if os.geteuid() == 0:
    config.available_features.add("root")

# The man pages (docs/man), where this build renders them: pandoc found,
# HUGETEXT_MANPAGES not OFF.  "man-db" runs them through man as lintian
# does.
man_dir = getattr(config, "hugetext_man_dir", "")
if man_dir:
    config.available_features.add("manpages")
    config.substitutions.append(("%man-dir", man_dir))
config.substitutions.append(("%man-exits", "python3 " + os.path.join(
    libdir, "man-exits.py")))
config.substitutions.append(("%man-options", "python3 " + os.path.join(
    libdir, "man-options.py")))
if os.access("/usr/bin/man", os.X_OK):
    config.available_features.add("man-db")


def large_folios(folder):
    """Whether files in FOLDER get huge folios in the page cache through
    MADV_HUGEPAGE readahead: the smallest of the largest folios such
    readahead may bring there, by lib/filesystems.def for this kernel's
    version, its H (hpage_pmd_size), FOLDER's filesystem and its
    device's read_ahead_kb, is H (tables/filesystems.py's
    host_readahead_folio, which testsuite/lit/kernel/host-folios.test
    holds against this kernel)."""
    try:
        low, _, h, _ = filesystems.host_readahead_folio(folder)
    except ValueError as e:
        lit_config.fatal(str(e))
    return low is not None and low == h


os.makedirs(config.test_exec_root, exist_ok=True)
if large_folios(config.test_exec_root):
    config.available_features.add("large-folios")


def file_collapse_refused():
    """Whether MADV_COLLAPSE of a file on ext4 fails with EINVAL here, as
    on Debian's kernels: before HT_COLLAPSE_PMD_FOLIOS (lib/filesystems.def)
    it needs READ_ONLY_THP_FOR_FS, and the running kernel's configuration
    (/proc/config.gz, or /boot/config-RELEASE) says it is not set.  False
    where the configuration cannot be read."""
    m = re.match(r"(\d+)\.(\d+)", os.uname().release)
    since, _ = filesystems.kernel_fact("HT_COLLAPSE_PMD_FOLIOS")
    if not m or int(m.group(1)) * 1000 + int(m.group(2)) >= since:
        return False
    try:
        with gzip.open("/proc/config.gz", "rt") as f:
            config_text = f.read()
    except OSError:
        try:
            with open("/boot/config-" + os.uname().release) as f:
                config_text = f.read()
        except OSError:
            return False
    return "# CONFIG_READ_ONLY_THP_FOR_FS is not set" in config_text


if file_collapse_refused():
    config.available_features.add("file-collapse-refused")

# The kernel matrix's VMs (testsuite/kernel/prepare.sh fills
# BUILD/kernel-matrix): %vm-run KERNEL CMD boots KERNEL under QEMU and runs
# the shell command CMD in it.
matrix = os.path.join(config.hugetext_build_dir, "kernel-matrix")
if os.path.isfile(os.path.join(matrix, "kernels")):
    config.available_features.add("kernel-matrix")
config.substitutions.append(("%vm-run", "%s %s" % (os.path.join(
    config.hugetext_source_dir, "testsuite", "kernel", "vm-run"), matrix)))
# Runs aarch64 programs on this machine (Debian's qemu-user-static).
qemu_aarch64 = "/usr/bin/qemu-aarch64-static"
if os.access(qemu_aarch64, os.X_OK):
    config.available_features.add("qemu-aarch64")
    config.substitutions.append(("%qemu-aarch64", qemu_aarch64))

for name, linker in (("bfd", "ld.bfd"), ("lld", "ld.lld")):
    if supports(name):
        config.available_features.add(linker + "-hugetext")


# The pipeline, for tests of its failure paths.  They need the binutils
# sources already in the cache (a warm cache: no download in a test).
config.substitutions.append(("%build-toolchain", os.path.join(
    config.hugetext_source_dir, "toolchain", "build-toolchain.sh")))
config.substitutions.append(("%pins", os.path.join(
    config.hugetext_source_dir, "toolchain", "pins")))
cache = os.environ.get("HUGETEXT_CACHE") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
    "hugetext")
def pinned(var):
    """The value of VAR=... in toolchain/pins."""
    try:
        return pins.pin(var)
    except KeyError as e:
        lit_config.fatal(e.args[0])


if os.path.isfile(os.path.join(cache, "binutils", "binutils-%s.ok" %
                               pinned("BINUTILS_VERSION_STRING"))):
    config.available_features.add("binutils-cache")
# The pristine lld tree of the pinned LLVM, for tests that must get past
# its fetch without downloading it (they link to it from a cache of their
# own).
if os.path.isfile(os.path.join(cache, "llvm", "llvm-%s.ok" %
                               pinned("LLVM_VERSION"))):
    config.available_features.add("llvm-cache")
config.substitutions.append(("%{hugetext-cache}", cache))
config.substitutions.append(("%debian-binutils", os.path.join(
    config.hugetext_source_dir, "debian-binutils", "build.sh")))
# A cross binutils this build folder built, which the pipeline then keeps
# in the cache (toolchain/kept-build.test).
if built("s390x-linux-gnu-ld"):
    config.available_features.add("s390x-ld")
for var in ("HOME", "HUGETEXT_CACHE", "XDG_CACHE_HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def sparse_files_supported(folder):
    """Whether files in FOLDER can have holes that SEEK_HOLE reports, and
    their size on disk tells holes from written zeros: 4 MiB of zeros
    written out take more than the 64 KiB the cost tests allow
    (Inputs/cost.py), which a file system that compresses or drops zero
    blocks would not, and would pass a linker that writes its padding."""
    os.makedirs(folder, exist_ok=True)
    probe = os.path.join(folder, "sparse-probe")
    zeros = os.path.join(folder, "zeros-probe")
    with open(probe, "wb") as f:
        f.truncate(4 << 20)
        f.seek(4 << 20)
        f.write(b"x")
    with open(zeros, "wb") as f:
        f.write(bytes(4 << 20))
        f.flush()
        os.fsync(f.fileno())
    try:
        with open(probe, "rb") as f:
            holes = os.lseek(f.fileno(), 0, os.SEEK_DATA) > 0
        return holes and os.stat(zeros).st_blocks * 512 > 0x10000
    except OSError:
        return False
    finally:
        os.unlink(probe)
        os.unlink(zeros)


if sparse_files_supported(config.test_exec_root):
    config.available_features.add("sparse-files")
