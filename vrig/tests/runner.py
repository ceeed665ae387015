"""Runs the virtual-rig tests group by group (one guest per group, one guest at a
time unless VRIG_JOBS says more: on 2 cores two TCG guests only slow each other), prints one line per test with its duration, then the
boot times and figures measured. Exit status 1 when any test failed."""
import os
import sys
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import vrig  # noqa: E402
from kiosk import Kiosk, make_reference  # noqa: E402
import test_displays  # noqa: E402
import test_appliance  # noqa: E402

MODULES = [test_displays, test_appliance]
print_lock = threading.Lock()


def say(line):
    with print_lock:
        print(line, flush=True)


def run_group(group, tests, options, ctx):
    """Boots one guest and runs `tests` in it; returns (boot seconds, failed names)."""
    io = os.path.join(ctx.out, "io-" + group)
    os.makedirs(io, exist_ok=True)
    for name in os.listdir(io):
        if not name.startswith(".") and not os.path.isdir(os.path.join(io, name)):
            os.remove(os.path.join(io, name))
    failures = []
    try:
        options = dict(options)
        # Host-side work a group needs before its guest boots (the appliance's package).
        prepare = options.pop("prepare", None)
        if prepare:
            prepare()
        rig = vrig.VirtualRig(io_dir=io, **options)
        rig.start()
    except Exception as error:  # noqa: BLE001 - a guest that does not boot fails its tests
        say(f"FAIL [{group}] guest did not boot: {error}")
        return None, [t.__name__ for t in tests]
    try:
        say(f"# [{group}] guest booted in {rig.boot_seconds:.1f}s")
        for test in tests:
            t0 = time.monotonic()
            try:
                test(rig, ctx)
                say(f"PASS [{group}] {test.__name__} ({time.monotonic() - t0:.1f}s)")
            except Exception as error:  # noqa: BLE001 - report every failure, keep going
                failures.append(test.__name__)
                say(f"FAIL [{group}] {test.__name__} ({time.monotonic() - t0:.1f}s): {error}\n"
                    + traceback.format_exc(limit=3))
            finally:
                Kiosk.kill_leftovers(rig)
    finally:
        rig.stop()
    return rig.boot_seconds, failures


def main(filters):
    out = os.path.join(vrig.REPO, "out", "vrig-tests")
    os.makedirs(out, exist_ok=True)
    vrig.build_boot_files()
    ref_inner, ref_outer = make_reference(os.path.join(out, "reference"), "1280x800", "1024x768")
    ctx = SimpleNamespace(out=out, ref_inner=ref_inner, ref_outer=ref_outer, figures={})
    started = time.monotonic()
    jobs = []
    for module in MODULES:
        for group, tests, *options in module.GROUPS:
            tests = [t for t in tests if not filters or any(f in t.__name__ for f in filters)]
            if tests:
                jobs.append((group, tests, options[0] if options else {}))
    workers = max(1, int(os.environ.get("VRIG_JOBS", "1")))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(lambda job: run_group(*job, ctx), jobs))
    ran = sum(len(tests) for _, tests, _ in jobs)
    failures = [name for _, failed in results for name in failed]
    boots = [boot for boot, _ in results if boot is not None]
    for name, value in ctx.figures.items():
        print(f"# {name}: {value}")
    if boots:
        print(f"# boots: {', '.join(f'{b:.1f}s' for b in boots)}")
    print(f"# {ran - len(failures)}/{ran} passed in {time.monotonic() - started:.1f}s"
          f" ({workers} guest{'s' if workers > 1 else ''} at a time)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
