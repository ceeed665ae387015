"""The appliance in the virtual rig: the guest boots systemd as PID 1 with the real
`systemd/rig.service`, and `scripts/install --binary` packages the test build and
installs the package during boot as it would on a mini-PC. Tests then talk to the kiosk the way an operator's tools do: `systemctl`,
the journal and `rig ctl` over the control socket.

The package is built on the host before the boot (under TCG, dpkg-shlibdeps alone
takes over a minute); the install runs inside the guest (a oneshot ordered before
rig.service) because the guest's root is the host's `/` read-only under a tmpfs
overlay: what apt and the package's postinst write to /usr, /etc and /var lands in the
guest's overlay and nowhere on the host.
"""
import json
import os
import subprocess
import time

import vrig
from kiosk import TEST_CONFIG, rig_binary

UNIT_FILE = os.path.join(vrig.REPO, "systemd", "rig.service")
INSTALL = os.path.join(vrig.REPO, "scripts", "install")
PACKAGE = os.path.join(vrig.REPO, "scripts", "package")
# The test build's package, at a fixed path the install unit names.
TEST_DEB = os.path.join(vrig.REPO, "out", "vrig-tests", "package", "rig-test-build.deb")
CONFIG = "/etc/rig/rig.toml"
RIG = "/usr/bin/rig"
INNER, OUTER = "Virtual-1", "Virtual-2"

# The example configuration's connectors are "auto" and Virtual-2 flags no preferred
# mode (it would come up at 5120x2160), so the rig's configuration names them. The
# camera (vivid) is kept small: TCG pays for every captured frame.
APPLIANCE_CONFIG = TEST_CONFIG + """
[camera]
width = 640
height = 360
fps = 10
"""


def package_test_build(binary):
    """`scripts/package --binary`: the test build as a package, at TEST_DEB."""
    out = os.path.dirname(TEST_DEB)
    done = subprocess.run([PACKAGE, "--binary", binary, "--out", out], capture_output=True, text=True)
    if done.returncode != 0:
        raise vrig.RigError(f"scripts/package --binary {binary} failed:\n{done.stderr}")
    os.replace(done.stdout.split()[-1], TEST_DEB)


def install_unit():
    """A oneshot that runs `scripts/install --deb` during boot, before rig.service.

    It plugs in the outer monitor first, as a rig boots with both monitors connected,
    and writes the rig's own /etc/rig/rig.toml after the install, as an operator
    would (before, dpkg would ask what to do about a conffile it did not put there).
    """
    return f"""[Unit]
Description=install rig into the virtual rig (scripts/install)
DefaultDependencies=no
After=systemd-journald.socket
Before=rig.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/sh -c 'echo on > /sys/class/drm/card0-{OUTER}/status'
# man-db's trigger would re-index the host's every manual page for rig's, which takes
# minutes under TCG (the file is what man-db's auto-update question sets); the package
# test's bare Debian 12 runs it.
ExecStart=/bin/rm -f /var/lib/man-db/auto-update
ExecStart={INSTALL} --deb {TEST_DEB}
ExecStart=/bin/sh -c 'cp /vrig-io/appliance.toml {CONFIG} && chmod 0644 {CONFIG}'
StandardOutput=journal+console
"""


def boot_options(binary=None):
    """Arguments for `vrig.VirtualRig`: the unit as shipped, the install step, the config."""
    with open(UNIT_FILE) as f:
        unit = f.read()
    return {
        "prepare": lambda: package_test_build(binary or rig_binary()),
        "units": {"rig-vrig-install.service": install_unit(),
                  "rig.service": unit,
                  # A real boot reaches rig.service through multi-user.target after
                  # basic.target (journald, udevd, sockets); the rest of the host's
                  # multi-user.target (postgresql...) stays out. rig.service itself
                  # wants seatd.
                  "rig-appliance.target": "[Unit]\nDescription=the rig appliance's boot\n"
                                          "Wants=basic.target rig.service\n"},
        "files": {"appliance.toml": APPLIANCE_CONFIG},
    }


class Appliance:
    """The kiosk as systemd runs it in a booted guest."""

    def __init__(self, rig):
        self.rig = rig

    def sh(self, command, timeout=60, check=True):
        return self.rig.exec(command, timeout=timeout, check=check)[1]

    def ctl(self, *args, timeout=20):
        """`rig ctl ARGS` as root in the guest (the socket is rig's, mode 0660)."""
        return self.sh(f"{RIG} ctl " + " ".join(args), timeout=timeout)

    def status(self):
        rc, out = self.rig.exec(f"{RIG} ctl status", timeout=20, check=False)
        if rc != 0:
            return None
        try:
            return json.loads(out)
        except ValueError:
            return None

    def show(self, *props):
        """`systemctl show rig` properties as a dict."""
        out = self.sh("systemctl show rig.service " + " ".join(f"-p {p}" for p in props))
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def main_pid(self):
        return int(self.show("MainPID")["MainPID"] or 0)

    def uptime(self):
        return float(self.sh("cut -d' ' -f1 /proc/uptime").strip())

    def rss_kb(self, pid):
        out = self.sh(f"awk '/^VmRSS:/ {{print $2}}' /proc/{pid}/status", check=False)
        return int(out.strip()) if out.strip().isdigit() else None

    def journal(self, *args):
        return self.sh("journalctl --no-pager -o short-monotonic " + " ".join(args), timeout=60)

    def wait_for(self, predicate, timeout, what):
        """Polls `rig ctl status` until `predicate(status)` holds; returns the status."""
        deadline = time.monotonic() + timeout
        status = None
        while True:
            status = self.status()
            if status and predicate(status):
                return status
            if time.monotonic() > deadline:
                tail = self.journal("-u rig.service -n 30", ) if self.rig.running() else ""
                raise AssertionError(f"{what}: not reached in {timeout}s; status {status}; journal:\n{tail}")
            time.sleep(0.2)

    def wait_running(self, timeout, what, not_pid=None):
        """Waits for rig.service to be active (READY=1 sent) with a main PID other than
        `not_pid`, and both heads presenting; returns (pid, status)."""
        deadline = time.monotonic() + timeout
        while True:
            props = self.show("ActiveState", "SubState", "MainPID")
            pid = int(props.get("MainPID") or 0)
            if props.get("ActiveState") == "active" and pid and pid != not_pid:
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: rig.service is {props}; journal:\n"
                                     + self.journal("-u rig.service -n 40"))
            time.sleep(0.2)
        status = self.wait_for(both_presenting, max(5, deadline - time.monotonic()), what + ": both heads presenting")
        return pid, status

    def restart_with(self, config=None, dropin=None):
        """Rewrites the config and/or the test drop-in (None leaves it, "" removes it),
        then restarts the unit as an operator would; returns the new (pid, status)."""
        if config is not None:
            with open(self.rig.path("appliance-next.toml"), "w") as f:
                f.write(config)
            self.sh(f"cp /vrig-io/appliance-next.toml {CONFIG}")
        if dropin is not None:
            if dropin:
                with open(self.rig.path("rig-test.conf"), "w") as f:
                    f.write(dropin)
                self.sh("mkdir -p /etc/systemd/system/rig.service.d && "
                        "cp /vrig-io/rig-test.conf /etc/systemd/system/rig.service.d/test.conf")
            else:
                self.sh("rm -f /etc/systemd/system/rig.service.d/test.conf")
            self.sh("systemctl daemon-reload", timeout=60)
        old = self.main_pid()
        self.sh("systemctl restart rig.service", timeout=90)
        return self.wait_running(60, "restart", not_pid=old)


def both_presenting(s):
    d = s["displays"]
    return d["inner"]["presenting"] and d["outer"]["presenting"]
