"""Power cuts in the virtual rig (issue 25): the QEMU process is killed (SIGKILL, the
guest gets no warning) while the running kiosk (`rig run`, the real app) writes:
a prompter take records from vivid the whole time, and vrig/tests/power_cut_driver.py,
in the guest, drives it round after round over the control socket and a uinput
keyboard: reading settings and the resume state, the script Cut.txt edited in the
console's editor, the game session through an attempt, its review and verdict. They
live on an ext4 file system on a virtio disk (a raw image on the host,
cache=writeback: what the guest had not flushed to the disk is lost, as in a power cut).

The next boot mounts the disk (ext4 replays its journal) and, before the kiosk starts
(it removes a cut take), copies the state, the scripts and the cut take to the io
share. The host checks them against the driver's log (on the io share, off the disk
under test): every state file parses and holds the version the kiosk last wrote or
the one it was writing (none older, none torn); the script is one of its versions,
whole; the cut take decodes (ffprobe, ffmpeg) to within LOSS_LIMIT seconds of how long
it had been recording at the cut. Then the kiosk starts on that disk and must come
up: status answers, the game restored (roster, scores, a pending review), the script
read last open again. Each boot is the check of the cut before and the writes of the
next.

  python3 vrig/tests/power_cut.py [--cuts N] [--seed S] [--window SECONDS]
      (default 2 cuts in 45 s windows; by hand: --cuts 20 --window 70)

Prints one PASS/FAIL line per cut and the tally, "# power cuts: K of N, no state lost".
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import vrig  # noqa: E402
from kiosk import Kiosk  # noqa: E402
from power_cut_check import check_files, check_restored  # noqa: E402

# RIG_POWER_CUT_OUT: another folder, for a second run beside one under way.
OUT = os.environ.get("RIG_POWER_CUT_OUT") or os.path.join(vrig.REPO, "out", "vrig-tests", "power-cut")
KERNEL_TREE = os.path.join(vrig.CACHE, "kernel")
PLAYER = os.path.join(vrig.REPO, "vrig", "uinput", "rig_uinput.py")
DRIVER = os.path.join(vrig.REPO, "vrig", "tests", "power_cut_driver.py")
DATA = "/data/rig"
SOCKET = "/tmp/rig-cut.sock"
# The edited script: many lines, so a save spans several pages and a torn one shows.
CUT_SCRIPT = "".join(f"Line {n}: the quick brown fox jumps over the lazy dog.\n" for n in range(200))
# The script read (and resumed): long enough to scroll for the whole run; its text has
# no "cut", so the library's search "cut" finds Cut.txt alone.
READING = "# Reading\n\n" + "\n\n".join(f"Paragraph {n}. " + "The quick brown fox jumps over the lazy dog. " * 10
                                        for n in range(30)) + "\n"
CONFIG = f"""
[displays.inner]
connector = "Virtual-1"
mode = "800x600"
[displays.outer]
connector = "Virtual-2"
mode = "640x480"
[camera]
device = "/dev/video0"
width = 320
height = 180
fps = 15
[audio]
# The game's instructions are spoken: snd-aloop takes them.
output = "hw:Loopback,0,0"
input = ""
[prompter]
scripts_dir = "{DATA}/scripts"
countdown = 0
speed = 60
[recording]
folder = "{DATA}/recordings"
width = 320
height = 180
fps = 15
preset = "ultrafast"
countdown = 0
audio = false
min_free_mb = 16
retention_days = 0
[control]
socket = "{SOCKET}"
[state]
dir = "{DATA}/state"
"""


def boot(disk):
    rig = vrig.VirtualRig(io_dir=os.path.join(OUT, "io"),
                          qemu_args=["-drive", f"file={disk},if=virtio,format=raw,cache=writeback"])
    rig.start()
    rig.exec(f"modprobe -d {KERNEL_TREE} virtio_blk && modprobe -d {KERNEL_TREE} ext4"
             f" && mkdir -p /data && mount -t ext4 /dev/vda /data"
             f" && ([ -e /dev/video0 ] || modprobe -d {KERNEL_TREE} vivid)"
             f" && ([ -e /proc/asound/Loopback ] || modprobe -d {KERNEL_TREE} snd-aloop)", timeout=120)
    return rig


def cut(rig):
    """The power cut: QEMU dies at once; nothing in the guest runs after it."""
    rig.proc.kill()
    rig.proc.wait()
    if rig.qmp:
        rig.qmp.close()
    rig.proc = None


def events(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip().startswith("{")]
    except FileNotFoundError:
        return []


def first_boot(rig):
    """The disk's first contents: the two scripts, written by the test, then synced."""
    for name, text in (("Cut.txt", CUT_SCRIPT), ("Reading.md", READING)):
        with open(rig.path(name), "w") as f:
            f.write(text)
    rig.exec(f"mkdir -p {DATA}/scripts {DATA}/state {DATA}/recordings && cp /vrig-io/Cut.txt /vrig-io/Reading.md"
             f" {DATA}/scripts/ && sync")
    return [{"e": "seen", "kind": "script", "value": hashlib.sha256(CUT_SCRIPT.encode()).hexdigest()}]


def start_kiosk(rig, n):
    rig.exec(f"mkdir -p /usr/share/rig/game && cp {vrig.REPO}/share/game/actions.json /usr/share/rig/game/")
    rig.set_connector("Virtual-2", "on")
    rig.exec("rm -f /tmp/player.in; mkfifo /tmp/player.in && (sleep 100000 > /tmp/player.in &) && "
             f"(/usr/bin/python3 {PLAYER} < /tmp/player.in > /vrig-io/player-{n}.log 2>&1 &)")
    rig.exec("echo 'wait-device 60' > /tmp/player.in")
    return Kiosk(rig, f"kiosk-{n}", config=CONFIG, test_pattern=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuts", type=int, default=int(os.environ.get("RIG_POWER_CUTS", "2")))
    parser.add_argument("--seed", type=int, default=int(time.time()))
    # The moment of the cut, drawn after the take records, in seconds. A round of the
    # driver (a game attempt, settings and position, the editor) takes 55-80 s under
    # TCG: 45 s reach into the editor's first save and keep the suite short; by hand,
    # 70 s cover a round.
    parser.add_argument("--window", type=float, default=float(os.environ.get("RIG_POWER_CUT_WINDOW", "45")))
    args = parser.parse_args()
    io = os.path.join(OUT, "io")
    os.makedirs(io, exist_ok=True)
    for name in os.listdir(io):
        if name.startswith(("cut-", "found-", "kiosk-", "player-", "driver-")):
            path = os.path.join(io, name)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    disk = os.path.join(OUT, "disk.img")
    if os.path.exists(disk):
        os.remove(disk)
    subprocess.run(["truncate", "-s", "256M", disk], check=True)
    # Initialized in full now, so no lazy initialization writes behind the test's back.
    subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", disk], check=True)
    rng = random.Random(args.seed)
    print(f"# seed {args.seed}, {args.cuts} cuts", flush=True)
    survived, failures, stuck_drivers = 0, 0, 0
    history = []  # every boot's log, in order: what the files may hold is the whole story
    cut_at = None
    for n in range(args.cuts + 1):
        started = time.monotonic()
        rig = boot(disk)
        kiosk = None
        try:
            if n == 0:
                history += first_boot(rig)
            else:
                found = rig.path(f"found-{n}")
                rig.exec(f"mkdir -p {found.replace(io, '/vrig-io')} && cp -a {DATA}/state {DATA}/scripts"
                         f" {found.replace(io, '/vrig-io')}/ && (cp -p {DATA}/recordings/.*.partial"
                         f" {found.replace(io, '/vrig-io')}/ 2>/dev/null; true)", timeout=120)
                problems, report, verified = check_files(found, history, cut_at, CUT_SCRIPT)
                kiosk = start_kiosk(rig, n)
                problems += check_restored(rig, kiosk, SOCKET, history, report, verified)
                history += verified
                if problems:
                    failures += 1
                    print(f"FAIL [power-cut] cut {n} after {cut_at['delay']:.1f} s: {problems} ({report})", flush=True)
                else:
                    survived += 1
                    print(f"PASS [power-cut] cut {n} after {cut_at['delay']:.1f} s: {report}", flush=True)
            if n == args.cuts:
                if kiosk:
                    kiosk.stop_cleanly(timeout=60)
                rig.stop()
                break
            kiosk = kiosk or start_kiosk(rig, n)
            log = rig.path(f"cut-{n}.log")
            rig.exec(f"cd /tmp && (python3 {DRIVER} {SOCKET} /vrig-io/cut-{n}.log /tmp/player.in {DATA}"
                     f" > /vrig-io/driver-{n}.out 2>&1 &)")
            # The take records (and so every writer can be under way) before the moment is drawn.
            deadline = time.monotonic() + 300
            while not any(e["e"] == "take" for e in events(log)):
                stuck = [e for e in events(log) if e["e"] == "stuck"]
                if stuck or time.monotonic() > deadline:
                    raise AssertionError(f"the driver did not start the take: {stuck}; kiosk log:\n{kiosk.log()[-3000:]}")
                time.sleep(0.2)
            delay = rng.uniform(0.5, args.window)
            time.sleep(delay)  # the random moment of the cut, not a wait for state
            cut(rig)
            cut_at = {"delay": delay, "wall": time.time(), "log_mtime": os.stat(log).st_mtime}
            written = events(log)
            history += written
            stuck = [e for e in written if e["e"] == "stuck"]
            rounds = [e for e in written if e["e"] == "round"]
            print(f"# boot {n}: cut {delay:.1f} s after the take started, {len(rounds)} rounds done"
                  f" ({', '.join(str(r['seconds']) + ' s' for r in rounds)}); {time.monotonic() - started:.0f} s"
                  f" with the boot{'; DRIVER STUCK: ' + stuck[0]['why'] if stuck else ''}", flush=True)
            if stuck:
                stuck_drivers += 1
                print(f"FAIL [power-cut] the driver stuck before cut {n + 1}: {stuck[0]['why']}", flush=True)
        except BaseException:
            rig.kill()
            raise
    print(f"# power cuts: {survived} of {args.cuts}, {'no state lost' if failures == 0 else f'{failures} lost state'}")
    if stuck_drivers:
        print(f"# the driver stuck before {stuck_drivers} of the cuts: those cut a kiosk that was not writing everything")
    return 0 if failures == 0 and stuck_drivers == 0 and survived == args.cuts else 1


if __name__ == "__main__":
    sys.exit(main())
