"""Virtual-rig tests of the real kiosk app (`rig run`, not `--test-pattern`) on the
real virtio-gpu driver: what the README promises the appliance does with its displays.
Every picture is compared tile by tile (`images.assert_matches`) with the headless
rendering of the same state by the same binary. Each test starts its own kiosk with
its own state dir and control socket and leaves the connectors as it found them."""
import json
import time

from images import TILE, Image, assert_matches, differing_tiles, matches
from kiosk import ControlSocket, Kiosk, app_config, both_available, make_app_reference

INNER, OUTER = "Virtual-1", "Virtual-2"
HEADS = {"inner": 0, "outer": 1}


def reset_connectors(rig):
    rig.set_connector(INNER, "detect")
    rig.set_connector(OUTER, "on")


def dump(rig, ctx, head, name):
    path = f"{ctx.out}/{name}.ppm"
    rig.screendump(head, path)
    return path


def reference(ctx, variant="both"):
    """(inner.ppm, outer.ppm) of the headless app: `both` heads up, the `outer`
    unplugged, or the outer turned `off` by the operator. Rendered once a run."""
    refs = ctx.__dict__.setdefault("app_refs", {})
    if variant not in refs:
        out = f"{ctx.out}/app-reference-{variant}"
        config = app_config(f"{out}/state")
        if variant == "off":
            config = config.replace('mode = "1024x768"\n', 'mode = "1024x768"\nenabled = false\n', 1)
        refs[variant] = make_app_reference(out, config, unplugged="outer" if variant == "outer" else None)
    return refs[variant]


# The operator screen's timers line (elapsed, left, the end's clock time, the wall
# clock) under the preview at 1280x800, at y 736-768 (688-720 with the outer unplugged):
# it shows the time of day, which the reference, rendered seconds earlier on the host,
# cannot share. Everything else is compared.
INNER_WITHOUT_WALL_CLOCK = ((0, 0, 1280, 688), (0, 720, 1280, 16), (0, 768, 1280, 32),
                            (752, 688, 528, 32), (752, 736, 528, 32))


def expect_head(rig, ctx, role, expected, tag, timeout=15):
    """The head matches `expected`: polled, since the last frame may still be on its way
    to the glass; the last comparison is the one reported."""
    regions = INNER_WITHOUT_WALL_CLOCK if role == "inner" else None
    deadline = time.monotonic() + timeout
    while True:
        shot = dump(rig, ctx, HEADS[role], f"{tag}-{role}")
        if matches(Image.read_ppm(shot), Image.read_ppm(expected), regions) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert_matches(shot, expected, label=f"{tag}: {role} head", regions=regions)
    return shot


def expect_both(rig, ctx, tag, variant="both"):
    inner, outer = reference(ctx, variant)
    return expect_head(rig, ctx, "inner", inner, tag), expect_head(rig, ctx, "outer", outer, tag)


def start_app(rig, name, args=(), prefix=""):
    state = f"/tmp/rig-{name}"
    rig.exec(f"rm -rf {state}")
    kiosk = Kiosk(rig, name, list(args), config=app_config(state), prefix=prefix, test_pattern=False)
    # Its `rig ctl`: a request that fails raises (check), as a broken socket fails the test.
    kiosk.control = ControlSocket(rig, f"{state}/control.sock", check=True, poll=0.1,
                                  show=lambda s: f"status {(s or {}).get('prompter')}")
    kiosk.state_dir = state
    return kiosk


def expect_dark(rig, ctx, tag):
    """Both heads blank (or restored to the dark text console) after the kiosk left."""
    for role, head in HEADS.items():
        dark = Image.read_ppm(dump(rig, ctx, head, f"{tag}-{role}")).dark_fraction()
        assert dark > 0.95, f"{tag}: {role} head still shows a picture ({dark:.1%} dark)"


# -- content ----------------------------------------------------------------------------

def test_kiosk_shows_the_script_on_both_heads(rig, ctx):
    """The example script on the outer head and the operator console on the inner, each
    matching the headless rendering of the same state (stopped at the top, fresh state)."""
    reset_connectors(rig)
    kiosk = start_app(rig, "kiosk-content")
    status = kiosk.wait_for(both_available, 30, "both heads available")
    assert status["kms"] == "atomic", status["kms"]
    ctx.kiosk_shots = expect_both(rig, ctx, "kiosk")
    kiosk.stop_cleanly()


# Regions of the 1280x800 console and the 1024x768 script (x, y, width, height), each
# erased (filled with the background there) or overwritten in a copy of the reference.
DOCTORED = [
    ("inner", "the 'Markers:' label under the timers line", dict(x=18, y=762, w=40, h=26)),
    ("inner", "'Welcome · Stopped'", dict(x=1100, y=18, w=165, h=28)),
    ("inner", "'Speed 60 px/s' on the slider", dict(x=872, y=348, w=150, h=28)),
    ("inner", "the left reading-marker triangle", dict(x=18, y=308, w=32, h=46, colour_at=(60, 300))),
    ("outer", "the right reading-marker triangle", dict(x=994, y=290, w=30, h=48, colour_at=(900, 270))),
    ("outer", "the third line replaced by the second", dict(x=100, y=628, w=800, h=64, copy_from=(100, 516))),
]


def test_comparison_fails_on_doctored_references(rig, ctx):
    """The comparison the kiosk tests use finds one missing label, marker or wrong line:
    the real kiosk's screenshots, which match the reference, must not match a copy of
    it with one of those changed."""
    shots = getattr(ctx, "kiosk_shots", None)
    if shots is None:  # run alone: take the screenshots here
        reset_connectors(rig)
        kiosk = start_app(rig, "kiosk-doctored")
        kiosk.wait_for(both_available, 30, "both heads available")
        shots = expect_both(rig, ctx, "doctored")
        kiosk.stop_cleanly()
    refs = dict(zip(("inner", "outer"), reference(ctx)))
    actual = dict(zip(("inner", "outer"), shots))
    for role, what, r in DOCTORED:
        expected = Image.read_ppm(refs[role])
        if "copy_from" in r:
            sx, sy = r["copy_from"]
            doctored = expected.with_region(r["x"], r["y"], r["w"], r["h"], source=expected, sx=sx, sy=sy)
        else:
            colour = expected.pixel(*r["colour_at"]) if "colour_at" in r else None
            doctored = expected.with_region(r["x"], r["y"], r["w"], r["h"], colour=colour)
        regions = INNER_WITHOUT_WALL_CLOCK if role == "inner" else None
        tiles, _ = differing_tiles(Image.read_ppm(actual[role]), doctored, regions=regions)
        assert tiles, f"{role}: a reference without {what} still matched the screenshot"
        # Located: every tile that fails touches the changed region.
        x0, y0, x1, y1 = r["x"] - TILE, r["y"] - TILE, r["x"] + r["w"], r["y"] + r["h"]
        stray = [(x, y) for x, y, _ in tiles if not (x0 < x < x1 and y0 < y < y1)]
        assert not stray, f"{role}, {what}: tiles {stray} outside the changed region failed too"


# -- pacing -----------------------------------------------------------------------------

def test_kiosk_flips_at_the_modes_refresh_while_scrolling(rig, ctx):
    """virtio-gpu completes flips at once; while the text scrolls the kiosk must flip
    each head no faster than its mode's refresh (+10 %), not spin on early completion
    events, and the text must move at the set speed whatever the frame rate.

    The lower bound is a floor, not the mode's rate: under TCG on a shared 2-core host
    the guest composes 12-40 frames a second (debug build; release 35-55 at 60 Hz,
    measured 2026-12-01), so "at the refresh -10 %" cannot be reached there; the
    figures are recorded. On 2026-12-02 the same host's guests ran 2.5 times slower
    (a guest boot of 10.8 s against 4) and this head flipped 9.3 and 5.3 times a second
    in two runs of one tree: the floor is 4, still far above a head that stopped or
    waits for something other than its vblank."""
    reset_connectors(rig)
    kiosk = start_app(rig, "pacing")
    kiosk.wait_for(both_available, 30, "both heads available")
    kiosk.control.ctl("play")
    before = kiosk.control.wait(lambda s: s["prompter"]["state"] == "playing"
                                and s["prompter"]["rate"] == s["prompter"]["speed"], 15, "steady scrolling")
    first, t0 = kiosk.status(), time.monotonic()
    time.sleep(3)  # a measurement window, not a wait for state
    last, t1 = kiosk.status(), time.monotonic()
    after = kiosk.control.status()
    speed = before["prompter"]["speed"]
    scroll = (after["prompter"]["offset"] - before["prompter"]["offset"]) / (after["time"] - before["time"])
    ctx.figures["kiosk scroll rate while playing (px/s; set)"] = f"{scroll:.1f}; {speed}"
    assert abs(scroll - speed) <= speed * 0.02, f"text moved at {scroll:.1f} px/s, set to {speed}"
    for role in ("inner", "outer"):
        hz = float(last[role]["mode"].split("@", 1)[1])
        # Flips counted between two flips, over the kiosk's own times of those flips:
        # the status file is rewritten now and then, so the host's window around two
        # readings is not the window the counts cover (with the guest's loop reaching
        # a 75 Hz mode, that gap alone read as 83 flips/s).
        span = last[role]["last_flip_time"] - first[role]["last_flip_time"]
        assert span > 2.5, f"{role}: flip timestamps moved {span:.2f}s in {t1 - t0:.1f}s"
        rate = (last[role]["flips"] - first[role]["flips"]) / span
        missed = (last[role]["missed_vblanks"] - first[role]["missed_vblanks"]) / span
        ctx.figures[f"kiosk {role} flips/s (missed vblanks/s) while scrolling at {hz:g} Hz"] = \
            f"{rate:.1f} ({missed:.1f})"
        assert rate <= hz * 1.10, f"{role}: {rate:.1f} flips/s at a {hz:g} Hz mode: not paced by the refresh"
        assert rate >= 4, f"{role}: only {rate:.1f} flips/s while the text scrolls"
    kiosk.stop_cleanly()


# -- stopping ---------------------------------------------------------------------------

def stops_cleanly(rig, ctx, name, args=()):
    """Plays, pauses a few lines in, SIGTERM: exit status 0, "rig stopped", status
    `stopped`, the paused position in resume.json, both heads dark."""
    reset_connectors(rig)
    kiosk = start_app(rig, name, args)
    kiosk.wait_for(both_available, 30, "both heads available")
    kiosk.control.ctl("play")
    kiosk.control.wait(lambda s: s["prompter"]["offset"] > 80, 30, "scrolled 80 px")
    kiosk.control.ctl("pause")
    paused = kiosk.control.status()["prompter"]
    assert paused["state"] == "paused", paused
    kiosk.stop_cleanly()
    _, saved = rig.exec(f"cat {kiosk.state_dir}/resume.json")
    saved = json.loads(saved)
    assert saved["scriptID"] == paused["script"], (saved, paused["script"])
    assert abs(saved["offset"] - paused["offset"]) <= 0.5, f"saved {saved['offset']}, paused at {paused['offset']}"
    expect_dark(rig, ctx, f"{name}-after")


def test_kiosk_stops_cleanly_on_sigterm(rig, ctx):
    stops_cleanly(rig, ctx, "exit")


def test_kiosk_legacy_stops_cleanly_on_sigterm(rig, ctx):
    stops_cleanly(rig, ctx, "exit-legacy", ["--set", "displays.legacy=true"])


# -- the operator's outer toggle ---------------------------------------------------------

def test_kiosk_outer_toggle_through_rig_ctl(rig, ctx):
    """`rig ctl outer off` blanks the outer while it stays available (enabled is the
    operator's, available the system's) and the console says so; `on` brings it back."""
    reset_connectors(rig)
    kiosk = start_app(rig, "toggle")
    kiosk.wait_for(both_available, 30, "both heads available")
    expect_both(rig, ctx, "toggle-before")
    kiosk.control.ctl("outer", "off")
    status = kiosk.wait_for(lambda s: not s["outer"]["enabled"], 5, "outer turned off")
    assert status["outer"]["available"], "turning the outer off must not make it unavailable"
    deadline = time.monotonic() + 5
    while Image.read_ppm(dump(rig, ctx, 1, "toggle-outer-off")).dark_fraction() < 0.99:
        assert time.monotonic() < deadline, "outer still shows content while turned off"
        time.sleep(0.1)
    expect_head(rig, ctx, "inner", reference(ctx, "off")[0], "toggle-off")
    kiosk.control.ctl("outer", "on")
    kiosk.wait_for(lambda s: s["outer"]["enabled"], 5, "outer turned on again")
    expect_both(rig, ctx, "toggle-back")
    kiosk.stop_cleanly()


# -- hotplug ----------------------------------------------------------------------------

def connector_enabled(rig, name):
    """The kernel's view, not the kiosk's: a CRTC drives the connector."""
    _, out = rig.exec(f"cat /sys/class/drm/card0-{name}/enabled")
    return out.strip() == "enabled"


def replug_seconds(rig, name, state):
    """Forces the connector on and times, inside the guest, from the kernel's uevent
    to the kernel reporting the connector driven again (the kiosk's modeset)."""
    _, out = rig.exec(
        f"echo {state} > /sys/class/drm/card0-{name}/status; t0=$(date +%s%N); "
        f"echo change > /sys/class/drm/card0/uevent; i=0; "
        f"while [ \"$(cat /sys/class/drm/card0-{name}/enabled)\" != enabled ] && [ $i -lt 2000 ]; "
        f"do i=$((i+1)); sleep 0.005; done; echo $(( ($(date +%s%N) - t0) / 1000000 ))", timeout=60)
    return int(out.strip()) / 1000


def hotplug(rig, ctx, name, args=()):
    """Unplugs the outer: the inner stays available, is never modeset again and shows
    what the headless app shows with the outer unplugged; the replugged outer is driven
    again within a second and both heads match. Then the same the other way round: the
    outer's picture does not change at all while the inner is away."""
    reset_connectors(rig)
    kiosk = start_app(rig, name, args)
    kiosk.wait_for(both_available, 30, "both heads available")
    expect_both(rig, ctx, f"{name}-before")
    inner_mode = kiosk.status()["inner"]["mode"]
    inner_modesets = kiosk.log().count("displays: inner ")

    rig.set_connector(OUTER, "off")
    status = kiosk.wait_for(lambda s: not s["outer"]["available"], 5, "outer unavailable after unplug")
    assert status["inner"]["available"] and status["inner"]["mode"] == inner_mode, status["inner"]
    assert not connector_enabled(rig, OUTER), "the unplugged outer still has a CRTC"
    expect_head(rig, ctx, "inner", reference(ctx, "outer")[0], f"{name}-outer-unplugged")
    back = replug_seconds(rig, OUTER, "on")
    ctx.figures[f"{name}: outer driven again after replug (s, kernel's view)"] = back
    assert back < 1.0, f"the outer took {back:.3f} s to be driven again (limit 1 s)"
    kiosk.wait_for(both_available, 5, "outer available after replug")
    expect_both(rig, ctx, f"{name}-outer-back")
    assert kiosk.log().count("displays: inner ") == inner_modesets, "the inner was touched:\n" + kiosk.log()

    outer_before = Image.read_ppm(dump(rig, ctx, 1, f"{name}-outer-before-inner-unplug"))
    rig.set_connector(INNER, "off")
    kiosk.wait_for(lambda s: not s["inner"]["available"], 5, "inner unavailable after unplug")
    outer_during = Image.read_ppm(dump(rig, ctx, 1, f"{name}-outer-inner-unplugged"))
    assert outer_during.rgb == outer_before.rgb, "the outer's picture changed while the inner was unplugged"
    back = replug_seconds(rig, INNER, "detect")
    ctx.figures[f"{name}: inner driven again after replug (s, kernel's view)"] = back
    assert back < 1.0, f"the inner took {back:.3f} s to be driven again (limit 1 s)"
    kiosk.wait_for(both_available, 5, "inner available after replug")
    expect_both(rig, ctx, f"{name}-inner-back")
    kiosk.stop_cleanly()


def test_kiosk_outer_hotplug_keeps_inner(rig, ctx):
    hotplug(rig, ctx, "hotplug")


def test_kiosk_legacy_hotplug(rig, ctx):
    hotplug(rig, ctx, "hotplug-legacy", ["--set", "displays.legacy=true"])


def test_kiosk_legacy_modesetting_shows_expected_content(rig, ctx):
    reset_connectors(rig)
    kiosk = start_app(rig, "content-legacy", ["--set", "displays.legacy=true"])
    status = kiosk.wait_for(both_available, 30, "both heads available")
    assert status["kms"] == "legacy", status["kms"]
    expect_both(rig, ctx, "legacy")
    kiosk.stop_cleanly()


def test_kiosk_starts_without_outer_then_picks_it_up(rig, ctx):
    rig.set_connector(INNER, "detect")
    rig.set_connector(OUTER, "off")
    kiosk = start_app(rig, "no-outer")
    status = kiosk.wait_for(lambda s: s["inner"]["available"], 30, "inner available")
    assert not status["outer"]["available"] and not status["outer"]["connected"]
    rig.set_connector(OUTER, "on")
    kiosk.wait_for(both_available, 5, "outer picked up")
    expect_both(rig, ctx, "late-outer")
    kiosk.stop_cleanly()


def test_kiosk_starts_with_neither_display_and_waits(rig, ctx):
    """No display at all: the kiosk says it is waiting, once, keeps running, and
    takes both heads when they come."""
    rig.set_connector(INNER, "off")
    rig.set_connector(OUTER, "off")
    kiosk = start_app(rig, "neither")
    kiosk.wait_for(lambda s: s["state"] == "running", 30, "kiosk running")
    deadline = time.monotonic() + 10
    while "waiting" not in kiosk.log():
        assert time.monotonic() < deadline, "no 'waiting' line:\n" + kiosk.log()
        time.sleep(0.05)
    # One more hotplug event while nothing is connected; uevents arrive in order, so by
    # the time the replug below has brought both heads up, the kiosk has rescanned with
    # nothing connected again, and must not have said so twice.
    rig.exec("echo change > /sys/class/drm/card0/uevent")
    assert kiosk.alive()
    reset_connectors(rig)
    kiosk.wait_for(both_available, 5, "both picked up")
    assert kiosk.log().count("waiting") == 1, kiosk.log()
    expect_both(rig, ctx, "late-both")
    kiosk.stop_cleanly()


def test_kiosk_missing_mode_falls_back_with_warning(rig, ctx):
    reset_connectors(rig)
    kiosk = start_app(rig, "nomode", ["--set", "displays.inner.mode=1234x567"])
    status = kiosk.wait_for(both_available, 30, "both available")
    assert status["inner"]["mode"].startswith("1280x800@"), status["inner"]["mode"]
    assert "has no mode 1234x567" in kiosk.log(), kiosk.log()
    kiosk.stop_cleanly()


# -- sharing the device -----------------------------------------------------------------

def test_kiosk_takes_over_a_device_mastered_elsewhere(rig, ctx):
    """Another program (here rig's test pattern) holds DRM master: the kiosk says so,
    keeps running and retrying, and takes the displays once master is free."""
    reset_connectors(rig)
    holder = Kiosk(rig, "master-holder", ["--paused"])
    holder.wait_for(both_available, 30, "the other program holds the displays")
    kiosk = start_app(rig, "master-kiosk")
    kiosk.wait_for(lambda s: s["state"] == "running", 30, "kiosk running")
    deadline = time.monotonic() + 10
    while "in use by another display server" not in kiosk.log():
        assert time.monotonic() < deadline, kiosk.log()
        time.sleep(0.05)
    assert kiosk.alive() and not kiosk.status()["inner"]["available"]
    assert holder.terminate() == 0, holder.log()
    kiosk.wait_for(both_available, 10, "the kiosk takes over once master is free")
    expect_both(rig, ctx, "master-retry")
    kiosk.stop_cleanly()


def test_kiosk_unprivileged_through_seatd_and_vt_switch(rig, ctx):
    """As `nobody` in the video group, through libseat and seatd; a VT switch away
    releases the displays and the switch back modesets them again with content."""
    reset_connectors(rig)
    rig.exec("seatd -g video > /vrig-io/seatd.log 2>&1 & "
             "for i in $(seq 100); do [ -S /run/seatd.sock ] && exit 0; sleep 0.05; done; exit 1")
    kiosk = start_app(rig, "seat", prefix="LIBSEAT_BACKEND=seatd setpriv --reuid=65534 --regid=44 --clear-groups")
    kiosk.wait_for(both_available, 30, "both heads available through the seat")
    assert "through libseat" in kiosk.log(), kiosk.log()
    _, uid = rig.exec(f"awk '/^Uid:/ {{print $2}}' /proc/{kiosk.pid}/status")
    assert uid.strip() == "65534", f"kiosk runs as uid {uid.strip()}"
    expect_both(rig, ctx, "seat")
    rig.exec("busybox chvt 2")
    kiosk.wait_for(lambda s: not s["inner"]["available"] and not s["outer"]["available"], 10,
                   "displays released on VT switch away")
    assert kiosk.alive()
    rig.exec("busybox chvt 1")
    kiosk.wait_for(both_available, 10, "displays back after VT switch back")
    expect_both(rig, ctx, "seat-back")
    kiosk.stop_cleanly()
