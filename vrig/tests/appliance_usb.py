"""A USB stick on the installed appliance (issue 36), in the appliance's boot: QEMU's
xhci controller is there from the start, and a vfat image made on the host
(mkfs.vfat, mcopy) is plugged in and pulled out through QMP (blockdev-add and
device_add of a usb-storage device; device_del), as a hand would. The guest's udev,
the package's rule, rig-media@.service and systemd-mount mount it; the kiosk exports
onto it and ejects it through systemd (polkit allowing the user rig); the host reads
the exported MP4 back from the image with mtools and ffprobe. Then the stick goes in
again and is pulled out while a big clip is being copied.

The guest runs the host's root, where the Debian kernel's modules are not installed,
so the USB host, storage and filesystem modules are loaded from the vrig's kernel
tree (`modprobe -d`) before the plug; on a rig the kernel's own module loading does it.
"""
import hashlib
import json
import os
import subprocess
import time

import vrig
from appliance import Appliance

KERNEL_TREE = os.path.join(vrig.CACHE, "kernel")
MODULES = "xhci_pci usb_storage sd_mod vfat nls_cp437 nls_ascii nls_utf8 exfat ext4"
LABEL = "RIGSTICK"
MOUNT = f"/run/media/rig/{LABEL}"
RECORDINGS = "/var/lib/rig/recordings"
SMALL = "prompter-20261201-100000-1"
BIG = "prompter-20261201-110000-1"
BIG_MB = 56
# Plug to mounted under TCG (see the assertion).
TCG_MOUNT_SECONDS = 20.0


def make_stick(path, mb=64):
    """A stick as one comes from a shop: vfat with a label and a file of its own."""
    subprocess.run(["rm", "-f", path], check=True)
    subprocess.run(["truncate", "-s", f"{mb}M", path], check=True)
    subprocess.run(["mkfs.vfat", "-n", LABEL, path], check=True, capture_output=True)
    note = path + ".txt"
    with open(note, "w") as f:
        f.write("the stick's own file\n")
    subprocess.run(["mcopy", "-i", path, note, "::/README.TXT"], check=True)


def make_clips(io):
    """A real 2 s MP4 (read back with ffprobe) and a big file as the clip pulled mid-copy."""
    small = os.path.join(io, SMALL + ".mp4")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30",
                    "-t", "2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                    "-movflags", "+frag_keyframe+empty_moov+default_base_moof", small], check=True)
    with open(os.path.join(io, BIG + ".mp4"), "wb") as f:
        f.write(os.urandom(BIG_MB << 20))
    for clip, title in ((SMALL, "USB take"), (BIG, "Long take")):
        with open(os.path.join(io, clip + ".json"), "w") as f:
            json.dump({"recording": {"duration": 2.0},
                       "annotations": {"kind": "prompter", "script_title": title}}, f)


def plug(rig, image):
    rig.qmp_command("blockdev-add", {"driver": "raw", "node-name": "stick",
                                     "file": {"driver": "file", "filename": image}})
    rig.qmp_command("device_add", {"driver": "usb-storage", "bus": "xhci.0", "drive": "stick", "id": "stick",
                                   "removable": True})


def pull(rig):
    """device_del, then the image's node once QEMU has let go of the device."""
    rig.qmp_command("device_del", {"id": "stick"})
    deadline = time.monotonic() + 30
    while True:
        try:
            rig.qmp_command("blockdev-del", {"node-name": "stick"})
            return
        except vrig.RigError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def mounted_in(rig, seconds, mount=MOUNT):
    """Waits in the guest for the stick's mount at `mount`; returns the guest's seconds
    from just before the plug to the mount (the host plugs once /vrig-io/usb.t0 is
    written). A watcher of another label's mount point would wait out its `seconds`."""
    # Each stamp written whole (then renamed): the host reads the shared folder at once.
    rig.exec("rm -f /vrig-io/usb.t0 /vrig-io/usb.t1; (cut -d' ' -f1 /proc/uptime > /vrig-io/.usb.t0; "
             "mv /vrig-io/.usb.t0 /vrig-io/usb.t0; "
             f"end=$(( $(cut -d. -f1 /proc/uptime) + {seconds} )); "
             f"until mountpoint -q {mount} || [ $(cut -d. -f1 /proc/uptime) -ge $end ]; do sleep 0.02; done; "
             "cut -d' ' -f1 /proc/uptime > /vrig-io/.usb.t1; mv /vrig-io/.usb.t1 /vrig-io/usb.t1) >/dev/null 2>&1 &")
    vrig.wait_until(lambda: os.path.exists(rig.path("usb.t0")), 30, "the mount watcher started")


def watched_seconds(rig, seconds):
    vrig.wait_until(lambda: os.path.exists(rig.path("usb.t1")), seconds + 30, "the mount watcher ended")
    with open(rig.path("usb.t0")) as f0, open(rig.path("usb.t1")) as f1:
        return float(f1.read()) - float(f0.read())


def disk_to_mount(app):
    """Seconds from the kernel's attached disk to systemd's mounted unit: the rig's part."""
    log = app.sh("journalctl -o short-monotonic --no-pager -b | "
                 "grep -E 'Attached SCSI removable disk|Mounted run-media-rig-' | tail -2")
    stamps = [float(line.split("]")[0].strip("[ ")) for line in log.splitlines() if line.startswith("[")]
    return round(stamps[-1] - stamps[0], 2) if len(stamps) == 2 else log


def exports(app):
    status = app.status() or {}
    return {e["id"]: e for e in status.get("recording", {}).get("exports", [])}


def test_usb_stick_plug_export_eject_and_pull(rig, ctx):
    """Plugged in: mounted within 3 s on /run/media/rig/RIGSTICK, nosuid,nodev,noexec,
    rig's and no one else's, in `rig ctl media list` by its label. An export there
    says to eject first and leaves no hidden file; `rig ctl media eject` syncs and
    unmounts and says it is safe to pull; the MP4 read back from the image on the host
    is the clip, and ffprobe reads it. Plugged in again and pulled out mid-copy: the
    export fails saying so, the clip on the rig is intact, systemd unmounted the stick,
    and the kiosk carries on (same process, answering)."""
    app = Appliance(rig)
    pid, _ = app.wait_running(180, "rig.service")
    image = rig.path("stick.img")
    make_stick(image)
    make_clips(rig.io)
    app.sh(f"install -d -o rig -g rig -m 0700 {RECORDINGS} && for f in {SMALL} {BIG}; do "
           f"install -o rig -g rig -m 0600 /vrig-io/$f.mp4 /vrig-io/$f.json {RECORDINGS}/; done", timeout=120)
    app.sh(f"modprobe -a -d {KERNEL_TREE} {MODULES}", timeout=120)
    uid = app.sh("id -u rig").strip()

    mounted_in(rig, 20)
    plug(rig, image)
    took = watched_seconds(rig, 20)
    ctx.figures["USB stick: plug to mounted (s, guest)"] = round(took, 2)
    ctx.figures["USB stick: kernel's disk to mounted (s, guest)"] = disk_to_mount(app)
    options = app.sh(f"findmnt -n -o FSTYPE,OPTIONS {MOUNT}", check=False)
    assert "vfat" in options, f"{MOUNT} is not mounted: {options!r}\n" + app.journal("-u 'rig-media@*' -n 30")
    # The rig's goal is 3 s; under TCG every step is many times slower (a run before
    # the helper spawned fewer processes: USB enumeration and usb-storage's 1 s
    # delay_use 2.3 s, udev 1.3 s, PID 1 1.1 s, the helper and systemd-mount 4.2 s).
    assert took <= TCG_MOUNT_SECONDS, f"mounted {took:.2f} s after the plug"
    for flag in ("nosuid", "nodev", "noexec", f"uid={uid}", "fmask=0177", "dmask=0077"):
        assert flag in options.split()[1].split(","), f"{flag} not in {options}"
    assert app.sh("stat -c '%a %U' /run/media/rig").strip() == "700 rig"
    rc, _ = rig.exec(f"runuser -u rig -- sh -c 'echo x > {MOUNT}/.rig-w && rm {MOUNT}/.rig-w'", check=False)
    assert rc == 0, "rig cannot write to the stick"
    rc, out = rig.exec(f"runuser -u nobody -- ls {MOUNT}", check=False)
    assert rc != 0, f"another user reads the stick: {out}"
    listed = json.loads(app.ctl("media", "list"))["media"]
    assert [m["name"] for m in listed] == [LABEL], listed
    stick = listed[0]
    assert stick["path"] == MOUNT and stick["ejectable"] and stick["title"] == f"USB: {LABEL}", listed

    app.ctl("clips", "export", SMALL, "--to", MOUNT)
    deadline = time.monotonic() + 60
    while (done := exports(app).get(SMALL, {})).get("state") in (None, "copying"):
        assert time.monotonic() < deadline, f"the export did not end: {done}"
        time.sleep(0.3)
    assert done["state"] == "done", done
    assert done["message"] == "copied — safe to remove after Eject", done
    files = app.sh(f"ls -a {MOUNT}").split()
    assert f"{SMALL}.mp4" in files and f"{SMALL}.json" in files and not [f for f in files if f.endswith(".partial")], files

    started = time.monotonic()
    rc, said = rig.exec(f"/usr/bin/rig ctl media eject {LABEL}", timeout=60, check=False)
    ctx.figures["USB stick: rig ctl media eject (s, host)"] = round(time.monotonic() - started, 1)
    assert rc == 0 and f"{LABEL} is ejected: safe to remove" in said, said
    assert not app.sh(f"findmnt -n {MOUNT}", check=False).strip(), "still mounted after eject"
    assert f"USB stick {LABEL} ejected: safe to remove" in app.journal(f"_PID={pid}")
    pull(rig)
    listing = subprocess.run(["mdir", "-a", "-b", "-i", image, "::/"], capture_output=True, text=True).stdout
    assert not [line for line in listing.splitlines() if line.endswith(".partial")], listing
    back = os.path.join(rig.io, "from-stick.mp4")
    subprocess.run(["mcopy", "-o", "-i", image, f"::/{SMALL}.mp4", back], check=True)
    with open(back, "rb") as a, open(os.path.join(rig.io, SMALL + ".mp4"), "rb") as b:
        assert a.read() == b.read(), "the MP4 on the stick differs from the clip"
    probe = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json", back],
                                      capture_output=True, text=True, check=True).stdout)
    assert [s["codec_name"] for s in probe["streams"]] == ["h264"], probe["streams"]
    assert abs(float(probe["format"]["duration"]) - 2.0) < 0.2, probe["format"]
    ctx.figures["USB stick: exported MP4 read back on the host"] = (
        f"h264, {float(probe['format']['duration']):.2f} s")

    # In again, and out in the middle of a big copy.
    big_sum = app.sh(f"md5sum {RECORDINGS}/{BIG}.mp4").split()[0]
    with open(os.path.join(rig.io, BIG + ".mp4"), "rb") as f:
        assert hashlib.md5(f.read()).hexdigest() == big_sum
    mounted_in(rig, 20)
    plug(rig, image)
    watched_seconds(rig, 20)
    assert app.sh(f"findmnt -n -o FSTYPE {MOUNT}", check=False).strip() == "vfat", "not mounted again"
    app.ctl("clips", "export", BIG, "--to", MOUNT)
    pull(rig)
    pulled_at = exports(app).get(BIG, {})
    deadline = time.monotonic() + 90
    while (ended := exports(app).get(BIG, {})).get("state") in (None, "copying"):
        assert time.monotonic() < deadline, f"the export did not end after the pull: {ended}"
        time.sleep(0.3)
    ctx.figures["USB stick pulled mid-copy: the export said"] = ended.get("error")
    assert ended["state"] == "failed", f"the pull came too late to cut the copy: {pulled_at} -> {ended}"
    assert f"copying to {MOUNT}/{BIG}.mp4 failed" in ended["error"], ended
    assert "the clip on the rig is intact" in ended["error"], ended
    assert app.sh(f"md5sum {RECORDINGS}/{BIG}.mp4").split()[0] == big_sum, "the clip on the rig changed"
    deadline = time.monotonic() + 20
    while app.sh(f"findmnt -n {MOUNT}", check=False).strip():
        assert time.monotonic() < deadline, "systemd did not unmount the pulled stick"
        time.sleep(0.3)
    assert app.main_pid() == pid, "the kiosk restarted"
    status = app.status()
    assert status and status["displays"]["inner"]["presenting"], "the kiosk stopped answering or presenting"
    assert LABEL not in [m["name"] for m in json.loads(app.ctl("media", "list"))["media"]]
