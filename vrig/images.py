"""Reading, comparing and writing the virtual rig's screenshots with the standard
library only: binary PPM (what QEMU's screendump and `rig run --snapshot-dir` write)
and PNG output for people to look at."""
import struct
import zlib


class Image:
    def __init__(self, width, height, rgb):
        self.width, self.height, self.rgb = width, height, rgb

    @staticmethod
    def read_ppm(path):
        with open(path, "rb") as f:
            data = f.read()
        fields, pos = [], 0
        while len(fields) < 4:
            while data[pos:pos + 1].isspace():
                pos += 1
            if data[pos:pos + 1] == b"#":
                pos = data.index(b"\n", pos) + 1
                continue
            end = pos
            while not data[end:end + 1].isspace():
                end += 1
            fields.append(data[pos:end])
            pos = end
        if fields[0] != b"P6" or fields[3] != b"255":
            raise ValueError(f"{path}: not an 8-bit binary PPM")
        w, h = int(fields[1]), int(fields[2])
        pos += 1
        return Image(w, h, data[pos:pos + w * h * 3])

    def pixel(self, x, y):
        i = (y * self.width + x) * 3
        return tuple(self.rgb[i:i + 3])

    def dark_fraction(self, threshold=24):
        """Share of pixels whose channels are all below `threshold`."""
        rgb = self.rgb
        n = self.width * self.height
        dark = sum(1 for i in range(0, 3 * n, 3 * 7)
                   if rgb[i] < threshold and rgb[i + 1] < threshold and rgb[i + 2] < threshold)
        return dark / len(range(0, 3 * n, 3 * 7))

    def flipped(self):
        """The image mirrored left-right."""
        rows = []
        for y in range(self.height):
            row = self.rgb[y * self.width * 3:(y + 1) * self.width * 3]
            rows.append(b"".join(row[x * 3:x * 3 + 3] for x in range(self.width - 1, -1, -1)))
        return Image(self.width, self.height, b"".join(rows))

    def with_region(self, x, y, w, h, source=None, sx=0, sy=0, colour=None):
        """A copy with the region (x, y, w, h) filled with `colour` (default: the
        region's top-left pixel, the background there) or copied from `source` at (sx, sy)."""
        rgb = bytearray(self.rgb)
        fill = bytes(colour or self.pixel(x, y))
        for row in range(h):
            at = ((y + row) * self.width + x) * 3
            if source is None:
                rgb[at:at + w * 3] = fill * w
            else:
                src = ((sy + row) * source.width + sx) * 3
                rgb[at:at + w * 3] = source.rgb[src:src + w * 3]
        return Image(self.width, self.height, bytes(rgb))

    def crop(self, x, y, w, h):
        return Image(w, h, b"".join(self.rgb[((y + r) * self.width + x) * 3:((y + r) * self.width + x + w) * 3]
                                    for r in range(h)))

    def max_difference(self, other):
        """The largest difference of any channel of any pixel."""
        assert (self.width, self.height) == (other.width, other.height), "sizes differ"
        return max((abs(a - b) for a, b in zip(self.rgb, other.rgb)), default=0)

    def amplified_diff(self, other):
        """Channel differences times four, to see small ones."""
        return Image(self.width, self.height, bytes(min(255, abs(a - b) * 4) for a, b in zip(self.rgb, other.rgb)))

    def write_png(self, path):
        raw = b"".join(b"\x00" + self.rgb[y * self.width * 3:(y + 1) * self.width * 3]
                       for y in range(self.height))

        def chunk(kind, body):
            return (struct.pack(">I", len(body)) + kind + body
                    + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n")
            f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)))
            f.write(chunk(b"IDAT", zlib.compress(raw, 3)))
            f.write(chunk(b"IEND", b""))


def ink_mask(image, x, y, w, h, dark=110):
    """Dark pixels (all channels' mean below `dark`) in the region, cropped to their
    bounding box: rows of bools, or [] when there are none."""
    rows = [[sum(image.pixel(x + dx, y + dy)) < 3 * dark for dx in range(w)] for dy in range(h)]
    used = [i for i, row in enumerate(rows) if any(row)]
    cols = [i for i in range(w) if any(row[i] for row in rows)]
    if not used:
        return []
    return [row[cols[0]:cols[-1] + 1] for row in rows[used[0]:used[-1] + 1]]


def ink_centre_x(mask, at):
    """Where the ink sits across the row at fraction `at` of the mask's height (0 left,
    1 right), averaged over a band of rows around it."""
    h, w = len(mask), len(mask[0])
    band = mask[int(h * (at - 0.08)):int(h * (at + 0.08)) + 1]
    xs = [x for row in band for x, ink in enumerate(row) if ink]
    return sum(xs) / len(xs) / max(1, w - 1) if xs else 0.5


def letter_is_upright(mask, letter):
    """S and Z read upright when the ink of their upper part leans the right way: an
    upright S's upper bowl is drawn on the left and its lower one on the right; an
    upright Z's diagonal runs from upper right to lower left. Their mirror images lean
    the other way. Returns (upright, (upper, lower) ink centres)."""
    upper, lower = ink_centre_x(mask, 0.33), ink_centre_x(mask, 0.67)
    if letter == "S":
        return upper < 0.45 and lower > 0.55, (round(upper, 2), round(lower, 2))
    if letter == "Z":
        return upper > 0.55 and lower < 0.45, (round(upper, 2), round(lower, 2))
    raise ValueError(letter)


def compare(actual, expected, channel_tolerance=8):
    """Returns (fraction of pixels differing by more than the tolerance in any
    channel, diff image). Sizes must match, else the fraction is 1."""
    if (actual.width, actual.height) != (expected.width, expected.height):
        return 1.0, None
    a, e = actual.rgb, expected.rgb
    diff = bytearray(len(a))
    bad = 0
    # Whole rows at a time keep this fast enough in pure Python for 1280x800.
    row = actual.width * 3
    for y in range(actual.height):
        ra, re = a[y * row:(y + 1) * row], e[y * row:(y + 1) * row]
        if ra == re:
            continue
        for x in range(0, row, 3):
            if (abs(ra[x] - re[x]) > channel_tolerance or abs(ra[x + 1] - re[x + 1]) > channel_tolerance
                    or abs(ra[x + 2] - re[x + 2]) > channel_tolerance):
                bad += 1
                diff[y * row + x] = 255
    return bad / (actual.width * actual.height), Image(actual.width, actual.height, bytes(diff))


# A region comparison: the image in TILE x TILE squares, each allowed at most
# PER_TILE pixels beyond the channel tolerance. A whole-image allowance lets a missing
# label pass (the "0 %" progress label is 0.05 % of a 1280x800 console); a tile is
# the size of one glyph, so a missing or wrong word, label or marker fails where it is.
TILE = 16
PER_TILE = 2


def differing_tiles(actual, expected, channel_tolerance=8, tile=TILE, per_tile=PER_TILE, regions=None):
    """Returns (tiles over the allowance as (x, y, pixels differing), diff image);
    sizes that differ give one tile covering everything. `regions` ((x, y, w, h), ...):
    only the tiles inside them count."""
    fraction, diff = compare(actual, expected, channel_tolerance)
    if diff is None:
        return [(0, 0, actual.width * actual.height)], None
    counts = {}
    if fraction:
        w = actual.width
        d = diff.rgb
        for y in range(actual.height):
            row = d[y * w * 3:(y + 1) * w * 3]
            if not any(row):
                continue
            for x in range(0, w):
                if row[x * 3]:
                    key = (x // tile * tile, y // tile * tile)
                    counts[key] = counts.get(key, 0) + 1
    def counted(x, y):
        return regions is None or any(rx <= x and x + tile <= rx + rw and ry <= y and y + tile <= ry + rh
                                      for rx, ry, rw, rh in regions)
    return sorted((x, y, n) for (x, y), n in counts.items() if n > per_tile and counted(x, y)), diff


def assert_matches(actual_path, expected_path, label="image", expected_image=None, regions=None):
    """Fails, with the actual image and a diff written next to the expected one, when
    any tile differs by more than a few pixels. `expected_image` replaces the file's
    image (a doctored reference); `regions` limits the comparison to those rectangles."""
    actual = Image.read_ppm(actual_path)
    expected = expected_image or Image.read_ppm(expected_path)
    tiles, diff = differing_tiles(actual, expected, regions=regions)
    if tiles:
        stem = expected_path.rsplit(".", 1)[0]
        actual.write_png(stem + ".actual.png")
        if diff:
            diff.write_png(stem + ".diff.png")
        where = ", ".join(f"{n} px at ({x},{y})" for x, y, n in tiles[:6])
        raise AssertionError(
            f"{label}: {len(tiles)} {TILE}x{TILE} tile(s) differ by more than {PER_TILE} px: {where}"
            f"{' ...' if len(tiles) > 6 else ''}; size {actual.width}x{actual.height} vs "
            f"{expected.width}x{expected.height}; see {stem}.actual.png and {stem}.diff.png")
    return tiles


def matches(actual, expected, regions=None):
    """True when no tile differs beyond the allowance (for polling until a frame lands)."""
    return not differing_tiles(actual, expected, regions=regions)[0]
