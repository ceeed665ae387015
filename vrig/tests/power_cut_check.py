"""The power-cut test's checks (vrig/tests/power_cut.py): what the disk held after a cut,
against the driver's log (vrig/tests/power_cut_driver.py), and the kiosk started on it.

A file may hold the last version the kiosk was seen to have written (`seen`), the one
before it (a rename not yet durable when the driver looked), or one a write under way
at the cut may have left (`may` after the last `seen`); anything else is lost or torn
state. Every boot's log is one history, since the disk carries over."""
import hashlib
import json
import os
import subprocess
import time

from kiosk import rig_binary

CAPTURING = ("preparing", "leadIn", "speech", "cue", "response", "tail")
# The take may lose its last fragment (0.5 s, fsynced as it is cut) and what the encoder
# still held: at most this much of what it had recorded when the power went.
LOSS_LIMIT = float(os.environ.get("RIG_POWER_CUT_LOSS", "1.0"))
# The reading position moves between the driver's looks at it: at 60 px/s, polled
# several times a second, a second's worth either side of what it saw.
POSITION_SLACK = 90.0
FPS = 15


def allowed(history, kind):
    """(the last two seen values, values a write under way may leave, positions passed
    while the resume state may be anything the prompter passed, or None)."""
    seen, mays, positions = [], [], None
    for e in history:
        if e.get("kind") == kind and e["e"] == "seen":
            seen.append(e["value"])
            mays, positions = [], None
        elif e.get("kind") == kind and e["e"] == "may":
            if e["value"] == "pos":
                positions = positions or []
            else:
                mays += e["value"] if isinstance(e["value"], list) else [e["value"]]
        elif e["e"] == "pos" and positions is not None:
            positions.append(e["o"])
    return seen[-2:], mays, positions


def load_json(path):
    try:
        with open(path, "rb") as f:
            return json.loads(f.read()), None
    except FileNotFoundError:
        return None, "missing"
    except (OSError, ValueError) as error:
        return None, f"does not parse: {error}"


def check_files(found, history, cut_at, base_script):
    """Problems, a report, and what the disk holds now (as `seen` events for the next cut)."""
    problems, report, verified = [], {}, []

    seen, mays, _ = allowed(history, "settings")
    settings, error = load_json(os.path.join(found, "state", "reading-settings.json"))
    if error and not (error == "missing" and not seen):
        problems.append(f"reading-settings.json {error}")
    elif settings is not None:
        size = settings.get("fontSize")
        report["font_size"] = size
        if size not in seen + mays:
            problems.append(f"reading-settings.json holds font size {size}, not one of {seen} (seen) or {mays} (being written)")
        verified.append({"e": "seen", "kind": "settings", "value": size})

    seen, _, positions = allowed(history, "resume")
    resume, error = load_json(os.path.join(found, "state", "resume.json"))
    if error and not (error == "missing" and not seen):
        problems.append(f"resume.json {error}")
    elif resume is not None:
        offset = resume.get("offset", -1.0)
        report["offset"] = round(offset, 1)
        near_seen = any(abs(offset - value) < 0.5 for value in seen)
        passed = positions and min(positions) - POSITION_SLACK <= offset <= max(positions) + POSITION_SLACK
        fresh = not seen and offset == 0  # the kiosk's own first save, at the top
        if resume.get("scriptID") != "Reading.md":
            problems.append(f"resume.json names {resume.get('scriptID')!r}, not Reading.md")
        elif not (near_seen or passed or fresh):
            span = f"{min(positions):.0f}..{max(positions):.0f}" if positions else "none"
            problems.append(f"resume.json holds offset {offset:.1f}: not {seen} (seen) nor within the positions passed since ({span})")
        verified.append({"e": "seen", "kind": "resume", "value": offset})

    seen, mays, _ = allowed(history, "script")
    try:
        with open(os.path.join(found, "scripts", "Cut.txt"), "rb") as f:
            text = f.read()
        digest = hashlib.sha256(text).hexdigest()
        whole = text.endswith(base_script.encode())
        report["script"] = "seen" if digest in seen[-1:] else "previous" if digest in seen else \
            f"being typed ({mays.index(digest) + 1} of {len(mays)} letters)" if digest in mays else "unknown"
        if digest not in seen + mays or not whole:
            problems.append(f"Cut.txt ({len(text)} bytes, begins {text[:12]!r}) is none of its versions"
                            f"{'' if whole else ', and not whole'}")
        verified.append({"e": "seen", "kind": "script", "value": digest})
    except OSError as error:
        problems.append(f"Cut.txt: {error}")

    session, error = load_json(os.path.join(found, "state", "game", "session.json"))
    if error and not (error == "missing" and not any(e["e"] == "game" for e in history)):
        problems.append(f"game/session.json {error}")

    problems += check_take(found, history, cut_at, report)
    return problems, report, verified


def check_take(found, history, cut_at, report):
    takes = [e for e in history if e["e"] == "take"]
    recs = [e for e in history if e["e"] == "rec"]
    if not takes or not recs:
        return ["the driver logged no take"]
    name = os.path.basename(takes[-1]["file"] or "")
    partial = os.path.join(found, f".{name}.partial")
    # How long it had recorded at the cut: its last logged duration, plus the time from
    # that line to the log's last line (the guest's clock), plus the time from the log's
    # last write (its mtime, the host's clock) to the cut.
    last_line = history[-1]
    recorded = recs[-1]["d"] + (last_line["w"] - recs[-1]["w"]) + max(0.0, cut_at["wall"] - cut_at["log_mtime"])
    report["take_recorded"] = round(recorded, 2)
    if not os.path.exists(partial):
        return [f"the cut take {partial} is not on the disk ({sorted(os.listdir(found))})"]
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "frame=pts_time",
                            "-of", "csv=p=0", partial], capture_output=True, text=True)
    times = [float(t.split(",")[0]) for t in probe.stdout.split() if t.split(",")[0]]
    # Every picture decoded, in the file's own time base (a 15 fps one would fold two
    # frames of the camera's variable rate into one tick and say so).
    decode = subprocess.run(["ffmpeg", "-v", "error", "-i", partial, "-fps_mode", "passthrough",
                             "-enc_time_base:v", "-1", "-f", "null", "-"], capture_output=True, text=True)
    plays = times[-1] + 1 / FPS if times else 0.0
    report["take_plays"] = round(plays, 2)
    report["take_frames"] = len(times)
    report["take_lost"] = round(recorded - plays, 2)
    problems = []
    if decode.returncode != 0 or not times:
        problems.append(f"the cut take does not decode ({decode.returncode}): {(probe.stderr + decode.stderr)[-600:]}")
    elif recorded - plays > LOSS_LIMIT:
        problems.append(f"the cut take plays {plays:.2f} s of the {recorded:.2f} s recorded: lost {recorded - plays:.2f} s"
                        f" (limit {LOSS_LIMIT} s)")
    if decode.stderr.strip():
        report["take_decode_messages"] = decode.stderr.strip().splitlines()[-1][:200]
    return problems


def ctl_status(rig, socket, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        rc, out = rig.exec(f"{rig_binary()} ctl --socket {socket} status", check=False, timeout=120)
        if rc == 0:
            try:
                return json.loads(out)
            except ValueError:
                pass
        time.sleep(1)
    return None


def check_restored(rig, kiosk, socket, history, report, verified):
    """The kiosk on the cut disk comes up: its status answers, the game is back as saved
    (roster, scores, a pending review), the script read last is open again."""
    status = ctl_status(rig, socket, 240)
    if status is None:
        return [f"the kiosk did not come up after the cut; log:\n{kiosk.log()[-2000:]}"]
    problems = []
    if status["prompter"].get("script") != "Reading.md":
        problems.append(f"the kiosk opened {status['prompter'].get('script')!r}, not Reading.md")
    size = report.get("font_size")
    if size is not None and status.get("settings", {}).get("font_size") != size:
        problems.append(f"the kiosk reads font size {status.get('settings', {}).get('font_size')}, the file holds {size}")
    game = status["game"]
    restored = {"e": "game", "phase": game["phase"], "attempts": [[a["id"], a["verdict"]] for a in game["attempts"]],
                "scores": {row["player"]: row["points"] for row in game["scores"]}, "players": sorted(game["consent"])}
    report["game"] = f"{restored['phase']}, {len(restored['attempts'])} attempts, scores {restored['scores']}"
    problem = game_problem(history, restored)
    if problem:
        problems.append(problem)
    if restored["phase"] is not None:
        verified.append(restored)
    # The take the cut left is recovered at start: a prompter clip under its own name.
    takes = [e for e in history if e["e"] == "take" and e.get("file")]
    if takes:
        take = os.path.basename(takes[-1]["file"]).removesuffix(".mp4")
        rc, out = rig.exec(f"{rig_binary()} ctl --socket {socket} clips list", check=False, timeout=120)
        try:
            clips = json.loads(out).get("clips", []) if rc == 0 else []
        except ValueError:
            clips = []
        if not any(c.get("id") == take and c.get("kind") == "prompter" for c in clips):
            problems.append(f"the cut take {take} is not among the recovered clips: {[c.get('id') for c in clips]}")
    return problems


def game_problem(history, restored):
    """None when the restored game is a saved one, or one a request under way made."""
    saved = [e for e in history if e["e"] == "game"]
    last = max((i for i, e in enumerate(history) if e["e"] == "game"), default=-1)
    under_way = [e for e in history[last + 1:] if e["e"] == "may" and e["kind"] == "game"]
    if not saved:
        return None if restored["phase"] is None or under_way else f"a game came back that was never saved: {restored}"
    for candidate in saved[-2:]:
        if game_matches(candidate, restored, under_way if candidate is saved[-1] else []):
            return None
    return f"the restored game {restored} is neither of the last saved {saved[-2:]} nor what {under_way} may make"


def game_matches(saved, restored, under_way):
    actions = {m["action"] for m in under_way}
    if restored["players"] != saved["players"] and "setup" not in actions:
        return False
    ids = [a[0] for a in saved["attempts"]]
    got = [a[0] for a in restored["attempts"]]
    if got != ids and not ("send" in actions and got[:-1] == ids and len(got) == len(ids) + 1):
        return False
    judged = {m.get("attempt") for m in under_way if m["action"] == "verdict"}
    same = True
    for (attempt, verdict), (_, now) in zip(saved["attempts"], restored["attempts"]):
        if now == verdict:
            continue
        same = False
        running = verdict is None and saved["phase"] in CAPTURING and attempt == ids[-1]
        if not ((running and now in (None, "void")) or (attempt in judged and now == "pass")):
            return False
    if len(got) > len(ids) and restored["attempts"][-1][1] not in (None, "void"):
        return False
    if same and len(got) == len(ids) and restored["scores"] != saved["scores"]:
        return False
    # A pending review comes back as one, unless its verdict was being given.
    if saved["phase"] == "review" and not judged and restored["phase"] != "review":
        return False
    return True
