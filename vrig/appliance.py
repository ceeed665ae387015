"""The appliance in the virtual rig, installed and booted as on a mini-PC: the test
build is packaged on the host (`scripts/package --binary`; under TCG dpkg-shlibdeps
alone takes over a minute), then, in the guest's root before systemd starts (the
preboot step), `scripts/install --deb` installs the package, whose postinst makes the
user and enables the kiosk (`systemctl enable`: the WantedBy=multi-user.target
symlink). systemd as PID 1 boots to multi-user.target, which starts the packaged
rig.service through that symlink. Tests then talk to the kiosk the way an operator's
tools do: `systemctl`, the journal and `rig ctl` over the control socket, and the
talent's way: taps on a uinput touchscreen.

The install runs inside the guest because the guest's root is the host's `/`
read-only under a tmpfs overlay: what apt and the package's postinst write to /usr,
/etc and /var lands in the guest's overlay and nowhere on the host.
"""
import os
import subprocess
import time

import vrig
from kiosk import READS, TEST_CONFIG, read_socket, rig_binary

UNIT_FILE = os.path.join(vrig.REPO, "systemd", "rig.service")
INSTALL = os.path.join(vrig.REPO, "scripts", "install")
PACKAGE = os.path.join(vrig.REPO, "scripts", "package")
# The test build's package, at a fixed path the install unit names.
TEST_DEB = os.path.join(vrig.REPO, "out", "vrig-tests", "package", "rig-test-build.deb")
CONFIG = "/etc/rig/rig.toml"
RIG = "/usr/bin/rig"
# The service's control socket (RigPaths.applianceSocket).
SOCKET = "/run/rig/control.sock"
INNER, OUTER = "Virtual-1", "Virtual-2"

# The example configuration's connectors are "auto" and Virtual-2 flags no preferred
# mode (it would come up at 5120x2160), so the rig's configuration names them. The
# camera (vivid) is kept small: TCG pays for every captured frame. The touchscreen and
# the microphone are the defaults' "auto" choices: the uinput touchscreen the soak taps
# on (vrig/uinput/rig_uinput.py) is the only one, and snd-aloop is the only card.
APPLIANCE_CONFIG = TEST_CONFIG + """
[camera]
width = 640
height = 360
fps = 10
"""
PLAYER = os.path.join(vrig.REPO, "vrig", "uinput", "rig_uinput.py")


def package_test_build(binary):
    """`scripts/package --binary`: the test build as a package, at TEST_DEB."""
    out = os.path.dirname(TEST_DEB)
    done = subprocess.run([PACKAGE, "--binary", binary, "--out", out], capture_output=True, text=True)
    if done.returncode != 0:
        raise vrig.RigError(f"scripts/package --binary {binary} failed:\n{done.stderr}")
    os.replace(done.stdout.split()[-1], TEST_DEB)


def preboot_script():
    """What the rig's installer does before its first boot, run by guest-init in the
    guest's root before systemd starts: the outer monitor plugged in, the package
    installed (`scripts/install --deb`), then the rig's own /etc/rig/rig.toml written
    over the example, as an operator would (written before, dpkg would ask what to do
    about a conffile it did not put there). The boot then reaches rig.service only
    through the symlink the package's postinst made.

    The root is made shared, as systemd itself does on a rig (not in a container, which
    it takes the guest on the host's root for).

    The guest's root is the host's: units the host enabled that a rig does not have
    (a database, say) are disabled in the guest's overlay first, as on a fresh Debian.
    man-db's trigger would re-index the host's every manual page for rig's, which takes
    minutes under TCG (the file is what man-db's auto-update question sets); the package
    test's bare Debian 12 runs it. The host's container image has a policy-rc.d that
    forbids every maintainer script to start or restart a service; a rig has none (an
    upgrade's postinst restarts the kiosk: appliance_update.py).
    """
    return f"""set -e
# systemd makes / shared at boot, so a mount made later (a USB stick under /run/media)
# reaches the units that have mount namespaces of their own (rig.service's
# ProtectSystem= and PrivateMounts=); on the host's root it believes it runs in a
# container and leaves the guest's root private, so this does it, as a rig's boot does.
mount --make-rshared /
echo on > /sys/class/drm/card0-{OUTER}/status
for unit in /etc/systemd/system/multi-user.target.wants/*; do
  case "${{unit##*/}}" in seatd.service) ;; *) rm -f "$unit" ;; esac
done
rm -f /var/lib/man-db/auto-update /usr/sbin/policy-rc.d
{INSTALL} --deb {TEST_DEB}
mkdir -p /etc/rig && cp /vrig-io/appliance.toml {CONFIG} && chmod 0644 {CONFIG}
"""


def boot_options(binary=None):
    """Arguments for `vrig.VirtualRig`: the install before boot, the config, and a boot
    to multi-user.target (the default target of a Debian system without a desktop)."""
    return {
        "prepare": lambda: package_test_build(binary or rig_binary()),
        # vrig.target (the guest agent's) wants this target; it wants multi-user.target,
        # where the package's symlink pulls in rig.service and getty.target getty@tty1.
        "units": {"rig-appliance.target": "[Unit]\nDescription=the rig appliance's boot\n"
                                          "Wants=multi-user.target\n"},
        "files": {"appliance.toml": APPLIANCE_CONFIG},
        "preboot": preboot_script(),
        # A USB host controller, where tests plug sticks in through QMP (appliance_usb.py).
        "qemu_args": ["-device", "qemu-xhci,id=xhci"],
    }


class TouchPlayer:
    """The uinput touchscreen (and keyboard) in the guest, fed commands through a FIFO."""

    def __init__(self, rig):
        self.rig = rig
        self.log = rig.path("player.log")
        rig.exec("rm -f /tmp/player.in; mkfifo /tmp/player.in && (sleep 100000 > /tmp/player.in &) && "
                 f"(/usr/bin/python3 {PLAYER} < /tmp/player.in > /vrig-io/player.log 2>&1 &)")
        self.play("wait-device 60", timeout=120)

    def lines(self):
        try:
            with open(self.log) as f:
                return f.read().splitlines()
        except OSError:
            return []

    def play(self, command, timeout=30):
        """Sends one command; returns the CLOCK_MONOTONIC stamps the player printed."""
        seen = len(self.lines())
        self.rig.exec(f"echo '{command}' > /tmp/player.in")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines()[seen:]:
                if line.startswith("error"):
                    raise AssertionError(f"player: {line}")
                if line.startswith("ok " + command):
                    return [float(x) for x in line.split("@", 1)[1].split() if x.replace(".", "", 1).isdigit()]
            time.sleep(0.1)
        raise AssertionError(f"player did not finish {command!r}; its log: {self.lines()[-5:]}")


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
        """What `rig ctl status` answers as root, read through guest-read (a poll)."""
        return read_socket(self.rig, SOCKET, READS[("status",)], timeout=20)

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
        """Polls the status (`status()`) until `predicate(status)` holds; returns it."""
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
