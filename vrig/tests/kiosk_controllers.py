"""Hand controllers on the rig (issue 40), in the virtual rig with real kernel paths:
uinput devices that announce themselves as a Contour ShuttleXpress (its USB ids and
event codes), a gamepad (an Xbox 360 pad's ids) and a wheel mouse, read by the real
kiosk on virtio-gpu through udev, the seat and libevdev (libinput for the mouse):

  - `rig devices` lists the shuttle, the gamepad and the MIDI port with their kind and axis;
  - the ring off its centre plays at its position's speed and owns the speed: the
    status shows it steering and `rig ctl faster` is refused;
  - the ring backwards scrolls back; back at the centre the text pauses;
  - the jog wheel moves the paused text by lines; the middle button plays and pauses;
  - the text moves at the ring's speed (offsets over time);
  - the shuttle unplugged while it steers: the text pauses, the banner says so; replugged
    it steers again;
  - the gamepad's stick in its neutral band leaves the text still, up plays (at 300 px/s
    over time), down scrolls back, back at rest pauses; unplugged while steering it
    pauses with the banner, replugged it steers again; the mouse wheel changes the speed;
  - MIDI through snd-virmidi and the ALSA sequencer: an expression pedal's CC 11 at full
    plays at its maximum, at the heel pauses; a note bound in [keys] plays; the interface
    unbound while steering (as a USB one is pulled) pauses with the banner, and bound
    again it steers again;
  - latency.controller_to_flip: from the ring's event to the first flip drawn after it.

  swift build && python3 vrig/tests/kiosk_controllers.py
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import vrig  # noqa: E402
from kiosk import ControlSocket, Kiosk, rig_binary, run_single_test  # noqa: E402

OUT = os.path.join(vrig.REPO, "out", "vrig-tests", "controllers")
KERNEL_TREE = os.path.join(vrig.CACHE, "kernel")
PLAYER = os.path.join(vrig.REPO, "vrig", "uinput", "rig_controllers.py")
FIFO = "/tmp/controllers.in"
SOCKET = "/tmp/rig-controllers.sock"
SCRIPT = "Long.txt"
CONFIG = f"""
[displays.inner]
connector = "Virtual-1"
mode = "preferred"
[displays.outer]
connector = "Virtual-2"
mode = "1024x768"
[camera]
enabled = false
[audio]
output = ""
input = ""
[prompter]
scripts_dir = "/vrig-io/controller-scripts"
[keys]
play_pause = ["Space", "Shuttle3", "PadA", "Note60"]
[control]
socket = "{SOCKET}"
[state]
dir = "/tmp/rig-controllers-state"
"""


def prompter(s):
    return s["prompter"]


def controllers(s):
    return {c["kind"]: c for c in s["input"].get("controllers", [])}


def show(last):
    if not last:
        return "no status"
    return (f"prompter {json.dumps({k: last['prompter'].get(k) for k in ('state', 'offset', 'speed', 'rate', 'line')})}, "
            f"controllers {json.dumps(last['input'].get('controllers'))}, problems {json.dumps(last.get('problems'))}")


def test_controllers(rig, checks):
    scripts = rig.path("controller-scripts")
    os.makedirs(scripts, exist_ok=True)
    with open(os.path.join(scripts, SCRIPT), "w") as f:
        f.write("\n\n".join(f"Paragraph {n}: the talent reads on while the operator steers with a hand "
                            f"controller, a shuttle ring or a stick, at the speed it asks for." for n in range(120)))
    rig.exec(f"rm -f {FIFO}; mkfifo {FIFO} && (sleep 100000 > {FIFO} &) && "
             f"(/usr/bin/python3 {PLAYER} < {FIFO} > /vrig-io/controllers-player.log 2>&1 &)")

    def send(line):
        rig.exec(f"echo '{line}' > {FIFO}")

    rig.exec(f"[ -e /proc/asound/VirMIDI ] || [ -n \"$(ls /dev/snd/midiC*D0 2>/dev/null)\" ] || "
             f"modprobe -d {KERNEL_TREE} snd-virmidi midi_devs=1", timeout=60)
    send("wait-device 60")
    vrig.wait_until(lambda: "ok wait-device" in open(rig.path("controllers-player.log")).read(), 90,
                    "the uinput controllers")
    rc, out = rig.exec(f"{rig_binary()} devices --config /dev/null 2>&1", check=False)
    listed = out.split("Hand controllers:", 1)[-1]
    checks.append(("rig devices lists the shuttle, the gamepad and the MIDI port with their kind and axis",
                   "Contour Design ShuttleXpress\tshuttle\tring -7…7" in listed
                   and "rig test gamepad\tgamepad\tABS_Y -32768…32767" in listed
                   and "Virtual Raw MIDI" in listed and "\tmidi\tCC 11 0…127" in listed, listed.strip()[:600]))

    kiosk = Kiosk(rig, "controllers", config=CONFIG, test_pattern=False)
    sock = ControlSocket(rig, SOCKET, poll=0.2, show=show)
    try:
        sock.wait(lambda s: set(controllers(s)) >= {"shuttle", "gamepad"}, 120, "both controllers in the status")
        sock.must("open", SCRIPT)
        sock.wait(lambda s: prompter(s)["script"] == SCRIPT and prompter(s)["max_offset"], 60, "the script open")

        send("ring 4")
        playing = sock.wait(lambda s: prompter(s)["state"] == "playing" and prompter(s)["offset"] > 400, 60,
                            "the ring at 4 playing the text")
        shuttle = controllers(playing)["shuttle"]
        checks.append(("the ring at position 4 plays at its step's speed, steering",
                       prompter(playing)["speed"] == 75 and shuttle["steering"] and shuttle["raw"] == 4,
                       show(playing)))
        def moving_rate(what):
            """The speed as the text moves: offsets over a second of the kiosk's own clock."""
            first = sock.status()
            second = sock.wait(lambda s: s["time"] >= first["time"] + 1.0, 30, f"a second of {what}")
            rate = (prompter(second)["offset"] - prompter(first)["offset"]) / (second["time"] - first["time"])
            print(f"# {what}: {rate:.1f} px/s over {second['time'] - first['time']:.2f} s", flush=True)
            return rate

        rate = moving_rate("the ring at 4")
        checks.append(("the text moves at the ring's 75 px/s (offsets over time)", abs(rate - 75) < 4, f"{rate:.1f} px/s"))
        rc, out = sock.ctl("faster")
        checks.append(("rig ctl faster is refused while the shuttle steers",
                       rc != 0 and "ShuttleXpress is steering" in out, out.strip()))

        send("ring -3")
        before = prompter(sock.status())["offset"]
        back = sock.wait(lambda s: prompter(s)["offset"] < before - 30, 60, "the ring at -3 scrolling back")
        checks.append(("the ring backwards scrolls back at 50 px/s",
                       prompter(back)["speed"] == 50 and prompter(back)["state"] == "playing", show(back)))

        send("ring 0")
        paused = sock.wait(lambda s: prompter(s)["state"] == "paused" and prompter(s)["rate"] == 0
                           and not controllers(s)["shuttle"]["steering"], 60, "the ring back at the centre")
        later = sock.wait(lambda s: True, 5, "a later status")
        checks.append(("back at the centre the text pauses where it was, short of the top",
                       prompter(later)["offset"] == prompter(paused)["offset"] > 100, show(later)))

        line = prompter(later)["line"]
        send("jog 3")
        jogged = sock.wait(lambda s: prompter(s)["line"] == line + 3, 60, "three jog detents: three lines on")
        checks.append(("the jog moves the paused text by three lines", prompter(jogged)["state"] == "paused",
                       show(jogged)))

        send("sbutton 3 1")
        send("sbutton 3 0")
        pressed = sock.wait(lambda s: prompter(s)["state"] == "playing", 60, "the middle button playing")
        send("sbutton 3 1")
        send("sbutton 3 0")
        again = sock.wait(lambda s: prompter(s)["state"] == "paused", 60, "the middle button pausing")
        checks.append(("the shuttle's middle button plays and pauses (bound like a key)",
                       pressed and again, show(again)))

        send("ring 5")
        sock.wait(lambda s: controllers(s).get("shuttle", {}).get("steering") and prompter(s)["state"] == "playing",
                  60, "the ring at 5 steering")
        send("unplug shuttle")
        gone = sock.wait(lambda s: "shuttle" not in controllers(s) and prompter(s)["state"] == "paused", 60,
                         "the shuttle unplugged while steering")
        checks.append(("unplugged while steering: the text pauses and the banner says so",
                       any("unplugged while it steered" in p for p in gone["problems"]), show(gone)))

        send("plug shuttle")
        sock.wait(lambda s: "shuttle" in controllers(s), 60, "the shuttle plugged in again")
        send("ring 2")
        replugged = sock.wait(lambda s: controllers(s)["shuttle"]["steering"] and prompter(s)["speed"] == 30, 60,
                              "the replugged shuttle steering at position 2")
        send("ring 0")
        sock.wait(lambda s: prompter(s)["state"] == "paused", 60, "the replugged ring back at the centre")
        checks.append(("replugged, the shuttle steers again (30 px/s at position 2) and the banner line is gone",
                       not any("unplugged" in p for p in replugged["problems"]), show(replugged)))

        # The stick inside its neutral band (15 %) asks for nothing.
        send("stick -3000")
        banded = sock.wait(lambda s: abs(controllers(s)["gamepad"]["raw"] + 3000) < 1, 60, "the stick at -3000")
        checks.append(("the stick inside its neutral band leaves the text paused",
                       prompter(banded)["state"] == "paused" and controllers(banded)["gamepad"]["speed"] == 0,
                       show(banded)))
        send("stick 32767")
        before = prompter(banded)["offset"]
        backwards = sock.wait(lambda s: prompter(s)["offset"] < before - 20, 60, "the stick down scrolling back")
        checks.append(("the stick pulled down scrolls back at its reverse maximum (150 px/s)",
                       prompter(backwards)["speed"] == 150 and controllers(backwards)["gamepad"]["speed"] == -150,
                       show(backwards)))
        send("stick -32768")
        stick = sock.wait(lambda s: prompter(s)["state"] == "playing" and prompter(s)["speed"] == 300, 60,
                          "the stick up playing at full speed")
        rate = moving_rate("the stick up")
        checks.append(("the text moves at the stick's 300 px/s (offsets over time)", abs(rate - 300) < 12,
                       f"{rate:.1f} px/s"))
        send("stick 0")
        rest = sock.wait(lambda s: prompter(s)["state"] == "paused", 60, "the stick back at rest")
        checks.append(("the gamepad's stick up plays at its maximum, back at rest pauses",
                       controllers(stick)["gamepad"]["steering"] and not controllers(rest)["gamepad"]["steering"],
                       show(rest)))

        send("stick -20000")
        sock.wait(lambda s: controllers(s)["gamepad"]["steering"] and prompter(s)["state"] == "playing", 60,
                  "the stick up again")
        send("unplug gamepad")
        padless = sock.wait(lambda s: "gamepad" not in controllers(s) and prompter(s)["state"] == "paused", 60,
                            "the gamepad unplugged while steering")
        checks.append(("the gamepad unplugged while steering: the text pauses and the banner says so",
                       any("rig test gamepad was unplugged while it steered" in p for p in padless["problems"]),
                       show(padless)))
        send("plug gamepad")
        sock.wait(lambda s: "gamepad" in controllers(s), 60, "the gamepad plugged in again")
        send("stick -32768")
        repad = sock.wait(lambda s: controllers(s)["gamepad"]["steering"] and prompter(s)["speed"] == 300, 60,
                          "the replugged gamepad steering")
        send("stick 0")
        rest = sock.wait(lambda s: prompter(s)["state"] == "paused", 60, "the replugged stick back at rest")
        checks.append(("replugged, the gamepad steers again", prompter(repad)["state"] == "playing", show(repad)))

        speed = prompter(rest)["speed"]
        send("wheel 2")
        wheeled = sock.wait(lambda s: prompter(s)["speed"] == min(300, speed + 20) or prompter(s)["speed"] == speed + 20,
                            60, "two wheel detents: 20 px/s faster")
        checks.append(("the operator's mouse wheel changes the speed by the keys' step",
                       prompter(wheeled)["speed"] == min(300, speed + 20), show(wheeled)))

        # MIDI: what a pedal on a USB MIDI interface sends, written to virmidi's raw port.
        _, node = rig.exec("ls /dev/snd/midiC*D0 | head -1")
        node = node.strip()

        def midi(*data):
            # Octal escapes: POSIX printf (dash's too) has no \x.
            escaped = "".join("\\%03o" % b for b in data)
            rig.exec(f"printf '{escaped}' > {node}")

        sock.wait(lambda s: "midi" in controllers(s), 60, "the virmidi port followed")
        midi(0xB0, 11, 127)
        pedal = sock.wait(lambda s: controllers(s)["midi"]["steering"] and prompter(s)["speed"] == 300, 60,
                          "the pedal's CC 11 at full")
        rate = moving_rate("the pedal at full")
        checks.append(("the text moves at the pedal's 300 px/s (offsets over time)", abs(rate - 300) < 12,
                       f"{rate:.1f} px/s"))
        midi(0xB0, 11, 0)
        heel = sock.wait(lambda s: prompter(s)["state"] == "paused" and not controllers(s)["midi"]["steering"], 60,
                         "the pedal back at the heel")
        checks.append(("a MIDI pedal (CC 11) at full plays at its maximum, at the heel pauses",
                       prompter(pedal)["state"] == "playing", show(heel)))
        midi(0x90, 60, 100)
        midi(0x80, 60, 0)
        noted = sock.wait(lambda s: prompter(s)["state"] == "playing", 60, "note 60 (bound to play_pause) playing")
        checks.append(("a MIDI note bound in [keys] plays", controllers(noted)["midi"]["name"].startswith("Virtual Raw MIDI"),
                       show(noted)))
        sock.must("pause")
        midi(0xB0, 11, 64)
        sock.wait(lambda s: controllers(s)["midi"]["steering"] and prompter(s)["state"] == "playing", 60,
                  "the pedal half down steering")
        # The MIDI interface pulled: its card is disconnected as a USB one's is (the
        # driver unbound while its port is in use), and the sequencer says the port ended.
        rc, out = rig.exec("echo snd_virmidi.0 > /sys/bus/platform/drivers/snd_virmidi/unbind", check=False)
        print(f"# virmidi unbound: {rc} {out.strip()}", flush=True)
        unplugged = sock.wait(lambda s: "midi" not in controllers(s) and prompter(s)["state"] == "paused", 60,
                              "the MIDI port gone while steering")
        checks.append(("the MIDI interface unplugged while steering: the text pauses and the banner says so",
                       any("unplugged while it steered" in p for p in unplugged["problems"]), show(unplugged)))
        rig.exec("echo snd_virmidi.0 > /sys/bus/platform/drivers/snd_virmidi/bind", timeout=60)
        sock.wait(lambda s: "midi" in controllers(s), 60, "the MIDI port back")
        _, node = rig.exec("ls /dev/snd/midiC*D0 | head -1")
        node = node.strip()
        midi(0xB0, 11, 127)
        again = sock.wait(lambda s: controllers(s).get("midi", {}).get("steering") and prompter(s)["speed"] == 300, 60,
                          "the replugged pedal steering")
        midi(0xB0, 11, 0)
        checks.append(("replugged, the MIDI pedal steers again", prompter(again)["state"] == "playing", show(again)))

        latency = sock.status()["latency"]["controller_to_flip"]
        print(f"# controller_to_flip: {json.dumps(latency)}", flush=True)
        checks.append(("latency.controller_to_flip measured each speed change",
                       latency["count"] >= 8 and latency["median_ms"] is not None, json.dumps(latency)))
        checks.append(("the kiosk lived throughout", kiosk.alive(), "the kiosk died"))
        kiosk.stop_cleanly()
    finally:
        send("quit")
        os.makedirs(OUT, exist_ok=True)
        with open(os.path.join(OUT, "kiosk.log"), "w") as f:
            f.write(kiosk.log())


def main():
    return run_single_test(test_controllers, OUT)


if __name__ == "__main__":
    sys.exit(main())
