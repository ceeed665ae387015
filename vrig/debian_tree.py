"""A clean Debian 12 root tree for the package test, made with debootstrap (the default
variant: Required and Important priorities, what the installer puts on a machine
before any task; no compiler, no Swift) and brought up to date with bookworm-updates
and bookworm-security, as a machine installed today would be.

The tree is cached in vrig/cache/debian12/base (gitignored); each test run works on a
fresh copy of it. Downloaded packages are kept in vrig/cache/debian12/archives and
bind-mounted as the copy's apt cache, so a rerun downloads nothing.
"""
import os
import shutil
import subprocess
import time

import vrig

MIRROR = "http://deb.debian.org/debian"
SECURITY = "http://deb.debian.org/debian-security"
HOME = os.path.join(vrig.CACHE, "debian12")
BASE = os.path.join(HOME, "base")
ARCHIVES = os.path.join(HOME, "archives")
SOURCES = f"""deb {MIRROR} bookworm main
deb {MIRROR} bookworm-updates main
deb {SECURITY} bookworm-security main
"""


def log(line):
    print(f"# {line}", flush=True)


def unmount_under(root):
    """Unmounts whatever is mounted at or below `root`, deepest first (debootstrap can
    leave its /proc mounted; a copy must never descend into one)."""
    root = os.path.realpath(root)
    with open("/proc/self/mounts") as f:
        points = [line.split()[1] for line in f]
    for point in sorted((p for p in points if p == root or p.startswith(root + "/")), reverse=True):
        subprocess.run(["umount", "-l", point], check=False)


class Chroot:
    """`root` with /proc, /sys, /dev and the shared apt cache mounted; `run` runs a
    shell command in it. Mounts are undone on exit, in reverse order."""

    def __init__(self, root):
        self.root = root
        self.mounts = []

    def __enter__(self):
        os.makedirs(ARCHIVES + "/partial", exist_ok=True)
        for source, target, opts in (("proc", "proc", ["-t", "proc"]), ("sysfs", "sys", ["-t", "sysfs"]),
                                     ("/dev", "dev", ["--bind"]), ("devpts", "dev/pts", ["-t", "devpts"]),
                                     (ARCHIVES, "var/cache/apt/archives", ["--bind"])):
            path = os.path.join(self.root, target)
            os.makedirs(path, exist_ok=True)
            subprocess.run(["mount", *opts, source, path], check=True)
            self.mounts.append(path)
        shutil.copy("/etc/resolv.conf", os.path.join(self.root, "etc/resolv.conf"))
        return self

    def __exit__(self, *exc):
        unmount_under(self.root)
        self.mounts = []

    def run(self, command, check=True, env=None):
        """Runs `command` with /bin/sh in the tree; returns (exit code, output)."""
        full_env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
                    "DEBIAN_FRONTEND": "noninteractive", "HOME": "/root"}
        full_env.update(env or {})
        done = subprocess.run(["chroot", self.root, "/bin/sh", "-c", command], env=full_env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"in the Debian 12 tree, {command!r} failed ({done.returncode}):\n{done.stdout}")
        return done.returncode, done.stdout


def base_tree():
    """The cached clean tree, made on first use (a few minutes: download and unpack)."""
    stamp = os.path.join(BASE, ".vrig-complete")
    if os.path.exists(stamp):
        return BASE
    started = time.monotonic()
    log("making a clean Debian 12 tree with debootstrap (once; cached in vrig/cache/debian12)")
    shutil.rmtree(BASE, ignore_errors=True)
    os.makedirs(ARCHIVES, exist_ok=True)
    subprocess.run(["debootstrap", "--arch=amd64", f"--cache-dir={ARCHIVES}", "bookworm", BASE, MIRROR],
                   check=True, stdout=subprocess.DEVNULL)
    unmount_under(BASE)
    with open(os.path.join(BASE, "etc/apt/sources.list"), "w") as f:
        f.write(SOURCES)
    with Chroot(BASE) as tree:
        tree.run("apt-get update -qq && apt-get -y -qq dist-upgrade && apt-get clean")
    with open(stamp, "w") as f:
        f.write(time.strftime("%Y-%m-%d\n"))
    log(f"Debian 12 tree made in {time.monotonic() - started:.0f} s")
    return BASE


def fresh_copy(target):
    """A copy of the clean tree at `target` (replacing what was there)."""
    base = base_tree()
    unmount_under(base)
    unmount_under(target)
    if os.path.exists(target):
        subprocess.run(["rm", "-rf", "--one-file-system", target], check=True)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    subprocess.run(["cp", "-a", base, target], check=True)
    os.remove(os.path.join(target, ".vrig-complete"))
    return target
