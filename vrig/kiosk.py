"""Runs `rig run` inside a virtual rig guest and reads its state from the shared io
dir: the status JSON the kiosk keeps there and its log."""
import json
import os
import shlex
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


def make_app_reference(out_dir, config, inner_size="1280x800", outer_size="1024x768", unplugged=None,
                       resume=None):
    """The headless rendering of the real kiosk app with `config` (its state dir,
    `out_dir`/state, and scripts as the host sees them: the guest sees the host's root),
    fresh state, stopped at the top, or at `resume` ({"scriptID":, "offset":}, as
    resume.json holds it) as after a restart; `unplugged` ("inner"/"outer") is unplugged
    after start-up."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "rig.toml")
    with open(path, "w") as f:
        f.write(config)
    subprocess.run(["rm", "-rf", os.path.join(out_dir, "state")], check=True)
    if resume:
        os.makedirs(os.path.join(out_dir, "state"))
        with open(os.path.join(out_dir, "state", "resume.json"), "w") as f:
            json.dump(resume, f)
    subprocess.run([rig_binary(), "run", "--backend", "headless", "--inner-size", inner_size,
                    "--outer-size", outer_size, "--snapshot-dir", out_dir, "--config", path,
                    *(["--unplugged", unplugged] if unplugged else [])],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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


# The real kiosk app in the guest: the example scripts (the guest sees the host's root),
# no camera (vivid's frames are costly under TCG and the display tests are not about
# it), no sound (an unprivileged kiosk cannot open the guest's card, and its banner
# would differ from the headless rendering compared with), and its own socket and
# state dir per run.
APP_CONFIG = TEST_CONFIG + """
[prompter]
scripts_dir = "{scripts}"
[camera]
enabled = false
[audio]
output = ""
[control]
socket = "{state}/control.sock"
[state]
dir = "{state}"
"""


def app_config(state):
    return APP_CONFIG.format(scripts=os.path.join(REPO, "examples", "scripts"), state=state)


class Kiosk:
    """One `rig run` in the guest. `name` keeps runs in one guest apart."""

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
        # A shell waits for the kiosk and keeps its exit status in <name>.rc: how it
        # ended (0, or 128+N for death by signal N) is what the stop tests check.
        self.rc_path = rig.path(f"{name}.rc")
        for p in (self.rc_path, rig.path(f"{name}.pid")):
            if os.path.exists(p):
                os.remove(p)
        _, out = rig.exec(
            f"cd /tmp; ({argv} > /vrig-io/{name}.log 2>&1 & echo $! > /vrig-io/{name}.pid; wait $!; "
            f"echo $? > /vrig-io/{name}.rc.tmp; mv /vrig-io/{name}.rc.tmp /vrig-io/{name}.rc) "
            f"</dev/null >/dev/null 2>&1 & "
            f"while [ ! -s /vrig-io/{name}.pid ]; do sleep 0.01; done; cat /vrig-io/{name}.pid")
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

    def exit_status(self):
        """The kiosk's exit status once it has ended (128+N: killed by signal N), else None."""
        try:
            with open(self.rc_path) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return None

    def terminate(self, timeout=15, signal="TERM"):
        """Sends the signal and waits for the kiosk to end; returns its exit status."""
        self.rig.exec(f"kill -{signal} {self.pid}", check=False)
        deadline = time.monotonic() + timeout
        while (status := self.exit_status()) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"kiosk did not exit {timeout}s after SIG{signal}; log:\n{self.log()}")
            time.sleep(0.05)
        return status

    def stop_cleanly(self, timeout=15):
        """SIGTERM, then what a clean stop leaves, not just that the process is gone
        (dark heads cannot tell: the kernel turns a dead DRM client's picture off too):
        exit status 0, "rig stopped" logged, the status file saying `stopped`."""
        status = self.terminate(timeout)
        log = self.log()
        assert status == 0, f"kiosk exited with status {status} after SIGTERM (143: killed by it); log:\n{log}"
        assert "rig stopped" in log, f"no 'rig stopped' in the kiosk's log:\n{log}"
        state = (self.status() or {}).get("state")
        assert state == "stopped", f"status file says {state!r} after SIGTERM"


def both_available(s):
    return s["inner"]["available"] and s["outer"]["available"]


# The requests the tests poll, as `rig ctl` sends them (CtlCommand.parseRequest): they
# only read, so they go through guest-read (a rig process costs over a second each
# under TCG beside a kiosk, guest-read about a quarter of that: 1.1 s against 0.25 s).
READS = {
    ("status",): {"cmd": "status"},
    ("game", "status"): {"cmd": "game", "action": "status"},
    ("console",): {"cmd": "console"},
}
GUEST_READ = os.path.join(vrig.HERE, "guest-read")


def read_socket(rig, socket, request, timeout=60):
    """The kiosk's answer on `socket` in the guest to the read-only `request`, or None
    when it did not answer or refused (what `rig ctl` exits non-zero for)."""
    rc, out = rig.exec(f"{GUEST_READ} {shlex.quote(socket)} {shlex.quote(json.dumps(request))}",
                       timeout=timeout, check=False)
    if rc != 0:
        return None
    try:
        answer = json.loads(out)
    except ValueError:
        return None
    return answer if answer.get("ok") is True else None


def last_seen(value):
    """What a timed-out `ControlSocket.wait` reports by default: the last answer."""
    return f"last: {json.dumps(value)[:1500]}"


def last_status(value):
    return f"last status: {json.dumps(value)[:1500]}"


class ControlSocket:
    """`rig ctl` against one kiosk's control socket in the guest, and polling its
    answers. `timeout`: how long the host waits for one `rig ctl` in the guest (rig
    ctl's own limit is 5 s; TCG makes the round trip slower). `check`: a failed
    request raises RigError instead of returning its exit code. `poll`: seconds
    between two requests while waiting. `read`: what `wait` polls by default, "status"
    or "game". `show(last)`: the part of the last answer a timed-out wait reports.
    `tries`: how often `must` sends a request the kiosk did not answer in time."""

    def __init__(self, rig, socket, timeout=60, check=False, poll=0.3, read="status", show=last_seen, tries=10):
        self.rig, self.socket, self.timeout, self.check = rig, socket, timeout, check
        self.poll, self.show, self.tries = poll, show, tries
        self.read = getattr(self, read)

    def command(self, *words):
        """The guest's shell command for one request."""
        return " ".join([rig_binary(), "ctl", "--socket", self.socket, *(shlex.quote(str(w)) for w in words)])

    def ctl(self, *words):
        """(exit code, output) of `rig ctl WORDS...`."""
        return self.rig.exec(self.command(*words), check=self.check, timeout=self.timeout)

    def query(self, *words):
        """The request's JSON answer, or None when it failed. The requests that only
        read (status, game status, console) go through `guest-read`, the rest through
        `rig ctl`."""
        request = READS.get(words)
        if request is None:
            rc, out = self.ctl(*words)
            return json.loads(out) if rc == 0 else None
        answer = read_socket(self.rig, self.socket, request, timeout=self.timeout)
        if self.check and answer is None:
            raise vrig.RigError(f"no answer to {' '.join(words)} on {self.socket}")
        return answer

    def status(self):
        return self.query("status")

    def game(self):
        answer = self.query("game", "status")
        return answer["game"] if answer is not None else None

    def wait(self, predicate, seconds, what, read=None, show=None):
        """Polls `read()` (the status by default) until `predicate` holds on an answer;
        returns that answer, or raises naming `what` and the last answer seen."""
        read, show = read or self.read, show or self.show
        deadline = time.monotonic() + seconds
        while True:
            last = read()
            if last and predicate(last):
                return last
            if time.monotonic() >= deadline:
                raise AssertionError(f"{what}: not within {seconds}s; {show(last)}")
            time.sleep(self.poll)

    def must(self, *words, done=None):
        """A request that must succeed; returns its output. Under TCG on a busy host the
        kiosk can take longer than `rig ctl`'s 5 s to answer: a request that changes
        nothing when repeated is sent again (up to `tries` times); one that does
        (`done(game)` given) is checked in the game's status instead, and that game
        status is returned."""
        for attempt in range(self.tries):
            rc, out = self.ctl(*words)
            if rc == 0:
                return out
            if "did not reply" not in out or attempt == self.tries - 1:
                break
            if done:
                return self.wait(done, 120, f"rig ctl {' '.join(words)} done", read=self.game)
            time.sleep(1)  # not a state wait: a pause before the request is sent again
        raise AssertionError(f"rig ctl {' '.join(words)}: {out}")


class Tally:
    """A suite's verdicts as vrig/run-tests counts them: a PASS or FAIL line per
    (name, ok, detail) check, the detail after a failure, and the closing
    "N passed, M failed"."""

    def __init__(self):
        self.passed = self.failed = 0

    def report(self, checks):
        for name, ok, detail in checks:
            print(f"{'PASS' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)
            self.passed += bool(ok)
            self.failed += not ok

    def close(self):
        """Prints the count; the suite's exit status."""
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


def run_single_test(test, out_dir):
    """A suite of one test in one guest with both heads on: `test(rig, checks)` appends
    (name, ok, detail); an AssertionError (a wait that timed out) is a failed check of
    the test's name, and no kiosk outlives it. Returns the suite's exit status."""
    os.makedirs(out_dir, exist_ok=True)
    tally = Tally()
    with vrig.VirtualRig() as rig:
        print(f"# guest booted in {rig.boot_seconds:.1f}s", flush=True)
        rig.set_connector("Virtual-2", "on")
        tally.report(run_checks(rig, test))
    return tally.close()


def run_checks(rig, test):
    """Runs `test(rig, checks)` and returns its checks: an AssertionError (a wait that
    timed out) is a failed check of the test's name, and no kiosk outlives it."""
    checks = []
    try:
        test(rig, checks)
    except AssertionError as error:
        checks.append((test.__name__, False, str(error)))
    finally:
        Kiosk.kill_leftovers(rig)
    return checks
