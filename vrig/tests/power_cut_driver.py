"""Runs inside the power-cut guest (vrig/tests/power_cut.py): keeps the running kiosk
busy writing until QEMU is killed under it. Python 3 stdlib only, in the guest so a
request costs a socket round trip, not a host one under TCG.

The kiosk's own writers do every write: a prompter take (`record start`) runs the whole
time, and round after round
  - the reading settings (`set prompter.font_size=N`) and the resume state (play, pause:
    the kiosk saves the reading position once a second),
  - the script Cut.txt, edited in the console's editor with keys on a uinput keyboard
    (Esc, "cut" in the library's search, Tab to Edit, Enter, three letters typed; the
    editor saves by itself a second after typing stops, then Esc),
  - the game session (`game open`, `select`, `send`, the attempt to its review, `verdict`,
    `next`, `leave`: the kiosk saves it on each change).

Every request goes over the control socket, the JSON lines `rig ctl` sends. The log
(on the io share, off the disk under test, so it outlives the cut) is one JSON object
a line: `seen` says what a file on the disk held once the kiosk had written it (its
value, or for the script its SHA-256), `may` what a write under way may leave there,
`pos` the reading position while the resume state may be anything the prompter
passed, `game` the game as the kiosk had saved it after a request, `rec` the take's
duration now. The host's check after the next boot reads it.

  python3 power_cut_driver.py SOCKET LOG FIFO DATA
"""
import hashlib
import json
import os
import socket
import sys
import time

sock_path, log_path, fifo, data = sys.argv[1:5]
STATE = os.path.join(data, "state")
SCRIPT = os.path.join(data, "scripts", "Cut.txt")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
CAPTURING = ("preparing", "leadIn", "speech", "cue", "response", "tail")
log_file = open(log_path, "a", buffering=1)
connection = None
buffer = b""


class Stuck(Exception):
    pass


def log(event, **fields):
    # `w`: the guest's wall clock, so the host can tell how long before the cut a line was written.
    log_file.write(json.dumps({"e": event, "w": round(time.time(), 3), **fields}) + "\n")


def request(cmd, **args):
    """One request and its reply on a kept connection (opened again if it broke)."""
    global connection, buffer
    for _ in range(3):
        try:
            if connection is None:
                connection = socket.socket(socket.AF_UNIX)
                connection.settimeout(60)
                connection.connect(sock_path)
                buffer = b""
            connection.sendall((json.dumps({"cmd": cmd, **args}) + "\n").encode())
            while b"\n" not in buffer:
                chunk = connection.recv(1 << 20)
                if not chunk:
                    raise OSError("closed")
                buffer += chunk
            line, buffer = buffer.split(b"\n", 1)
            return json.loads(line)
        except (OSError, ValueError):
            if connection is not None:
                connection.close()
            connection = None
            time.sleep(0.5)
    raise Stuck(f"no reply to {cmd}")


def must(cmd, **args):
    reply = request(cmd, **args)
    if not reply.get("ok"):
        raise Stuck(f"{cmd} {args}: {reply.get('error')}")
    return reply


taking = False


def status():
    global taking
    s = request("status")
    rec = s.get("recording", {})
    if rec.get("state") == "recording":
        log("rec", d=rec.get("duration"), f=rec.get("file"))
    elif taking and rec.get("state") == "idle":
        # Under TCG on a busy host the encoder can fall behind and the kiosk ends the
        # take with a retry: Record again, as the operator would.
        log("take-ended", last=rec.get("last"))
        taking = False
        start_take()
    return s


def start_take():
    global taking
    must("record", action="start")
    s = until("the take recording", lambda s: s["recording"]["state"] == "recording", 60)
    log("take", file=s["recording"]["file"])
    taking = True


def until(what, predicate, seconds=60, each=None):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        s = status()
        if each:
            each(s)
        if predicate(s):
            return s
        time.sleep(0.1)
    raise Stuck(f"{what}: not within {seconds} s")


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def on_disk(name):
    raw = read(os.path.join(STATE, name))
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return None


def wait_file(what, predicate, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        status()  # keeps the take's duration in the log
        time.sleep(0.1)
    raise Stuck(f"{what} not on the disk within {seconds} s")


def game_seen(game):
    """What the kiosk saved of the game (it writes the session before it replies)."""
    log("game", phase=game["phase"], attempts=[[a["id"], a["verdict"]] for a in game["attempts"]],
        scores={row["player"]: row["points"] for row in game["scores"]}, players=sorted(game["consent"]))


def key(*names):
    with open(fifo, "w") as f:
        for name in names:
            f.write(f"key {name}\n")


# -- the parts of a round ----------------------------------------------------------------
def prompter_part(round_number):
    s = status()
    if s["game"]["open"]:
        game_seen(must("game", action="leave")["game"])
    size = 30 + (round_number * 7) % 60
    if size == s["settings"]["font_size"]:
        size += 1  # the same size again would write nothing
    log("may", kind="settings", value=size)
    log("may", kind="resume", value="pos")  # a new size lays the text out again
    log("pos", o=s["prompter"]["offset"])
    must("set", key="prompter.font_size", value=str(size))
    wait_file("the font size", lambda: (on_disk("reading-settings.json") or {}).get("fontSize") == size)
    log("seen", kind="settings", value=size)
    must("play")
    started = time.monotonic()
    until("two seconds of play", lambda s: time.monotonic() - started > 2,
          each=lambda s: log("pos", o=s["prompter"]["offset"]))
    must("pause")
    # Pausing ramps the rate down over 0.3 s: the text comes to rest a little further on.
    offset = until("the text at rest", lambda s: s["prompter"]["rate"] == 0, 30,
                   each=lambda s: log("pos", o=s["prompter"]["offset"]))["prompter"]["offset"]
    wait_file("the reading position", lambda: abs((on_disk("resume.json") or {}).get("offset", -1e9) - offset) < 0.5)
    log("seen", kind="resume", value=offset)


def editor_part(round_number):
    key("ESC")
    s = until("the library", lambda s: s["console"]["screen"] == "library", 30)
    if s["console"]["selected"] != "Cut.txt":
        if s["console"]["search"]:
            key("ESC")
        key("C", "U", "T")
        until("Cut.txt selected", lambda s: s["console"]["selected"] == "Cut.txt", 30)
    focus = status()["console"]["focus"]
    for _ in range(40):
        if focus == "library:edit":
            break
        key("TAB")  # one at a time, each seen to move the focus: none is still on its way at Enter
        focus = until("the focus moved", lambda s, was=focus: s["console"]["focus"] != was, 30)["console"]["focus"]
    else:
        raise Stuck("Tab never reached the library's Edit button")
    key("ENTER")
    until("the editor", lambda s: s["console"]["screen"] == "editor" and s["console"]["editing"] == "Cut.txt", 30)
    before = read(SCRIPT)
    first = (round_number * 3) % len(LETTERS)
    batch = (LETTERS * 2)[first:first + 3]
    # Typed at the caret, which the editor puts at the top: each letter goes in front.
    versions = [hashlib.sha256(batch[:n].encode() + before).hexdigest() for n in range(1, len(batch) + 1)]
    log("may", kind="script", value=versions)
    key(*batch.upper())
    wait_file("the edit", lambda: hashlib.sha256(read(SCRIPT) or b"").hexdigest() == versions[-1])
    log("seen", kind="script", value=versions[-1])
    key("ESC")
    until("the library again", lambda s: s["console"]["screen"] == "library", 30)
    if status()["console"]["search"]:
        key("ESC")
        until("the search cleared", lambda s: not s["console"]["search"], 30)
    key("ESC")
    until("the prompter screen", lambda s: s["console"]["screen"] == "prompter", 30)


def game_part():
    log("may", kind="resume", value="pos")  # opening the game stops the prompter
    game = must("game", action="open")["game"]
    log("pos", o=0)
    game_seen(game)
    for _ in range(6):
        phase = game["phase"]
        if phase == "review":
            log("may", kind="game", action="verdict", attempt=game["attempts"][-1]["id"])
            game = must("game", action="verdict", verdict="pass")["game"]
            game_seen(game)
            if "next" in game["allowed"]:
                log("may", kind="game", action="next")
                game = must("game", action="next")["game"]
                game_seen(game)
            return
        if phase == "interrupted":
            log("may", kind="game", action="retry")
            game = must("game", action="retry")["game"]
        elif phase in ("ready", "complete"):
            if phase == "complete" and "next" in game["allowed"]:
                log("may", kind="game", action="next")
                game = must("game", action="next")["game"]
                game_seen(game)
                continue
            must("game", action="select", card="poses.star", rule="simon")
            log("may", kind="game", action="send")
            game = must("game", action="send")["game"]
        else:
            raise Stuck(f"the game in phase {phase}: {game.get('readiness')}")
        game_seen(game)
        game = until("the attempt over", lambda s: s["game"]["phase"] not in CAPTURING, 120)["game"]
        game_seen(game)
    raise Stuck("no attempt reached its review")


def wait_for_kiosk(seconds):
    deadline = time.monotonic() + seconds
    while True:
        try:
            return status()
        except Stuck:
            if time.monotonic() > deadline:
                raise Stuck(f"the kiosk's control socket did not answer within {seconds} s")


def main():
    wait_for_kiosk(240)
    start_take()
    game = status()["game"]
    if game["phase"] is None:
        log("may", kind="game", action="setup")
        game = must("game", action="setup", players="Ann,Bo", mode="spoken", response=2, recording="off")["game"]
        game_seen(game)
    round_number = int(time.time()) % 1000
    while True:
        round_number += 1
        started = time.monotonic()
        game_part()
        prompter_part(round_number)
        editor_part(round_number)
        log("round", n=round_number, seconds=round(time.monotonic() - started, 1))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # noqa: BLE001 - whatever it was, the host must hear of it
        log("stuck", why=f"{type(error).__name__}: {error}")
        raise
