"""Replay on the rig, in the virtual rig with snd-aloop as the sound card (issue 20):

  A clip (H.264 + AAC: a moving test picture and a 440 Hz tone, made on the host with
  the ffmpeg command line) sits in the kiosk's recordings folder. `rig ctl clips replay`
  opens it on the console's Clips screen of the real kiosk on virtio-gpu; its sound
  plays on hw:Loopback,0,0 while `rig listen` records hw:Loopback,1,0:
  - the replay runs on the displays: `status` shows pictures advancing and the end;
  - the clip is leased while it plays: `rig ctl clips delete` is refused;
  - what came out of the output device is the clip's tone (its spectrum's peak at
    440 Hz), loud for about the clip's length;
  - `rig ctl clips stop` gives the lease back: the delete then succeeds.

  swift build && python3 vrig/tests/kiosk_clips.py
"""
import json
import os
import subprocess
import sys
import wave

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import vrig  # noqa: E402
from kiosk import ControlSocket, Kiosk, rig_binary, run_single_test  # noqa: E402

OUT = os.path.join(vrig.REPO, "out", "vrig-tests", "clips")
KERNEL_TREE = os.path.join(vrig.CACHE, "kernel")
SOCKET = "/tmp/rig-clips.sock"
PLAY, RECORD = "hw:Loopback,0,0", "hw:Loopback,1,0"
CLIP = "prompter-20261201-100000-1"
SECONDS = 3.0
TONE = 440


def make_clip(folder):
    os.makedirs(folder, exist_ok=True)
    media = os.path.join(folder, CLIP + ".mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=320x240:rate=30",
                    "-f", "lavfi", "-i", f"sine=frequency={TONE}:sample_rate=48000", "-t", str(SECONDS),
                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "1",
                    "-movflags", "+frag_keyframe+empty_moov+default_base_moof", media], check=True)
    with open(os.path.join(folder, CLIP + ".json"), "w") as f:
        json.dump({"recording": {"duration": SECONDS},
                   "annotations": {"kind": "prompter", "script_title": "Virtual rig take"}}, f)


def config(folder):
    return f"""
[displays.inner]
connector = "Virtual-1"
mode = "preferred"
[displays.outer]
connector = "Virtual-2"
mode = "1024x768"
[camera]
enabled = false
[audio]
output = "{PLAY}"
[recording]
folder = "{folder}"
[control]
socket = "{SOCKET}"
[state]
dir = "/tmp/rig-clips-state"
"""


def last_clips(last):
    return (f"clips {json.dumps((last or {}).get('clips'))}, "
            f"audio {json.dumps((last or {}).get('audio'))[:800]}")


def loud_span(samples, rate):
    """Seconds of the capture whose 20 ms blocks are well above the quietest ones."""
    block = rate // 50
    levels = np.array([np.sqrt(np.mean(samples[i:i + block] ** 2)) for i in range(0, len(samples) - block, block)])
    threshold = max(levels.max() * 0.3, 50)
    return float(np.sum(levels > threshold)) / 50


def test_replay_sound_and_lease(rig, checks):
    rig.exec(f"[ -e /proc/asound/Loopback ] || modprobe -d {KERNEL_TREE} snd-aloop", timeout=60)
    rig.exec("for i in $(seq 100); do [ -e /dev/snd/pcmC0D1c ] && exit 0; sleep 0.1; done; exit 1", timeout=30)
    folder = rig.path("clips-recordings")
    make_clip(folder)
    guest_folder = "/vrig-io/clips-recordings"
    for name in ("clips-cap.json", "clips-cap.wav"):
        if os.path.exists(rig.path(name)):
            os.remove(rig.path(name))
    # The capture opens first, as in the audio suite: the loopback's playback side then
    # takes the capture's format when the kiosk opens it.
    # At most 45 s (a loaded host's kiosk start and replay); stopped by SIGINT once the
    # clip's sound is out, which `rig listen` ends early on, still writing the capture.
    rig.exec(f"{rig_binary()} listen --device {RECORD} --seconds 45 --out /vrig-io/clips-cap.wav --json "
             "> /vrig-io/clips-cap.json 2>&1 & echo $! > /vrig-io/clips-listen.pid")
    vrig.wait_until(lambda: os.path.exists(rig.path("clips-cap.json"))
                    and '"ready"' in open(rig.path("clips-cap.json")).read(), 60, "rig listen capturing")
    kiosk = Kiosk(rig, "clips", config=config(guest_folder), test_pattern=False)
    sock = ControlSocket(rig, SOCKET, poll=0.2, show=last_clips)
    try:
        sock.wait(lambda s: s["audio"]["output"]["state"] == "idle", 120, "sound output idle")
        rc, out = sock.ctl("clips", "replay", CLIP)
        checks.append(("rig ctl clips replay opens the clip", rc == 0 and CLIP in out, out.strip()))
        playing = sock.wait(lambda s: (s.get("clips", {}).get("replay") or {}).get("shown") is not None, 60,
                            "the first replayed picture")
        checks.append(("the console shows the Clips screen", playing["console"]["screen"] == "clips",
                       json.dumps(playing["console"])))
        rc, out = sock.ctl("clips", "delete", CLIP)
        checks.append(("a clip being replayed is not deleted", rc != 0 and "replay" in out, out.strip()))
        done = sock.wait(lambda s: not (s["clips"]["replay"] or {}).get("playing", True), 60, "the replay's end")
        shown = int(done["clips"]["replay"]["shown"] or 0)
        checks.append(("the replay drew pictures to the end of the clip", shown >= int(SECONDS * 30) - 3,
                       json.dumps(done["clips"]["replay"])))
        # The output goes idle once a buffer of silence followed the clip's last sample.
        sock.wait(lambda s: s["audio"]["output"]["state"] == "idle", 30, "the sound output idle after the replay")
        rig.exec("kill -INT $(cat /vrig-io/clips-listen.pid)")
        vrig.wait_until(lambda: '"periods"' in open(rig.path("clips-cap.json")).read(), 90, "rig listen finishing")
        with wave.open(rig.path("clips-cap.wav")) as w:
            rate = w.getframerate()
            captured = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64)
            if w.getnchannels() > 1:
                captured = captured.reshape(-1, w.getnchannels())[:, 0]
        spectrum = np.abs(np.fft.rfft(captured))
        peak = float(np.argmax(spectrum[1:]) + 1) * rate / len(captured)
        span = loud_span(captured, rate)
        print(f"# capture: peak at {peak:.1f} Hz, loud for {span:.2f} s of {len(captured) / rate:.1f} s; "
              f"last picture shown {shown}", flush=True)
        checks.append(("the output device played the clip's tone", abs(peak - TONE) < 5, f"peak at {peak:.1f} Hz"))
        checks.append(("the sound lasted about the clip", abs(span - SECONDS) < 0.5, f"loud for {span:.2f} s"))
        rc, out = sock.ctl("clips", "stop")
        checks.append(("rig ctl clips stop closes the replay", rc == 0, out.strip()))
        rc, out = sock.ctl("clips", "delete", CLIP)
        checks.append(("once closed, the clip can be deleted", rc == 0, out.strip()))
        checks.append(("the kiosk lived throughout", kiosk.alive(), "the kiosk died"))
    finally:
        with open(os.path.join(OUT, "kiosk.log"), "w") as f:
            f.write(kiosk.log())
        kiosk.terminate()


def main():
    return run_single_test(test_replay_sound_and_lease, OUT)


if __name__ == "__main__":
    sys.exit(main())
