"""Power cuts in the virtual rig (issue 25): the QEMU process is killed (SIGKILL, the
guest gets no warning) while `rig _power-cut` writes, round after round, through the
kiosk's own writers: resume state and reading settings, an edited script, the game
session and a camera take (synthetic frames through the Recorder, fragmented MP4).
They live on an ext4 file system on a virtio disk (a raw image on the host,
cache=writeback: what the guest had not flushed to the disk is lost, as in a power
cut). The next boot mounts the disk (ext4 replays its journal) and
`rig _power-cut --check` reads everything back with the kiosk's readers: every state
file holds the last round the writer logged as done (the log is on the 9p io share,
off the disk under test) or the round after it, complete; the script is one round's
text in full; the game session loads; the take the cut interrupted decodes to its
last frame. Each boot is the check of the cut before and the writes of the next.

  python3 vrig/tests/power_cut.py [--cuts N] [--seed S]   (default 2 cuts; 20 by hand)

Prints one PASS/FAIL line per cut and the tally, "# power cuts: K of N, no state lost".
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import vrig  # noqa: E402
from kiosk import rig_binary  # noqa: E402

OUT = os.path.join(vrig.REPO, "out", "vrig-tests", "power-cut")
KERNEL_TREE = os.path.join(vrig.CACHE, "kernel")
SEED_SESSION = os.path.join(vrig.REPO, "fuzz", "corpus", "session", "review.json")
DATA = "/data/rig"


def boot(disk):
    rig = vrig.VirtualRig(io_dir=os.path.join(OUT, "io"),
                          qemu_args=["-drive", f"file={disk},if=virtio,format=raw,cache=writeback"])
    rig.start()
    rig.exec(f"modprobe -d {KERNEL_TREE} virtio_blk && modprobe -d {KERNEL_TREE} ext4"
             " && mkdir -p /data && mount -t ext4 /dev/vda /data", timeout=120)
    return rig


def cut(rig):
    """The power cut: QEMU dies at once; nothing in the guest runs after it."""
    rig.proc.kill()
    rig.proc.wait()
    if rig.qmp:
        rig.qmp.close()
    rig.proc = None


def rounds_logged(path):
    try:
        with open(path) as f:
            return sum(1 for line in f if line.startswith("round "))
    except FileNotFoundError:
        return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuts", type=int, default=int(os.environ.get("RIG_POWER_CUTS", "2")))
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()
    os.makedirs(os.path.join(OUT, "io"), exist_ok=True)
    for name in os.listdir(os.path.join(OUT, "io")):
        if name.startswith(("cut-", "writer-")):
            os.remove(os.path.join(OUT, "io", name))
    disk = os.path.join(OUT, "disk.img")
    if os.path.exists(disk):
        os.remove(disk)
    subprocess.run(["truncate", "-s", "160M", disk], check=True)
    # Initialized in full now, so no lazy initialization writes behind the test's back.
    subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", disk], check=True)
    rng = random.Random(args.seed)
    print(f"# seed {args.seed}, {args.cuts} cuts", flush=True)
    survived, failures = 0, 0
    for n in range(args.cuts + 1):
        started = time.monotonic()
        rig = boot(disk)
        try:
            if n > 0:
                rc, out = rig.exec(f"{rig_binary()} _power-cut --check --dir {DATA} --log /vrig-io/cut-{n - 1}.log",
                                   timeout=300, check=False)
                line = out.strip().splitlines()[-1] if out.strip() else "{}"
                try:
                    report = json.loads(line)
                except ValueError:
                    report = {"ok": False, "problems": [out.strip()[-800:]]}
                if rc == 0 and report.get("ok"):
                    survived += 1
                    print(f"PASS [power-cut] cut {n} after {delay:.1f} s: round {report['loggedRound']} logged,"
                          f" state {report['resume']}, script {report['script']}, session {report['session']},"
                          f" take plays {report.get('takeFrames')} frames ({report['fedFrames']} fed by the logged round)", flush=True)
                else:
                    failures += 1
                    print(f"FAIL [power-cut] cut {n} after {delay:.1f} s: {report.get('problems')}", flush=True)
            if n == args.cuts:
                rig.stop()
                break
            log = os.path.join(rig.io, f"cut-{n}.log")
            rig.exec(f"cd /tmp && {rig_binary()} _power-cut --dir {DATA} --log /vrig-io/cut-{n}.log"
                     f" --session-seed {SEED_SESSION} --take take-{n} > /vrig-io/writer-{n}.out 2>&1 &")
            # The writer has written a round (its files exist) before the moment is drawn.
            deadline = time.monotonic() + 120
            while rounds_logged(log) < 1:
                if time.monotonic() > deadline:
                    raise AssertionError(f"the writer wrote no round: {open(os.path.join(rig.io, f'writer-{n}.out')).read()}")
                time.sleep(0.2)
            delay = rng.uniform(0.5, 12.0)
            time.sleep(delay)  # the random moment of the cut, not a wait for state
            cut(rig)
            print(f"# boot {n}: cut {delay:.1f} s into the writes, after {rounds_logged(log)} rounds"
                  f" ({time.monotonic() - started:.0f} s with the boot)", flush=True)
        except BaseException:
            rig.kill()
            raise
    print(f"# power cuts: {survived} of {args.cuts}, {'no state lost' if failures == 0 else f'{failures} lost state'}")
    return 0 if failures == 0 and survived == args.cuts else 1


if __name__ == "__main__":
    sys.exit(main())
