"""vrig/demo: the kiosk in the virtual rig with screenshots of both heads once a second."""
import argparse
import os
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import demo_video  # noqa: E402
import vrig  # noqa: E402
from kiosk import Kiosk, rig_binary  # noqa: E402

DEMO_SETTINGS = [
    # The inner head is Virtual-1 (connected, 1280x800 preferred); the outer is
    # Virtual-2, forced on. It flags no preferred mode, so one is named.
    "displays.inner.connector=Virtual-1",
    "displays.outer.connector=Virtual-2",
    "displays.outer.mode=1920x1080",
    # The example script, and state that starts fresh in the guest.
    f'prompter.scripts_dir="{os.path.join(vrig.REPO, "examples", "scripts")}"',
    'state.dir="/tmp/rig-demo-state"',
    'control.socket="/tmp/rig-demo.sock"',
]


def main():
    parser = argparse.ArgumentParser(prog="vrig/demo")
    parser.add_argument("--out", default=os.path.join(vrig.REPO, "out", "vrig-demo"),
                        help="folder for the screenshots (emptied first)")
    parser.add_argument("--seconds", type=float, default=None, help="stop by itself after this long")
    parser.add_argument("rig_args", nargs="*", help="extra `rig run` arguments (after --)")
    args = parser.parse_args()

    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    stop = {"now": False}

    def request_stop(*_):
        stop["now"] = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    config = os.path.join(vrig.REPO, "rig.toml")
    io = os.path.join(out, "io")
    os.makedirs(io)
    print(f"demo: booting the virtual rig (QEMU, TCG); screenshots go to {out}", flush=True)
    with vrig.VirtualRig(io_dir=io) as rig:
        print(f"demo: guest up in {rig.boot_seconds:.1f}s", flush=True)
        rig.set_connector("Virtual-2", "on")
        with open(config) as f:
            toml = f.read()
        sets = [w for s in DEMO_SETTINGS for w in ("--set", s)]
        kiosk = Kiosk(rig, "kiosk", sets + args.rig_args, config=toml, test_pattern=False)
        # Press play once the talent's display is up, so the demo scrolls.
        kiosk.wait_for(lambda s: s.get("outer", {}).get("available"), 120, "the outer head")
        rig.exec(f"{rig_binary()} ctl --socket /tmp/rig-demo.sock play", check=False)
        print("demo: kiosk started and playing; Ctrl-C to stop", flush=True)
        started, shot = time.monotonic(), 0
        try:
            while not stop["now"]:
                if args.seconds is not None and time.monotonic() - started >= args.seconds:
                    break
                if not kiosk.alive():
                    print("demo: the kiosk exited:\n" + kiosk.log(), flush=True)
                    return 1
                shot += 1
                capture(rig, out, f"{shot:04d}")
                status = kiosk.status() or {}
                print(f"demo: {shot:4d} {describe(status)}", flush=True)
                next_at = started + shot
                while not stop["now"] and time.monotonic() < next_at:
                    time.sleep(0.05)
        finally:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            print("demo: stopping the kiosk (SIGTERM)", flush=True)
            exit_status = kiosk.terminate()
            capture(rig, out, "after-exit")
            shutil.copy(kiosk.log_path, os.path.join(out, "kiosk.log"))
    # Dark heads cannot tell a clean stop from a crash (the kernel turns a dead DRM
    # client's picture off too): how the kiosk ended is what it says about itself.
    state = (kiosk.status() or {}).get("state")
    problems = [what for what, bad in (
        (f"exit status {exit_status} (143: killed by SIGTERM)", exit_status != 0),
        ("no 'rig stopped' in its log", "rig stopped" not in kiosk.log()),
        (f"status file says {state!r}, not 'stopped'", state != "stopped")) if bad]
    if problems:
        print(f"demo: the kiosk did NOT stop cleanly: {'; '.join(problems)}; log in {out}/kiosk.log", flush=True)
        return 1
    print(f"demo: stopped cleanly (exit status 0, 'rig stopped', state stopped); "
          f"{shot} pairs of screenshots in {out}", flush=True)
    video, problem = demo_video.make(out, shot)
    print(f"demo: video of both heads: {video}" if video else f"demo: no video: {problem}", flush=True)
    return 0


def capture(rig, out, tag):
    for head, role in ((0, "inner"), (1, "outer")):
        path = os.path.join(out, f"{role}-{tag}.png")
        rig.screendump(head, path, fmt="png")
        shutil.copy(path, os.path.join(out, f"{role}.png"))


def describe(status):
    parts = []
    for role in ("inner", "outer"):
        s = status.get(role) or {}
        state = f"{s.get('mode')} flips={s.get('flips')}" if s.get("available") else "unavailable"
        parts.append(f"{role}: {state}")
    return "; ".join(parts)


if __name__ == "__main__":
    sys.exit(main())
