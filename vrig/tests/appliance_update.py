"""rig updated from a USB stick on the installed appliance (issue 43), as an owner does
it: a stick holding a newer `rig_VERSION_amd64.deb` is plugged in (QMP, as in
appliance_usb.py), the console offers it, and the host answers with the inner
display's keys (a uinput keyboard): Tab to Update, Enter. The guest's systemd starts
rig-update@.service for the kiosk (polkit allowing the user rig), apt installs the
package and its postinst restarts the kiosk into the new version.

First a package that cannot be installed (it needs a library the system does not have,
and the rig has no network): the console says why, the old version keeps running in
the same process. Then a good one: the new kiosk runs the new version and says so once.

The newer packages are the test build's own, repacked on the host with a higher
version (and, for the failing one, an extra dependency).
"""
import os
import shutil
import subprocess
import time

from appliance import TEST_DEB, Appliance, TouchPlayer
from appliance_screens import dump
from appliance_usb import KERNEL_TREE, MODULES, mounted_in, plug, pull, watched_seconds

MISSING = "rig-missing-library"


def repack(io, version, depends_extra=None):
    """The test build's package with `version` (and an extra dependency), as a file
    named the way Debian names packages; returns its name."""
    tree = os.path.join(io, "repack")
    shutil.rmtree(tree, ignore_errors=True)
    subprocess.run(["dpkg-deb", "-R", TEST_DEB, tree], check=True)
    control = os.path.join(tree, "DEBIAN", "control")
    with open(control) as f:
        lines = f.read().splitlines()
    out = []
    for line in lines:
        if line.startswith("Version:"):
            line = f"Version: {version}"
        elif line.startswith("Depends:") and depends_extra:
            line += f", {depends_extra}"
        out.append(line)
    with open(control, "w") as f:
        f.write("\n".join(out) + "\n")
    name = f"rig_{version}_amd64.deb"
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "-z1", "-b", tree, os.path.join(io, name)],
                   check=True, capture_output=True)
    shutil.rmtree(tree)
    return name


def make_stick(io, label, deb):
    image = os.path.join(io, f"{label.lower()}.img")
    size = os.path.getsize(os.path.join(io, deb)) // (1 << 20) + 16
    subprocess.run(["rm", "-f", image], check=True)
    subprocess.run(["truncate", "-s", f"{size}M", image], check=True)
    subprocess.run(["mkfs.vfat", "-n", label, image], check=True, capture_output=True)
    subprocess.run(["mcopy", "-i", image, os.path.join(io, deb), f"::/{deb}"], check=True)
    return image


def dialog(status):
    return (status.get("console") or {}).get("dialog")


def installed_version(app):
    return app.sh("dpkg-query --show --showformat='${Version}' rig").strip()


def plug_and_wait_for_offer(rig, app, image, label, ctx):
    mounted_in(rig, 30, f"/run/media/rig/{label}")
    plug(rig, image)
    watched_seconds(rig, 30)
    assert app.sh(f"findmnt -n -o FSTYPE /run/media/rig/{label}", check=False).strip() == "vfat", "not mounted"
    return app.wait_for(lambda s: dialog(s) == "rig_update_offer", 60, f"the update on {label} offered")


def wait_for_outcome(app, seconds, after):
    """rig-update's status once a run other than `after` (the last status) says
    installed or failed."""
    deadline = time.monotonic() + seconds
    while True:
        said = app.sh("cat /run/rig-update/status 2>/dev/null || true")
        if said.split("\n", 1)[0] != after.split("\n", 1)[0] and ("state=installed" in said or "state=failed" in said):
            return said
        assert time.monotonic() < deadline, f"the install did not end in {seconds} s: {said}\n" + app.journal(
            "-u 'rig-update@*' -n 60")
        time.sleep(1)


def choose_update(app, player):
    """Tab from Not now (the focus the offer opens with) to Update, then Enter."""
    player.play("key TAB")
    app.wait_for(lambda s: s["console"].get("focus") == "dialog:confirm", 20, "the focus on Update")
    player.play("key ENTER")


def test_update_from_a_usb_stick(rig, ctx):
    """A newer rig on a stick is offered on the console; Update, chosen with the inner
    display's keys, installs it. A package apt cannot install is refused in words and the
    old version keeps running, same process. A good one restarts the kiosk into it, and
    the new kiosk says so until OK."""
    app = Appliance(rig)
    pid, _ = app.wait_running(180, "rig.service before the update")
    before = installed_version(app)
    broken = repack(rig.io, before + "+update1", f"{MISSING} (>= 9)")
    good = repack(rig.io, before + "+update2")
    app.sh(f"modprobe -a -d {KERNEL_TREE} {MODULES}", timeout=120)
    player = TouchPlayer(rig)
    try:
        # A package that cannot be installed: said, and nothing changes.
        image = make_stick(rig.io, "RIGOLD", broken)
        status = plug_and_wait_for_offer(rig, app, image, "RIGOLD", ctx)
        assert status["console"].get("focus") == "dialog:cancel", status["console"]
        dump(rig, ctx, 0, "update-offer")
        assert f"holds rig {before}+update1" in app.journal(f"_PID={pid}"), app.journal(f"_PID={pid} -n 20")
        choose_update(app, player)
        app.wait_for(lambda s: dialog(s) == "rig_update_failed", 240, "the failed install said")
        dump(rig, ctx, 0, "update-failed")
        said = app.sh("cat /run/rig-update/status")
        assert "state=failed" in said and MISSING in said, said
        assert app.main_pid() == pid, "the kiosk restarted after a failed install"
        assert installed_version(app) == before
        ctx.figures["update refused, the console's reason"] = said.split("message=", 1)[1].strip()
        player.play("key ENTER")
        app.wait_for(lambda s: dialog(s) is None, 20, "the failure answered with OK")
        answered = app.sh("cat /var/lib/rig/rig-update-answered").strip()
        assert answered and answered in said, (answered, said)
        rc, out = rig.exec("/usr/bin/rig ctl media eject RIGOLD", timeout=60, check=False)
        assert rc == 0, out
        pull(rig)

        # A good one: installed, and the kiosk restarts into it.
        image = make_stick(rig.io, "RIGNEW", good)
        plug_and_wait_for_offer(rig, app, image, "RIGNEW", ctx)
        chosen = time.monotonic()
        choose_update(app, player)
        outcome = wait_for_outcome(app, 600, after=said)
        assert "state=installed" in outcome, outcome + "\n" + app.journal("-u 'rig-update@*' -n 60")
        ctx.figures["update: Update pressed to installed (s, host, TCG)"] = round(time.monotonic() - chosen, 1)
        app.wait_running(120, "the kiosk after the update", not_pid=pid)
        app.wait_for(lambda s: dialog(s) == "rig_update_installed", 120, "the new kiosk says it is installed")
        ctx.figures["update: Update pressed to the new kiosk saying so (s, host, TCG)"] = round(
            time.monotonic() - chosen, 1)
        dump(rig, ctx, 0, "update-installed")
        assert installed_version(app) == before + "+update2"
        assert "state=installed" in app.sh("cat /run/rig-update/status")
        journal = app.journal("-u 'rig-update@*' -n 200")
        assert "Setting up rig (" + before + "+update2)" in journal, journal[-2000:]
        player.play("key ENTER")
        app.wait_for(lambda s: dialog(s) is None, 20, "the notice answered with OK")
        # Said once: the answer is kept for the next kiosk (RigUpdaterTests restarts one).
        assert app.sh("cat /var/lib/rig/rig-update-answered").strip() in app.sh("cat /run/rig-update/status")
        rc, out = rig.exec("/usr/bin/rig ctl media eject RIGNEW", timeout=60, check=False)
        assert rc == 0, out
        pull(rig)
    finally:
        # The player's devices go (the later tests' kiosk has no touchscreen).
        rig.exec("echo quit > /tmp/player.in", check=False)
