"""Runs `rig run` inside a virtual rig guest and reads its state from the shared io
dir: the status JSON the kiosk keeps there and its log."""
import json
import os
import subprocess
import time

import vrig

REPO = vrig.REPO


def rig_binary():
    return os.environ.get("RIG_BIN") or os.path.join(REPO, ".build", "debug", "rig")


def make_reference(out_dir, inner_size, outer_size):
    """The headless rendering of the same (paused) state, to compare heads with."""
    os.makedirs(out_dir, exist_ok=True)
    empty = os.path.join(out_dir, "empty.toml")
    open(empty, "w").close()
    subprocess.run([rig_binary(), "run", "--test-pattern", "--backend", "headless", "--paused",
                    "--inner-size", inner_size, "--outer-size", outer_size,
                    "--snapshot-dir", out_dir, "--config", empty],
                   check=True, stdout=subprocess.DEVNULL)
    return os.path.join(out_dir, "inner.ppm"), os.path.join(out_dir, "outer.ppm")


TEST_CONFIG = """
[displays.inner]
connector = "Virtual-1"
mode = "preferred"
[displays.outer]
connector = "Virtual-2"
# Virtual-2 flags no mode preferred and lists 5120x2160 first: name one.
mode = "1024x768"
"""


class Kiosk:
    """One `rig run` in the guest. `name` keeps runs in one guest apart."""

    @classmethod
    def under_systemd(cls, rig, name, service):
        """The kiosk systemd started as `service`, writing /vrig-io/<name>.status.json."""
        kiosk = cls.__new__(cls)
        kiosk.rig, kiosk.name, kiosk.service = rig, name, service
        kiosk.status_path = rig.path(f"{name}.status.json")
        kiosk.log_path = rig.path(f"{name}.log")
        _, out = rig.exec(f"systemctl show -p MainPID --value {service}")
        kiosk.pid = int(out.strip() or "0")
        return kiosk

    @staticmethod
    def service_unit(name, args=()):
        """A unit like the appliance's: rig run, SIGTERM to stop, output to a log."""
        argv = " ".join([rig_binary(), "run", "--test-pattern", "--config", f"/vrig-io/{name}.toml",
                         "--status-file", f"/vrig-io/{name}.status.json", *args])
        return f"""[Unit]
Description=rig kiosk (virtual rig test)
DefaultDependencies=no

[Service]
ExecStart=/bin/sh -c 'exec {argv} > /vrig-io/{name}.log 2>&1'
KillSignal=SIGTERM
TimeoutStopSec=10
"""

    def __init__(self, rig, name, args=(), config=TEST_CONFIG, prefix="", test_pattern=True):
        """`test_pattern`: the displays alone with deterministic pictures (the display
        tests); False runs the real kiosk app."""
        self.rig, self.name = rig, name
        self.status_path = rig.path(f"{name}.status.json")
        self.log_path = rig.path(f"{name}.log")
        with open(rig.path(f"{name}.toml"), "w") as f:
            f.write(config)
        for p in (self.status_path, self.log_path):
            if os.path.exists(p):
                os.remove(p)
        mode = ["--test-pattern"] if test_pattern else []
        argv = " ".join([prefix, rig_binary(), "run", *mode, "--config", f"/vrig-io/{name}.toml",
                         "--status-file", f"/vrig-io/{name}.status.json", *args])
        _, out = rig.exec(f"cd /tmp; {argv} > /vrig-io/{name}.log 2>&1 & echo $!")
        self.pid = int(out.strip())
        rig.kiosks = getattr(rig, "kiosks", []) + [self]

    @staticmethod
    def kill_leftovers(rig):
        """After a test, failed or not: no kiosk may keep DRM master from the next."""
        for kiosk in getattr(rig, "kiosks", []):
            if kiosk.alive():
                rig.exec(f"kill -KILL {kiosk.pid}", check=False)
        rig.kiosks = []

    def status(self):
        try:
            with open(self.status_path) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def log(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def wait_for(self, predicate, timeout, what):
        """Polls the status file until `predicate(status)` holds; returns the status."""
        deadline = time.monotonic() + timeout
        while True:
            status = self.status()
            if status and predicate(status):
                return status
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: not reached in {timeout}s; status {status}; log:\n{self.log()}")
            time.sleep(0.02)

    def alive(self):
        """Running, not a zombie waiting to be reaped by the guest's init."""
        rc, out = self.rig.exec(f"cat /proc/{self.pid}/stat 2>/dev/null", check=False)
        return rc == 0 and out.strip() != "" and out.split(") ", 1)[-1][:1] != "Z"

    def terminate(self, timeout=15):
        self.rig.exec(f"kill -TERM {self.pid}", check=False)
        deadline = time.monotonic() + timeout
        while self.alive():
            if time.monotonic() > deadline:
                raise AssertionError(f"kiosk did not exit {timeout}s after SIGTERM; log:\n{self.log()}")
            time.sleep(0.05)


def both_available(s):
    return s["inner"]["available"] and s["outer"]["available"]
