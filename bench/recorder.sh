#!/usr/bin/env bash
# Recording cost: CPU seconds per second of video for rig's recorder against the
# ffmpeg command line, both encoding the same raw 1080p30 YUYV frames with libx264
# (same preset, CRF, keyframe interval, no B-frames, YUYV -> yuv420p by swscale,
# fragmented MP4, no audio). Each process is timed from outside with bash's `time`
# (user + system CPU of the process and its threads).
#   bench/recorder.sh [FRAMES] [PRESET] [CRF]      defaults: 150 veryfast 23
set -euo pipefail
cd "$(dirname "$0")/.."
frames=${1:-150}; preset=${2:-veryfast}; crf=${3:-23}
width=1920; height=1080; fps=30
command -v ffmpeg >/dev/null || { echo "recorder.sh: ffmpeg not found; run scripts/install-deps" >&2; exit 1; }
swift build -c release --product RecorderBench >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
raw=$work/frames.yuyv
# A moving, detailed picture (FFmpeg's testsrc2), as a camera would hand it over.
ffmpeg -v error -f lavfi -i "testsrc2=size=${width}x${height}:rate=$fps" -frames:v "$frames" \
       -pix_fmt yuyv422 -f rawvideo "$raw"
seconds=$(awk -v f="$frames" -v r="$fps" 'BEGIN { print f / r }')

cpu() {  # runs "$@" and prints its user+sys CPU seconds
  local TIMEFORMAT='%U %S' t
  t=$( { time "$@" >"$work/out.json" 2>"$work/err.txt"; } 2>&1 ) || { cat "$work/err.txt" >&2; exit 1; }
  awk '{ print $1 + $2 }' <<<"$t"
}

cat "$raw" >/dev/null  # both read it from the page cache
mkdir -p "$work/rig"
rig_cpu=$(cpu .build/release/RecorderBench "$raw" $width $height $fps "$preset" "$crf" "$work/rig")
rig_json=$(cat "$work/out.json")
ls -l "$work/rig" >&2
ffmpeg_cpu=$(cpu ffmpeg -nostdin -v error -f rawvideo -pix_fmt yuyv422 -s ${width}x${height} -r $fps -i "$raw" \
    -c:v libx264 -preset "$preset" -crf "$crf" -bf 0 -g $fps -pix_fmt yuv420p -an \
    -movflags +frag_keyframe+empty_moov+delay_moov+default_base_moof -frag_duration 1000000 -y "$work/ffmpeg.mp4")
ls -l "$work/ffmpeg.mp4" >&2
ffmpeg_version=$(ffmpeg -version | head -1 | awk '{ print $3 }')

awk -v rig="$rig_cpu" -v ff="$ffmpeg_cpu" -v s="$seconds" -v n="$frames" -v p="$preset" -v c="$crf" \
    -v json="$rig_json" -v v="$ffmpeg_version" 'BEGIN {
  printf "recording %d frames of %dx%d YUYV at %d fps (%.1f s of video), libx264 preset %s crf %s, %d cores\n", n, 1920, 1080, 30, s, p, c, '"$(nproc)"'
  printf "  rig recorder:  %6.2f CPU s  = %.3f CPU s per s of video   %s\n", rig, rig / s, json
  printf "  ffmpeg %s: %6.2f CPU s  = %.3f CPU s per s of video\n", v, ff, ff / s
  printf "  ratio rig / ffmpeg: %.3f (goal <= 1.1)\n", rig / ff
}'
