"""A whole game of Simon Says as a host plays it at a party (issue 35): only through the
inner display's input, a uinput touchscreen on the inner head and a uinput keyboard,
with the participant's own tap on the outer touchscreen. `rig ctl` only reads: `rig
ctl console` says where each control is (as the host's eyes would), `rig ctl game
status` and `clips list` what happened. vivid is the camera, snd-aloop the sound card.

  consent, setup with typed names (the host's too), Visual S/Z, picture-only recording
  (no microphone here), one challenge per turn, the cue held 1.5 s; a card with a finger
  count; the participant's tap Stop (void, retry); Pass; a Z to Bo, failed, then
  corrected to a pass on the Scoreboard; Clips with the game still open and a replay of
  Bo's clip whose inner screendump inside the cue interval shows the Z upright; End
  game with its media deleted.

Screenshots of both heads after every step: out/vrig-tests/game-party/NN-step-{inner,
outer}.png.

  swift build && python3 vrig/tests/game_party.py
"""
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import vrig  # noqa: E402
from kiosk import ControlSocket, Kiosk, Tally  # noqa: E402

OUT = os.path.join(vrig.REPO, "out", "vrig-tests", "game-party")
KERNEL_TREE = os.path.join(vrig.CACHE, "kernel")
SOCKET = "/tmp/rig-party.sock"
PLAYER = os.path.join(vrig.REPO, "vrig", "uinput", "rig_uinput.py")
FIFO = "/tmp/party.in"
# The inner head and both touchscreens' sensors at 1024x768: on the inner one a sensor
# unit is a pixel. The outer head is smaller: each participant-view frame is composed
# in the guest's loop beside the recording's encoder, and a 1024x768 one took about a
# second under TCG on a loaded host, so every cue came too late (void by the rules).
SIZE = (1024, 768)
STOPPED = "The participant stopped the attempt"
CONFIG = f"""
[displays.inner]
connector = "Virtual-1"
mode = "1024x768"
[displays.outer]
connector = "Virtual-2"
mode = "640x480"
[camera]
device = "/dev/video0"
width = 640
height = 360
fps = 15
[audio]
output = "hw:Loopback,0,0"
# No microphone: the host has to choose "Picture only" for Recording, as the readiness says.
input = ""
[touch]
device = "rig outer touch"
[recording]
folder = "/tmp/party-clips"
width = 320
height = 240
fps = 15
preset = "ultrafast"
min_free_mb = 16
[control]
socket = "{SOCKET}"
[state]
dir = "/tmp/rig-party-state"
"""


class Host:
    """The host's hands on the inner display: taps aimed at where `rig ctl console`
    says a control is, keys typed on the keyboard. Each `rig ctl` is seconds in a
    loaded TCG guest, so the console's layout is read again only after a tap that can
    change it; a control not on the screen yet is waited for. The kiosk takes the
    events in the order the player sends them, so a tap needs no wait of its own."""

    def __init__(self, rig, sock):
        self.rig, self.sock = rig, sock
        self.taps, self.layout = 0, None
        self.presses = self.pressed(sock.status())

    @staticmethod
    def pressed(status):
        return status["input"]["key_actions"] + status["input"]["unbound_keys"]

    def settle(self):
        """Waits until the kiosk has had every tap and key sent so far. libinput reads
        each device in turn, so on a loop running late a tap can overtake the keys typed
        just before it (a name's last letters went into the next field); and a
        screenshot should show what the host did."""
        self.sock.wait(lambda s: s["input"]["inner_touches"] >= self.taps and self.pressed(s) >= self.presses, 60,
                       f"{self.taps} taps and {self.presses} key presses taken", read=self.sock.status)

    def target(self, wanted, seconds=60):
        deadline = time.monotonic() + seconds
        while True:
            found = [t for t in (self.layout or {}).get("targets", []) if t["id"] == wanted]
            if found:
                return found[0]
            if time.monotonic() > deadline:
                ids = [t["id"] for t in (self.layout or {}).get("targets", [])]
                raise AssertionError(f"no control {wanted} on the console ({(self.layout or {}).get('screen')}): {ids}")
            answer = self.sock.query("console")
            self.layout = answer if answer and answer.get("ok") else None

    def target_where(self, wanted, holds, what, seconds=60):
        """Control `wanted` once the console's layout is one where `holds(layout)`."""
        deadline = time.monotonic() + seconds
        while True:
            answer = self.sock.query("console")
            self.layout = answer if answer and answer.get("ok") else None
            if self.layout and holds(self.layout):
                return self.target(wanted)
            assert time.monotonic() < deadline, f"{what}: not on the console: {json.dumps(self.layout)[:600]}"

    def tap(self, wanted, across=0.5, same_layout=False):
        """A finger on control `wanted`, `across` its width from the left (a stepper
        steps down in its third quarter, up elsewhere). `same_layout`: the tap moves
        nothing on the screen (a stepper, a choice, a text field)."""
        t = self.target(wanted)
        x, y = int(t["x"] + t["width"] * across), int(t["y"] + t["height"] / 2)
        assert 0 <= x < SIZE[0] and 0 <= y < SIZE[1], f"{wanted} is off the inner display: {t}"
        self.rig.exec(f"echo 'itap {x} {y} 60' > {FIFO}")
        self.taps += 1
        if not same_layout:
            self.layout = None

    def keys(self, *names):
        lines = "\\n".join(f"key {name}" for name in names)
        self.rig.exec(f"printf '{lines}\\n' > {FIFO}")
        self.presses += sum(len(name.split("+")) for name in names)

    def type(self, text):
        self.keys(*[("LEFTSHIFT+" + c) if c.isupper() else c.upper() for c in text])

    def retype(self, field, text):
        self.tap(field, same_layout=True)
        self.keys("END", *["BACKSPACE"] * 12)
        self.type(text)
        self.settle()


def shoot(rig, step, name):
    for head, role in ((0, "inner"), (1, "outer")):
        rig.screendump(head, os.path.join(OUT, f"{step:02d}-{name}-{role}.png"), fmt="png")


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = data.split(maxsplit=4)
    width, height = int(parts[1]), int(parts[2])
    return np.frombuffer(parts[4][: width * height * 3], dtype=np.uint8).reshape(height, width, 3).astype(np.int32)


def cue_badge(shot, area):
    """The cue badge in a full-screen replay, where the layout puts it: centred on the
    clip's picture (fitted in the top `area` rows, above the transport bar), two
    fifths of its shorter side (CueBadge.box). The picture's rows are where anything
    is drawn (vivid's bars reach the frame's top and bottom); a picture that does not
    fill the height fills the width. Returns the badge's box and whether it shows
    there now: its grey border all round, its fill dark."""
    width = shot.shape[1]
    drawn = shot[:area].max(axis=2) > 0x30
    rows, cols = np.nonzero(drawn.any(axis=1))[0], np.nonzero(drawn.any(axis=0))[0]
    if len(rows) == 0:
        return None, False, "nothing drawn"
    top, picture_height = int(rows[0]), int(rows[-1] - rows[0] + 1)
    if picture_height < area - 4:
        left0, picture_width = 0, width
    else:
        left0, picture_width = int(cols[0]), int(cols[-1] - cols[0] + 1)
    side = 0.4 * min(picture_width, picture_height)
    cx, cy = left0 + picture_width / 2, top + picture_height / 2
    left, top = int(cx - side / 2), int(cy - side / 2)
    box = (left, top, int(left + side), int(top + side))
    band = max(2, int(side * 0.02))
    edge = int(side * 0.01)
    ring = np.concatenate([
        shot[top + edge:top + edge + band, left + band:box[2] - band].reshape(-1, 3),
        shot[box[3] - edge - band:box[3] - edge, left + band:box[2] - band].reshape(-1, 3),
        shot[top + band:box[3] - band, left + edge:left + edge + band].reshape(-1, 3),
        shot[top + band:box[3] - band, box[2] - edge - band:box[2] - edge].reshape(-1, 3)])
    grey = ((np.abs(ring - [0x8e, 0x8e, 0x93]) < 40).all(axis=1)).mean()
    inset = int(side / 6)
    inside = shot[top + inset:box[3] - inset, left + inset:box[2] - inset]
    dark = (inside.max(axis=2) < 0x50).mean()
    return box, grey > 0.7 and dark > 0.4, f"badge {box}: border grey {grey:.2f}, inside dark {dark:.2f}"


def z_upright(shot, box):
    """A Z's diagonal runs from upper right to lower left when it is upright (mirrored,
    from upper left to lower right): the letter's white ink inside the badge, row by
    row."""
    left, top, right, bottom = box
    inset = (right - left) // 6
    ink = shot[top + inset:bottom - inset, left + inset:right - inset].min(axis=2) > 0xb0
    rows = [(y, float(np.nonzero(row)[0].mean())) for y, row in enumerate(ink) if row.any()]
    if len(rows) < 10:
        return False, f"{len(rows)} rows of ink in the badge {box}"
    first, last = rows[0][0], rows[-1][0]
    upper = next(m for y, m in rows if y >= first + (last - first) * 3 // 10)
    lower = next(m for y, m in rows if y >= first + (last - first) * 7 // 10)
    return upper > lower + 4, f"badge {box}; ink at 30% {upper:.0f}, at 70% {lower:.0f}"


def capturing(g):
    return g["phase"] in ("preparing", "lead_in", "leadIn", "speech", "cue", "response", "tail")


def send_to_review(host, sock, what):
    """Send, by a tap; an attempt the loaded guest voided for a reason of its own (a cue
    it could not show in time, the recorder behind) is retried as a host would (at most
    three times more). Returns the game's status in review."""
    for _ in range(4):
        sock.wait(lambda g: g["ready"], 90, f"ready to send {what}", read=sock.game)
        host.tap("game:send")
        done = sock.wait(lambda g: g["phase"] in ("review", "interrupted"), 120, f"{what} reaching review",
                         read=sock.game)
        if done["phase"] == "review":
            return done
        print(f"# {what} void: {done['attempts'][-1]['interruption']}; the host retries", flush=True)
        host.tap("game:retry")
    raise AssertionError(f"{what}: void four times: {json.dumps(done['attempts'][-4:])}")


def main():
    os.makedirs(OUT, exist_ok=True)
    checks, figures = [], {}
    started = time.monotonic()
    with vrig.VirtualRig() as rig:
        print(f"# guest booted in {rig.boot_seconds:.1f}s", flush=True)
        rig.exec(f"[ -e /dev/video0 ] || modprobe -d {KERNEL_TREE} vivid", timeout=60)
        rig.exec(f"[ -e /proc/asound/Loopback ] || modprobe -d {KERNEL_TREE} snd-aloop", timeout=60)
        rig.exec(f"mkdir -p /usr/share/rig/game && cp {vrig.REPO}/share/game/actions.json /usr/share/rig/game/")
        rig.set_connector("Virtual-2", "on")
        rig.exec(f"rm -f {FIFO}; mkfifo {FIFO} && (sleep 100000 > {FIFO} &) && "
                 f"(/usr/bin/python3 {PLAYER} --width {SIZE[0]} --height {SIZE[1]} --inner-touch-name 'rig inner touch' "
                 f"< {FIFO} > /vrig-io/party-player.log 2>&1 &)")
        rig.exec(f"echo 'wait-device 60' > {FIFO}")
        kiosk = Kiosk(rig, "party", config=CONFIG, test_pattern=False)
        sock = ControlSocket(rig, SOCKET, poll=0.2, read="game", tries=1)
        step, host = 0, None

        def shot(name):
            nonlocal step
            step += 1
            if host is not None:
                host.settle()
            shoot(rig, step, name)

        try:
            sock.wait(lambda s: len(s["input"]["devices"]) >= 3 and s["displays"]["outer"]["presenting"], 120,
                      "the kiosk up with both touchscreens and the keyboard", read=sock.status)
            host = Host(rig, sock)
            # Setup: the host's name and the players' typed, the settings stepped by taps.
            host.tap("tab:game")
            host.tap("game:page:setup")
            host.retype("game:host:name", "Dee")
            host.retype("game:player:name:0", "Ann")
            host.retype("game:player:name:1", "Bo")
            host.tap("game:set:mode")                     # Spoken -> Visual S/Z (adds the cue row)
            host.tap("game:set:recording", across=0.9, same_layout=True)  # Picture and sound -> Picture only
            host.tap("game:set:per_turn", across=0.6, same_layout=True)  # 3 -> 2
            host.tap("game:set:per_turn", across=0.6, same_layout=True)  # 2 -> 1
            host.tap("game:set:cue", across=0.9, same_layout=True)  # 0.75 s -> 1.5 s
            shot("setup")
            host.tap("game:start")
            game = sock.wait(lambda g: g["phase"] is not None, 30, "the game started from Setup")
            checks.append(("setup by taps and typing: Ann and Bo, Visual S/Z, picture only",
                           list(game["consent"]) == ["Ann", "Bo"] and game["mode"] == "visual"
                           and game["recording"] and game["picture_only"], json.dumps(game)[:800]))

            # Consent, at the rig, before any camera use.
            host.tap("game:page:consent")
            host.tap("game:consent:yes:Ann", same_layout=True)
            host.tap("game:consent:yes:Bo", same_layout=True)
            agreed = sock.wait(lambda g: set(g["consent"].values()) == {"agreed"}, 30, "both players agreed")
            shot("consent")
            host.tap("game:consent-done")
            checks.append(("consent given on the console for both players, before any attempt",
                           agreed["consent"] == {"Ann": "agreed", "Bo": "agreed"} and not agreed["attempts"],
                           json.dumps(agreed)[:600]))

            # Ann: a card with a finger count; the participant taps Stop; the retry.
            host.tap("game:group:hands")
            host.tap("game:card:hands.fingers-up")
            host.tap("game:param:fingers", across=0.9, same_layout=True)
            host.tap("game:param:fingers", across=0.9, same_layout=True)
            host.tap("game:rule:simon")
            sock.wait(lambda g: g["ready"], 90, "ready with the card picked")
            shot("dashboard")
            host.tap("game:send")
            sock.wait(capturing, 60, "the attempt under way")
            rig.exec(f"echo 'tap {SIZE[0] // 2} {SIZE[1] // 2} 60' > {FIFO}")
            stopped = sock.wait(lambda g: g["phase"] in ("interrupted", "review"), 120, "the participant's Stop")
            shot("stopped")
            checks.append(("the participant's tap on the outer touchscreen stops the attempt (void, retry offered)",
                           stopped["phase"] == "interrupted" and stopped["attempts"][-1]["interruption"] == STOPPED
                           and "retry" in stopped["allowed"], json.dumps(stopped["attempts"][-1])))
            host.tap("game:retry")
            review = send_to_review(host, sock, "Ann's retry")
            shot("review-ann")
            first = review["attempts"][-1]
            snapshot = review["snapshot"]
            figures["ann_instruction"] = first["instruction"]
            checks.append(("a card with a finger count, stepped on the dashboard, spoken to Ann",
                           first["player"] == "Ann" and snapshot["card"]["parameters"].get("fingers") == 5
                           and "five fingers" in first["instruction"]
                           and snapshot["host"] == "Dee" and snapshot["cue"]["duration"] == 1.5,
                           json.dumps(snapshot)[:800]))
            host.tap("game:verdict:pass")
            host.tap("game:next")

            # Bo: a Z (the rule's opposite), failed, then corrected on the Scoreboard.
            host.tap("game:group:poses")
            host.tap("game:card:poses.star")
            host.tap("game:rule:not")
            review = send_to_review(host, sock, "Bo's attempt")
            bo = review["attempts"][-1]
            shot("review-bo")
            host.tap("game:verdict:fail")
            host.tap("game:next")
            host.tap("tab:scoreboard")
            host.tap(f"game:correct:{bo['id']}:pass")
            game = sock.wait(lambda g: g["attempts"][-1]["verdict"] == "pass", 30, "Bo's fail corrected to a pass")
            shot("scoreboard")
            scores = {row["player"]: row["points"] for row in game["scores"]}
            checks.append(("Pass for Ann; Bo's fail corrected to a pass on the Scoreboard",
                           scores == {"Ann": 1, "Bo": 1} and bo["player"] == "Bo"
                           and review["snapshot"]["cue"]["letter"] == "Z", json.dumps(game["scores"])))

            # Clips: the game stays open; Bo's clip replayed shows the Z upright.
            host.tap("tab:clips")
            game = sock.game()
            checks.append(("Clips opened from the game leaves the game open and ready",
                           game["open"] and game["phase"] == "ready", json.dumps(game)[:400]))
            listed = sock.query("clips", "list")["clips"]
            clip = next(c for c in listed if c["kind"] == "game" and c.get("attempt") == bo["id"])
            host.tap("clip:" + clip["id"], same_layout=True)
            # The bar under a full-screen replay is a row of controls and a gap either side.
            tab = host.target("tab:library")
            area = SIZE[1] - tab["height"] - tab["x"]
            host.tap("clips:replay")
            host.keys("F")  # full screen, at once: the cue is 1.5 s of a 10 s clip
            seen, detail, dumps, rounds = None, "no screendump showed the badge", 0, 0
            deadline = time.monotonic() + 120
            while seen is None and time.monotonic() < deadline and rounds < 3:
                frame = read_ppm(rig.screendump(0, os.path.join(OUT, "replay.ppm")))
                dumps += 1
                box, shown, detail = cue_badge(frame, area)
                if shown:
                    seen = frame
                    rig.screendump(0, os.path.join(OUT, f"{step + 1:02d}-replay-cue-inner.png"), fmt="png")
                elif dumps % 100 == 0 and not (sock.status()["clips"]["replay"] or {}).get("playing"):
                    # Past the cue before the dumps began (a loaded guest): Play again,
                    # which restarts an ended replay.
                    rounds += 1
                    rig.screendump(0, os.path.join(OUT, f"replay-ended-{rounds}.png"), fmt="png")
                    host.tap("clips:play")
            step += 1
            replay = sock.status()["clips"]["replay"]
            figures["replay"] = replay
            upright, why = z_upright(seen, box) if seen is not None else (False, detail)
            checks.append(("the replay on the inner display shows Bo's Z upright inside its cue interval",
                           upright, why + f"; {detail}; replay {json.dumps(replay)}"))
            if sock.status()["clips"]["replay"] is not None:
                host.tap("clips:stop")

            # End game, its media deleted.
            host.tap("tab:game")
            host.tap("game:page:dashboard")
            host.tap("game:end")
            host.tap("dialog:confirm")
            ended = sock.wait(lambda g: "endGame" not in g["allowed"], 30, "the game ended", read=sock.game)
            shot("ended")
            counted = sock.status()["input"]["inner_touches"]
            checks.append(("every tap of the host reached the console (inner_touches)", counted == host.taps,
                           f"{counted} counted, {host.taps} tapped"))
            left = [c for c in sock.query("clips", "list")["clips"]
                    if c.get("game") == clip.get("game") and c.get("has_media")]
            checks.append(("End game with delete media: the game over, results kept, its clips' media gone",
                           "The game has ended" in ended["readiness"] and "send" not in ended["allowed"]
                           and [row["points"] for row in ended["scores"]] == [1, 1] and not left,
                           json.dumps(left)[:600] + json.dumps(ended)[:400]))
            status = kiosk.terminate()
            checks.append(("the kiosk stops cleanly after the party", status == 0, f"exit status {status}"))
        except (AssertionError, StopIteration, KeyError, TypeError) as error:
            try:
                shot("failed")
            except Exception:  # noqa: BLE001 - the screenshot of a failure is a bonus
                pass
            checks.append(("the party played from the inner display", False, f"{type(error).__name__}: {error}"))
        finally:
            Kiosk.kill_leftovers(rig)
            with open(os.path.join(OUT, "kiosk.log"), "w") as f:
                f.write(kiosk.log())
    figures["seconds"] = round(time.monotonic() - started, 1)
    with open(os.path.join(OUT, "figures.json"), "w") as f:
        json.dump(figures, f, indent=1)
    print(f"# figures {json.dumps(figures)}", flush=True)
    tally = Tally()
    tally.report(checks)
    return tally.close()


if __name__ == "__main__":
    sys.exit(main())
