#!/bin/sh
# Per-frame cost of GStreamer's answer to the camera preview: a 1920x1080 YUY2 frame
# converted and mirrored into BGRx (x8r8g8b8 in memory), the peer of rig's
# `rig bench --case camera` (CameraConversionBenchmark).
#
# videotestsrc renders every frame itself (pattern=black keeps that cheap; conversion
# cost does not depend on the picture), so a second pipeline without the conversion is
# measured and subtracted: per frame = (t_convert - t_source) / N. Both wall time and
# CPU time (user+sys) are reported; on a shared machine CPU time is the fair figure.
# Usage: bench/gstreamer-camera.sh [FRAMES] [ROUNDS]   (defaults 300 and 3)
# The last line is the median over the rounds.
set -eu
frames=${1:-300}
rounds=${2:-3}
caps="video/x-raw,format=YUY2,width=1920,height=1080,framerate=30/1"
timing=$(mktemp)
trap 'rm -f "$timing"' EXIT

# Runs one pipeline; prints "wall cpu" in seconds.
measure() {
    /usr/bin/time -f "%e %U %S" -o "$timing" gst-launch-1.0 -q "$@" >/dev/null
    awk '{ printf "%s %s\n", $1, $2 + $3 }' "$timing"
}

walls=""
cpus=""
round=1
while [ "$round" -le "$rounds" ]; do
    set -- $(measure videotestsrc pattern=black num-buffers="$frames" ! "$caps" ! fakesink)
    source_wall=$1 source_cpu=$2
    set -- $(measure videotestsrc pattern=black num-buffers="$frames" ! "$caps" ! videoconvert \
        ! videoflip method=horizontal-flip ! video/x-raw,format=BGRx ! fakesink)
    wall=$(echo "($1 - $source_wall) * 1000 / $frames" | bc -l)
    cpu=$(echo "($2 - $source_cpu) * 1000 / $frames" | bc -l)
    printf 'round %d: convert+flip %.3f ms/frame wall, %.3f ms/frame cpu\n' "$round" "$wall" "$cpu"
    walls="$walls $wall"
    cpus="$cpus $cpu"
    round=$((round + 1))
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf 'gstreamer videoconvert+videoflip 1080p YUY2->BGRx: median %.3f ms/frame wall, %.3f ms/frame cpu (%d rounds of %d frames)\n' \
    "$(median $walls)" "$(median $cpus)" "$rounds" "$frames"
