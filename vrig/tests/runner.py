"""Runs the virtual-rig tests group by group (one guest per group), prints one line
per test with its duration, and the boot times and figures measured. Exit status 1
when any test failed."""
import os
import sys
import time
import traceback
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import vrig  # noqa: E402
from kiosk import Kiosk, make_reference  # noqa: E402
import test_displays  # noqa: E402
import test_appliance  # noqa: E402

MODULES = [test_displays, test_appliance]


def main(filters):
    out = os.path.join(vrig.REPO, "out", "vrig-tests")
    os.makedirs(out, exist_ok=True)
    ref_inner, ref_outer = make_reference(os.path.join(out, "reference"), "1280x800", "1024x768")
    ctx = SimpleNamespace(out=out, ref_inner=ref_inner, ref_outer=ref_outer, figures={})
    started = time.monotonic()
    failures, ran, boots = [], 0, []
    for module in MODULES:
        for group, tests, *options in module.GROUPS:
            options = options[0] if options else {}
            tests = [t for t in tests if not filters or any(f in t.__name__ for f in filters)]
            if not tests:
                continue
            io = os.path.join(out, "io-" + group)
            os.makedirs(io, exist_ok=True)
            for name in os.listdir(io):
                if not os.path.isdir(os.path.join(io, name)):
                    os.remove(os.path.join(io, name))
            with vrig.VirtualRig(io_dir=io, **options) as rig:
                boots.append(rig.boot_seconds)
                print(f"# guest {group}: booted in {rig.boot_seconds:.1f}s", flush=True)
                for test in tests:
                    t0 = time.monotonic()
                    ran += 1
                    try:
                        test(rig, ctx)
                        print(f"PASS {test.__name__} ({time.monotonic() - t0:.1f}s)", flush=True)
                    except Exception as error:  # noqa: BLE001 - report every failure, keep going
                        failures.append(test.__name__)
                        print(f"FAIL {test.__name__} ({time.monotonic() - t0:.1f}s): {error}", flush=True)
                        traceback.print_exc(limit=3)
                    finally:
                        Kiosk.kill_leftovers(rig)
    total = time.monotonic() - started
    for name, value in ctx.figures.items():
        print(f"# {name}: {value}")
    if boots:
        print(f"# boots: {', '.join(f'{b:.1f}s' for b in boots)}")
    print(f"# {ran - len(failures)}/{ran} passed in {total:.1f}s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
