"""`rig selftest` in the virtual rig (issue 44), through the running kiosk as an owner
runs it: virtio-gpu's two heads, vivid as the camera, snd-aloop as the sound card,
a uinput touchscreen on the outer head tapped 5 times when the card asks.

  1. on devices that are right (the loop closed: playback 0,0 is heard on capture
     1,0; the touchscreen named in [touch]; vivid asked for what it gives at its
     rate), no check is a problem and the figures are printed: each head's refresh
     (virtio-gpu keeps no vblank counter: the flips' pace), flip timing and missed
     vblanks, the camera's rate and capture-to-flip latency, tap to flip, the tone's
     latency and level, the disk's minutes and fsync;
  2. with four faults at once, each is reported in words: the touchscreen mapped to
     the wrong head (another device named in [touch], so the taps arrive on the
     inner), a camera that gives only a small size at the rate asked (vivid at
     1920x1080 and 30 fps), no sound heard back (capture 1,1: the loop not closed),
     and a full disk (the state folder on a 2 MiB tmpfs filled up).

  swift build && python3 vrig/tests/selftest.py
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import vrig  # noqa: E402
from kiosk import Kiosk, Tally, both_available, rig_binary  # noqa: E402

OUT = os.path.join(vrig.REPO, "out", "vrig-tests", "selftest")
KERNEL_TREE = os.path.join(vrig.CACHE, "kernel")
SOCKET = "/tmp/rig-selftest.sock"
PLAYER = os.path.join(vrig.REPO, "vrig", "uinput", "rig_uinput.py")
OUTER = (1024, 768)


def config(touch, width, height, fps, capture, state):
    return f"""
[displays.inner]
connector = "Virtual-1"
mode = "preferred"
[displays.outer]
connector = "Virtual-2"
mode = "1024x768"
[prompter]
mirror = true
[recording]
# A slow machine (TCG) with a small disk: the guest's /tmp is a 0.5 GiB tmpfs, under
# the default 512 MB the recorder keeps free (the self-test said so).
preset = "ultrafast"
min_free_mb = 64
[camera]
device = "/dev/video0"
width = {width}
height = {height}
fps = {fps}
[audio]
output = "hw:Loopback,0,0"
input = "{capture}"
[touch]
device = "{touch}"
[control]
socket = "{SOCKET}"
[state]
dir = "{state}"
"""


GOOD = config("rig outer touch", 640, 360, 15, "hw:Loopback,1,0", "/tmp/rig-selftest-state")
FAULTY = config("a touchscreen that is not there", 1920, 1080, 30, "hw:Loopback,1,1", "/tmp/rig-full/state")


def run_selftest(rig, kiosk, name):
    """`rig selftest --json` against the running kiosk, the outer tapped 5 times once the
    card asks; returns (exit status, report)."""
    kiosk.wait_for(both_available, 120, "both heads up")
    for path in (f"{name}.json", f"{name}.rc"):
        if os.path.exists(rig.path(path)):
            os.remove(rig.path(path))
    rig.exec(f"({rig_binary()} selftest --json --touch-seconds 30 --config /vrig-io/{kiosk.name}.toml "
             f"> /vrig-io/{name}.json 2>/vrig-io/{name}.err; echo $? > /vrig-io/{name}.rc.tmp; "
             # Renamed when written: the host polls for the file and once read it empty.
             f"mv /vrig-io/{name}.rc.tmp /vrig-io/{name}.rc) </dev/null >/dev/null 2>&1 &")
    # The touch step starts as the camera's verdict is logged.
    vrig.wait_until(lambda: " Camera: " in kiosk.log(), 120, "the self-test asking for taps")
    rig.screendump(1, os.path.join(OUT, f"{name}-outer-card.ppm"))
    rig.screendump(0, os.path.join(OUT, f"{name}-inner-card.ppm"))
    for _ in range(5):
        rig.exec(f"echo 'tap {OUTER[0] // 2} {OUTER[1] // 2} 60' > /tmp/player.in")
        time.sleep(0.7)
    vrig.wait_until(lambda: os.path.exists(rig.path(f"{name}.rc")), 180, "rig selftest finishing")
    rig.screendump(0, os.path.join(OUT, f"{name}-inner-results.ppm"))
    with open(rig.path(f"{name}.rc")) as f:
        status = int(f.read().strip() or "-1")
    with open(rig.path(f"{name}.json")) as f:
        text = f.read()
    lines = [line for line in text.splitlines() if line.startswith("{")]
    assert lines, f"rig selftest printed no JSON (exit {status}):\n{text}\n{open(rig.path(name + '.err')).read()}"
    report = json.loads(lines[-1])
    with open(os.path.join(OUT, f"{name}.json"), "w") as f:
        json.dump(report, f, indent=1)
    for step in report["steps"]:
        print(f"# {step['verdict']:7} {step['title']}: " + "; ".join(step["lines"])
              + (f" | fix: {step['fix']}" if step.get("fix") else ""), flush=True)
    return status, {step["id"]: step for step in report["steps"]}, report


def test_everything_right(rig, checks):
    kiosk = Kiosk(rig, "selftest-good", config=GOOD, test_pattern=False)
    status, steps, report = run_selftest(rig, kiosk, "good")
    problems = [s["id"] for s in steps.values() if s["verdict"] == "problem"]
    checks.append(("the whole self-test passes on the virtual rig's devices (no problem; exit 0)",
                   not problems and status == 0 and report["finished"], f"problems {problems}, exit {status}"))
    checks.append(("every check ran", list(steps) == ["display.inner", "display.outer", "camera", "touch", "sound",
                                                      "recording", "storage", "clock", "network"], f"{list(steps)}"))
    trials = steps["recording"]["figures"]["trials"]
    checks.append(("a 5 s trial encode of the camera's 640x360 at 15 fps through the real recorder kept up, and "
                   "left no file", trials and trials[0]["size"] == "640x360" and trials[0]["encoded"] > 0
                   and trials[-1]["kept_up"] and rig.exec("ls -A /tmp/rig-selftest-state/recordings "
                                                          "/tmp/rig-selftest-state/.selftest-trial-* 2>/dev/null | "
                                                          "grep -c trial", check=False)[1].strip() in ("", "0"),
                   json.dumps(trials)))
    for role in ("inner", "outer"):
        figures = steps[f"display.{role}"]["figures"]
        nominal, pace = figures.get("nominal_hz") or 0, figures.get("flips_per_second") or 0
        # virtio-gpu keeps no vblank counter: no refresh to measure, the flips timed
        # against the mode's period and the pacer's missed count instead.
        checks.append((f"the {role} head's flips timed against its mode (no vblank counter on virtio-gpu), "
                       "its missed vblanks counted", figures.get("vblank_counter") is False
                       and figures.get("refresh_hz") is None and nominal > 0 and pace > nominal / 3
                       and "missed_vblanks" in figures and "jitter_p99_ms" in figures, json.dumps(figures)))
    touch = steps["touch"]["figures"]
    checks.append(("the outer's touchscreen named; the 5 taps landed on its card, each with its tap-to-flip latency",
                   touch["outer_taps"] == 5 and len(touch["tap_to_flip_ms"]) == 5 and touch["inner_touches"] == 0
                   and touch.get("touchscreen") == "rig outer touch",
                   json.dumps(touch)))
    sound = steps["sound"]["figures"]
    checks.append(("the tone played on 0,0 was heard on 1,0, with its latency and level, and espeak-ng spoke",
                   sound.get("latency_ms") is not None and sound.get("level_dbfs", -99) > -40 and sound.get("speech"),
                   json.dumps(sound)))
    camera = steps["camera"]["figures"]
    checks.append(("the camera streams vivid's 640x360 natively, its frames counted and their capture-to-flip "
                   "latency measured on the talent's display", camera.get("mode") == "YUYV 640x360@15"
                   and camera["frames"] > 0 and not camera.get("emulated")
                   # vivid stamps some frames ahead of virtio-gpu's flip completions: then
                   # the check says the latency cannot be measured, and gives no figure.
                   and (camera.get("frame_to_flip_median_ms", -1) >= 0
                        or camera.get("frame_to_flip_comparable") is False), json.dumps(camera)))
    storage = steps["storage"]["figures"]
    checks.append(("the disk's minutes of recording and its fsync cost", storage["minutes"] > 0
                   and storage.get("sync_ms") is not None, json.dumps(storage)))
    saved = rig.exec("cat /tmp/rig-selftest-state/selftest.json && stat -c %a /tmp/rig-selftest-state/selftest.json",
                     check=False)[1]
    checks.append(("the report kept in the state folder, owner-only", saved.strip().endswith("600")
                   and '"finished":true' in saved, saved[-300:]))
    kiosk.stop_cleanly()


def test_four_faults_in_words(rig, checks):
    rig.exec("mkdir -p /tmp/rig-full && (mountpoint -q /tmp/rig-full || mount -t tmpfs -o size=2m tmpfs /tmp/rig-full)"
             " && mkdir -p /tmp/rig-full/state && (dd if=/dev/zero of=/tmp/rig-full/filler bs=64k 2>/dev/null; true)")
    kiosk = Kiosk(rig, "selftest-faulty", config=FAULTY, test_pattern=False)
    status, steps, _ = run_selftest(rig, kiosk, "faulty")
    checks.append(("with problems rig selftest exits 1", status == 1, f"exit {status}"))
    touch = steps["touch"]
    checks.append(("taps arriving on the inner: the touchscreen is mapped to the wrong monitor, and how to fix it",
                   touch["verdict"] == "problem" and "wrong monitor" in (touch.get("fix") or "")
                   and "[touch] device" in (touch.get("fix") or ""), json.dumps(touch)))
    camera = steps["camera"]
    checks.append(("a camera giving only a small size at the rate asked is a problem, in words",
                   camera["verdict"] == "problem" and "less than half the 1920x1080 asked for" in camera["lines"][0],
                   json.dumps(camera)))
    sound = steps["sound"]
    checks.append(("no sound heard back (the loop open): is the microphone muted or too far?",
                   sound["verdict"] == "problem" and "microphone muted or too far" in (sound.get("fix") or ""),
                   json.dumps(sound)))
    storage = steps["storage"]
    checks.append(("a full disk is a problem, in words", storage["verdict"] == "problem"
                   and (storage.get("fix") or "").startswith("The disk is full"), json.dumps(storage)))
    kiosk.stop_cleanly()
    rig.exec("umount /tmp/rig-full", check=False)


def main():
    os.makedirs(OUT, exist_ok=True)
    tally = Tally()
    started = time.monotonic()
    with vrig.VirtualRig() as rig:
        print(f"# guest booted in {rig.boot_seconds:.1f}s", flush=True)
        rig.exec(f"[ -e /dev/video0 ] || modprobe -d {KERNEL_TREE} vivid", timeout=60)
        rig.exec(f"[ -e /proc/asound/Loopback ] || modprobe -d {KERNEL_TREE} snd-aloop", timeout=60)
        rig.exec("for i in $(seq 100); do [ -e /dev/snd/pcmC0D1c ] && exit 0; sleep 0.1; done; exit 1", timeout=30)
        rig.set_connector("Virtual-2", "on")
        rig.exec("rm -f /tmp/player.in; mkfifo /tmp/player.in && (sleep 100000 > /tmp/player.in &) && "
                 f"(/usr/bin/python3 {PLAYER} --width {OUTER[0]} --height {OUTER[1]} < /tmp/player.in "
                 "> /vrig-io/player.log 2>&1 &)")
        rig.exec("echo 'wait-device 60' > /tmp/player.in")
        from kiosk import run_checks  # noqa: E402
        for test in (test_everything_right, test_four_faults_in_words):
            tally.report(run_checks(rig, test))
    print(f"# selftest suite took {time.monotonic() - started:.0f} s", flush=True)
    return tally.close()


if __name__ == "__main__":
    sys.exit(main())
