"""The kiosk's camera in the virtual rig, with vivid as the camera (issue 8):

  1. in framing mode the outer head shows vivid's picture mirrored: its colour bars
     run the other way round from the inner head's unmirrored thumbnail;
  2. the cue badges over it read upright: the ink of S and of Z leans the way the
     upright letter's does, not its mirror image's, and S and Z have the same colours;
     with camera.mirror off the preview flips and the badge does not;
  3. unplugging the camera (unbinding vivid) leaves the kiosk running with the camera
     reported unavailable, and the preview comes back when vivid is bound again.

  swift build && python3 vrig/tests/kiosk_camera.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import vrig  # noqa: E402
from images import Image, ink_mask, letter_is_upright  # noqa: E402
from kiosk import ControlSocket, Kiosk, last_status, Tally  # noqa: E402

OUT = os.path.join(vrig.REPO, "out", "vrig-tests", "kiosk-camera")
KERNEL_TREE = os.path.join(vrig.CACHE, "kernel")
SOCKET = "/tmp/rig-camera.sock"
OUTER = (1024, 768)
INNER = (1280, 800)


def config(mirror):
    return f"""
[displays.inner]
connector = "Virtual-1"
mode = "preferred"
[displays.outer]
connector = "Virtual-2"
mode = "1024x768"
[camera]
device = "/dev/video0"
mirror = {"true" if mirror else "false"}
[control]
socket = "{SOCKET}"
[state]
dir = "/tmp/rig-camera-state"
"""


def bar_order(image, y, x0, width, samples=8):
    """Colour names sampled across one row, left to right (vivid's 75% colour bars)."""
    names = []
    for i in range(samples):
        r, g, b = image.pixel(x0 + int((i + 0.5) * width / samples), y)
        names.append("".join(c for c, v in zip("rgb", (r, g, b)) if v > 96) or "k")
    return names


def badge(image):
    """The cue badge's square on the outer display, as CueBadge centres it."""
    side = max(48, min(OUTER) * 2 // 5)
    return (OUTER[0] - side) // 2, (OUTER[1] - side) // 2, side


def badge_letter(image):
    """The ink inside the badge, clear of its white border and rounded corners."""
    x, y, side = badge(image)
    inset = side // 8
    return ink_mask(image, x + inset, y + inset, side - 2 * inset, side - 2 * inset)


def badge_colours(image):
    """The colours covering whole areas of the badge (its border, fill and ink), not
    the antialiased blends at the letter's edges."""
    x, y, side = badge(image)
    counts = {}
    for dy in range(side):
        for dx in range(side // 6, side - side // 6):  # the corners show the preview
            p = image.pixel(x + dx, y + dy)
            counts[p] = counts.get(p, 0) + 1
    return sorted(p for p, n in counts.items() if n >= 100)


def frames_shown(s):
    return int(s["camera"].get("frames_shown", 0))


def thumbnail_rect(sock):
    """Where the operator console shows the camera thumbnail, as the kiosk reports it."""
    last = sock.wait(lambda s: s["camera"].get("thumbnail"), 30, "the thumbnail on the inner display")
    t = last["camera"]["thumbnail"]
    return t["x"], t["y"], t["width"], t["height"]


def run_kiosk(rig, sock, name, mirror):
    kiosk = Kiosk(rig, name, config=config(mirror), test_pattern=False)
    sock.wait(lambda s: s["camera"].get("state") == "streaming", 120, "camera streaming")
    badges = {}
    for letter in ("Z", "S"):
        for words in (("mode", "framing"), ("cue", letter)):
            rc, out = sock.ctl(*words)
            assert rc == 0, f"rig ctl {' '.join(words)}: {out}"
        shown = frames_shown(sock.status())
        sock.wait(lambda s: frames_shown(s) > shown + 3, 60, "new frames on the outer head")
        badges[letter] = Image.read_ppm(rig.screendump(1, os.path.join(OUT, f"{name}-outer-{letter}.ppm")))
    inner = rig.screendump(0, os.path.join(OUT, f"{name}-inner.ppm"))
    return kiosk, badges, Image.read_ppm(inner), thumbnail_rect(sock)


def main():
    os.makedirs(OUT, exist_ok=True)
    tally = Tally()
    with vrig.VirtualRig() as rig:
        print(f"# guest booted in {rig.boot_seconds:.1f}s", flush=True)
        rig.exec(f"[ -e /dev/video0 ] || modprobe -d {KERNEL_TREE} vivid", timeout=60)
        rig.set_connector("Virtual-2", "on")
        sock = ControlSocket(rig, SOCKET, poll=0.5, show=last_status)
        checks = []
        try:
            kiosk, badges, inner, thumb = run_kiosk(rig, sock, "mirrored", mirror=True)
            outer = badges["S"]
            # The preview fills the width, letterboxed: 16:9 in 1024x768 is 1024x576 at y 96.
            # Sampled near the picture's bottom: vivid's text overlay sits at its top and
            # the cue badge in its middle.
            outer_bars = bar_order(outer, 96 + 576 * 9 // 10, 0, OUTER[0])
            # The inner thumbnail, where the console's operator view put it (16:9, so
            # the picture fills its width as the outer preview does).
            x, y, tw, th = thumb
            inner_bars = bar_order(inner, y + th * 9 // 10, x, tw)
            checks.append(("outer preview mirrored against the inner thumbnail",
                           outer_bars == inner_bars[::-1] and outer_bars != inner_bars,
                           f"outer {outer_bars}, inner {inner_bars}"))
            for letter, image in sorted(badges.items()):
                upright, leans = letter_is_upright(badge_letter(image), letter)
                checks.append((f"cue badge {letter} upright over the mirrored preview", upright,
                               f"its ink leans {leans} (upper, lower; 0 left, 1 right): mirrored"))
            checks.append(("cue badges S and Z in the same colours", badge_colours(badges["S"]) == badge_colours(badges["Z"])
                           and len(badge_colours(badges["S"])) == 3,
                           f"S {badge_colours(badges['S'])}, Z {badge_colours(badges['Z'])}"))
            kiosk.stop_cleanly()
            kiosk, plain_badges, _, _ = run_kiosk(rig, sock, "unmirrored", mirror=False)
            outer_plain = plain_badges["S"]
            plain_bars = bar_order(outer_plain, 96 + 576 * 9 // 10, 0, OUTER[0])
            checks.append(("cue badge the same whatever the preview's mirror",
                           badge_letter(outer_plain) == badge_letter(outer),
                           "the badge differs between mirrored and unmirrored previews"))
            checks.append(("preview flips with camera.mirror", plain_bars == outer_bars[::-1],
                           f"unmirrored {plain_bars}, mirrored {outer_bars}"))
            pid = kiosk.pid
            rig.exec("echo vivid.0 > /sys/bus/platform/drivers/vivid/unbind")
            sock.wait(lambda s: s["camera"].get("state") == "unavailable", 60, "camera unavailable after unplug")
            rig.exec("echo vivid.0 > /sys/bus/platform/drivers/vivid/bind")
            back = sock.wait(lambda s: s["camera"].get("state") == "streaming", 120, "camera back after replug")
            shown = frames_shown(back)
            sock.wait(lambda s: frames_shown(s) > shown, 60, "preview frames after replug")
            checks.append(("kiosk survives unplug and replug", kiosk.alive() and kiosk.pid == pid, "the kiosk died"))
            kiosk.stop_cleanly()
        except AssertionError as error:
            checks.append(("camera in the kiosk", False, str(error)))
        tally.report(checks)
    return tally.close()


if __name__ == "__main__":
    sys.exit(main())
