#!/usr/bin/env bash
# Recording cost: CPU seconds per second of video for rig's recorder against the
# ffmpeg command line, both encoding the same raw 1080p30 YUYV frames with libx264
# (same preset, CRF, keyframe interval, fragment length, no B-frames, YUYV -> yuv420p by swscale,
# fragmented MP4, no audio). Each process is timed from outside with bash's `time`
# (user + system CPU of the process and its threads).
#   bench/recorder.sh [FRAMES] [PRESET] [CRF]      defaults: 150 veryfast 23
#   ROUNDS=N bench/recorder.sh                     interleaved runs of each (default 3)
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

cpu() {  # runs "$@" and prints its user+sys CPU seconds and its wall-clock seconds
  local TIMEFORMAT='%U %S %R' t
  t=$( { time "$@" >"$work/out.json" 2>"$work/err.txt"; } 2>&1 ) || { cat "$work/err.txt" >&2; return 1; }
  awk '{ print $1 + $2, $3, $1, $2 }' <<<"$t"
}

cat "$raw" >/dev/null  # both read it from the page cache
mkdir -p "$work/rig"
run_rig() { cpu .build/release/RecorderBench "$raw" $width $height $fps "$preset" "$crf" "$work/rig"; }
run_ffmpeg() {
  cpu ffmpeg -nostdin -v error -f rawvideo -pix_fmt yuyv422 -s ${width}x${height} -r $fps -i "$raw" \
      -c:v libx264 -preset "$preset" -crf "$crf" -bf 0 -g $fps -pix_fmt yuv420p -an \
      -movflags +frag_keyframe+empty_moov+delay_moov+default_base_moof -frag_duration 500000 -y "$work/ffmpeg.mp4"
}
# Interleaved rounds; the run with the least CPU of each counts (the others were
# disturbed by whatever else the machine did).
best() { sort -n | head -1; }
rounds=${ROUNDS:-3}
: >"$work/rig.runs"; : >"$work/ffmpeg.runs"
for _ in $(seq "$rounds"); do
  run_rig >>"$work/rig.runs" || { echo "recorder.sh: the rig run failed" >&2; exit 1; }
  cp "$work/out.json" "$work/rig.json"
  run_ffmpeg >>"$work/ffmpeg.runs" || { echo "recorder.sh: the ffmpeg run failed" >&2; exit 1; }
done
read -r rig_cpu rig_wall rig_user rig_sys < <(best <"$work/rig.runs")
read -r ffmpeg_cpu ffmpeg_wall ffmpeg_user ffmpeg_sys < <(best <"$work/ffmpeg.runs")
rig_json=$(cat "$work/rig.json")
ffmpeg_version=$(ffmpeg -version | head -1 | awk '{ print $3 }')

rig_size=$(stat -c %s "$work/rig/bench.mp4"); ffmpeg_size=$(stat -c %s "$work/ffmpeg.mp4")
awk -v rig="$rig_cpu" -v ff="$ffmpeg_cpu" -v rw="$rig_wall" -v fw="$ffmpeg_wall" -v rs="$rig_size" -v fs="$ffmpeg_size" -v ru="$rig_user" -v rsys="$rig_sys" -v fu="$ffmpeg_user" -v fsys="$ffmpeg_sys" -v s="$seconds" -v n="$frames" -v p="$preset" -v c="$crf" \
    -v json="$rig_json" -v rr="$(paste -sd';' "$work/rig.runs")" -v fr="$(paste -sd';' "$work/ffmpeg.runs")" -v v="$ffmpeg_version" 'BEGIN {
  printf "recording %d frames of %dx%d YUYV at %d fps (%.1f s of video), libx264 preset %s crf %s, %d cores\n", n, 1920, 1080, 30, s, p, c, '"$(nproc)"'
  printf "  rig recorder: %6.2f CPU s (user %.2f, sys %.2f) = %.3f CPU s per s of video, %.2f s wall, %d bytes\n", rig, ru, rsys, rig / s, rw, rs
  printf "  ffmpeg %s: %6.2f CPU s (user %.2f, sys %.2f) = %.3f CPU s per s of video, %.2f s wall, %d bytes\n", v, ff, fu, fsys, ff / s, fw, fs
  printf "  rig: %s\n", json
  printf "  ratio rig / ffmpeg: %.3f (goal <= 1.1), least CPU of %d interleaved runs each\n", rig / ff, '"$rounds"'
  printf "  all runs (CPU s, wall s, user, sys): rig %s; ffmpeg %s\n", rr, fr
}'
