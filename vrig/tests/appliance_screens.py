"""How the appliance tests (test_appliance.py) look at the kiosk's heads: screendumps,
the problem banner's red, and both heads compared with the headless app's rendering
of the kiosk's state."""
import json
import time

from appliance import APPLIANCE_CONFIG
from images import Image, assert_matches, matches
from kiosk import REPO, make_app_reference


def dump(rig, ctx, head, name):
    path = f"{ctx.out}/appliance-{name}.ppm"
    rig.screendump(head, path)
    return Image.read_ppm(path)


def red_fraction(image, top):
    """Share of pixels from row `top` down that are clearly red (the problem banner)."""
    rgb, w = image.rgb, image.width
    start = top * w * 3
    idx = range(start, len(rgb) - 2, 3 * 3)
    red = sum(1 for i in idx if rgb[i] > 90 and rgb[i] > 2.5 * max(rgb[i + 1], rgb[i + 2]))
    return red / len(idx)


# The console's right-hand column below the outer display's flags holds the camera's
# thumbnail and state, and moves with them: vivid's live picture has no headless
# rendering. The rest of the console (the script's preview and marker, the state,
# speed, outer flags, progress, times) and the whole outer display are compared.
# The timers line under the preview (y 736-768) shows the time of day, which the
# reference cannot share; it is left out too.
INNER_REGIONS = ((0, 0, 1280, 224), (0, 0, 752, 736), (0, 768, 752, 32))


def reference_for(ctx, prompter):
    """The headless app's rendering of the kiosk opened at `prompter`'s script and offset
    (fresh, or resumed there after a restart), camera off, rendered once per state."""
    cache = ctx.__dict__.setdefault("appliance_refs", {})
    key = (prompter["script"], prompter["offset"])
    if key not in cache:
        out = f"{ctx.out}/appliance-reference-{len(cache)}"
        config = (APPLIANCE_CONFIG.replace("[camera]\n", "[camera]\nenabled = false\n")
                  + f'[prompter]\nscripts_dir = "{REPO}/examples/scripts"\n'
                  + f'[state]\ndir = "{out}/state"\n[control]\nsocket = "{out}/control.sock"\n')
        resume = {"scriptID": prompter["script"], "offset": prompter["offset"]} if prompter["offset"] else None
        cache[key] = make_app_reference(out, config, resume=resume)
    return cache[key]


def exact_position(rig, prompter):
    """`prompter` with the kiosk's own offset when its resume.json holds this position.
    The status rounds the offset to 0.1 px, but the outer display draws the text in
    sixteenths of a pixel (row phases): a reference made at the rounded offset sat a
    phase away from a resumed kiosk's frame (with eighths, in about two runs of five:
    459.33 drawn at 3675/8, 459.3 at 3674/8), and every glyph edge differed."""
    rc, out = rig.exec("cat /var/lib/rig/resume.json", check=False)
    try:
        saved = json.loads(out) if rc == 0 else {}
    except ValueError:
        return prompter
    offset = saved.get("offset")
    if (saved.get("scriptID") == prompter["script"] and isinstance(offset, (int, float))
            and abs(offset - prompter["offset"]) <= 0.06):
        return dict(prompter, offset=offset)
    return prompter


def expect_content(rig, ctx, tag, app, inner=True):
    """Both heads show what the headless app shows in the kiosk's state (polled: the
    last frame may still be on its way), the inner outside the camera's column."""
    prompter = exact_position(rig, app.status()["prompter"])
    expected = dict(zip(("inner", "outer"), reference_for(ctx, prompter)))
    for head, role in ((0, "inner"), (1, "outer")):
        if role == "inner" and not inner:
            continue
        regions = INNER_REGIONS if role == "inner" else None
        deadline = time.monotonic() + 15
        matched = False
        while True:
            shot = f"{ctx.out}/appliance-{tag}-{role}.ppm"
            rig.screendump(head, shot)
            matched = matches(Image.read_ppm(shot), Image.read_ppm(expected[role]), regions)
            if matched or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        label = f"{tag}: {role} head"
        if not matched:
            # What the kiosk says of that head and its text, to tell a head that stopped
            # flipping (flips standing still) from a frame drawn at the wrong place.
            now = app.status() or {}
            shown = [line for line in app.journal("-u rig.service -n 400").splitlines() if "displays:" in line]
            label += (f" (kiosk: prompter {now.get('prompter', {}).get('state')} at "
                      f"{now.get('prompter', {}).get('offset')}, {role} {now.get('displays', {}).get(role)}, "
                      f"guest uptime {app.uptime()}; the journal's display lines: {shown[-12:]})")
        assert_matches(shot, expected[role], label=label, regions=regions)
