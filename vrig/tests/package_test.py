"""rig's Debian package on a bare Debian 12, from install to purge.

1. A fresh copy of a clean debootstrap tree (debian_tree.py; no Swift toolchain in
   it) gets the package with apt-get in a chroot; there `rig --version`, `rig check`
   on the installed /etc/rig/rig.toml and `rig snapshot` of the installed example run,
   and the snapshot matches the same binary's rendering on the host to the byte.
2. The tree's /etc/rig/rig.toml is edited for the virtual rig's connectors (as an
   operator does), and the virtual rig boots the tree itself (not the host's /) to its
   own multi-user.target: the kiosk comes up on both heads because the package
   enabled it. In the guest: an upgrade to a rebuilt package (higher version) keeps
   the edited rig.toml and restarts the kiosk on the new binary; `apt-get remove`
   stops and disables it and gives tty1 its getty back; `apt-get purge` removes its
   files, /etc/rig and /var/lib/rig.

Prints one PASS/FAIL line per step and the figures: the package's size, its Depends
and what apt had to add to the bare system. Run by vrig/package-test.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import traceback
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import debian_tree  # noqa: E402
import vrig  # noqa: E402
from appliance import APPLIANCE_CONFIG, OUTER, Appliance  # noqa: E402
from appliance_screens import expect_content  # noqa: E402

OUT = os.path.join(vrig.REPO, "out", "package-test")
TREE = os.path.join(OUT, "root")
AGENT = "/usr/local/lib/vrig/guest-agent"  # the test's, not the package's
CONFIG = "/etc/rig/rig.toml"


def deb_field(deb, field):
    return subprocess.run(["dpkg-deb", "-f", deb, field], check=True, capture_output=True,
                          text=True).stdout.strip()


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Steps:
    """Runs the steps in order, one PASS/FAIL line each; a failed step that later
    ones need stops the run."""

    def __init__(self):
        self.passed, self.failed = 0, 0

    def run(self, name, fn, needed=True):
        started = time.monotonic()
        try:
            result = fn()
        except Exception as error:  # noqa: BLE001 - report it, then decide
            self.failed += 1
            print(f"FAIL [package] {name} ({time.monotonic() - started:.1f}s): {error}\n"
                  + traceback.format_exc(limit=3), flush=True)
            if needed:
                raise SystemExit(self.summary())
            return None
        self.passed += 1
        print(f"PASS [package] {name} ({time.monotonic() - started:.1f}s)", flush=True)
        return result

    def summary(self):
        print(f"# package test: {self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def install_in_chroot(ctx):
    """apt-get installs the package into a fresh bare tree; the commands run there."""
    debian_tree.fresh_copy(TREE)
    assert not os.path.exists(os.path.join(TREE, "opt/swift")), "the tree has /opt/swift"
    name = os.path.basename(ctx.deb)
    shutil.copy(ctx.deb, os.path.join(TREE, "root", name))
    with debian_tree.Chroot(TREE) as tree:
        rc, _ = tree.run("command -v swift swiftc swift-build", check=False)
        assert rc != 0, "a Swift toolchain is on the bare tree's PATH"
        tree.run("apt-get update -qq")
        started = time.monotonic()
        _, out = tree.run(f"apt-get install -y --no-install-recommends /root/{name}")
        ctx.figures["apt-get install into the bare tree (s)"] = round(time.monotonic() - started)
        new = re.search(r"The following NEW packages will be installed:\n((?:  .*\n)+)", out)
        added = new.group(1).split() if new else []
        assert "rig" in added, out
        ctx.figures["packages apt added to bare Debian 12 (with rig)"] = f"{len(added)}: {' '.join(added)}"
        disk = re.search(r"After this operation, ([\d.,]+ [kMG]B) of additional disk space", out)
        fetched = sum(os.path.getsize(os.path.join(debian_tree.ARCHIVES, f))
                      for f in os.listdir(debian_tree.ARCHIVES) if f.endswith(".deb"))
        ctx.figures["packages fetched (rig's dependencies), disk used after install"] = (
            f"{fetched / 1e6:.0f} MB, {disk.group(1) if disk else '?'}")

        _, version = tree.run("rig --version")
        assert version.strip() == f"rig {ctx.version}", (version, ctx.version)
        _, ldd = tree.run("ldd /usr/bin/rig")
        assert "not found" not in ldd and "swift" not in ldd.lower(), ldd
        rc, out = tree.run(f"rig check --config {CONFIG}", check=False)
        assert rc == 0 and out.strip() == "", f"rig check: exit {rc}: {out}"
        tree.run(f"rig snapshot --config {CONFIG} --script /var/lib/rig/scripts/Welcome.md --at 5 --out /tmp/snapshot")
        _, enabled = tree.run("systemctl is-enabled rig.service", check=False)
        assert enabled.strip() == "enabled", enabled
        _, user = tree.run("getent passwd rig; id -nG rig")
        assert ":/var/lib/rig:/usr/sbin/nologin" in user, user
        assert {"video", "input", "render"} <= set(user.split("\n")[1].split()), user
        _, owner = tree.run("stat -c '%U %G %a' /var/lib/rig /var/lib/rig/scripts/Welcome.md")
        assert owner.split("\n")[:2] == ["rig rig 750", "rig rig 640"], owner
        _, files = tree.run("dpkg -L rig")
        ctx.files = [f for f in files.split() if f.startswith("/")]
    # The same binary on the host, with the host's fonts: the bare system must have
    # every font and data file the rendering needs, so the images are the same.
    host = os.path.join(OUT, "host")
    shutil.rmtree(host, ignore_errors=True)
    subprocess.run(["dpkg-deb", "-x", ctx.deb, host], check=True)
    subprocess.run([f"{host}/usr/bin/rig", "snapshot", "--config", f"{host}/etc/rig/rig.toml",
                    "--script", f"{host}/usr/share/rig/examples/Welcome.md", "--at", "5",
                    "--out", f"{host}/snapshot"], check=True)
    for head in ("inner", "outer"):
        tree_png, host_png = f"{TREE}/tmp/snapshot/{head}.png", f"{host}/snapshot/{head}.png"
        assert os.path.getsize(tree_png) > 5000, f"{tree_png} is nearly empty"
        assert sha256(tree_png) == sha256(host_png), f"{tree_png} differs from {host_png}"


def prepare_boot(ctx):
    """The operator's edit (the rig's connectors), and the test's guest agent."""
    path = os.path.join(TREE, CONFIG.lstrip("/"))
    with open(path, "w") as f:
        f.write(APPLIANCE_CONFIG)
    ctx.config_sha = sha256(path)
    os.makedirs(os.path.dirname(TREE + AGENT), exist_ok=True)
    shutil.copy(vrig.AGENT, TREE + AGENT)


def boot_units():
    return {
        # A rig boots with both monitors connected.
        "vrig-outer.service": f"""[Unit]
Description=plug in the outer monitor (virtual rig)
DefaultDependencies=no
Before=rig.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/sh -c 'echo on > /sys/class/drm/card0-{OUTER}/status'
""",
        "vrig-boot.target": "[Unit]\nDescription=the Debian 12 tree's own boot\nWants=multi-user.target\n",
    }


def guest(rig, command, timeout=120):
    return rig.exec(command, timeout=timeout, check=False)


def boots_into_kiosk(rig, ctx):
    app = Appliance(rig)
    pid, _ = app.wait_running(300, "rig.service at boot, enabled by the package")
    ctx.figures["guest uptime when both heads presented (s)"] = round(app.uptime(), 1)
    _, user = guest(rig, f"stat -c %U /proc/{pid}")
    assert user.strip() == "rig", user
    _, cgroup = guest(rig, f"cat /proc/{pid}/cgroup")
    assert cgroup.strip() == "0::/system.slice/rig.service", cgroup
    _, exe = guest(rig, f"readlink /proc/{pid}/exe")
    assert exe.strip() == "/usr/bin/rig", exe
    _, getty = guest(rig, "systemctl is-active getty@tty1.service")
    assert getty.strip() != "active", f"getty@tty1 is {getty.strip()} next to the kiosk"
    expect_content(rig, ctx, "package-boot")
    return pid


def upgrade_keeps_config(rig, ctx, old_pid):
    app = Appliance(rig)
    name = os.path.basename(ctx.next_deb)
    shutil.copy(ctx.next_deb, rig.path(name))
    started = time.monotonic()
    rc, out = guest(rig, f"DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /vrig-io/{name}",
                    timeout=600)
    assert rc == 0, out
    ctx.figures["upgrade in the guest (s, TCG)"] = round(time.monotonic() - started)
    _, version = guest(rig, "dpkg-query -W -f '${Version}' rig; echo; /usr/bin/rig --version")
    assert version.split("\n")[:2] == [ctx.next_version, f"rig {ctx.next_version}"], version
    _, sha = guest(rig, f"sha256sum {CONFIG}; ls /etc/rig")
    assert sha.split()[0] == ctx.config_sha, f"rig.toml changed by the upgrade:\n{sha}"
    assert "dpkg" not in sha, f"dpkg left a copy next to rig.toml:\n{sha}"
    pid, _ = app.wait_running(120, "rig.service restarted by the upgrade", not_pid=old_pid)
    _, exe = guest(rig, f"readlink /proc/{pid}/exe")
    assert exe.strip() == "/usr/bin/rig", f"the kiosk runs {exe.strip()}"
    # The edited configuration is the one in use: its modes on both heads.
    expect_content(rig, ctx, "package-upgraded")


def remove_stops_and_disables(rig, ctx):
    rc, out = guest(rig, "DEBIAN_FRONTEND=noninteractive apt-get remove -y rig", timeout=300)
    assert rc == 0, out
    _, state = guest(rig, "systemctl is-active rig.service; systemctl is-enabled rig.service; "
                          "pgrep -u rig -l; dpkg-query -W -f '${db:Status-Abbrev}' rig")
    active, enabled, *rest = state.split("\n")
    assert active == "inactive", state
    assert enabled != "enabled", state
    assert rest[0].strip() == "rc", f"rig processes left, or not in config-files state:\n{state}"
    rc, _ = guest(rig, f"test ! -e /usr/bin/rig && test -e {CONFIG} && test -e /var/lib/rig/scripts/Welcome.md")
    assert rc == 0, "remove must take the binary and keep /etc/rig and /var/lib/rig"
    vrig.wait_until(lambda: guest(rig, "systemctl is-active getty@tty1.service")[1].strip() == "active",
                    30, "getty@tty1 back on tty1")


def purge_removes_files(rig, ctx):
    rc, out = guest(rig, "DEBIAN_FRONTEND=noninteractive apt-get purge -y rig", timeout=300)
    assert rc == 0, out
    _, status = guest(rig, "dpkg-query -W -f '${db:Status-Abbrev}' rig 2>&1")
    assert not status.startswith(("ii", "rc")), status
    with open(rig.path("package-files.txt"), "w") as f:
        f.write("\n".join(ctx.files) + "\n")
    # Directories shared with other packages (/usr/bin, /lib/systemd/system...) stay.
    _, left = guest(rig, "while read -r f; do if [ ! -d \"$f\" ] && { [ -e \"$f\" ] || [ -L \"$f\" ]; }; "
                         "then echo \"$f\"; fi; done "
                         "< /vrig-io/package-files.txt; "
                         "for d in /etc/rig /var/lib/rig /usr/share/rig /usr/share/doc/rig; do [ -e $d ] && echo $d; done; "
                         "find /etc/systemd /var/lib/systemd/deb-systemd-helper-enabled "
                         "/var/lib/systemd/deb-systemd-helper-masked -name 'rig.service*' 2>/dev/null; true")
    assert left.strip() == "", f"left after purge:\n{left}"
    _, user = guest(rig, "getent passwd rig")
    assert user.startswith("rig:"), "the user rig stays (Debian keeps system users)"


def build_packages(ctx):
    if ctx.deb is None:
        ctx.deb = subprocess.run([os.path.join(vrig.REPO, "scripts", "package")], check=True,
                                 stdout=subprocess.PIPE, text=True).stdout.split()[-1]
    ctx.version = deb_field(ctx.deb, "Version")
    if ctx.next_deb is None:
        ctx.next_deb = subprocess.run(
            [os.path.join(vrig.REPO, "scripts", "package"), "--version", ctx.version + ".1",
             "--out", os.path.join(OUT, "next")], check=True, stdout=subprocess.PIPE, text=True).stdout.split()[-1]
    ctx.next_version = deb_field(ctx.next_deb, "Version")
    subprocess.run(["dpkg", "--compare-versions", ctx.next_version, "gt", ctx.version], check=True)
    ctx.figures["package"] = f"{os.path.basename(ctx.deb)}, {os.path.getsize(ctx.deb) / 1e6:.1f} MB"
    ctx.figures["installed size (kB)"] = deb_field(ctx.deb, "Installed-Size")
    ctx.figures["Depends"] = deb_field(ctx.deb, "Depends")


def main(argv):
    ctx = SimpleNamespace(out=OUT, figures={}, deb=None, next_deb=None)
    args = list(argv)
    while args:
        flag = args.pop(0)
        if flag == "--deb":
            ctx.deb = os.path.abspath(args.pop(0))
        elif flag == "--next-deb":
            ctx.next_deb = os.path.abspath(args.pop(0))
        else:
            print(f"package_test: unknown option {flag}", file=sys.stderr)
            return 2
    os.makedirs(OUT, exist_ok=True)
    started = time.monotonic()
    steps = Steps()
    steps.run("build the package and a rebuilt one with a higher version", lambda: build_packages(ctx))
    steps.run("apt-get install into bare Debian 12; --version, check, snapshot in the chroot",
              lambda: install_in_chroot(ctx))
    prepare_boot(ctx)
    io = os.path.join(OUT, "io")
    rig = vrig.VirtualRig(io_dir=io, units=boot_units(), root=TREE, agent=AGENT)
    steps.run("the tree boots", lambda: rig.start())
    try:
        pid = steps.run("the kiosk comes up on both heads from the package alone",
                        lambda: boots_into_kiosk(rig, ctx))
        steps.run("an upgrade keeps the edited rig.toml and restarts the kiosk",
                  lambda: upgrade_keeps_config(rig, ctx, pid), needed=False)
        steps.run("apt-get remove stops and disables the kiosk", lambda: remove_stops_and_disables(rig, ctx))
        steps.run("apt-get purge removes its files, /etc/rig and /var/lib/rig", lambda: purge_removes_files(rig, ctx))
    finally:
        rig.stop()
        ctx.figures["whole test (s)"] = round(time.monotonic() - started)
        for name, value in ctx.figures.items():
            print(f"# {name}: {value}")
        with open(os.path.join(OUT, "figures.json"), "w") as f:
            json.dump(ctx.figures, f, indent=1)
    return steps.summary()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
