#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel matrix (make test-kernels): boot the release tarballs of
`make dist` in QEMU (TCG, no KVM needed) on real Debian kernels, PREEMPT_RT
and generic, run a scenario in the guest and judge what it printed.

Each scenario boots one kernel .deb with an initramfs that this script
writes itself (cpio "newc", owners and device nodes set in the archive, so
no root is needed): busybox-static of the guest's architecture, the
unpacked tarball under /opt/rtready, a few test programs built with the
target's compiler (and the glibc they need), the kernel's config under
/boot, the modules the scenario asks for, and a shell script. The guest
prints each command's exit status and output between @@RTR- markers on
the serial console; the host parses them and makes its assertions here.

Kernels and busybox come from `apt-get download` into a cache directory
(reused by later runs). A scenario whose packages cannot be fetched, or
whose QEMU or compiler is missing, is counted as skipped, never failed.
Every boot is bounded by a timeout.

usage: matrix.py [--dist DIR] [--build-prefix P] [--cache DIR] [--only NAME]...
                 [--fixtures DIR] [--keep DIR] [--list]
The last line says "kernels: N passed, N failed, N skipped".
"""
import argparse
import base64
import glob
import gzip
import hashlib
import io
import json
import lzma
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))

ARCHES = {
    "x86_64": {
        "deb": "amd64", "qemu": "qemu-system-x86_64", "console": "ttyS0",
        # One host thread for every vCPU: under multi-threaded TCG a vCPU can
        # run a stale translation of kernel text being patched (static keys
        # flipped by perf and tracers), and Debian's 6.12 RT kernel oopsed
        # ("int3" in __schedule, trace_sched_switch_callback) in CI runs.
        "machine": ["-M", "q35", "-cpu", "max", "-accel", "tcg,thread=single"],
        "cc": "gcc", "libdir": "/lib/x86_64-linux-gnu", "triplet": "x86_64-linux-gnu",
    },
    "aarch64": {
        "deb": "arm64", "qemu": "qemu-system-aarch64", "console": "ttyAMA0",
        # pointer authentication emulated with QARMA costs a lot under TCG;
        # the impdef algorithm keeps the feature at a fraction of the cost.
        "machine": ["-M", "virt", "-cpu", "max,pauth-impdef=on"],
        "cc": "aarch64-linux-gnu-gcc", "libdir": "/usr/aarch64-linux-gnu/lib",
        "triplet": "aarch64-linux-gnu",
    },
    "armhf": {
        "deb": "armhf", "qemu": "qemu-system-arm", "console": "ttyAMA0",
        "machine": ["-M", "virt,highmem=off", "-cpu", "cortex-a15"],
        "cc": "arm-linux-gnueabihf-gcc", "libdir": "/usr/arm-linux-gnueabihf/lib",
        "triplet": "arm-linux-gnueabihf",
    },
}

RT_CMDLINE = "isolcpus=managed_irq,domain,2-3 nohz_full=2-3 rcu_nocbs=2-3 irqaffinity=0-1"

# name, arch, kernel meta-package, vCPUs, MiB, extra command line, modules,
# a virtio disk, the guest script, the boot timeout in seconds.
SCENARIOS = [
    {"name": "x86_64-rt", "arch": "x86_64", "meta": "linux-image-6.12-rt-amd64",
     "smp": 4, "mem": 1024, "cmdline": RT_CMDLINE, "modules": ["virtio_blk"], "disk": True,
     "guest": "rt-full.sh", "timeout": 420},
    {"name": "aarch64-rt", "arch": "aarch64", "meta": "linux-image-rt-arm64",
     "smp": 4, "mem": 1024, "cmdline": RT_CMDLINE,
     "modules": ["virtio_pci_legacy_dev", "virtio_pci_modern_dev", "virtio_pci", "virtio_blk"],
     "disk": True, "guest": "rt-arm64.sh", "timeout": 300},
    {"name": "armhf-rt", "arch": "armhf", "meta": "linux-image-rt-armmp",
     "smp": 4, "mem": 1024, "cmdline": RT_CMDLINE, "modules": [], "disk": False,
     "guest": "rt-armhf.sh", "timeout": 300},
    {"name": "x86_64-rt-powercut", "arch": "x86_64", "meta": "linux-image-6.12-rt-amd64",
     "smp": 4, "mem": 768, "cmdline": RT_CMDLINE, "modules": ["virtio_blk", "crc32c_generic", "ext4"],
     "disk": True, "fs": "ext4", "guest": ["powercut-1.sh", "powercut-2.sh"], "timeout": 200},
    {"name": "x86_64-rt-trace", "arch": "x86_64", "meta": "linux-image-6.12-rt-amd64",
     "smp": 4, "mem": 768, "cmdline": RT_CMDLINE, "modules": [], "disk": False,
     "debs": {"rtla": ["./usr/bin/rtla"]}, "guest": "trace.sh", "timeout": 200},
    # Issue 27: rtready noise beside rtla osnoise on an injected hog.
    {"name": "x86_64-rt-noise", "arch": "x86_64", "meta": "linux-image-6.12-rt-amd64",
     "smp": 4, "mem": 768, "cmdline": RT_CMDLINE, "modules": [], "disk": False,
     "debs": {"rtla": ["./usr/bin/rtla"]}, "guest": "noise.sh", "timeout": 240},
    # Issue 28: isolation without a reboot, on the RT kernel booted without
    # isolcpus (cgroup2 at /sys/fs/cgroup, mounted by /init).
    {"name": "x86_64-rt-isolate", "arch": "x86_64", "meta": "linux-image-6.12-rt-amd64",
     "smp": 4, "mem": 1024, "cmdline": "", "modules": [], "disk": False,
     "guest": "isolate.sh", "timeout": 900},
    # Issue 28: a power cut during `tune --isolate --apply`, on the kernel
    # without isolcpus (two boots, the journal on an ext4 disk).
    {"name": "x86_64-rt-isolate-powercut", "arch": "x86_64", "meta": "linux-image-6.12-rt-amd64",
     "smp": 4, "mem": 768, "cmdline": "", "modules": ["virtio_blk", "crc32c_generic", "ext4"],
     "disk": True, "fs": "ext4", "guest": ["powercut-iso-1.sh", "powercut-iso-2.sh"],
     "timeout": 200},
    {"name": "x86_64-generic-full", "arch": "x86_64", "meta": "linux-image-6.12-amd64",
     "smp": 2, "mem": 768, "cmdline": "preempt=full", "modules": [], "disk": False,
     "guest": "generic.sh", "timeout": 200},
    # A Debian userland with systemd as PID 1 (debootstrap, cached): the boot
    # unit of `tune --emit-boot` and rtready-verify.service, run by systemd,
    # from the release tarball (boots 1-3) and then from the .deb (3-5).
    # Each boot runs the next step of the guest script and reboots.
    {"name": "x86_64-rt-systemd", "arch": "x86_64", "meta": "linux-image-6.12-rt-amd64",
     "smp": 4, "mem": 1024, "cmdline": RT_CMDLINE + " systemd.show_status=0",
     "modules": ["virtio_blk", "crc32c_generic", "ext4"], "disk": False, "systemd": 5,
     "guest": "systemd.sh", "timeout": 600},
]

GUEST_PROGS = ["pass_good", "fail_mutex_no_pi", "fail_alloc_in_rt"]


class Skip(Exception):
    pass


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- fetching


def show_tails(logf):
    """The last lines of a guest's console and of QEMU's stderr (the work
    directory goes away with the run, so a failure shows them here)."""
    for f in (logf, logf + ".qemu"):
        try:
            tail = open(f, errors="replace").read().splitlines()[-15:]
        except OSError:
            tail = ["(missing)"]
        log("        %s, last lines:" % os.path.basename(f))
        for line in tail:
            log("          | " + line[:200])

def default_cache():
    env = os.environ.get("RTREADY_KERNEL_CACHE")
    if env:
        return env
    if os.geteuid() == 0:
        return "/var/cache/rtready-kernels"
    return os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                        "rtready-kernels")


def resolve(cache, meta, debarch):
    """The versioned package a meta-package stands for (cached: offline reruns work)."""
    pin = os.path.join(cache, "resolved", "%s_%s" % (meta, debarch))
    q = meta if debarch == "amd64" else "%s:%s" % (meta, debarch)
    try:
        out = subprocess.run(["apt-cache", "depends", q], capture_output=True, text=True,
                             timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        out = ""
    m = re.search(r"Depends: (linux-image-\S+)", out)
    if m:
        pkg = m.group(1).split(":")[0]
        os.makedirs(os.path.dirname(pin), exist_ok=True)
        with open(pin, "w") as f:
            f.write(pkg + "\n")
        return pkg
    if os.path.exists(pin):
        return open(pin).read().strip()
    raise Skip("cannot resolve %s for %s (apt-get update?)" % (meta, debarch))


def fetch_deb(cache, pkg, debarch):
    """Path of PKG's .deb for DEBARCH in the cache, downloading it once."""
    d = os.path.join(cache, "debs")
    os.makedirs(d, exist_ok=True)

    def find():
        for f in sorted(os.listdir(d)):
            if f.startswith(pkg + "_") and f.endswith("_%s.deb" % debarch):
                return os.path.join(d, f)
        return None

    path = find()
    if path:
        return path
    q = pkg if debarch == "amd64" else "%s:%s" % (pkg, debarch)
    log("kernels: apt-get download %s" % q)
    try:
        p = subprocess.run(["apt-get", "download", q], cwd=d, capture_output=True, text=True,
                           timeout=900)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Skip("apt-get download %s: %s" % (q, e))
    path = find()
    if p.returncode != 0 or not path:
        raise Skip("apt-get download %s failed: %s" % (q, p.stderr.strip()[-300:]))
    return path


def deb_members(deb, wanted):
    """{member name: bytes} for members of the .deb's data whose names WANTED(name) accepts."""
    try:
        p = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], capture_output=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Skip("dpkg-deb: %s" % e)
    if p.returncode != 0:
        raise Skip("dpkg-deb cannot read %s" % deb)
    out = {}
    with tarfile.open(fileobj=io.BytesIO(p.stdout)) as t:
        for m in t:
            if m.isfile() and wanted(m.name):
                out[m.name] = t.extractfile(m).read()
    return out


def kernel_files(cache, deb, modules):
    """Kernel image, config, release and the modules (with their dependencies,
    in load order), extracted once into the cache."""
    xdir = os.path.join(cache, "x", os.path.basename(deb)[:-4])
    stamp = os.path.join(xdir, ".done")
    if not os.path.exists(stamp):
        shutil.rmtree(xdir, ignore_errors=True)
        files = deb_members(deb, lambda n: n.startswith("./boot/vmlinuz-")
                            or n.startswith("./boot/config-")
                            or n.endswith(".ko") or n.endswith(".ko.xz"))
        os.makedirs(os.path.join(xdir, "modules"))
        for name, data in files.items():
            base = os.path.basename(name)
            if name.startswith("./boot/"):
                open(os.path.join(xdir, base), "wb").write(data)
            else:
                if base.endswith(".xz"):
                    data, base = lzma.decompress(data), base[:-3]
                rel = name.split("/kernel/", 1)[-1]
                dst = os.path.join(xdir, "modules", rel.replace(".ko.xz", ".ko"))
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                open(dst, "wb").write(data)
        open(stamp, "w").close()
    vmlinuz = [f for f in os.listdir(xdir) if f.startswith("vmlinuz-")]
    config = [f for f in os.listdir(xdir) if f.startswith("config-")]
    if not vmlinuz or not config:
        raise Skip("no kernel image in %s" % deb)
    # modules.dep is made by depmod at install time, not shipped: read
    # each module's dependencies from its .modinfo ("depends=a,b").
    mdir = os.path.join(xdir, "modules")
    byname = {}
    for d, _, files in os.walk(mdir):
        for f in files:
            if f.endswith(".ko"):
                byname[f[:-3].replace("-", "_")] = os.path.join(d, f)
    order = []

    def add(name, depth=0):
        path = byname.get(name)
        if path is None or path in order or depth > 16:
            return
        m = re.search(rb"\0depends=([^\0]*)\0", open(path, "rb").read())
        for dep in (m.group(1).decode().split(",") if m and m.group(1) else []):
            add(dep.replace("-", "_"), depth + 1)
        if path not in order:
            order.append(path)

    for m in modules:
        add(m)  # a module built in on this kernel is not found: nothing to load
    return {"vmlinuz": os.path.join(xdir, vmlinuz[0]), "config": os.path.join(xdir, config[0]),
            "release": config[0][len("config-"):], "modules": order}


def busybox(cache, debarch):
    path = os.path.join(cache, "busybox-%s" % debarch)
    if not os.path.exists(path):
        deb = fetch_deb(cache, "busybox-static", debarch)
        files = deb_members(deb, lambda n: n == "./bin/busybox")
        if not files:
            raise Skip("no /bin/busybox in %s" % deb)
        open(path + ".tmp", "wb").write(files["./bin/busybox"])
        os.chmod(path + ".tmp", 0o755)
        os.rename(path + ".tmp", path)
    return path


# ---------------------------------------------------------------- Debian image

# The userland of the systemd scenario: Debian's minimal base with systemd
# as init, irqbalance for the environment file tune edits (its service
# masked: a running irqbalance would move the IRQs the test compares), the
# libraries the rtready package depends on (the guest installs it with
# dpkg, offline), and the node exporter, whose textfile collector serves
# what rtready-verify.service writes (where the registry has it).
IMAGE_PACKAGES = ["systemd-sysv", "udev", "procps", "irqbalance",
                  "libjansson4", "libtracefs1", "libtraceevent1", "zlib1g"]
NODE_EXPORTER = "prometheus-node-exporter"
IMAGE_MASKED = ["serial-getty@ttyS0.service", "getty.target", "irqbalance.service",
                "apt-daily.timer", "apt-daily-upgrade.timer", "e2scrub_all.timer",
                "fstrim.timer", "systemd-timesyncd.service"]
# What the image is made of besides the packages; bump it with any change to
# debian_image()'s own edits of the tree, so that the cache key says so.
IMAGE_RECIPE = 2


def registry_has(pkg):
    """Whether the host's package index (the same suite as the image) has PKG."""
    try:
        p = subprocess.run(["apt-cache", "show", "--no-all-versions", pkg],
                           capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0 and "Package: %s" % pkg in p.stdout


def image_packages():
    return IMAGE_PACKAGES + ([NODE_EXPORTER] if registry_has(NODE_EXPORTER) else [])


def image_key(suite, debarch, packages):
    """The cache key of an image: everything it is built from, so that a
    change of the package list (or the recipe) builds a new image instead of
    booting a stale one."""
    text = json.dumps([IMAGE_RECIPE, suite, debarch, sorted(packages), sorted(IMAGE_MASKED)])
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def host_suite():
    try:
        for line in open("/etc/os-release"):
            if line.startswith("VERSION_CODENAME="):
                return line.split("=", 1)[1].strip().strip('"') or "bookworm"
    except OSError:
        pass
    return "bookworm"


def debian_image(cache, debarch):
    """An ext4 image of a Debian userland with systemd as PID 1, built once
    with debootstrap from the package mirror ($RTREADY_DEBIAN_MIRROR, else
    deb.debian.org) and kept in the cache; each run boots a copy."""
    suite = host_suite()
    packages = image_packages()
    d = os.path.join(cache, "images")
    img = os.path.join(d, "debian-%s-systemd-%s-%s.img" % (
        suite, debarch, image_key(suite, debarch, packages)))
    if os.path.exists(img):
        return img
    if os.geteuid() != 0:
        raise Skip("building the Debian image needs root (debootstrap), and %s is not cached"
                   % img)
    bs = shutil.which("debootstrap") or shutil.which("debootstrap", path="/usr/sbin:/sbin")
    mkfs = shutil.which("mkfs.ext4") or shutil.which("mkfs.ext4", path="/usr/sbin:/sbin")
    if not bs:
        raise Skip("no debootstrap (apt-get install debootstrap)")
    if not mkfs:
        raise Skip("no mkfs.ext4 (e2fsprogs)")
    os.makedirs(d, exist_ok=True)
    tree = img[:-4] + ".tree"
    shutil.rmtree(tree, ignore_errors=True)
    mirror = os.environ.get("RTREADY_DEBIAN_MIRROR", "http://deb.debian.org/debian")
    log("kernels: debootstrap %s (%s) into the cache, once" % (suite, debarch))
    try:
        p = subprocess.run([bs, "--variant=minbase", "--arch=" + debarch,
                            "--include=" + ",".join(packages), suite, tree, mirror],
                           capture_output=True, text=True, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        shutil.rmtree(tree, ignore_errors=True)
        raise Skip("debootstrap: %s" % e)
    if p.returncode != 0:
        shutil.rmtree(tree, ignore_errors=True)
        raise Skip("debootstrap %s failed: %s" % (suite, (p.stdout + p.stderr).strip()[-400:]))
    open(os.path.join(tree, "etc/fstab"), "w").write("/dev/vda / ext4 rw,errors=remount-ro 0 1\n")
    open(os.path.join(tree, "etc/hostname"), "w").write("rtr-guest\n")
    # A persistent journal: the last boot judges the earlier ones' messages.
    os.makedirs(os.path.join(tree, "var/log/journal"), exist_ok=True)
    for u in IMAGE_MASKED:
        link = os.path.join(tree, "etc/systemd/system", u)
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink("/dev/null", link)
    raw = img + ".tmp"
    with open(raw, "wb") as f:
        f.truncate(1536 << 20)
    p = subprocess.run([mkfs, "-q", "-F", "-L", "rtr-root", "-d", tree, raw],
                       capture_output=True, text=True)
    shutil.rmtree(tree, ignore_errors=True)
    if p.returncode != 0:
        os.unlink(raw)
        raise RuntimeError("mkfs.ext4 -d: %s" % p.stderr.strip()[-300:])
    os.rename(raw, img)
    return img


# ---------------------------------------------------------------- initramfs

class Cpio:
    """A newc archive written in memory: every entry owned by root."""

    def __init__(self):
        self.buf = io.BytesIO()
        self.ino = 1
        self.dirs = set()

    def _entry(self, name, mode, data=b"", rdev=(0, 0)):
        name_b = name.encode() + b"\0"
        hdr = "070701" + "".join("%08X" % v for v in (
            self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name_b), 0))
        self.ino += 1
        self.buf.write(hdr.encode() + name_b)
        self.buf.write(b"\0" * (-(110 + len(name_b)) % 4))
        self.buf.write(data)
        self.buf.write(b"\0" * (-len(data) % 4))

    def mkdir(self, path):
        path = path.strip("/")
        parts = path.split("/")
        for i in range(1, len(parts) + 1):
            p = "/".join(parts[:i])
            if p and p not in self.dirs:
                self.dirs.add(p)
                self._entry(p, stat.S_IFDIR | 0o755)

    def file(self, path, data, mode=0o644):
        path = path.strip("/")
        self.mkdir(os.path.dirname(path))
        self._entry(path, stat.S_IFREG | mode, data)

    def copy(self, path, src):
        self.file(path, open(src, "rb").read(), os.stat(src).st_mode & 0o777)

    def symlink(self, path, target):
        path = path.strip("/")
        self.mkdir(os.path.dirname(path))
        self._entry(path, stat.S_IFLNK | 0o777, target.encode())

    def chardev(self, path, major, minor):
        path = path.strip("/")
        self.mkdir(os.path.dirname(path))
        self._entry(path, stat.S_IFCHR | 0o600, rdev=(major, minor))

    def tree(self, prefix, root):
        for d, dirs, files in os.walk(root):
            dirs.sort()
            rel = os.path.relpath(d, root)
            base = prefix if rel == "." else prefix + "/" + rel
            self.mkdir(base)
            for f in sorted(files):
                src = os.path.join(d, f)
                if os.path.islink(src):
                    self.symlink(base + "/" + f, os.readlink(src))
                else:
                    self.copy(base + "/" + f, src)

    def close(self):
        self._entry("TRAILER!!!", 0)
        return self.buf.getvalue()


def interp_of(path):
    out = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True).stdout
    m = re.search(r"Requesting program interpreter: (\S+)\]", out)
    return m.group(1) if m else None


def needed_of(path):
    out = subprocess.run(["readelf", "-dW", path], capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(\S+)\]", out)


def build_progs(arch, work, build_prefix):
    """The guest's test programs, built with the target's compiler."""
    a = ARCHES[arch]
    if not shutil.which(a["cc"]):
        raise Skip("no %s (Debian cross compiler)" % a["cc"])
    out = os.path.join(work, "progs-" + arch)
    os.makedirs(out, exist_ok=True)
    for p in GUEST_PROGS:
        dst = os.path.join(out, p)
        r = subprocess.run([a["cc"], "-std=gnu11", "-O2", "-pthread", "-rdynamic", "-o", dst,
                            os.path.join(SRC, "tests", "preload", p + ".c")],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("cannot build %s for %s: %s" % (p, arch, r.stderr))
    if arch == "armhf":
        # The same programs built with a 64-bit time_t, as Debian 13 (t64) and
        # Yocto build them: their sleeps call __clock_nanosleep_time64.
        for p in ("pass_good", "fail_relative_sleep"):
            r = subprocess.run([a["cc"], "-std=gnu11", "-O2", "-pthread", "-rdynamic",
                                "-D_TIME_BITS=64", "-D_FILE_OFFSET_BITS=64", "-o",
                                os.path.join(out, p + "_t64"),
                                os.path.join(SRC, "tests", "preload", p + ".c")],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError("cannot build %s_t64: %s" % (p, r.stderr))
    for f in sorted(os.listdir(os.path.join(HERE, "progs"))):
        if f.endswith(".c"):
            r = subprocess.run([a["cc"], "-std=gnu11", "-O2", "-Wall", "-o",
                                os.path.join(out, f[:-2]), os.path.join(HERE, "progs", f)],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError("cannot build %s for %s: %s" % (f, arch, r.stderr))
    app = "%s-%s/examples/rt-app" % (build_prefix, arch)
    if os.path.exists(app):
        shutil.copy(app, os.path.join(out, "rt-app"))
    return out


def extra_files(cache, sc, work):
    """Files of other Debian packages the scenario wants in the guest
    ({package: [member, ...]}), extracted once: {guest path: host path}."""
    a = ARCHES[sc["arch"]]
    out = {}
    for pkg, members in sc.get("debs", {}).items():
        deb = fetch_deb(cache, pkg, a["deb"])
        files = deb_members(deb, lambda n: n in members)
        for m in members:
            if m not in files:
                raise Skip("no %s in %s" % (m, deb))
            dst = os.path.join(work, "extra-" + sc["arch"], m.lstrip("./"))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            open(dst, "wb").write(files[m])
            os.chmod(dst, 0o755)
            out[m.lstrip(".")] = dst
    return out


def initramfs(sc, kern, bb, tree, progs, script, extra=None):
    a = ARCHES[sc["arch"]]
    c = Cpio()
    for d in ("dev", "proc", "sys", "tmp", "run", "root", "etc", "var/lib", "mnt"):
        c.mkdir(d)
    c.chardev("dev/console", 5, 1)
    c.chardev("dev/null", 1, 3)
    c.copy("bin/busybox", bb)
    c.file("init", open(os.path.join(HERE, "guest", "init"), "rb").read(), 0o755)
    c.copy("lib/rtr-common.sh", os.path.join(HERE, "guest", "common.sh"))
    c.copy("scenario.sh", os.path.join(HERE, "guest", script))
    c.file("etc/passwd", b"root:x:0:0:root:/root:/bin/sh\n")
    c.file("etc/group", b"root:x:0:\n")
    c.copy("boot/config-" + kern["release"], kern["config"])
    c.tree("opt/rtready", tree)
    c.tree("opt/progs", progs)
    for gpath, hpath in (extra or {}).items():
        c.copy(gpath, hpath)
    # glibc for the dynamic test programs, and for the checker they preload
    libs, todo = set(), [os.path.join(progs, p) for p in os.listdir(progs)]
    todo += list((extra or {}).values())
    todo.append(os.path.join(tree, "lib", "rtready", "librtready-check.so"))
    interps = set()
    while todo:
        f = todo.pop()
        i = interp_of(f)
        if i:
            interps.add(i)
        for n in needed_of(f):
            if n not in libs:
                libs.add(n)
                todo.append(os.path.join(a["libdir"], n))
    for n in sorted(libs):
        c.copy("lib/%s/%s" % (a["triplet"], n), os.path.join(a["libdir"], n))
    for i in sorted(interps):
        c.copy(i, os.path.join(a["libdir"], os.path.basename(i)))
    order = []
    for m in kern["modules"]:
        name = os.path.basename(m)[:-3]
        c.copy("modules/%s.ko" % name, m)
        order.append(name)
    c.file("modules/order", ("\n".join(order) + "\n").encode() if order else b"")
    return c.close()


def initramfs_systemd(kern, bb, inject):
    """The systemd scenario's initramfs: busybox and the disk's modules, to
    mount the Debian image and start its systemd; INJECT ({name: bytes})
    goes to /rtr in the image."""
    c = Cpio()
    for d in ("dev", "proc", "sys", "newroot"):
        c.mkdir(d)
    c.chardev("dev/console", 5, 1)
    c.chardev("dev/null", 1, 3)
    c.copy("bin/busybox", bb)
    c.file("init", open(os.path.join(HERE, "guest", "init-systemd"), "rb").read(), 0o755)
    for name, data in sorted(inject.items()):
        c.file("inject/" + name, data, 0o755 if name.endswith(".sh") else 0o644)
    order = []
    for m in kern["modules"]:
        name = os.path.basename(m)[:-3]
        c.copy("modules/%s.ko" % name, m)
        order.append(name)
    c.file("modules/order", ("\n".join(order) + "\n").encode() if order else b"")
    return c.close()


def source_key():
    """A hash of the source tree as git sees it (tracked and new files)."""
    p = subprocess.run(["git", "-C", SRC, "ls-files", "-co", "--exclude-standard", "-z"],
                       capture_output=True, check=True)
    h = hashlib.sha256()
    for name in sorted(n for n in p.stdout.decode().split("\0") if n):
        path = os.path.join(SRC, name)
        if os.path.isfile(path) and not os.path.islink(path):
            h.update(name.encode() + b"\0")
            h.update(open(path, "rb").read())
    return h.hexdigest()[:16]


def rtready_deb(build_prefix):
    """The rtready .deb of this tree, as tools/build-deb.sh builds it
    (dpkg-buildpackage), kept in BUILD_PREFIX-deb/KEY for the same sources."""
    if not shutil.which("dpkg-buildpackage"):
        raise Skip("no dpkg-buildpackage (apt-get install dpkg-dev debhelper)")
    out = os.path.join(build_prefix + "-deb", source_key())
    debs = glob.glob(os.path.join(out, "rtready_*.deb"))
    if not debs:
        log("kernels: building the Debian packages (tools/build-deb.sh)")
        p = subprocess.run(["bash", os.path.join(SRC, "tools", "build-deb.sh"), out],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("tools/build-deb.sh: %s" % (p.stdout + p.stderr).strip()[-600:])
        debs = glob.glob(os.path.join(out, "rtready_*.deb"))
    if not debs:
        raise RuntimeError("tools/build-deb.sh made no rtready_*.deb in %s" % out)
    return sorted(debs)[-1]


def deb_depends(deb):
    """The package names the .deb depends on (first of each alternative)."""
    p = subprocess.run(["dpkg-deb", "-f", deb, "Depends"], capture_output=True, text=True,
                       check=True)
    return {d.split("|")[0].split("(")[0].split(":")[0].strip()
            for d in p.stdout.split(",") if d.strip()}


def systemd_inject(dist, arch, deb):
    """What the systemd guest gets besides the image: the release tarball as
    `make dist` made it, the rtready .deb, the guest script and helpers, and
    rtready's own rtready-verify.service/.timer with the tarball's binary
    for @bindir@ (the package brings its own)."""
    tars = sorted(f for f in os.listdir(dist) if f.startswith("rtready-")
                  and f.endswith("-%s.tar.gz" % arch)) if os.path.isdir(dist) else []
    if not tars:
        raise RuntimeError("no %s tarball in %s (make dist)" % (arch, dist))
    top = tars[-1][:-len(".tar.gz")]
    g = os.path.join(HERE, "guest")
    unit = open(os.path.join(SRC, "data", "systemd", "rtready-verify.service.in")).read()
    return {
        "rtready.tar.gz": open(os.path.join(dist, tars[-1]), "rb").read(),
        "rtready.deb": open(deb, "rb").read(),
        "step.sh": open(os.path.join(g, "systemd.sh"), "rb").read(),
        "common.sh": open(os.path.join(g, "common.sh"), "rb").read(),
        "rtr-step.service": open(os.path.join(g, "rtr-step.service"), "rb").read(),
        "rtready-verify.service": unit.replace("@bindir@", "/opt/%s/bin" % top).encode(),
        "rtready-verify.timer": open(os.path.join(SRC, "data", "systemd",
                                                  "rtready-verify.timer"), "rb").read(),
    }


def run_systemd(sc, opts, work, r, kern, bb):
    """Boot the Debian image sc["systemd"] times; systemd runs one step of
    the guest script per boot, which reboots into the next."""
    try:
        base = debian_image(opts.cache, ARCHES[sc["arch"]]["deb"])
        deb = rtready_deb(opts.build_prefix)
    except Skip as e:
        r.skip("scenario", str(e))
        return
    # Installed offline with dpkg: every dependency must be in the image already.
    missing = sorted(deb_depends(deb) - set(image_packages()) - {"libc6", "libgcc-s1"})
    if not r.ok("the image holds what %s depends on" % os.path.basename(deb), not missing,
                "add %s to IMAGE_PACKAGES" % ", ".join(missing)):
        return
    disk = os.path.join(work, sc["name"] + ".img")
    subprocess.run(["cp", "--sparse=always", base, disk], check=True)
    initrd = initramfs_systemd(kern, bb, systemd_inject(opts.dist, sc["arch"], deb))
    blocks, rcs = {}, {}
    for n in range(1, sc["systemd"] + 1):
        logf = os.path.join(opts.keep or work, "%s-boot%d.console.log" % (sc["name"], n))
        t = boot(sc, kern, initrd, work, logf, disk)
        b, rc, mk = parse(open(logf, errors="replace").read())
        blocks.update(b)
        rcs.update(rc)
        booted = r.ok("boot %d %s" % (n, kern["release"]),
                      any(m.startswith("@@RTR-BOOTED") for m in mk), "no boot marker; see " + logf)
        step = r.ok("boot %d: systemd ran step %d" % (n, n), "@@RTR-STEP %d" % n in mk,
                    "markers: %s" % mk)
        ended = r.ok("boot %d reached done (%.0fs)" % (n, t),
                     any(m.startswith("@@RTR-DONE") for m in mk),
                     "no done marker within %ds; see %s" % (sc["timeout"], logf))
        for m in mk:
            if m.startswith("@@RTR-NOTE"):
                log("        " + m)
        if not (booted and step and ended):
            show_tails(logf)
            break
    try:
        judge_systemd(r, blocks, rcs, opts)
    except Exception as e:  # a judge's bug must not hide the other scenarios
        r.ok("judge", False, "%s: %s" % (type(e).__name__, e))


# ---------------------------------------------------------------- booting

def boot(sc, kern, initrd, work, logf, disk=None, cut=False):
    """Boot once; with CUT, SIGKILL QEMU (a power cut) as soon as the guest
    prints @@RTR-CUT. Return the seconds it ran."""
    a = ARCHES[sc["arch"]]
    rd = os.path.join(work, sc["name"] + ".cpio.gz")
    with gzip.open(rd, "wb", compresslevel=1) as f:
        f.write(initrd)
    append = "console=%s loglevel=1 panic=-1 rdinit=/init %s" % (a["console"], sc["cmdline"])
    cmd = [a["qemu"]] + a["machine"] + [
        "-smp", str(sc["smp"]), "-m", str(sc["mem"]), "-nographic", "-no-reboot",
        "-kernel", kern["vmlinuz"], "-initrd", rd, "-append", append,
        "-serial", "file:" + logf, "-monitor", "none", "-nic", "none"]
    if disk:
        cmd += ["-drive", "if=none,id=d0,format=raw,file=" + disk,
                "-device", "virtio-blk-pci,drive=d0,num-queues=4"]
    if os.path.exists(logf):
        os.unlink(logf)  # a log of an earlier run must not be read as this one
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=open(logf + ".qemu", "w"))
    except OSError as e:
        raise Skip("cannot run %s: %s" % (a["qemu"], e))
    try:
        while p.poll() is None:
            if time.monotonic() - t0 > sc["timeout"]:
                log("        %s: timeout after %ds, QEMU killed" % (sc["name"], sc["timeout"]))
                break
            if cut and os.path.exists(logf) and b"@@RTR-CUT" in open(logf, "rb").read():
                break
            time.sleep(0.05)
    finally:
        if p.poll() is None:
            p.kill()  # SIGKILL: for a cut, nothing is flushed or synced after this
        p.wait()
    return time.monotonic() - t0


def make_disk(sc, work):
    """A fresh raw disk: ext4 when mkfs.ext4 is at hand (the guest mounts it), else blank."""
    disk = os.path.join(work, sc["name"] + ".img")
    with open(disk, "wb") as f:
        f.truncate(64 << 20)
    mkfs = shutil.which("mkfs.ext4") or shutil.which("mkfs.ext4", path="/usr/sbin:/sbin")
    if sc.get("fs") and mkfs:
        subprocess.run([mkfs, "-q", "-F", disk], check=True, capture_output=True)
    elif sc.get("fs"):
        raise Skip("no mkfs.ext4 (e2fsprogs) for the disk")
    return disk


KMSG = re.compile(r"\[ *\d+\.\d{6}\] .*$")


def parse(text):
    """{name: output} of the blocks, {name: (rc, seconds)} of the runs, and markers."""
    blocks, rcs, marks = {}, {}, []
    cur, buf = None, []
    lines = [raw.rstrip("\r") for raw in text.splitlines()]
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        # A kernel message at an emergency level (e.g. "[ 59.4] Disabling
        # IRQ #4" of a busy serial port) reaches the console whatever the
        # loglevel, in the middle of a line: cut it out and join the two
        # halves of the line it split.
        m = KMSG.search(line)
        if m:
            line = line[:m.start()]
            if not line:
                continue
            if i < len(lines):
                line += lines[i]
                i += 1
        if cur is not None:
            if line == "@@RTR-END " + cur:
                blocks[cur] = "\n".join(buf).rstrip("\n")
                cur, buf = None, []
            else:
                buf.append(line)
            continue
        if "@@RTR-" in line:  # the firmware's escape sequences may precede the first
            line = line[line.index("@@RTR-"):]
        if line.startswith("@@RTR-BEGIN "):
            cur = line[len("@@RTR-BEGIN "):]
        elif line.startswith("@@RTR-RC "):
            f = line.split()
            rcs[f[1]] = (int(f[2]), float(f[4]) - float(f[3]))
        elif line.startswith("@@RTR-"):
            marks.append(line)
    return blocks, rcs, marks


# ---------------------------------------------------------------- judging

class Result:
    def __init__(self, scenario):
        self.sc = scenario
        self.passed = self.failed = self.skipped = 0

    def ok(self, name, cond, detail=""):
        if cond:
            self.passed += 1
            log("  ok    %s %s" % (self.sc, name))
        else:
            self.failed += 1
            log("  FAIL  %s %s%s" % (self.sc, name, (": " + detail) if detail else ""))
        return cond

    def skip(self, name, why):
        self.skipped += 1
        log("  skip  %s %s: %s" % (self.sc, name, why))


def load_json(blocks, name):
    try:
        return json.loads(blocks.get(name, ""))
    except ValueError:
        return None


def checks_by_id(doc):
    return {c["id"]: c for c in (doc or {}).get("checks", [])}


def ran(r, rcs, blocks, name, allowed=(0,)):
    """The command NAME ran in the guest and exited with one of ALLOWED."""
    if name not in rcs:
        return r.ok(name + " ran", False, "no exit status (guest stopped before it?)")
    rc, secs = rcs[name]
    return r.ok("%s exit %d (%.1fs)" % (name, rc, secs), rc in allowed,
                "exit %d, expected %s; stderr: %s" % (
                    rc, allowed, blocks.get(name + ".err", "")[-600:]))


def judge_check(r, rcs, blocks, name, rt_cpus, want_pass):
    ran(r, rcs, blocks, name, (0, 1))
    doc = load_json(blocks, name + ".out")
    if not r.ok(name + " JSON", doc is not None, blocks.get(name + ".err", "")[-300:]):
        return {}
    if rt_cpus is not None:
        r.ok("%s finds RT CPUs %s from the command line" % (name, rt_cpus),
             doc.get("host", {}).get("rt_cpus") == rt_cpus, "host: %s" % doc.get("host"))
    by = checks_by_id(doc)
    for cid in want_pass:
        c = by.get(cid)
        r.ok("%s %s pass" % (name, cid), c is not None and c["status"] == "pass",
             "%s: %s" % (c and c["status"], c and c["evidence"]))
    return by


def judge_tune(r, rcs, blocks):
    for n in ("tune-apply", "tune-revert"):
        ran(r, rcs, blocks, n)
    before = tunable_map(blocks.get("tunables-before", ""))
    applied = tunable_map(blocks.get("tunables-applied", ""))
    after = tunable_map(blocks.get("tunables-after", ""))
    r.ok("tune --apply changed something", before and applied and before != applied,
         "no difference in %d values" % len(before))
    diff = ["%s: %r -> %r" % (k, before[k], after.get(k)) for k in sorted(before)
            if k in after and before[k] != after[k]]
    r.ok("tune --revert restores every value (%d compared)" % len(before), not diff,
         "; ".join(diff[:12]))
    moved = [k for k in before if k.startswith("task ") and k in applied
             and before[k] != applied[k]]
    r.ok("tune --apply moved tasks (%d)" % len(moved), bool(moved))
    # 6.12+: the fair server zeroed on the RT CPUs only (and put back, above).
    fair = sorted(k for k in before if "/fair_server/" in k)
    if fair:
        zeroed = [k for k in fair if applied.get(k) == "0" and before[k] != "0"]
        r.ok("tune --apply zeroed the fair server on the RT CPUs (%s)" % ", ".join(
            k.split("/")[-2] for k in zeroed), zeroed and all(
                ("/cpu2/" in k or "/cpu3/" in k) for k in zeroed),
            "; ".join("%s: %s -> %s" % (k, before[k], applied.get(k)) for k in fair))


def tunable_map(text):
    out = {}
    for line in text.splitlines():
        k, sep, v = line.rpartition("=")
        if sep:
            out[k] = v
    return out


def judge_pi(r, rcs, blocks, name="pi"):
    ran(r, rcs, blocks, name)
    doc = load_json(blocks, name + ".out")
    if not r.ok(name + " JSON", doc is not None, blocks.get(name + ".out", "")[:300]):
        return None
    p = doc.get("pi", {})
    r.ok("%s verdict 'works' (%d+%d rounds)" % (name, p.get("with_pi", {}).get("rounds", 0),
                                                p.get("plain", {}).get("rounds", 0)),
         p.get("verdict") == "works", "%s: %s" % (p.get("verdict"), p.get("reason")))
    log("        %s: waited %.1f ms with PI, %.1f ms without (medians)" % (
        name, p.get("with_pi", {}).get("wait_p50_ns", 0) / 1e6,
        p.get("plain", {}).get("wait_p50_ns", 0) / 1e6))
    if not doc.get("host", {}).get("kernel"):
        log("        note: %s --format json leaves host.kernel empty" % name)
    return doc


def judge_latency(r, rcs, blocks, name, cpus):
    ran(r, rcs, blocks, name)
    doc = load_json(blocks, name + ".out")
    if not r.ok(name + " JSON", doc is not None, blocks.get(name + ".err", "")[-300:]):
        return
    th = doc.get("threads", [])
    r.ok("%s measured %d CPUs, every one with samples" % (name, cpus),
         len(th) == cpus and all(t.get("samples", 0) > 0 for t in th),
         "threads: %s" % [(t.get("cpu"), t.get("samples")) for t in th])
    s = doc.get("summary", {})
    log("        %s: max %s us over %s samples" % (
        name, (s.get("max_ns") or 0) // 1000, s.get("samples")))


def cpu_list(text):
    out = set()
    for part in (text or "").split(","):
        if part:
            a, _, b = part.partition("-")
            out.update(range(int(a), int(b or a) + 1))
    return out


def judge_deadline(r, rcs, blocks, cpus):
    """Issue 29: latency --policy deadline on every CPU, check's DEADLINE
    figure against the two holders started, and the admission message."""
    judge_latency(r, rcs, blocks, "latency-dl", cpus)
    doc = load_json(blocks, "latency-dl.out") or {}
    seen = set()
    for t in doc.get("threads", []):
        seen |= cpu_list(t.get("cpus_seen"))
    r.ok("latency-dl jobs ran on every CPU (%s)" % sorted(seen), seen == set(range(cpus)),
         "cpus_seen: %s" % [t.get("cpus_seen") for t in doc.get("threads", [])])
    ran(r, rcs, blocks, "check-dl", (0, 1))
    by = checks_by_id(load_json(blocks, "check-dl.out"))
    c = by.get("sched.deadline_bandwidth", {})
    m = re.search(r"main root domain \(CPU [0-9,-]+\): .*?(\d+) DEADLINE threads? reserves? "
                  r"([0-9.]+)% of a CPU", c.get("evidence", ""))
    r.ok("check counts the two DEADLINE holders (2 x 50%)",
         m is not None and int(m.group(1)) == 2 and abs(float(m.group(2)) - 100.0) < 0.2,
         "%s: %s" % (c.get("status"), c.get("evidence")))
    log("        check-dl: %s" % c.get("evidence", "")[:300])
    ran(r, rcs, blocks, "run-dl-busy", (2,))
    err = blocks.get("run-dl-busy.err", "")
    r.ok("run --policy deadline asking too much gets the admission message",
         "admission refused" in err and "% left" in err and "sched_rt_runtime_us" in err,
         err[-400:])


def noise_cpus(r, rcs, blocks, name, cpus):
    """The per-CPU results of an `rtready noise` run (block NAME.json), judged:
    it ran, measured every CPU of CPUS, and gave every event exactly one cause
    from the kernel trace (per event). {cpu: result}, or None."""
    ran(r, rcs, blocks, name)
    doc = load_json(blocks, name + ".json")
    if not r.ok(name + " JSON", doc is not None, blocks.get(name + ".err", "")[-300:]):
        return None
    by = {c.get("cpu"): c for c in doc.get("cpus", [])}
    r.ok("%s measured CPUs %s, every one with loops" % (name, ",".join(map(str, cpus))),
         sorted(by) == list(cpus) and all(c.get("loops", 0) > 0 for c in by.values()),
         "cpus: %s" % [(c.get("cpu"), c.get("loops")) for c in by.values()])
    att = doc.get("attribution", {})
    r.ok("%s attributed per event from the trace (source %s)" % (name, att.get("source")),
         att.get("source") == "trace" and att.get("per_event") is True, "%s" % att)
    uncaused = ["cpu %s: %s events, %s in causes" % (
        c.get("cpu"), c.get("events"), sum(x.get("count", 0) for x in c.get("causes", [])))
        for c in by.values()
        if sum(x.get("count", 0) for x in c.get("causes", [])) != c.get("events")]
    r.ok("%s: every event has one cause" % name, not uncaused, "; ".join(uncaused))
    return by


def noise_causes(c, top=3):
    """The largest causes of one CPU's result, by total time, kind and name merged over pids."""
    tot = {}
    for x in c.get("causes", []):
        k = "%s %s" % (x.get("kind"), x.get("name"))
        n, ns = tot.get(k, (0, 0))
        tot[k] = (n + x.get("count", 0), ns + x.get("total_ns", 0))
    best = sorted(tot.items(), key=lambda kv: -kv[1][1])[:top]
    return ", ".join("%s %dx %.1f ms" % (k, n, ns / 1e6) for k, (n, ns) in best) or "none"


def log_noise(label, c):
    log("        %s: %s events, max gap %.1f us, availability %.5f %%, noise %.1f ms; %s" % (
        label, c.get("events"), c.get("max_ns", 0) / 1e3, c.get("availability_pct", 0),
        c.get("noise_ns", 0) / 1e6, noise_causes(c)))


def load_events(c):
    """Events of one CPU caused by the tasks of `rtready load` (rtr-load-*)."""
    return sum(x.get("count", 0) for x in c.get("causes", [])
               if x.get("kind") == "thread" and x.get("name", "").startswith("rtr-load"))


def judge_run_check(r, rcs, blocks):
    for name, want in (("run-good", set()), ("run-bad", {"app.mutex_no_pi"})):
        ran(r, rcs, blocks, name)
        doc = load_json(blocks, name + ".json")
        if not r.ok(name + " report", doc is not None, blocks.get(name + ".err", "")[-400:]):
            continue
        ids = {f["id"] for f in doc.get("findings", [])}
        attached = doc.get("checker", {}).get("attached")
        r.ok("%s checker attached, findings %s" % (name, sorted(want) or "none"),
             attached and ids == want, "attached %s, findings %s" % (attached, sorted(ids)))


def save_snapshot(r, blocks, sc, fixtures):
    b64 = blocks.get(sc + ".snapshot.b64")
    if not r.ok("snapshot taken", b64 is not None, blocks.get(sc + ".snapshot.err", "")[-300:]):
        return None
    data = base64.b64decode(b64)
    if fixtures:
        dst = os.path.join(fixtures, "kernel-" + sc)
        # a new capture replaces the tree, not the notes kept beside it
        for old in (os.listdir(dst) if os.path.isdir(dst) else []):
            if old not in ("README.md", "expected.json"):
                p = os.path.join(dst, old)
                shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
        os.makedirs(dst, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            t.extractall(dst, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(dst)
        log("        snapshot saved in %s" % dst)
    return data


def judge_x86_rt(r, blocks, rcs, opts):
    by = judge_check(r, rcs, blocks, "check", "2-3", ["kernel.preempt", "cpu.isolation"])
    irq = by.get("kernel.threadirqs")
    r.ok("kernel.threadirqs sees the forced IRQ threads", irq is not None
         and irq["status"] == "pass", irq and irq["evidence"])
    judge_tune(r, rcs, blocks)
    judge_check(r, rcs, blocks, "check-tuned", "2-3", ["kernel.preempt", "cpu.isolation"])
    before = by
    after = checks_by_id(load_json(blocks, "check-tuned.out"))
    fixed = [k for k in before if before[k]["status"] in ("warn", "fail")
             and after.get(k, {}).get("status") == "pass"]
    r.ok("check after tune --apply shows fixes (%s)" % ", ".join(fixed), bool(fixed))
    doc = judge_pi(r, rcs, blocks)
    judge_latency(r, rcs, blocks, "latency", 4)
    judge_deadline(r, rcs, blocks, 4)
    ran(r, rcs, blocks, "load")
    # The difference the boot line makes, printed: CPU 1 keeps the housekeeping,
    # CPU 2 is isolated (isolcpus, nohz_full, rcu_nocbs), measured at once.
    by = noise_cpus(r, rcs, blocks, "noise-boot", (1, 2))
    if by:
        log_noise("noise CPU 1 (housekeeping)", by[1])
        log_noise("noise CPU 2 (isolated)    ", by[2])
    ran(r, rcs, blocks, "inspect", (0, 1))
    insp = load_json(blocks, "inspect.out")
    r.ok("inspect judged rt-app", insp is not None and "rt-app" in blocks.get("inspect.out", ""),
         blocks.get("inspect.err", "")[-300:])
    judge_run_check(r, rcs, blocks)
    ran(r, rcs, blocks, "verify", (0, 1))
    r.ok("verify wrote its report", "verify.json" in blocks.get("verify-files", ""),
         blocks.get("verify-files", ""))
    save_snapshot(r, blocks, r.sc, opts.fixtures)
    return doc


def judge_arm64_rt(r, blocks, rcs, opts):
    judge_check(r, rcs, blocks, "check", "2-3", ["kernel.preempt", "cpu.isolation"])
    judge_tune(r, rcs, blocks)
    before = tunable_map(blocks.get("tunables-before", ""))
    applied = tunable_map(blocks.get("tunables-applied", ""))
    for what, pred in (("IRQ affinities", lambda k: k.startswith("/proc/irq/")),
                       ("the workqueue mask", lambda k: k.endswith("workqueue/cpumask"))):
        ch = [k for k in before if pred(k) and k in applied and before[k] != applied[k]]
        r.ok("tune --apply --rt-cpus 1-3 changed %s (%d)" % (what, len(ch)), bool(ch))
    judge_pi(r, rcs, blocks)
    judge_latency(r, rcs, blocks, "latency", 4)
    judge_run_check(r, rcs, blocks)
    report_frames(r, rcs, blocks)
    save_snapshot(r, blocks, r.sc, opts.fixtures)


def judge_armhf_rt(r, blocks, rcs, opts):
    judge_check(r, rcs, blocks, "check", "2-3", ["kernel.preempt", "cpu.isolation"])
    judge_pi(r, rcs, blocks)
    judge_latency(r, rcs, blocks, "latency", 4)
    judge_run_check(r, rcs, blocks)
    report_t64(r, rcs, blocks)
    report_frames(r, rcs, blocks)
    save_snapshot(r, blocks, r.sc, opts.fixtures)


def report_t64(r, rcs, blocks):
    """Programs with a 64-bit time_t on a 32-bit target call glibc's time64
    entry points (__clock_nanosleep_time64): the checker hooks those too."""
    for name, want in (("run-good-t64", set()), ("run-relsleep-t64", {"app.relative_sleep"})):
        doc = load_json(blocks, name + ".json")
        if not r.ok(name + " report", doc is not None, blocks.get(name + ".err", "")[-200:]):
            continue
        ids = {f["id"] for f in doc.get("findings", [])}
        attached = doc.get("checker", {}).get("attached")
        r.ok("%s (64-bit time_t) checker attached, findings %s" % (name, sorted(want) or "none"),
             attached and ids == want, "attached %s, findings %s" % (attached, sorted(ids)))


def report_frames(r, rcs, blocks):
    """The frame the checker names for an allocation in a static function:
    work_alloc, named from the program's .symtab (32-bit ELF and Thumb on armhf)."""
    doc = load_json(blocks, "run-alloc.json")
    found = [f for f in (doc or {}).get("findings", []) if f["id"] == "app.alloc_in_rt"]
    if not r.ok("run-alloc: app.alloc_in_rt found", bool(found),
                blocks.get("run-alloc.err", "")[-200:]):
        return
    bt = found[0].get("backtrace") or [{}]
    r.ok("run-alloc: the first frame is work_alloc (a static function)",
         bt[0].get("sym") == "work_alloc", json.dumps(bt[:3]))


def judge_generic(r, blocks, rcs, opts):
    by = judge_check(r, rcs, blocks, "check", None, [])
    c = by.get("kernel.preempt")
    r.ok("kernel.preempt reads the live mode 'full' from debugfs",
         c is not None and "full" in c["evidence"], c and c["evidence"])
    r.ok("debugfs preempt file says full", "(full)" in blocks.get("debugfs-preempt", ""),
         blocks.get("debugfs-preempt", ""))
    c = by.get("sched.rt_throttling")
    r.ok("sched.rt_throttling judges the fair server",
         c is not None and "fair deadline server" in c["evidence"], c and c["evidence"])
    save_snapshot(r, blocks, r.sc, opts.fixtures)


def judge_powercut(r, blocks, rcs, opts):
    try:
        at_cut = json.loads(blocks.get("b1-journal-at-cut", ""))
    except ValueError:
        at_cut = None
    if not r.ok("the journal was on disk before the cut", at_cut is not None,
                blocks.get("b1-journal-at-cut", "")[:300]):
        return
    if at_cut.get("state") == "applying":
        r.ok("the cut came in the middle of --apply (journal state 'applying')", True)
    else:
        r.skip("cut in the middle of --apply", "apply had finished (state %s)" %
               at_cut.get("state"))
    r.ok("a file written before the cut survives", "written before the cut" in
         blocks.get("b2-persist", ""), blocks.get("b2-persist", ""))
    ls = blocks.get("b2-state-dir", "")
    # The name exactly: " tune.journal" is also the start of " tune.journal.tmp".
    r.ok("the journal is on the disk after the cut",
         re.search(r" tune\.journal$", ls, re.M) is not None, ls)
    if "tune.journal.tmp" in ls:
        log("        note: a tune.journal.tmp was left by the cut (the journal itself is whole)")
    ran(r, rcs, blocks, "b2-status")
    st = load_json(blocks, "b2-status.out") or {}
    j = st.get("journal") or {}
    r.ok("tune --status reads the whole journal: an earlier boot, state %s" % j.get("state"),
         j.get("this_boot") is False and j.get("state") in ("applying", "applied"),
         blocks.get("b2-status.out", "")[:400])
    before = tunable_map(blocks.get("b1-tunables-before", ""))
    boot = tunable_map(blocks.get("b2-tunables-boot", ""))
    sysvals = lambda m: {k: v for k, v in m.items() if not k.startswith("task ")}
    diff = ["%s: %r -> %r" % (k, v, sysvals(boot).get(k)) for k, v in sysvals(before).items()
            if k in boot and boot[k] != v]
    r.ok("the reboot reset every runtime value (%d compared)" % len(sysvals(before)), not diff,
         "; ".join(diff[:10]))
    rc = rcs.get("b2-revert", (None, 0))[0]
    msg = blocks.get("b2-revert.err", "") + blocks.get("b2-revert.out", "")
    after = tunable_map(blocks.get("b2-tunables-after-revert", ""))
    changed = ["%s: %r -> %r" % (k, boot[k], after[k]) for k in boot
               if k in after and boot[k] != after[k]]
    r.ok("tune --revert after the reboot changes nothing (exit %s)" % rc, not changed,
         "; ".join(changed[:10]))
    r.ok("tune --revert says the journal is from an earlier boot", "earlier boot" in msg, msg)
    ran(r, rcs, blocks, "b2-apply")
    ran(r, rcs, blocks, "b2-revert-new")
    final = tunable_map(blocks.get("b2-tunables-final", ""))
    diff = ["%s: %r -> %r" % (k, boot[k], final[k]) for k in boot
            if k in final and boot[k] != final[k]]
    r.ok("a new apply and revert restore every value (%d compared)" % len(boot), not diff,
         "; ".join(diff[:10]))


def judge_powercut_iso(r, blocks, rcs, opts):
    # Workqueue rescuers (kworker/R-*) are bound by the kernel, which
    # recomputes their mask from the isolated CPUs lazily: not compared, as
    # in judge_isolate.
    for key in [k for k in blocks if k.startswith(("b1-tunables", "b2-tunables"))]:
        blocks[key] = "\n".join(l for l in blocks[key].splitlines()
                                if not re.match(r"task \d+ kworker/R-", l))
    judge_powercut(r, blocks, rcs, opts)
    at_cut = blocks.get("b1-cg-at-cut", "")
    r.ok("the cut came after the partition's group was made (%s)" % " ".join(at_cut.split()),
         "group=/sys/fs/cgroup/rtready-isolated" in at_cut.splitlines(), at_cut)
    first = blocks.get("b1-cg-before", "").strip()
    boot = blocks.get("b2-cg-boot", "").strip()
    r.ok("the reboot took the partition away (cgroup tree as in the first boot)",
         boot == first and "isolated=2-3" not in boot, "first %r, now %r" % (first, boot))
    for name in ("b2-cg-after-revert", "b2-cg-final"):
        r.ok("%s: the cgroup tree as at boot" % name, blocks.get(name, "").strip() == boot,
             "boot %r, now %r" % (boot, blocks.get(name, "").strip()))
    applied = blocks.get("b2-cg-applied", "")
    r.ok("the new --isolate --apply made the partition (cpuset.cpus.isolated 2-3)",
         "isolated=2-3" in applied.splitlines(), applied)


def judge_trace(r, blocks, rcs, opts):
    ran(r, rcs, blocks, "trace", (1,))
    doc = load_json(blocks, "trace.out") or {}
    t = doc.get("trace") or {}
    r.ok("latency --trace stopped at the threshold", t.get("triggered") is True,
         blocks.get("trace.err", "")[-400:])
    r.ok("the kernel has timerlat and osnoise (seen by latency --trace)",
         (t.get("kernel_tracers") or {}).get("timerlat") is True, str(t.get("kernel_tracers")))
    r.ok("latency --trace says where its explanation came from (source %s)" % t.get("source"),
         t.get("source") == "events", str(t.get("source")))
    names = [c.get("name") for c in t.get("contributors", [])]
    r.ok("latency --trace names the hog (contributors: %s)" % ", ".join(map(str, names)),
         "rtr-hog" in names, "phase %s, latency %s ns" % (t.get("phase"), t.get("latency_ns")))
    log("        rtready: %s ns late, phase %s, explained %s ns" % (
        t.get("latency_ns"), t.get("phase"), t.get("explained_ns")))
    if "rtla" not in rcs:
        r.skip("rtla timerlat", "rtla did not run")
        return
    out = blocks.get("rtla.out", "") + blocks.get("rtla.err", "")
    r.ok("rtla timerlat --auto stopped at the threshold", "hit stop tracing" in out, out[-600:])
    hog = blocks.get("rtla-trace-hog", "0").strip()
    r.ok("rtla's saved trace shows the hog (%s lines)" % hog, hog.isdigit() and int(hog) > 0,
         blocks.get("rtla-trace-tail", "")[-600:])
    for line in out.splitlines():
        if "hit stop" in line or "analyz" in line.lower() or "Blocking" in line:
            log("        rtla: " + line.strip())
    # Debian 12's rtla (6.1) has no auto-analysis (rtla 6.3+); what it shows is
    # the hog's thread_noise in the trace it saved. Same hog, its own run:
    # both must put about one spin (150 ms) on it.
    ours = max([c.get("duration_ns", 0) for c in t.get("contributors", [])
                if c.get("name") == "rtr-hog"] or [0])
    theirs = [int(x) for x in re.findall(r"thread_noise: +rtr-hog:\d+ start \S+ duration (\d+) ns",
                                         blocks.get("rtla-hog-noise", ""))]
    log("        hog's share: rtready %.1f ms, rtla thread_noise %s ms" % (
        ours / 1e6, ", ".join("%.1f" % (x / 1e6) for x in theirs) or "none"))
    r.ok("rtready and rtla both put a whole spin (100-200 ms) on the hog",
         100e6 <= ours <= 200e6 and any(100e6 <= x <= 200e6 for x in theirs),
         "rtready %d ns, rtla %s" % (ours, theirs))


def unit_props(text):
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def judge_systemd_phase(r, blocks, rcs, p1, p2, p3, what, exe_re):
    """One install of rtready (WHAT: the tarball or the .deb) under systemd
    (guest/systemd.sh): its blocks P1- (apply), P2- (check), P3- (clean).
    EXE_RE: the binary the emitted unit must run."""
    sysvals = lambda m: {k: v for k, v in m.items() if not k.startswith("task ")}
    same = lambda a, b: ["%s: %r -> %r" % (k, a[k], b[k]) for k in sorted(a)
                         if k in b and a[k] != b[k]]
    boot1 = sysvals(tunable_map(blocks.get(p1 + "-tunables-boot", "")))
    applied = sysvals(tunable_map(blocks.get(p1 + "-tunables-applied", "")))
    ran(r, rcs, blocks, p1 + "-apply")
    r.ok(what + ": " + "tune --apply changed runtime values (%d)" % len(same(boot1, applied)),
         bool(same(boot1, applied)))
    ran(r, rcs, blocks, p1 + "-emit")
    unit = blocks.get(p1 + "-unit", "")
    exe = re.search(r"^ExecStart=(\S+) tune --apply --rt-cpus 2-3", unit, re.M)
    r.ok("%s: the emitted unit runs its binary (%s)" % (what, exe and exe.group(1)),
         exe is not None and re.match(exe_re, exe.group(1)), unit[:600])
    r.ok(what + ": " + "the emitted unit is sandboxed (ProtectSystem=strict)",
         "\nProtectSystem=strict\n" in unit, unit[-800:])
    ran(r, rcs, blocks, p1 + "-enable")
    if p2 + "-tunables-boot" not in blocks:
        return
    # Boot 2: the unit's apply at boot, then the verify service, then revert.
    props = unit_props(blocks.get(p2 + "-tune-unit", ""))
    r.ok(what + ": " + "rtready-tune.service ran at boot: %s/%s, result %s, status %s" % (
        props.get("ActiveState"), props.get("SubState"), props.get("Result"),
        props.get("ExecMainStatus")),
        props.get("ActiveState") == "active" and props.get("Result") == "success"
        and props.get("ExecMainStatus") == "0", blocks.get(p2 + "-tune-log", "")[-800:])
    st = (load_json(blocks, p2 + "-status.out") or {}).get("journal") or {}
    r.ok(what + ": " + "tune --status: the journal was written in this boot (state %s)" % st.get("state"),
         st.get("this_boot") is True and st.get("state") == "applied",
         blocks.get(p2 + "-status.out", "")[:400])
    boot2 = sysvals(tunable_map(blocks.get(p2 + "-tunables-boot", "")))
    diff = same(applied, boot2)
    r.ok(what + ": " + "after the reboot the tuned values are back (%d compared)" % len(
        set(applied) & set(boot2)), not diff and len(set(applied) & set(boot2)) > 10,
        "; ".join(diff[:10]))
    r.ok(what + ": " + "irqbalance's environment file is the tuned one after the reboot",
         blocks.get(p2 + "-irqbalance") == blocks.get(p1 + "-irqbalance-applied") !=
         blocks.get(p1 + "-irqbalance"), blocks.get(p2 + "-irqbalance", "")[-300:])
    ran(r, rcs, blocks, p2 + "-verify")
    props = unit_props(blocks.get(p2 + "-verify-unit", ""))
    r.ok(what + ": " + "rtready-verify.service: result %s, verdict exit %s (1 is no unit failure)" % (
        props.get("Result"), props.get("ExecMainStatus")),
        props.get("Result") == "success" and props.get("ExecMainStatus") in ("0", "1"),
        blocks.get(p2 + "-verify-status", "")[-1200:])
    scraped = blocks.get(p2 + "-scrape", "")
    if scraped.startswith("no node exporter"):
        r.skip(what + ": node exporter", "the image has no %s (not in the registry)" % NODE_EXPORTER)
    else:
        # Its textfile collector read rtready.prom without error, and serves the series.
        m = re.search(r"^rtready series: (\d+)$", scraped, re.M)
        r.ok(what + ": the node exporter serves the rtready series from the textfile (%s)" % (
            m and m.group(1)),
             "\nrtready_verdict" in "\n" + scraped and m is not None and int(m.group(1)) > 20 and
             re.search(r"^node_textfile_scrape_error 0$", scraped, re.M) is not None,
             scraped[:600])
    files = blocks.get(p2 + "-verify-files", "")
    r.ok(what + ": " + "the service wrote its report and the textfile",
         " verify.json" in files and " rtready.prom" in files, files)
    r.ok(what + ": " + "the textfile carries the verdict", "rtready_verdict" in blocks.get(p2 + "-prom", ""),
         blocks.get(p2 + "-prom", "")[:300])
    # The sandbox hides nothing the checklist reads: same status for every check.
    ran(r, rcs, blocks, p2 + "-check", (0, 1))
    try:  # verify.json's "check" member, as the guest cut it out
        part = json.loads("{%s}" % blocks.get(p2 + "-verify-checks", "").strip().rstrip(","))
    except ValueError:
        part = {}
    inside = {c["id"]: c for c in (part.get("check") or {}).get("checks", [])}
    outside = checks_by_id(load_json(blocks, p2 + "-check.out"))
    diff = ["%s: %s in the unit (%s), %s outside" % (
        k, inside[k]["status"], inside[k]["evidence"][:160], outside[k]["status"])
        for k in sorted(inside) if k in outside and inside[k]["status"] != outside[k]["status"]]
    common = set(inside) & set(outside)  # verify runs the PI check its own way
    r.ok(what + ": " + "the checklist in the unit is the one outside it (%d checks)" % len(common),
         len(common) > 20 and not diff, "; ".join(diff[:6]))
    ran(r, rcs, blocks, p2 + "-verify-fail")
    props = unit_props(blocks.get(p2 + "-verify-fail-unit", ""))
    seen = blocks.get(p2 + "-verify-fail-exit", "").split()
    r.ok(what + ": " + "a failed verdict: systemd saw %s, unit result %s" % (" ".join(seen),
                                                               props.get("Result")),
         seen[1:] == ["exited", "1"] and props.get("Result") == "success"
         and 'status="fail"} 1' in blocks.get(p2 + "-prom-fail", ""),
         blocks.get(p2 + "-verify-fail-unit", "") + blocks.get(p2 + "-verify-dropin", ""))
    ran(r, rcs, blocks, p2 + "-disable")
    props = unit_props(blocks.get(p2 + "-tune-stopped", ""))
    r.ok(what + ": " + "systemctl disable --now: the unit's revert ran (%s, result %s)" % (
        props.get("ActiveState"), props.get("Result")),
        props.get("ActiveState") == "inactive" and props.get("Result") == "success",
        blocks.get(p2 + "-tune-stopped", ""))
    r.ok(what + ": " + "the unit's revert put irqbalance's file back, in its sandbox",
         blocks.get(p2 + "-irqbalance-stopped") == blocks.get(p1 + "-irqbalance"),
         blocks.get(p2 + "-irqbalance-stopped", "")[-300:])
    ran(r, rcs, blocks, p2 + "-revert")
    if p3 + "-tunables-boot" not in blocks:
        return
    # Boot 3: nothing is left behind.
    boot3 = sysvals(tunable_map(blocks.get(p3 + "-tunables-boot", "")))
    diff = same(boot1, boot3)
    r.ok(what + ": " + "after revert, disable and a reboot every value is the first boot's (%d compared)" %
         len(set(boot1) & set(boot3)), not diff and len(set(boot1) & set(boot3)) > 10,
         "; ".join(diff[:10]))
    r.ok(what + ": " + "irqbalance's environment file is the original again",
         blocks.get(p3 + "-irqbalance") == blocks.get(p1 + "-irqbalance"),
         blocks.get(p3 + "-irqbalance", "")[-300:])
    props = unit_props(blocks.get(p3 + "-tune-unit", ""))
    r.ok(what + ": " + "rtready-tune.service is gone (%s)" % props.get("LoadState"),
         props.get("LoadState") == "not-found", blocks.get(p3 + "-tune-unit", ""))
    left = blocks.get(p3 + "-leftovers", "")
    r.ok(what + ": " + "no unit link or sysctl file is left", "rtready" not in left, left)
    st = (load_json(blocks, p3 + "-status.out") or {}).get("journal") or {}
    r.ok(what + ": " + "tune --status: the last apply was reverted (state %s)" % st.get("state"),
         st.get("state") == "reverted", blocks.get(p3 + "-status.out", "")[:400])
    errs = [l for l in blocks.get(p3 + "-errors", "").splitlines() if l and not l.startswith("--")]
    r.ok(what + ": " + "the journal has no error from either unit (%s boots)" % len(
        [l for l in blocks.get(p3 + "-boots", "").splitlines()[1:] if l.strip()]),
         not errs, "; ".join(errs[:8]))
    failed = [l for l in blocks.get(p3 + "-unit-log", "").splitlines()
              if "systemd[1]:" in l and re.search(r"[Ff]ailed|status=[1-9]", l)]
    r.ok(what + ": " + "systemd reports no failure of either unit", not failed, "; ".join(failed[:8]))


def judge_systemd(r, blocks, rcs, opts):
    """The boot unit of tune --emit-boot and rtready-verify.service under
    systemd (guest/systemd.sh): from the release tarball, then the .deb."""
    judge_systemd_phase(r, blocks, rcs, "s1", "s2", "s3", "tarball",
                        r"/opt/rtready-[^/]+/bin/rtready$")
    if "d1-dpkg.out" not in blocks and "d1-dpkg.err" not in blocks:
        return
    ran(r, rcs, blocks, "d1-dpkg")
    r.ok("deb: dpkg -i installed rtready (%s)" % blocks.get("d1-package", "").strip(),
         blocks.get("d1-package", "").strip().endswith(" installed"),
         blocks.get("d1-dpkg.err", "")[-600:])
    r.ok("deb: rtready-verify.service is the package's (%s)" %
         blocks.get("d2-verify-fragment", "").strip(),
         blocks.get("d2-verify-fragment", "").strip() == "/lib/systemd/system/rtready-verify.service")
    judge_systemd_phase(r, blocks, rcs, "d1", "d2", "d3", "deb", r"/usr/bin/rtready$")


def kthread_affinities(text):
    """{(tid, comm): (fixed, list)} from a guest's kaff block."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"kthread (\d+) ([01]) (.*)=(.*)$", line.strip())
        if m:
            out[(m.group(1), m.group(3))] = (m.group(2) == "1", m.group(4))
    return out


def kthread_moves(blocks, before, after):
    """The kernel threads in both blocks whose affinity differs: (movable, fixed), as text."""
    a, b = kthread_affinities(blocks.get(before, "")), kthread_affinities(blocks.get(after, ""))
    moved, fixed = [], []
    for key in sorted(set(a) & set(b), key=lambda k: int(k[0])):
        if a[key][1] != b[key][1]:
            (fixed if a[key][0] else moved).append("%s(%s) '%s' -> '%s'" % (
                key[1], key[0], a[key][1], b[key][1]))
    return moved, fixed


def judge_kthread_affinities(r, blocks, rcs):
    # A partition that comes and goes resets the root group's kernel threads
    # to every CPU, unless a mask of their own was set with sched_setaffinity
    # (the kernel keeps it, as a user task's): IRQ threads, which follow
    # their IRQ, have none at boot. By hand (rawpart), first thing in the
    # boot, shows it; rtready must put them back. Later, after tune and
    # rtready have set masks, irqflip moves irq/4 off its kept mask, so the
    # comparisons after it can fail too.
    raw, _ = kthread_moves(blocks, "kaff-before-raw", "kaff-after-raw")
    log("        a partition made and removed by hand (first in the boot) moved %d kernel "
        "threads: %s" % (len(raw), "; ".join(raw) or "none"))
    r.ok("reference: a partition made and removed by hand changes kernel threads' affinity",
         blocks.get("raw-partition", "").strip() == "isolated" and raw,
         "%s %s" % (blocks.get("raw-partition", "").strip(), raw))
    ran(r, rcs, blocks, "run-iso0")
    for key in ("irqflip-run0", "irqflip-noise", "irqflip-kill"):
        log("        %s: %s" % (key, blocks.get(key, "").strip().splitlines()[-1:]))
    for what, before, after in (("run --isolate, first in the boot", "kaff-before-run0",
                                 "kaff-after-run0"),
                                ("noise --isolate", "kaff-before-noise-iso",
                                 "kaff-after-noise-iso"),
                                ("run --isolate", "kaff-before-run", "kaff-after-run"),
                                ("run --isolate, rtready killed (-9), the next run cleans up",
                                 "kaff-before-kill", "kaff-after-clean")):
        aff = kthread_affinities(blocks.get(before, ""))
        narrow = sorted(k for k, v in aff.items() if not v[0] and v[1] != "0-3")
        log("        before %s: %d kernel threads with an affinity of their own (%s)" % (
            what, len(narrow), "; ".join("%s(%s)=%s" % (k[1], k[0], aff[k][1])
                                         for k in narrow)))
        moved, fixed = kthread_moves(blocks, before, after)
        if fixed:
            log("        %s: PF_NO_SETAFFINITY threads the kernel placed anew: %s" % (
                what, "; ".join(fixed)))
        r.ok("%s leaves every kernel thread's affinity as it was (%d compared, %d pinned)" % (
            what, len(set(aff) & set(kthread_affinities(blocks.get(after, "")))),
            len(narrow)), narrow and blocks.get(after) and not moved, "; ".join(moved))


def judge_isolate(r, blocks, rcs, opts):
    by = judge_check(r, rcs, blocks, "check-before", None, [])
    c = by.get("cpu.isolation")
    r.ok("without a partition cpu.isolation does not pass", c is not None
         and c["status"] != "pass", c and c["evidence"])
    ran(r, rcs, blocks, "tune-pinned", (2,))
    r.ok("tune --isolate names the process pinned to CPU 3", "(sleep)" in blocks.get(
        "tune-pinned.err", ""), blocks.get("tune-pinned.err", "")[-400:])
    before = tunable_map(blocks.get("cg-before", ""))
    applied = blocks.get("cg-applied", "")
    r.ok("tune --isolate --apply: cpuset.cpus.isolated reads 2-3",
         "isolated=2-3" in applied.splitlines(), applied)
    r.ok("... and rtready-isolated is an isolated partition",
         blocks.get("partition-applied", "").strip() == "isolated",
         blocks.get("partition-applied", ""))
    judge_check(r, rcs, blocks, "check-iso", None, ["cpu.isolation"])
    ran(r, rcs, blocks, "check-iso-default", (0, 1))
    d = load_json(blocks, "check-iso-default.out") or {}
    c = checks_by_id(d).get("cpu.isolation") or {}
    r.ok("check without --rt-cpus takes the partition's CPUs (%s)" % d.get("host", {}).get(
        "rt_cpus"), d.get("host", {}).get("rt_cpus") == "2-3" and c.get("status") == "pass"
         and "from isolated partition" in c.get("evidence", ""), c.get("evidence"))
    # Workqueue rescuers (kworker/R-*) are bound by the kernel (PF_NO_SETAFFINITY:
    # nobody can set them); 6.12 recomputes their mask from the unbound cpumask and
    # the isolated CPUs, lazily. Shown, not compared.
    was = tunable_map(blocks.get("tunables-before", ""))
    for key in ("tunables-before", "tunables-applied", "tunables-after"):
        lines = blocks.get(key, "").splitlines()
        resc = [l for l in lines if re.match(r"task \d+ kworker/R-", l)]
        if key == "tunables-after":
            moved = ["%s: %s -> %s" % (k, was.get(k), v) for k, v in tunable_map(
                "\n".join(resc)).items() if was.get(k) != v]
            if moved:
                log("        note: rescuer threads the kernel did not put back: %s" %
                    "; ".join(moved))
        blocks[key] = "\n".join(l for l in lines if l not in resc)
    ran(r, rcs, blocks, "tune-revert-busy", (1,))
    busy = [ch.get("note", "") for ch in (load_json(blocks, "tune-revert-busy.out") or {}).get(
        "changes", []) if ch.get("tunable") == "isolate-group"]
    r.ok("tune --revert says the partition still holds a process", busy and
         "still holds processes" in busy[0], "%s" % busy)
    judge_tune(r, rcs, blocks)
    cg = blocks.get("cg-before", "").strip()
    for name in ("cg-after", "cg-after-run", "cg-after-prog-kill", "cg-after-term",
                 "cg-after-clean"):
        r.ok("%s: the cgroup tree as before" % name, blocks.get(name, "").strip() == cg,
             "before %r, now %r" % (cg, blocks.get(name, "").strip()))
    ran(r, rcs, blocks, "run-iso")
    out = blocks.get("run-iso.out", "")
    r.ok("run --isolate: the program runs on 2-3 in an isolated partition",
         out.startswith("2-3") and re.search(r"Cpus_allowed_list:\s+2-3", out)
         and "/rtready-isolated-run-" in out, out[:400])
    during = blocks.get("cg-during-run", "")
    r.ok("run --isolate: 2-3 isolated while the program runs", "isolated=2-3" in during, during)
    r.ok("run --isolate: the program's SIGKILL is its exit status (137)",
         blocks.get("run-kill-prog.rc", "").strip() == "137",
         blocks.get("run-kill-prog.rc", "") + blocks.get("run-kill-prog.err", "")[-300:])
    left = blocks.get("cg-after-rtready-kill", "")
    log("        after kill -9 of rtready: %s" % " ".join(left.split()))
    ran(r, rcs, blocks, "run-clean")
    r.ok("the next run names the partition a killed rtready left",
         "/rtready-isolated-run-" not in left or "rtready-isolated-run-" in blocks.get(
             "run-clean.err", ""), blocks.get("run-clean.err", "")[-300:])
    judge_kthread_affinities(r, blocks, rcs)
    ran(r, rcs, blocks, "tune-fail", (1,))
    r.ok("a partition refused midway is undone whole (cgroup tree as before)",
         blocks.get("cg-after-fail", "").strip() == blocks.get("cg-before-fail", "").strip(),
         "before %r, after %r" % (blocks.get("cg-before-fail"), blocks.get("cg-after-fail")))
    doc = load_json(blocks, "tune-fail.out") or {}
    notes = [ch.get("note", "") for ch in doc.get("changes", [])
             if ch.get("tunable", "").startswith("isolate-")]
    log("        refused partition: %s" % "; ".join(n for n in notes if n))
    part = [ch for ch in doc.get("changes", []) if ch.get("tunable") == "isolate-partition"]
    r.ok("the refused partition's note says why", part and "kernel" in part[0].get("note", ""),
         "%s" % part)
    ran(r, rcs, blocks, "tune-fail-revert")
    res = {}
    for name in ("lat-plain", "lat-iso"):
        judge_latency(r, rcs, blocks, name, 2)
        s = (load_json(blocks, name + ".out") or {}).get("summary", {})
        res[name] = s
    p, i = res.get("lat-plain", {}), res.get("lat-iso", {})
    log("        latency on CPUs 2-3 under load, same boot: without partition max %s us "
        "p99 %s us; with partition max %s us p99 %s us" % (
            (p.get("max_ns") or 0) // 1000, (p.get("p99_ns") or 0) // 1000,
            (i.get("max_ns") or 0) // 1000, (i.get("p99_ns") or 0) // 1000))
    # rtready noise on 2-3 under the same load, for the same time, same boot
    # (issue 28's proof), plain / partition / partition / plain: without the
    # partition the load's tasks take turns on 2-3; with it (noise --isolate:
    # only the spinners inside, the main thread on 0-1) they cannot run there.
    # The load's events in the plain runs show that the measurement sees them,
    # so none in the partition runs is not vacuous.
    names = ("noise-plain", "noise-iso", "noise-iso2", "noise-plain2")
    by = {n: noise_cpus(r, rcs, blocks, n, (2, 3)) for n in names}
    if any(v is None for v in by.values()):
        return
    for n in names:
        for cpu in (2, 3):
            log_noise("%-12s CPU %d" % (n, cpu), by[n][cpu])
    for n in ("noise-iso", "noise-iso2"):
        cfg = (load_json(blocks, n + ".json") or {}).get("config", {})
        r.ok("%s ran its spinners in a partition of its own (%s)" % (n, cfg.get("partition")),
             "/rtready-isolated-run-" in cfg.get("partition", ""), "%s" % cfg)
    r.ok("noise --isolate leaves the cgroup tree as it found it",
         blocks.get("cg-after-noise-iso", "").strip() ==
         blocks.get("cg-before-noise-iso", "").strip(),
         "before %r, after %r" % (blocks.get("cg-before-noise-iso"),
                                  blocks.get("cg-after-noise-iso")))
    ran(r, rcs, blocks, "noise-iso-taken", (2,))
    r.ok("noise --isolate on CPUs tune's partition holds: refused, named",
         "rtready-isolated" in blocks.get("noise-iso-taken.err", ""),
         blocks.get("noise-iso-taken.err", "")[-400:])
    plain = [by["noise-plain"], by["noise-plain2"]]
    iso = [by["noise-iso"], by["noise-iso2"]]
    lp = [load_events(c[cpu]) for c in plain for cpu in (2, 3)]
    li = [load_events(c[cpu]) for c in iso for cpu in (2, 3)]
    r.ok("noise without the partition: the load ran on 2-3 (rtr-load events %s)" % lp,
         all(x > 0 for x in lp[:2]) or all(x > 0 for x in lp[2:]), "%s" % lp)
    r.ok("noise with the partition: no event caused by the load (rtr-load events %s)" % li,
         not any(li), "; ".join(noise_causes(c[cpu], 10) for c in iso for cpu in (2, 3)))
    # The main thread (comm rtready) drains the trace and samples: outside the
    # partition it takes nothing from 2-3.
    own = [sum(x.get("count", 0) for x in c[cpu].get("causes", [])
               if x.get("kind") == "thread" and x.get("name") == "rtready")
           for c in iso for cpu in (2, 3)]
    r.ok("noise with the partition: no event caused by rtready's own main thread (%s)" % own,
         not any(own), "%s" % own)

    def total(runs, key):
        return sum(c[cpu].get(key, 0) for c in runs for cpu in (2, 3))

    def movable(runs):
        return sum(movable_events(c[cpu]) for c in runs for cpu in (2, 3))

    for n in names:
        avail = [by[n][cpu].get("availability_pct", 0) for cpu in (2, 3)]
        log("        %-12s on 2-3: %d events (%d by tasks that can move), noise %.1f ms, "
            "availability %.1f %% / %.1f %%" % (
                n, total([by[n]], "events"), movable([by[n]]), total([by[n]], "noise_ns") / 1e6,
                avail[0], avail[1]))
    ep, ei = total(plain, "events"), total(iso, "events")
    mp, mi = movable(plain), movable(iso)
    np_ns, ni_ns = total(plain, "noise_ns"), total(iso, "noise_ns")
    log("        noise on 2-3, same load, same 2 x 5 s, same boot: without the partition %d "
        "events (%d by tasks that can move), %.1f ms; with it %d events (%d), %.1f ms" % (
            ep, mp, np_ns / 1e6, ei, mi, ni_ns / 1e6))
    # The events a partition is for: those of tasks that can run elsewhere
    # (all but the measured CPU's own kernel threads; the load, unbound
    # kworkers). The total is shown, not compared: the loop takes turns
    # (--policy other), so without the partition the load's long slices hide
    # the ticks, the CPU's RCU callbacks and TCG's own ~20 us stalls inside one
    # gap each, and with it the loop has the CPU twice as long and sees them
    # one by one. What the partition gives back is the time: less noise.
    r.ok("noise on 2-3: fewer events by tasks that can move with the partition than "
         "without (%d < %d)" % (mi, mp), mi < mp, "with %d, without %d" % (mi, mp))
    r.ok("noise on 2-3: less noise time with the partition than without (%.1f < %.1f ms)" % (
        ni_ns / 1e6, np_ns / 1e6), ni_ns < np_ns, "with %d, without %d ns" % (ni_ns, np_ns))


# The measured CPU's own kernel threads (per-CPU, bound by the kernel): a
# partition does not take them away.
PERCPU_KTHREAD = re.compile(r"^(rcuc|ktimers|ksoftirqd|migration|cpuhp|idle_inject|rcuop|"
                            r"rcuog|watchdog)/\d+$|^kworker/\d+:")


def movable_events(c):
    """Events of one CPU caused by tasks that can run elsewhere: every thread but the
    CPU's own per-CPU kernel threads and IRQ threads."""
    return sum(x.get("count", 0) for x in c.get("causes", [])
               if x.get("kind") == "thread" and not PERCPU_KTHREAD.match(x.get("name", ""))
               and not x.get("name", "").startswith("irq/"))


# rtla osnoise top's kinds and the rtready noise kinds they count.
OSNOISE_KINDS = (("HW", ("hardware", "hypervisor")), ("NMI", ("nmi",)), ("IRQ", ("irq",)),
                 ("Softirq", ("softirq",)), ("Thread", ("thread", "rt_throttling")))


def osnoise_row(text, cpu):
    """rtla osnoise top's line of CPU @cpu: runtime and noise (us), availability, max
    noise, max single (us) and the counts HW, NMI, IRQ, Softirq, Thread; None if absent."""
    for line in text.splitlines():
        m = re.match(r"\s*%d\s+#\d+\s+(.*)$" % cpu, line)
        if not m:
            continue
        v = m.group(1).split()
        if len(v) < 10:
            continue
        try:
            nums = [float(x) for x in v[:10]]
        except ValueError:
            continue
        keys = ("runtime_us", "noise_us", "avail_pct", "max_noise_us", "max_single_us",
                "HW", "NMI", "IRQ", "Softirq", "Thread")
        return dict(zip(keys, nums))
    return None


def judge_noise(r, blocks, rcs, opts):
    ran(r, rcs, blocks, "noise")
    doc = load_json(blocks, "noise.out") or {}
    cpus = doc.get("cpus") or [{}]
    c = cpus[0]
    causes = c.get("causes") or []
    r.ok("rtready noise attributed per event from the kernel trace",
         (doc.get("attribution") or {}).get("source") == "trace", str(doc.get("attribution")))
    hog = [x for x in causes if x.get("kind") == "thread" and x.get("name") == "rtr-hog"]
    hog_n = hog[0]["count"] if hog else 0
    # 10 s of a 100 ms period: about 100 spins of 5 ms inside the run.
    r.ok("rtready noise names the hog in about every period (%d of ~100)" % hog_n,
         50 <= hog_n <= 150, str(causes[:6]))
    r.ok("the hog's gaps are about one spin (max %.1f ms)" % (hog[0]["max_ns"] / 1e6 if hog else 0),
         bool(hog) and 4e6 <= hog[0]["max_ns"] <= 50e6, str(hog))
    ours = {k: sum(x.get("count", 0) for x in causes if x.get("kind") in kinds)
            for k, kinds in OSNOISE_KINDS}
    log("        rtready noise CPU 3: noise %.1f ms, availability %.5f %%, %s events, max %.1f ms;"
        " by kind %s" % (c.get("noise_ns", 0) / 1e6, c.get("availability_pct", 0),
                         c.get("events"), c.get("max_ns", 0) / 1e6, ours))
    if "osnoise" not in rcs:
        r.skip("rtla osnoise", "rtla did not run")
        return
    ran(r, rcs, blocks, "osnoise")
    row = osnoise_row(blocks.get("osnoise.out", ""), 3)
    r.ok("rtla osnoise top printed CPU 3", row is not None,
         (blocks.get("osnoise.out", "") + blocks.get("osnoise.err", ""))[-600:])
    if row is None:
        return
    log("        rtla osnoise CPU 3: noise %.1f ms, availability %.5f %%, max single %.1f ms;"
        " HW %d NMI %d IRQ %d Softirq %d Thread %d" % (
            row["noise_us"] / 1e3, row["avail_pct"], row["max_single_us"] / 1e3, row["HW"],
            row["NMI"], row["IRQ"], row["Softirq"], row["Thread"]))
    # Two runs of 10 s in turn, not one: the same hog, the guest's TCG stalls apart
    # (they come at random: the largest gap of each run is one of them, not
    # comparable). The noise share of each run's own time is; rtla's runtime is
    # its whole periods (9 of 10 s).
    ours_share = c.get("noise_ns", 0) / c["elapsed_ns"] if c.get("elapsed_ns") else 0
    theirs_share = row["noise_us"] / row["runtime_us"] if row["runtime_us"] else 0
    ratio = ours_share / theirs_share if theirs_share else 0
    log("        noise share of the run: rtready %.2f %%, rtla %.2f %% (ratio %.2f); largest "
        "gap rtready %.1f ms, rtla %.1f ms (TCG stalls)" % (
            100 * ours_share, 100 * theirs_share, ratio, c.get("max_ns", 0) / 1e6,
            row["max_single_us"] / 1e3))
    r.ok("the noise shares agree within a factor of two (rtready / rtla %.2f)" % ratio,
         0.5 <= ratio <= 2.0, "rtready %s ns, rtla %s us" % (c.get("noise_ns"), row["noise_us"]))
    # Every spin is one gap over the threshold for both; rtla also counts the
    # interrupts below it (its IRQ column), rtready gives each gap one cause.
    r.ok("rtla counts the hog's spins as thread noise as rtready does (rtla Thread %d, "
         "rtready rtr-hog %d)" % (row["Thread"], hog_n),
         hog_n > 0 and 0.8 <= row["Thread"] / hog_n <= 1.25, str(row))


JUDGES = {"noise.sh": judge_noise, "isolate.sh": judge_isolate, "trace.sh": judge_trace, "powercut-1.sh": judge_powercut, "powercut-iso-1.sh": judge_powercut_iso, "rt-full.sh": judge_x86_rt, "rt-arm64.sh": judge_arm64_rt,
          "rt-armhf.sh": judge_armhf_rt, "generic.sh": judge_generic}


# ---------------------------------------------------------------- main

def tarball_tree(dist, arch, work):
    tars = sorted(f for f in os.listdir(dist) if f.startswith("rtready-")
                  and f.endswith("-%s.tar.gz" % arch)) if os.path.isdir(dist) else []
    if not tars:
        raise RuntimeError("no %s tarball in %s (make dist)" % (arch, dist))
    out = os.path.join(work, "tree-" + arch)
    if not os.path.isdir(out):
        with tarfile.open(os.path.join(dist, tars[-1])) as t:
            t.extractall(out)
    return os.path.join(out, os.listdir(out)[0])


def run_scenario(sc, opts, work):
    r = Result(sc["name"])
    a = ARCHES[sc["arch"]]
    t0 = time.monotonic()
    log("=== %s (%s, %d vCPUs, %s)" % (sc["name"], sc["meta"], sc["smp"],
                                      sc["cmdline"] or "default command line"))
    try:
        pkg = resolve(opts.cache, sc["meta"], a["deb"])
        kern = kernel_files(opts.cache, fetch_deb(opts.cache, pkg, a["deb"]), sc["modules"])
        bb = busybox(opts.cache, a["deb"])
        if not shutil.which(a["qemu"]):
            raise Skip("no %s" % a["qemu"])
    except Skip as e:
        r.skip("scenario", str(e))
        return r, time.monotonic() - t0
    if sc.get("systemd"):
        run_systemd(sc, opts, work, r, kern, bb)
        return r, time.monotonic() - t0
    try:
        tree = tarball_tree(opts.dist, sc["arch"], work)
        progs = build_progs(sc["arch"], work, opts.build_prefix)
        extra = extra_files(opts.cache, sc, work)
    except Skip as e:
        r.skip("scenario", str(e))
        return r, time.monotonic() - t0
    scripts = sc["guest"] if isinstance(sc["guest"], list) else [sc["guest"]]
    try:
        disk = make_disk(sc, work) if sc["disk"] else None
    except Skip as e:
        r.skip("scenario", str(e))
        return r, time.monotonic() - t0
    blocks, rcs, marks, secs = {}, {}, [], 0.0
    for n, script in enumerate(scripts):
        cut = n + 1 < len(scripts)  # every boot but the last ends in a power cut
        initrd = initramfs(sc, kern, bb, tree, progs, script, extra)
        logf = os.path.join(opts.keep or work, "%s%s.console.log" % (
            sc["name"], "-boot%d" % (n + 1) if len(scripts) > 1 else ""))
        t = boot(sc, kern, initrd, work, logf, disk, cut)
        secs += t
        b, rc, mk = parse(open(logf, errors="replace").read())
        blocks.update(b)
        rcs.update(rc)
        marks += mk
        what = "boot %d (%s)" % (n + 1, script) if len(scripts) > 1 else "booted"
        booted = r.ok("%s %s" % (what, kern["release"]),
                      any(m.startswith("@@RTR-BOOTED") for m in mk),
                      "no boot marker; see " + logf)
        end = "@@RTR-CUT" if cut else "@@RTR-DONE"
        ended = r.ok("%s reached %s (%.0fs)" % (what, end[6:].lower(), t),
                     any(m.startswith(end) for m in mk), "no %s marker within %ds; see %s" % (
                         end, sc["timeout"], logf))
        if not booted or not ended:
            # The work directory goes away with the run: show why here.
            show_tails(logf)
    if any(m.startswith("@@RTR-BOOTED") for m in marks):
        try:
            JUDGES[scripts[0]](r, blocks, rcs, opts)
        except Exception as e:  # a judge's bug must not hide the other scenarios
            r.ok("judge", False, "%s: %s" % (type(e).__name__, e))
    for m in marks:
        if m.startswith("@@RTR-NOTE"):
            log("        " + m)
    return r, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", default=os.path.join(SRC, "dist"))
    ap.add_argument("--build-prefix", default=os.path.join(SRC, "build-dist"))
    ap.add_argument("--cache", default=default_cache())
    ap.add_argument("--only", action="append", default=[],
                    help="run only scenario NAME (repeat, or NAME,NAME; --list names them)")
    ap.add_argument("--fixtures", help="save each guest's snapshot under DIR/kernel-NAME")
    ap.add_argument("--keep", help="keep console logs in DIR")
    ap.add_argument("--list", action="store_true")
    opts = ap.parse_args()
    opts.only = [n for arg in opts.only for n in arg.split(",") if n]
    unknown = sorted(set(opts.only) - {sc["name"] for sc in SCENARIOS})
    if unknown:
        ap.error("--only: no scenario %s (--list names them)" % ", ".join(unknown))
    if opts.list:
        for sc in SCENARIOS:
            print(sc["name"], sc["meta"], sc["cmdline"])
        return 0
    os.makedirs(opts.cache, exist_ok=True)
    if opts.keep:
        os.makedirs(opts.keep, exist_ok=True)
    total = Result("all")
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="rtready-kernels.") as work:
        for sc in SCENARIOS:
            if opts.only and sc["name"] not in opts.only:
                continue
            try:
                r, secs = run_scenario(sc, opts, work)
            except RuntimeError as e:
                r, secs = Result(sc["name"]), 0
                r.ok("scenario set-up", False, str(e))
            log("--- %s: %d passed, %d failed, %d skipped in %.0fs" % (
                sc["name"], r.passed, r.failed, r.skipped, secs))
            total.passed += r.passed
            total.failed += r.failed
            total.skipped += r.skipped
    log("kernels: %d passed, %d failed, %d skipped (%.0fs)" % (
        total.passed, total.failed, total.skipped, time.monotonic() - t0))
    return 1 if total.failed else 0


if __name__ == "__main__":
    sys.exit(main())
