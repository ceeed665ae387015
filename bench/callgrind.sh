#!/usr/bin/env bash
# Instructions per frame for rig's main composition cases and for the Pango+Cairo
# peer, counted by valgrind's callgrind: unlike wall-clock times on this shared,
# noisy machine, they do not move between runs.
#
# Each case runs twice, at N1 and N2 frames; (Ir(N2) - Ir(N1)) / (N2 - N1) is one
# frame's instructions, with start-up, text layout and cache warm-up cancelled out.
# For rig, callgrind also counts only inside OuterFrameBench.composeFrame
# (--toggle-collect): the frame, without the process's start-up and script opening.
#
# No floor row: glibc's memcpy copies a frame with `rep movsb`, which callgrind counts
# as a handful of instructions, so a copy has no meaningful instruction count.
#
#   bench/callgrind.sh            # Markdown table on stdout, progress on stderr
#   RIG=path/to/rig bench/callgrind.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps bench
RIG=${RIG:-.build/release/rig}
if [ ! -x "$RIG" ]; then
  echo "callgrind.sh: building $RIG" >&2
  swift build -c release --product rig >&2
fi
TEXT=bench/texts/devils-dictionary-10k.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Debian 12's valgrind gives up on the DWARF that Swift 6.3 writes ("Possibly corrupted
# debuginfo file"): it counts a copy without the debug sections, symbols kept.
strip --strip-debug -o "$tmp/rig" "$RIG"
RIG=$tmp/rig

# Ir of one run: the "totals:" line of callgrind's output file. $TOGGLE, when set,
# limits counting to functions matching it.
count() {
  local out="$tmp/cg.out"
  rm -f "$out"
  local toggle=()
  [ -n "${TOGGLE:-}" ] && toggle=(--toggle-collect="$TOGGLE")
  if ! valgrind --tool=callgrind "${toggle[@]}" --callgrind-out-file="$out" "$@" >"$tmp/stdout" 2>"$tmp/stderr"; then
    return 1
  fi
  awk '/^(totals|summary):/ {print $2; exit}' "$out"
}

# per_frame LABEL N1 N2 COMMAND... (the command takes the frame count as its last word)
per_frame() {
  local label=$1 n1=$2 n2=$3
  shift 3
  echo "callgrind.sh: $label" >&2
  local a b
  if ! a=$(count "$@" "$n1") || ! b=$(count "$@" "$n2"); then
    local why
    why=$(grep -v '^==' "$tmp/stderr" | tail -n 1)
    echo "| $label | unavailable: ${why:-failed} |"
    return
  fi
  awk -v l="$label" -v a="$a" -v b="$b" -v n1="$n1" -v n2="$n2" \
    'BEGIN { printf "| %s | %.0f |\n", l, (b - a) / (n2 - n1) }'
}

echo "# Instructions per frame (callgrind)"
echo
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) processors; valgrind $(valgrind --version | sed 's/valgrind-//')"
echo
echo "| case | instructions per frame |"
echo "| --- | --- |"
# Swift mangles OuterFrameBench.composeFrame in module Bench as
# "5Bench010OuterFrameA0C07composeC0" (back-references to "Bench" and "Frame"), hence
# the pattern.
export TOGGLE='*OuterFrame*compose*'
for size in 20 60 120; do
  per_frame "rig compose 1920x1080 ${size}px" 10 30 "$RIG" bench --case "compose:1920x1080:$size" --frames
done
per_frame "rig compose 1920x1080 60px mirror" 10 30 "$RIG" bench --case compose:1920x1080:60:mirror --frames
per_frame "rig compose 1920x1080 60px rot90" 10 30 "$RIG" bench --case compose:1920x1080:60:rot90 --frames
for size in 20 60 120; do
  per_frame "rig compose 3840x2160 ${size}px" 10 30 "$RIG" bench --case "compose:3840x2160:$size" --frames
done
per_frame "rig compose 3840x2160 60px rot90" 10 30 "$RIG" bench --case compose:3840x2160:60:rot90 --frames
unset TOGGLE
for display in 1920x1080 3840x2160; do
  for size in 20 60 120; do
    per_frame "Pango+Cairo good $display ${size}px" 5 15 \
      /usr/bin/python3 bench/peers/pango_scroll.py --text "$TEXT" --case "good:$display:$size" --frames
  done
done
per_frame "Pango+Cairo naive 1920x1080 60px" 1 3 \
  /usr/bin/python3 bench/peers/pango_scroll.py --text "$TEXT" --case naive:1920x1080:60 --frames
