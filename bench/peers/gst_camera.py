#!/usr/bin/python3
"""Peer: GStreamer's conversion of a camera frame, timed per frame.

    videotestsrc num-buffers=N ! video/x-raw,format=YUY2,width=1920,height=1080
      ! videoconvert ! video/x-raw,format=BGRx ! videoflip method=horizontal-flip
      ! fakesink

BGRx is GStreamer's name for DRM's XRGB8888 on a little-endian machine, the format
rig's camera conversion writes. A pad probe stamps each buffer as it enters
videoconvert and again as it reaches fakesink; the pipeline has no queue, so both
happen on one streaming thread and the difference is exactly convert + flip.

Prints one JSON object (schema in bench/README.md, section "gstreamer peer").
Needs python3-gi, gir1.2-gstreamer-1.0, gstreamer1.0-plugins-base and -good.
"""
import argparse
import json
import os
import sys
import time

import gi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_stats import median, p99, peak_rss_kib  # noqa: E402

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402




def run(width, height, frames, warmup):
    description = (
        f"videotestsrc num-buffers={frames + warmup} "
        f"! video/x-raw,format=YUY2,width={width},height={height},framerate=30/1 "
        "! videoconvert name=convert ! video/x-raw,format=BGRx "
        "! videoflip method=horizontal-flip ! fakesink name=sink sync=false"
    )
    pipeline = Gst.parse_launch(description)
    entered = []
    samples = []

    def on_enter(_pad, _info):
        entered.append(time.perf_counter_ns())
        return Gst.PadProbeReturn.OK

    def on_leave(_pad, _info):
        if entered:
            samples.append((time.perf_counter_ns() - entered.pop()) / 1e6)
        return Gst.PadProbeReturn.OK

    pipeline.get_by_name("convert").get_static_pad("sink").add_probe(
        Gst.PadProbeType.BUFFER, on_enter)
    pipeline.get_by_name("sink").get_static_pad("sink").add_probe(
        Gst.PadProbeType.BUFFER, on_leave)
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    msg = bus.timed_pop_filtered(120 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if msg is None:
        sys.exit("gst_camera: the pipeline did not finish within 120 s")
    if msg.type == Gst.MessageType.ERROR:
        err, _debug = msg.parse_error()
        sys.exit(f"gst_camera: pipeline error: {err.message}")
    return samples[warmup:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--frames", type=int, help="frames timed (default 200, quick 40)")
    ap.add_argument("--size", default="1920x1080", help="camera frame size WxH")
    args = ap.parse_args()
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        sys.exit(f"gst_camera: --size wants WxH, got '{args.size}'")
    Gst.init(None)
    frames = args.frames or (40 if args.quick else 200)
    samples = run(width, height, frames, warmup=5)
    json.dump({
        "peer": "gstreamer",
        "gstreamer_version": Gst.version_string(),
        "pipeline": "videoconvert(YUY2->BGRx) ! videoflip(horizontal-flip)",
        "frame": f"{width}x{height}",
        "median_ms": median(samples),
        "p99_ms": p99(samples),
        "samples": len(samples),
        "peak_rss_kib": peak_rss_kib(),
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
