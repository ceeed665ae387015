"""Virtual-rig tests of the camera: rig's V4L2 capture (libv4l2, mmap streaming, its
own thread) and libyuv conversion against the real vivid driver in the guest.

Each test takes a booted guest (`rig`, a vrig.VirtualRig) and `ctx` (ctx.out: where
images and logs go). GROUPS plugs into vrig/tests/runner.py; run alone with
    python3 vrig/tests/camera_vivid.py [name-filter ...]
The rig binary is $RIG_BIN, or .build/debug/rig of this checkout (build it first).
"""
import os
import sys
import time
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import vrig  # noqa: E402
from images import Image  # noqa: E402

RIG = os.environ.get("RIG_BIN", os.path.join(vrig.REPO, ".build", "debug", "rig"))
KERNEL_TREE = os.path.join(vrig.CACHE, "kernel")
VIVID = "/dev/video0"
# vivid's default webcam input: 75% colour bars, white ... black, left to right.
BARS = [(191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0),
        (191, 0, 191), (191, 0, 0), (0, 0, 191), (0, 0, 0)]
TOLERANCE = 12


def close(a, b, tolerance=TOLERANCE):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def probe(rig, args, timeout=240):
    rc, out = rig.exec(f"{RIG} camera-probe {args} 2>&1", timeout=timeout, check=False)
    assert rc == 0, f"camera-probe {args} failed ({rc}):\n{out}"
    return out


def fields(out):
    return dict(line.split(" ", 1) for line in out.splitlines() if line.startswith("camera."))


def ensure_vivid(rig):
    """vivid loaded and bound (a previous test may have unplugged it)."""
    rig.exec(f"[ -e {VIVID} ] || modprobe -d {KERNEL_TREE} vivid", timeout=60)
    rig.exec(f"for i in $(seq 100); do [ -e {VIVID} ] && exit 0; sleep 0.1; done; exit 1", timeout=30)


def test_camera_list_names_vivid(rig, ctx):
    ensure_vivid(rig)
    out = probe(rig, "--list")
    head = [line for line in out.splitlines() if line.startswith(f"camera {VIVID}:")]
    assert head and "driver vivid" in head[0], f"no vivid capture node at {VIVID}:\n{out[:2000]}"
    assert "  YUYV " in out and "640x360@" in out, f"YUYV 640x360 not listed:\n{out[:2000]}"


def test_camera_frames_are_mirrored_and_letterboxed(rig, ctx):
    ensure_vivid(rig)
    out = probe(rig, "--device /dev/video0 --size 640x360 --fps 30 --frames 10 --out-size 1280x800 "
                     "--out /vrig-io/camera-mirrored.ppm --out-plain /vrig-io/camera-plain.ppm")
    status = fields(out)
    assert status["camera.state"] == "streaming", out
    assert (status["camera.format"], status["camera.size"]) == ("YUYV", "640x360"), out
    plain = Image.read_ppm(rig.path("camera-plain.ppm"))
    mirrored = Image.read_ppm(rig.path("camera-mirrored.ppm"))
    plain.write_png(os.path.join(ctx.out, "camera-plain.png"))
    mirrored.write_png(os.path.join(ctx.out, "camera-mirrored.png"))
    # 640x360 aspect-fit into 1280x800: 1280x720 with 40-row black bars, never cropped.
    for y in list(range(0, 40)) + list(range(760, 800)):
        for x in range(0, 1280, 97):
            assert plain.pixel(x, y) == (0, 0, 0), f"letterbox not black at {x},{y}: {plain.pixel(x, y)}"
    assert plain.pixel(640, 40) != (0, 0, 0) or plain.pixel(10, 41) != (0, 0, 0), "picture starts below row 40"
    # The picture is not symmetric, so "mirrored equals the flip of plain" means something.
    flipped = plain.flipped()
    assert plain.max_difference(flipped) > 100, "vivid frame is left-right symmetric; the check proves nothing"
    difference = mirrored.max_difference(flipped)
    if difference > 2:
        mirrored.amplified_diff(flipped).write_png(os.path.join(ctx.out, "camera-mirrored-diff.png"))
        raise AssertionError(f"mirrored frame differs from the flipped plain frame by {difference}; "
                             f"see {ctx.out}/camera-mirrored-diff.png")
    # Colour bars read white..black in the plain frame and black..white mirrored.
    y = 400
    for index, expected in enumerate(BARS):
        x = index * 160 + 80
        assert close(plain.pixel(x, y), expected), f"plain bar {index} at x={x}: {plain.pixel(x, y)} != {expected}"
        assert close(mirrored.pixel(1279 - x, y), expected), f"mirrored bar {index}: {mirrored.pixel(1279 - x, y)}"


def wait_for_line(rig, log, text, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        content = open(rig.path(log), errors="replace").read() if os.path.exists(rig.path(log)) else ""
        if content.count(text[0]) >= text[1]:
            return content
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}:\n{content}")


def test_camera_survives_unplug_and_vivid_reload(rig, ctx):
    ensure_vivid(rig)
    log = "camera-replug.log"
    rig.exec(f"rm -f /vrig-io/{log}; ({RIG} camera-probe --device {VIVID} --size 640x360 --frames 5 "
             f"--watch-replug 240 > /vrig-io/{log} 2>&1; echo exit=$? >> /vrig-io/{log}) &")
    wait_for_line(rig, log, ("state streaming", 1), 60, "the first stream")
    # Unplug: unbinding the platform device is what a USB disconnect does to an open
    # capture node. While rig holds the device, vivid cannot be unloaded at all.
    rig.exec("echo vivid.0 > /sys/bus/platform/drivers/vivid/unbind")
    wait_for_line(rig, log, ("state unavailable", 1), 30, "the capture to report the camera unavailable")
    # rig closed the device on failure, so the module can now go and come back.
    rig.exec("rmmod vivid", timeout=60)
    assert "exit=" not in open(rig.path(log)).read(), "camera-probe ended while the camera was away"
    rig.exec(f"modprobe -d {KERNEL_TREE} vivid", timeout=60)
    content = wait_for_line(rig, log, ("exit=", 1), 240, "the stream to recover and deliver frames")
    with open(os.path.join(ctx.out, log), "w") as f:
        f.write(content)
    states = [line for line in content.splitlines() if line.startswith("state ")]
    assert "exit=0" in content, f"camera-probe did not see the camera come back:\n{content}"
    streams = [i for i, s in enumerate(states) if s.startswith("state streaming")]
    lost = [i for i, s in enumerate(states) if s.startswith("state unavailable")]
    assert len(streams) >= 2 and lost and streams[0] < lost[0] < streams[-1], f"state sequence: {states}"
    ctx.figures["camera reopen trigger"] = "udev" if "udev announced" in content else "retry timer"


def test_camera_reopens_on_the_udev_event(rig, ctx):
    """With the retry timer pushed out to 10 minutes, only udev's "add" can bring the
    camera back within the test's time: proves the hotplug path, not the fallback."""
    ensure_vivid(rig)
    log = "camera-udev.log"
    rig.exec(f"rm -f /vrig-io/{log}; ({RIG} camera-probe --device {VIVID} --size 640x360 --frames 5 "
             f"--retry-seconds 600 --watch-replug 240 > /vrig-io/{log} 2>&1; echo exit=$? >> /vrig-io/{log}) &")
    wait_for_line(rig, log, ("state streaming", 1), 60, "the first stream")
    rig.exec("echo vivid.0 > /sys/bus/platform/drivers/vivid/unbind")
    wait_for_line(rig, log, ("state unavailable", 1), 30, "the capture to find the camera gone")
    unplugged = time.monotonic()
    rig.exec("echo vivid.0 > /sys/bus/platform/drivers/vivid/bind")
    content = wait_for_line(rig, log, ("exit=", 1), 120, "udev to bring the camera back")
    with open(os.path.join(ctx.out, log), "w") as f:
        f.write(content)
    assert "exit=0" in content and "udev announced" in content, f"not reopened by udev:\n{content}"
    ctx.figures["camera udev reopen to frames (s, TCG)"] = f"{time.monotonic() - unplugged:.1f}"


GROUPS = [("camera", [test_camera_list_names_vivid, test_camera_frames_are_mirrored_and_letterboxed,
                      test_camera_survives_unplug_and_vivid_reload, test_camera_reopens_on_the_udev_event])]


def main(filters):
    out = os.path.join(vrig.REPO, "out", "vrig-tests")
    io = os.path.join(out, "io-camera")
    os.makedirs(io, exist_ok=True)
    # Stale command results would answer the new guest's commands of the same number.
    for folder in (io, os.path.join(io, "cmd")):
        for name in os.listdir(folder) if os.path.isdir(folder) else []:
            if not os.path.isdir(os.path.join(folder, name)):
                os.remove(os.path.join(folder, name))
    ctx = SimpleNamespace(out=out, figures={})
    failures = 0
    with vrig.VirtualRig(io_dir=io) as rig:
        print(f"# guest camera: booted in {rig.boot_seconds:.1f}s", flush=True)
        for _, tests in GROUPS:
            for test in tests:
                if filters and not any(f in test.__name__ for f in filters):
                    continue
                started = time.monotonic()
                try:
                    test(rig, ctx)
                    print(f"PASS {test.__name__} ({time.monotonic() - started:.1f}s)", flush=True)
                except Exception as error:  # noqa: BLE001 - report every failure, keep going
                    failures += 1
                    print(f"FAIL {test.__name__} ({time.monotonic() - started:.1f}s): {error}", flush=True)
    for name, value in ctx.figures.items():
        print(f"# {name}: {value}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
