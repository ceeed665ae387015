"""The demo's screenshots as one video a person can watch: both heads side by side,
operator (inner) left and talent (outer) right, scaled to one height."""
import os
import shutil
import subprocess

# Screenshots are taken once a second; played at two a second the run takes half as
# long to watch and the scroll still reads.
PLAYBACK_FPS = 2
HEIGHT = 540


def make(out, count):
    """Writes out/demo.mp4 from inner-NNNN.png and outer-NNNN.png (1..count).
    Returns (path, None) or (None, reason)."""
    if count < 1:
        return None, "no screenshots were taken"
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        return None, "ffmpeg is not installed (scripts/install-deps vrig installs it)"
    path = os.path.join(out, "demo.mp4")
    # Explicit frame count: the after-exit pair must not end up in the video.
    command = [ffmpeg, "-loglevel", "error", "-y",
               "-framerate", str(PLAYBACK_FPS), "-i", os.path.join(out, "inner-%04d.png"),
               "-framerate", str(PLAYBACK_FPS), "-i", os.path.join(out, "outer-%04d.png"),
               "-filter_complex", f"[0]scale=-2:{HEIGHT}[a];[1]scale=-2:{HEIGHT}[b];[a][b]hstack=inputs=2",
               "-frames:v", str(count), "-c:v", "libx264", "-preset", "veryfast", "-crf", "23",
               "-pix_fmt", "yuv420p", "-movflags", "+faststart", path]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0 or not os.path.exists(path):
        return None, f"ffmpeg failed: {result.stdout.strip()[-500:]}"
    return path, None
