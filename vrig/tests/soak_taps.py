"""Runs inside the appliance guest during the soak: the talent's taps. Every few seconds
a tap on the uinput touchscreen (through the player's FIFO), then `rig ctl status` until
the kiosk has counted it, checking that it paused playback (paused_by_tap) or resumed
it. One JSON line per tap to the log; in the guest, so the host's slow round trips
under TCG neither thin the taps out nor hold up the soak's replugs.

  python3 soak_taps.py RIG FIFO LOG STOPFILE [INTERVAL]
"""
import json
import os
import subprocess
import sys
import time

rig, fifo, log, stop = sys.argv[1:5]
interval = float(sys.argv[5]) if len(sys.argv) > 5 else 4.0


def status():
    out = subprocess.run([rig, "ctl", "status"], capture_output=True, text=True)
    try:
        return json.loads(out.stdout) if out.returncode == 0 else None
    except ValueError:
        return None


def record(entry):
    with open(log, "a") as f:
        f.write(json.dumps(entry) + "\n")


while not os.path.exists(stop):
    time.sleep(interval)
    before = status()
    if not before or not before["displays"]["outer"]["presenting"]:
        continue  # the outer is being replugged: a tap now would rightly be ignored
    if before["prompter"]["ended"]:
        # Back to the top so the text keeps scrolling for the whole soak.
        subprocess.run([rig, "ctl", "stop"], capture_output=True)
        subprocess.run([rig, "ctl", "play"], capture_output=True)
        record({"rewound": True})
        continue
    expected = "paused" if before["prompter"]["state"] == "playing" else "playing"
    with open(fifo, "w") as f:
        f.write("tap 960 540 60\n")
    deadline, after = time.monotonic() + 10, None
    while time.monotonic() < deadline:
        after = status()
        if after and after["input"]["taps"] > before["input"]["taps"]:
            break
        rejected = (after or {}).get("input", {}).get("rejected_touches", {})
        if rejected.get("not_presented", 0) > before["input"]["rejected_touches"].get("not_presented", 0):
            break
        time.sleep(0.25)  # each `rig ctl` costs the TCG guest a process start
    if after and after["input"]["taps"] == before["input"]["taps"] \
            and not after["displays"]["outer"]["presenting"]:
        record({"skipped": "outer unplugged during the tap"})
        continue
    record({"expected": expected, "counted": bool(after) and after["input"]["taps"] > before["input"]["taps"],
            "state": after and after["prompter"]["state"], "paused_by_tap": after and after["prompter"]["paused_by_tap"],
            "ended": bool(after) and after["prompter"]["ended"]})
# The soak waits for this before it looks at the prompter: no tap comes after it.
record({"done": True})
