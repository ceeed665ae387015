#!/usr/bin/python3
"""Peer: how a GTK teleprompter would scroll a script, with Pango + Cairo.

Scrolls the same text as `rig bench`, at the same pixel size, into a Cairo RGB24
image surface of the display's size, two ways:

  naive  re-lays out the whole text every frame (a label re-set each frame);
  good   keeps one PangoLayout and draws only the lines that intersect the frame.

Prints one JSON object (schema in bench/README.md, section "pango peer").
Run with Debian's /usr/bin/python3 (python3-gi, gir1.2-pango-1.0, python3-cairo).

    pango_scroll.py --text bench/texts/devils-dictionary-10k.txt [--quick]
    pango_scroll.py --case good:1920x1080:60 --frames 50   # one case, for callgrind
"""
import argparse
import bisect
import json
import os
import sys
import time

import gi

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_stats import median, p99, peak_rss_kib  # noqa: E402

gi.require_version("Pango", "1.0")
gi.require_version("PangoCairo", "1.0")
from gi.repository import Pango, PangoCairo  # noqa: E402
import cairo  # noqa: E402

FONT_FAMILY = "Noto Sans"
# rig's reading defaults (ReadingSettings.standard): 10 % margin on each side of the
# column, lines at 1.3 times the font's natural line height.
MARGIN_SHARE = 0.10
LINE_SPACING = 1.3
SIZES = (20, 60, 120)
DISPLAYS = ((1920, 1080), (3840, 2160))
# Scroll step per frame: 180 px/s at 60 Hz, as rig's bench scrolls. Every frame
# lands on a new offset so no frame is a repeat of the previous one.
STEP_PX = 3



def margin_for(width):
    """The reading column: the display's width less a 10 % margin each side, the same
    geometry rig's reading text uses."""
    return round(width * MARGIN_SHARE)


def make_layout(context, text, size_px, column_px):
    layout = Pango.Layout.new(context)
    desc = Pango.FontDescription.from_string(FONT_FAMILY)
    desc.set_absolute_size(size_px * Pango.SCALE)
    layout.set_font_description(desc)
    layout.set_width(column_px * Pango.SCALE)
    layout.set_wrap(Pango.WrapMode.WORD_CHAR)
    layout.set_line_spacing(LINE_SPACING)
    layout.set_text(text, -1)
    return layout


def line_table(layout):
    """(top, bottom, baseline, x, line) of every line, in layout pixels. Built once per
    layout: a good implementation keeps it with the layout."""
    table = []
    it = layout.get_iter()
    while True:
        _ink, logical = it.get_line_extents()
        top = logical.y / Pango.SCALE
        bottom = (logical.y + logical.height) / Pango.SCALE
        table.append((top, bottom, it.get_baseline() / Pango.SCALE, logical.x / Pango.SCALE,
                      it.get_line_readonly()))
        if not it.next_line():
            break
    return table


class Scroller:
    def __init__(self, text, width, height, size_px):
        self.text = text
        self.width, self.height, self.size_px = width, height, size_px
        self.margin = margin_for(width)
        self.surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, height)
        self.cr = cairo.Context(self.surface)
        self.context = PangoCairo.create_context(self.cr)
        self.layout = make_layout(self.context, text, size_px, width - 2 * self.margin)
        self.lines = line_table(self.layout)
        self.tops = [line[0] for line in self.lines]
        _ink, logical = self.layout.get_pixel_extents()
        self.total_height = logical.height
        # Mid-scroll: the middle of the script sits at the top of the frame.
        self.offset = self.total_height / 2

    def clear(self):
        cr = self.cr
        cr.set_source_rgb(0, 0, 0)
        cr.paint()
        cr.set_source_rgb(1, 1, 1)

    def frame_naive(self):
        self.clear()
        layout = make_layout(self.context, self.text, self.size_px,
                             self.width - 2 * self.margin)
        self.cr.move_to(self.margin, -self.offset)
        PangoCairo.show_layout(self.cr, layout)
        self.surface.flush()
        self.offset += STEP_PX

    def frame_good(self):
        self.clear()
        top, bottom = self.offset, self.offset + self.height
        first = max(0, bisect.bisect_right(self.tops, top) - 1)
        cr = self.cr
        for i in range(first, len(self.lines)):
            line_top, line_bottom, baseline, x, line = self.lines[i]
            if line_top >= bottom:
                break
            if line_bottom <= top:
                continue
            cr.move_to(self.margin + x, baseline - self.offset)
            PangoCairo.show_layout_line(cr, line)
        self.surface.flush()
        self.offset += STEP_PX


def time_frames(draw, frames, warmup):
    for _ in range(warmup):
        draw()
    samples = []
    for _ in range(frames):
        t0 = time.perf_counter_ns()
        draw()
        samples.append((time.perf_counter_ns() - t0) / 1e6)
    return samples


def time_layout(text, size_px, width, reps):
    """Whole-text layout: shaping plus line breaking, forced by asking for the extents."""
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, 16, 16)
    context = PangoCairo.create_context(cairo.Context(surface))
    samples = []
    lines = 0
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        layout = make_layout(context, text, size_px, width - 2 * margin_for(width))
        layout.get_pixel_extents()
        lines = layout.get_line_count()
        samples.append((time.perf_counter_ns() - t0) / 1e6)
    return samples, lines


def summary(samples):
    return {"median_ms": median(samples), "p99_ms": p99(samples), "samples": len(samples)}


def parse_case(spec):
    try:
        mode, display, size = spec.split(":")
        w, h = (int(v) for v in display.lower().split("x"))
        if mode not in ("naive", "good"):
            raise ValueError(mode)
        return mode, w, h, int(size)
    except ValueError:
        sys.exit(f"pango_scroll: --case wants MODE:WxH:SIZE (MODE naive|good), got '{spec}'")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--text", required=True)
    ap.add_argument("--quick", action="store_true", help="fewer frames, finishes in seconds")
    ap.add_argument("--frames", type=int, help="frames per case (default 120, quick 30)")
    ap.add_argument("--case", help="run only MODE:WxH:SIZE, print nothing but a one-line JSON")
    ap.add_argument("--samples", help="comma-separated files to lay out whole at 60 px (RTL, CJK)")
    args = ap.parse_args()
    try:
        with open(args.text, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"pango_scroll: cannot read {args.text}: {e}")

    if args.case:
        mode, w, h, size = parse_case(args.case)
        scroller = Scroller(text, w, h, size)
        draw = scroller.frame_naive if mode == "naive" else scroller.frame_good
        frames = args.frames or 10
        for _ in range(frames):
            draw()
        print(json.dumps({"case": args.case, "frames": frames}))
        return

    good_frames = args.frames or (30 if args.quick else 120)
    # A naive frame costs a whole layout (tens of ms); a few frames tell the story.
    naive_frames = max(3, good_frames // 10)
    out = {
        "peer": "pango-cairo",
        "pango_version": Pango.version_string(),
        "cairo_version": cairo.cairo_version_string(),
        "font": FONT_FAMILY,
        "step_px": STEP_PX,
        "layout": [],
        "cases": [],
    }
    for size in SIZES:
        samples, lines = time_layout(text, size, 1920, 3 if args.quick else 7)
        out["layout"].append({"display": "1920x1080", "size_px": size, "lines": lines,
                              **summary(samples)})
    for (w, h) in DISPLAYS:
        for size in SIZES:
            scroller = Scroller(text, w, h, size)
            for mode, draw, frames in (("good", scroller.frame_good, good_frames),
                                       ("naive", scroller.frame_naive, naive_frames)):
                scroller.offset = scroller.total_height / 2
                samples = time_frames(draw, frames, warmup=2 if mode == "good" else 1)
                out["cases"].append({"mode": mode, "display": f"{w}x{h}", "size_px": size,
                                     "lines": len(scroller.lines), **summary(samples)})
    out["samples"] = []
    for path in filter(None, (args.samples or "").split(",")):
        try:
            with open(path, encoding="utf-8") as f:
                sample = f.read()
        except (OSError, UnicodeDecodeError) as e:
            sys.exit(f"pango_scroll: cannot read {path}: {e}")
        samples, lines = time_layout(sample, 60, 1920, 4 if args.quick else 10)
        out["samples"].append({"file": os.path.basename(path), "size_px": 60, "lines": lines,
                               **summary(samples)})
    out["peak_rss_kib"] = peak_rss_kib()
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
