"""vrig/demo: the kiosk in the virtual rig with screenshots of both heads once a second.

After `--game-after` seconds of prompting (60 by default; 0 turns the game off) it plays
one scripted Visual S/Z round of Simon Says, so the video shows the host's dashboard,
the participant view with the letter, the review and the scoreboard: vivid is the
camera and snd-aloop the sound card, as in the game's tests. The round is driven with
`rig ctl` (it is a demo, not a proof: the game's suites drive it as a host would)."""
import argparse
import json
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
    # 1024x768 as in the game's own tests: a 1080p letter frame takes over a second to
    # compose under TCG, past the 0.5 s the game gives a cue.
    "displays.outer.mode=1024x768",
    # The example script, and state that starts fresh in the guest.
    f'prompter.scripts_dir="{os.path.join(vrig.REPO, "examples", "scripts")}"',
    'state.dir="/tmp/rig-demo-state"',
    'control.socket="/tmp/rig-demo.sock"',
    # The game's round: vivid at its own small size (TCG pays for every frame), the
    # instruction spoken into snd-aloop, picture-only recording (no microphone here).
    'camera.device="/dev/video0"', "camera.width=640", "camera.height=360", "camera.fps=15",
    'audio.output="hw:Loopback,0,0"', 'audio.input=""',
    'recording.folder="/tmp/rig-demo-state/recordings"', "recording.min_free_mb=16",
]
KERNEL_TREE = os.path.join(vrig.CACHE, "kernel")
SOCKET = "/tmp/rig-demo.sock"


def main():
    parser = argparse.ArgumentParser(prog="vrig/demo")
    parser.add_argument("--out", default=os.path.join(vrig.REPO, "out", "vrig-demo"),
                        help="folder for the screenshots (emptied first)")
    parser.add_argument("--seconds", type=float, default=None, help="stop by itself after this long")
    parser.add_argument("--game-after", type=float, default=60,
                        help="seconds of prompting before one Simon Says round (0: no game)")
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
        if args.game_after:
            rig.exec(f"[ -e /dev/video0 ] || modprobe -d {KERNEL_TREE} vivid", timeout=60)
            rig.exec(f"[ -e /proc/asound/Loopback ] || modprobe -d {KERNEL_TREE} snd-aloop", timeout=60)
            rig.exec(f"mkdir -p /usr/share/rig/game && cp {vrig.REPO}/share/game/actions.json /usr/share/rig/game/")
        with open(config) as f:
            toml = f.read()
        sets = [w for s in DEMO_SETTINGS for w in ("--set", s)]
        kiosk = Kiosk(rig, "kiosk", sets + args.rig_args, config=toml, test_pattern=False)
        # Press play once the talent's display is up, so the demo scrolls.
        kiosk.wait_for(lambda s: s.get("outer", {}).get("available"), 120, "the outer head")
        rig.exec(f"{rig_binary()} ctl --socket /tmp/rig-demo.sock play", check=False)
        print("demo: kiosk started and playing; Ctrl-C to stop", flush=True)
        started, shot = time.monotonic(), 0
        round_ = GameRound(rig) if args.game_after else None
        try:
            while not stop["now"]:
                if round_ and time.monotonic() - started >= args.game_after:
                    round_.step()
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


class GameRound:
    """One Visual S/Z round, a step per screenshot so the video shows each: the game
    opened and set up, consent, a card picked, Send, the attempt to its review, Pass and
    the scores on the dashboard, then back to the prompter."""

    def __init__(self, rig):
        self.rig = rig
        self.stage = 0
        self.waited = 0
        self.retries = 0

    def ctl(self, *words):
        rc, out = self.rig.exec(f"{rig_binary()} ctl --socket {SOCKET} " + " ".join(words), check=False)
        if rc != 0:
            print(f"demo: rig ctl {' '.join(words)}: {out.strip()}", flush=True)
        return out

    def game(self):
        try:
            return json.loads(self.ctl("game", "status")).get("game") or {}
        except ValueError:
            return {}

    def step(self):
        steps = [
            lambda: self.ctl("game", "setup", "players=Ann,Bo", "host=Dee", "mode=visual", "cue=1.5", "response=4",
                             "recording=picture") and self.ctl("game", "open"),
            lambda: self.ctl("game", "consent", "player=Ann", "agreed=yes"),
            lambda: self.ctl("game", "select", "card=poses.star", "rule=not"),
            lambda: self.wait(lambda g: g.get("ready"), 30) and self.ctl("game", "send"),
            lambda: self.wait(lambda g: g.get("phase") in ("review", "interrupted"), 60) and self.retried(),
            lambda: self.ctl("game", "verdict", "verdict=pass"),
            # The dashboard's score panel, for a few seconds of the video, then the prompter.
            lambda: self.wait(lambda g: False, 5),
            lambda: self.ctl("game", "leave"),
        ]
        if self.stage < len(steps) and steps[self.stage]():
            print(f"demo: game step {self.stage + 1} of {len(steps)}", flush=True)
            self.stage += 1

    def retried(self):
        """An attempt the guest was too slow for (a letter composed too late under TCG is
        void by the rules) is retried, as the host would, at most three times; True
        once there is one to judge."""
        game = self.game()
        if game.get("phase") != "interrupted" or self.retries >= 3:
            return True
        self.retries += 1
        print(f"demo: attempt void ({(game.get('attempts') or [{}])[-1].get('interruption')}); retrying", flush=True)
        self.ctl("game", "retry")
        self.stage -= 2  # back to "send when ready"
        return True

    def wait(self, condition, seconds):
        """True once `condition` holds; gives up (and moves on) after `seconds` screenshots."""
        self.waited += 1
        if condition(self.game()) or self.waited > seconds:
            self.waited = 0
            return True
        return False


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
