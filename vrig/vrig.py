"""The virtual rig: a QEMU guest (TCG) with virtio-gpu (two heads), vivid and uinput,
running the host's own root read-only under a tmpfs overlay.

The host talks to the guest through a shared writable directory (the "io" dir, mounted
at /vrig-io in the guest): the guest agent runs the command files the host drops there
and writes their output and exit code next to them. Heads are captured with QMP
`screendump` (device=gpu, head=n), which reads what the head really scans out.
"""
import fcntl
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CACHE = os.path.join(HERE, "cache")
AGENT = os.path.join(HERE, "guest-agent")


class RigError(Exception):
    pass


def build_boot_files():
    subprocess.run([os.path.join(HERE, "build-boot")], check=True)


AGENT_UNITS = {
    "vrig-agent.service": """[Unit]
Description=virtual rig guest agent
DefaultDependencies=no

[Service]
ExecStart={agent}
""",
    "vrig.target": """[Unit]
Description=virtual rig: the agent and the units under test
DefaultDependencies=no
Wants=vrig-agent.service {units}
""",
}


class VirtualRig:
    """One guest. Use as a context manager; `exec` runs a shell command in the guest.

    With `units` ({file name: text}), the guest boots systemd instead: the units and
    the guest agent (as a service) are installed and `vrig.target` starts them both,
    so tests still run commands while systemd supervises the kiosk. `preboot` (a shell
    script) runs in the guest's root before systemd starts, as an installer would.

    `root` is the tree the guest runs (default: the host's `/`), under the same tmpfs
    overlay; `agent` is the guest agent's path as the guest sees it (another root must
    hold a copy of `guest-agent`).
    """

    def __init__(self, io_dir=None, memory_mb=1024, cpus=2, units=None, files=None, qemu_args=(), root="/",
                 agent=AGENT, preboot=None):
        if root == "/" and os.path.realpath(agent).startswith("/tmp/"):
            # guest-init mounts a tmpfs of its own on /tmp: a checkout there is not
            # in the guest, which would only say "guest-agent: not found".
            raise RigError(f"the virtual rig cannot run from {HERE}: the guest has its own empty /tmp, "
                           "so it cannot see a checkout under /tmp; clone the repository elsewhere")
        build_boot_files()
        self.io = io_dir or tempfile.mkdtemp(prefix="vrig-io-")
        # Writable for the guest's unprivileged users too (the kiosk as `nobody`); set
        # before boot, as the guest keeps the mode of its 9p mount's root.
        os.makedirs(self.io, exist_ok=True)
        # One guest per io dir: a second would run the same command files. The lock is
        # inherited by QEMU, so it lasts exactly as long as the guest does.
        self.lock_fd = os.open(os.path.join(self.io, ".guest.lock"), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.lock_fd)
            raise RigError(f"another guest is still running on {self.io} (a QEMU left over?)")
        os.chmod(self.io, 0o777)
        # Leftovers of an earlier guest would answer for this one.
        shutil.rmtree(os.path.join(self.io, "cmd"), ignore_errors=True)
        os.makedirs(os.path.join(self.io, "cmd"))
        for stale in ("agent.ready", "console.log", "qmp.sock", "wake.sock", "preboot.sh", "preboot.log", "preboot.rc"):
            if os.path.exists(os.path.join(self.io, stale)):
                os.remove(os.path.join(self.io, stale))
        self.qmp_path = os.path.join(self.io, "qmp.sock")
        # The agent's doorbell: a virtio-serial port the host writes a byte to after
        # dropping a command, so the agent wakes at once instead of polling the folder.
        self.wake_path = os.path.join(self.io, "wake.sock")
        self.wake = None
        self.console = os.path.join(self.io, "console.log")
        self.memory_mb, self.cpus = memory_mb, cpus
        # More devices for one test (QEMU's intel-hda recording into a WAV, say).
        self.qemu_args = list(qemu_args)
        self.root, self.agent = root, agent
        for name, text in (files or {}).items():
            with open(os.path.join(self.io, name), "w") as f:
                f.write(text)
        if preboot:
            # Run by guest-init in the guest's root (chroot) before systemd boots.
            with open(os.path.join(self.io, "preboot.sh"), "w") as f:
                f.write(preboot)
        self.unit = None
        if units:
            unit_dir = os.path.join(self.io, "units")
            shutil.rmtree(unit_dir, ignore_errors=True)
            os.makedirs(unit_dir)
            all_units = dict(units)
            all_units["vrig-agent.service"] = AGENT_UNITS["vrig-agent.service"].format(agent=agent)
            all_units["vrig.target"] = AGENT_UNITS["vrig.target"].format(units=" ".join(units))
            for name, text in all_units.items():
                with open(os.path.join(unit_dir, name), "w") as f:
                    f.write(text)
            self.unit = "vrig.target"
        self.proc = None
        self.qmp = None
        self.seq = 0
        self.boot_seconds = None

    # -- lifecycle -------------------------------------------------------------------
    def start(self, timeout=None):
        """Boots and waits for the guest agent. A guest that does not come up is killed,
        never left running. `timeout` defaults to VRIG_BOOT_TIMEOUT or 240 s: TCG on a
        busy 2-core host has been measured at up to 50 s a boot."""
        timeout = timeout or float(os.environ.get("VRIG_BOOT_TIMEOUT", "240"))
        try:
            return self._start(timeout)
        except BaseException:
            self.kill()
            raise

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def _start(self, timeout):
        started = time.monotonic()
        # systemd.unit= on the kernel's command line too: systemd takes it from its own
        # argv (guest-init passes it) only when it thinks it runs in a container, as it
        # does on the host's root (a /.dockerenv), not on another root such as a
        # debootstrap tree.
        tail = f"rig.unit={self.unit} systemd.unit={self.unit}" if self.unit else f"rig.run={self.agent}"
        cmd = [
            "qemu-system-x86_64", "-accel", "tcg", "-machine", "q35",
            "-m", str(self.memory_mb), "-smp", str(self.cpus),
            "-kernel", os.path.join(CACHE, "vmlinuz"),
            "-initrd", os.path.join(CACHE, "initrd.img"),
            "-append", f"console=ttyS0 quiet loglevel=3 panic=-1 {tail}",
            "-vga", "none", "-device", "virtio-gpu-pci,max_outputs=2,id=gpu",
            "-display", "none",
            "-virtfs", f"local,path={self.root},mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
            "-virtfs", f"local,path={self.io},mount_tag=io,security_model=none,multidevs=remap",
            "-serial", f"file:{self.console}",
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
            "-device", "virtio-serial-pci,id=agentbus",
            "-chardev", f"socket,id=agentwake,path={self.wake_path},server=on,wait=off",
            "-device", "virtserialport,bus=agentbus.0,chardev=agentwake,name=vrig.agent",
            "-nic", "none", "-no-reboot", "-monitor", "none",
        ] + self.qemu_args
        # Its own session: a Ctrl-C at the terminal reaches the script, which stops the
        # kiosk cleanly, and not QEMU, which would vanish with the kiosk still running.
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, start_new_session=True,
                                     pass_fds=(self.lock_fd,))
        os.close(self.lock_fd)
        self._connect_qmp(started + 10)
        self.wake = socket.socket(socket.AF_UNIX)
        self.wake.connect(self.wake_path)
        # Never blocks a test: a guest that does not read its port (an agent without
        # one polls) leaves the bytes in the socket's buffer.
        self.wake.setblocking(False)
        self._wait(lambda: os.path.exists(os.path.join(self.io, "agent.ready")),
                   started + timeout, "the guest agent to start")
        self.boot_seconds = time.monotonic() - started
        return self

    def stop(self, timeout=20):
        if self.proc is None:
            return
        # The io dir is mounted with cache=none, so everything the guest wrote is
        # already on the host: quitting QEMU loses nothing.
        if self.proc.poll() is None:
            try:
                self.qmp_command("quit")
            except (OSError, RigError):
                pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for channel in (self.qmp, self.wake):
            if channel:
                channel.close()
        self.qmp = self.wake = None
        self.proc = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    # -- guest commands ----------------------------------------------------------------
    def exec(self, script, timeout=60, check=True):
        """Runs `script` with /bin/sh in the guest; returns (exit code, output)."""
        name = self._drop_command(script)
        rc_path = os.path.join(self.io, "cmd", name + ".rc")
        written = []

        def finished():
            # The agent writes "<status>\n" in one write (no rename: one process less
            # a command under TCG), so the line is whole once its newline is there.
            try:
                with open(rc_path) as f:
                    text = f.read()
            except FileNotFoundError:
                return False
            written[:] = [text]
            return text.endswith("\n")
        # A look at a local file every 10 ms costs the host nothing.
        self._wait(finished, time.monotonic() + timeout, f"guest command {script!r}", interval=0.01)
        rc = int(written[0].strip() or "1")
        with open(os.path.join(self.io, "cmd", name + ".out"), errors="replace") as f:
            out = f.read()
        if check and rc != 0:
            raise RigError(f"guest command {script!r} failed ({rc}):\n{out}")
        return rc, out

    def _drop_command(self, script):
        self.seq += 1
        name = f"{self.seq:05d}"
        tmp = os.path.join(self.io, "cmd", name + ".tmp")
        with open(tmp, "w") as f:
            f.write(script + "\n")
        os.rename(tmp, os.path.join(self.io, "cmd", name + ".sh"))
        try:
            self.wake.send(b"\n")
        except (AttributeError, OSError):
            pass  # no doorbell (not started) or a full buffer: the agent still looks every second
        return name

    def path(self, name):
        """Host path of a file the guest sees as /vrig-io/<name>."""
        return os.path.join(self.io, name)

    # -- displays ----------------------------------------------------------------------
    def screendump(self, head, path, fmt="ppm"):
        args = {"filename": os.path.abspath(path), "device": "gpu", "head": head}
        if fmt == "png":
            args["format"] = "png"
        self.qmp_command("screendump", args)
        return path

    def set_connector(self, name, state):
        """Forces a connector on/off (or back to detect) through sysfs: the hotplug path.

        virtio-gpu on 6.1 sends no uevent when a connector's status is forced (the
        kernel only does so for drivers with connector polling), so the rig plays the
        part of a hot-plug interrupt and asks the kernel for a change uevent on the card.
        """
        self.exec(f"echo {state} > /sys/class/drm/card0-{name}/status && "
                  f"echo change > /sys/class/drm/card0/uevent")

    # -- QMP ---------------------------------------------------------------------------
    def qmp_command(self, name, arguments=None):
        msg = {"execute": name}
        if arguments:
            msg["arguments"] = arguments
        self.qmp.sendall((json.dumps(msg) + "\n").encode())
        while True:
            reply = self._qmp_read()
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RigError(f"QMP {name}: {reply['error'].get('desc')}")

    def _connect_qmp(self, deadline):
        while True:
            if self.proc.poll() is not None:
                raise RigError("QEMU exited: " + self.proc.stderr.read().decode(errors="replace"))
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(self.qmp_path)
                break
            except OSError:
                s.close()
                if time.monotonic() > deadline:
                    raise RigError("QMP socket did not appear")
                time.sleep(0.05)
        self.qmp = s
        self._buf = b""
        self._qmp_read()  # greeting
        self.qmp_command("qmp_capabilities")

    def _qmp_read(self):
        while b"\n" not in self._buf:
            chunk = self.qmp.recv(65536)
            if not chunk:
                raise RigError("QMP connection closed")
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return json.loads(line)

    def _wait(self, condition, deadline, what, interval=0.05):
        while not condition():
            if self.proc is not None and self.proc.poll() is not None:
                raise RigError(f"guest stopped while waiting for {what}; console:\n{self.console_text()[-3000:]}")
            if time.monotonic() > deadline:
                raise RigError(f"timed out waiting for {what}; console:\n{self.console_text()[-3000:]}")
            time.sleep(interval)

    def console_text(self):
        try:
            with open(self.console, errors="replace") as f:
                return f.read()
        except OSError:
            return ""


def wait_until(condition, timeout, what, interval=0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise RigError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)
