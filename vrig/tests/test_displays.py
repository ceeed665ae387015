"""Virtual-rig tests of the display layer: the DRM/KMS backend against the real
virtio-gpu driver, with `rig run --test-pattern` (deterministic pictures, no app) where
a test is about the displays alone (named `test_pattern_*`), and the connector and
configuration checks. The real kiosk app's tests are in test_kiosk_app.py; GROUPS here
lists both, one guest per group. Each test gets a booted guest (`rig`) and `ctx`
(reference images, output dir); it starts its own kiosk and leaves the connectors as
it found them."""
import json
import time

from images import Image, assert_matches
from kiosk import Kiosk, both_available, rig_binary
import test_kiosk_app as app

INNER, OUTER = "Virtual-1", "Virtual-2"


def reset_connectors(rig):
    rig.set_connector(INNER, "detect")
    rig.set_connector(OUTER, "on")


def dump(rig, ctx, head, name):
    path = f"{ctx.out}/{name}.ppm"
    rig.screendump(head, path)
    return path


def expect_both_heads(rig, ctx, tag):
    """Each head matches the test pattern's headless rendering of the same state."""
    assert_matches(dump(rig, ctx, 0, f"{tag}-inner"), ctx.ref_inner, label=f"{tag}: inner head")
    assert_matches(dump(rig, ctx, 1, f"{tag}-outer"), ctx.ref_outer, label=f"{tag}: outer head")


def test_pattern_both_heads_show_expected_content(rig, ctx):
    """The display layer alone: both heads modeset and scan out what it drew."""
    reset_connectors(rig)
    kiosk = Kiosk(rig, "content", ["--paused"])
    status = kiosk.wait_for(both_available, 30, "both heads available")
    assert status["kms"] == "atomic", status["kms"]
    assert status["inner"]["mode"].startswith("1280x800@"), status["inner"]["mode"]
    assert status["outer"]["mode"].startswith("1024x768@"), status["outer"]["mode"]
    expect_both_heads(rig, ctx, "atomic")
    assert kiosk.terminate() == 0, kiosk.log()


def test_pattern_clean_exit_after_sigterm(rig, ctx):
    """The display layer alone: SIGTERM releases both heads (exit status 0, dark)."""
    reset_connectors(rig)
    kiosk = Kiosk(rig, "exit-pattern", ["--paused"])
    kiosk.wait_for(both_available, 30, "both heads available")
    expect_both_heads(rig, ctx, "before-exit")
    assert kiosk.terminate() == 0, kiosk.log()
    assert kiosk.status()["state"] == "stopped", kiosk.status()
    assert "released" in kiosk.log(), kiosk.log()
    for head, role in ((0, "inner"), (1, "outer")):
        dark = Image.read_ppm(dump(rig, ctx, head, f"after-exit-{role}")).dark_fraction()
        assert dark > 0.95, f"{role} head still shows a picture after SIGTERM ({dark:.1%} dark)"


def test_unknown_connector_lists_existing_and_inner_runs(rig, ctx):
    reset_connectors(rig)
    config = ('[displays.inner]\nconnector = "Virtual-1"\n[displays.outer]\nconnector = "HDMI-A-7"\n'
              '[camera]\nenabled = false\n[control]\nsocket = "/tmp/rig-unknown.sock"\n'
              '[state]\ndir = "/tmp/rig-unknown-state"\n')
    # The real kiosk, so the problem must also reach the inner display's banner.
    kiosk = Kiosk(rig, "unknown", config=config, test_pattern=False)
    kiosk.wait_for(lambda s: s["inner"]["available"], 30, "inner available")
    log = kiosk.log()
    assert 'no connector named "HDMI-A-7"' in log and "Virtual-1, Virtual-2" in log, log
    _, out = rig.exec(f"{rig_binary()} ctl --socket /tmp/rig-unknown.sock status")
    problems = json.loads(out)["problems"]
    assert any("HDMI-A-7" in p and "Virtual-1" in p for p in problems), problems
    kiosk.stop_cleanly()


def test_rig_devices_lists_connectors_and_modes(rig, ctx):
    rig.set_connector(INNER, "detect")
    rig.set_connector(OUTER, "off")
    _, out = rig.exec(f"{rig_binary()} devices")
    assert "/dev/dri/card0: virtio_gpu" in out, out
    assert "Virtual-1: connected" in out and "Virtual-2: disconnected" in out, out
    assert "1280x800@74.99*" in out, out  # the preferred mode, marked


# Guests, each booted once for its tests (a boot costs 5-30 s under TCG, with load).
# Every test resets the connectors it relies on and its kiosk is killed afterwards.
GROUPS = [
    ("atomic", [test_pattern_both_heads_show_expected_content, app.test_kiosk_shows_the_script_on_both_heads,
                app.test_comparison_fails_on_doctored_references,
                app.test_kiosk_flips_at_the_modes_refresh_while_scrolling,
                app.test_kiosk_stops_cleanly_on_sigterm, test_pattern_clean_exit_after_sigterm,
                app.test_kiosk_takes_over_a_device_mastered_elsewhere, app.test_kiosk_outer_toggle_through_rig_ctl]),
    ("hotplug", [app.test_kiosk_outer_hotplug_keeps_inner, app.test_kiosk_starts_without_outer_then_picks_it_up,
                 app.test_kiosk_starts_with_neither_display_and_waits,
                 test_unknown_connector_lists_existing_and_inner_runs,
                 app.test_kiosk_missing_mode_falls_back_with_warning, test_rig_devices_lists_connectors_and_modes]),
    ("legacy", [app.test_kiosk_legacy_modesetting_shows_expected_content, app.test_kiosk_legacy_hotplug,
                app.test_kiosk_legacy_stops_cleanly_on_sigterm,
                # Last: it leaves seatd running, which the root kiosks above do not use.
                app.test_kiosk_unprivileged_through_seatd_and_vt_switch]),
    # systemd stopping the kiosk: test_appliance.test_systemctl_stop_is_clean, with
    # the shipped unit as installed.
]
