"""What the peers share: their own peak memory and the statistics rig bench uses
(median, nearest-rank p99), so both sides of a ratio are computed the same way."""
import math


def peak_rss_kib():
    """VmHWM: this process's own peak resident memory (ru_maxrss survives exec)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def median(samples):
    s = sorted(samples)
    n = len(s)
    if n == 0:
        return None
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2


def p99(samples):
    """Nearest rank: the smallest sample with at least 99 % of samples at or below it."""
    s = sorted(samples)
    if not s:
        return None
    return s[max(0, math.ceil(0.99 * len(s)) - 1)]
