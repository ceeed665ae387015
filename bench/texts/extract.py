#!/usr/bin/python3
"""Rebuilds the sample texts in this folder from the Debian packages they came from.

    apt-get download dict-devil gnome-user-docs
    python3 bench/texts/extract.py dict-devil_*.deb gnome-user-docs_*.deb

Only the standard library and dpkg-deb are used, so the provenance can be checked on
any Debian machine. The output is deterministic: same packages in, same bytes out.
"""
import gzip
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
WORD_TARGET = 10_000
MALLARD = "{http://projectmallard.org/1.0/}"
# Pages chosen because they are translated (Persian is the package's only
# right-to-left translation with real content; its Hebrew pages are still English)
# and are prose rather than tables of shortcuts.
HELP_PAGES = {
    "fa": ["shell-introduction", "shell-exit", "user-goodpassword",
           "shell-notifications", "shell-workspaces", "shell-apps-open",
           "privacy-screen-lock", "shell-windows-switching"],
    "zh_CN": ["backup-why", "backup-what", "backup-where", "backup-how",
              "color-whatisspace", "color-calibrationcharacterization",
              "net-wireless-troubleshooting-hardware-check", "net-wireless-disconnecting",
              "files-autorun", "files-removedrive", "mouse-problem-notmoving"],
}
# A paragraph is kept only if it is written in the sample's script, so untranslated
# English strings left in a page do not dilute the sample.
SCRIPT = {"fa": r"[\u0600-\u06ff]", "zh_CN": r"[\u4e00-\u9fff]"}


def unpack(deb, into):
    subprocess.run(["dpkg-deb", "-x", deb, into], check=True)


def reflow_dictionary(raw):
    """The dictd text is hard-wrapped at 70 columns. A teleprompter script is
    paragraphs, so prose lines are joined; verse keeps its lines (every line of a
    verse block is indented) and right-aligned attributions become their own line."""
    out = []
    for block in re.split(r"\n\s*\n", raw):
        lines = [l.rstrip() for l in block.split("\n") if l.strip()]
        if not lines:
            continue
        if all(l.startswith(" ") for l in lines):
            out.append("\n".join(l.strip() for l in lines))
            continue
        paragraph = []
        for line in lines:
            indent = len(line) - len(line.lstrip())
            if indent >= 20:                      # attribution such as "G.J."
                if paragraph:
                    out.append(" ".join(paragraph))
                    paragraph = []
                out.append(line.strip())
            elif indent >= 2 and paragraph:       # indented first line: new paragraph
                out.append(" ".join(paragraph))
                paragraph = [line.strip()]
            else:
                paragraph.append(line.strip())
        if paragraph:
            out.append(" ".join(paragraph))
    return [re.sub(r"\s{2,}", "  ", p) for p in out]


def devils_dictionary(root):
    with gzip.open(os.path.join(root, "usr/share/dictd/devil.dict.dz"), "rt",
                   encoding="latin-1") as f:
        raw = f.read()
    start = raw.index("PREFACE")
    paragraphs = reflow_dictionary(raw[start:])
    kept, words = ["THE DEVIL'S DICTIONARY", "by Ambrose Bierce"], 5
    for p in paragraphs:
        if words >= WORD_TARGET:
            break
        kept.append(p)
        words += len(p.split())
    # Cut at a paragraph boundary once the target is reached, so the text ends on a
    # whole entry (or a whole verse of one) and the count is "about 10,000", never less.
    text = "\n\n".join(kept) + "\n"
    return text, len(text.split())


def page_text(path, script):
    tree = ET.parse(path)
    root = tree.getroot()
    parts = []
    title = root.find(f"{MALLARD}title")
    if title is not None and re.search(script, "".join(title.itertext())):
        parts.append("".join(title.itertext()).strip())
    for p in root.iter(f"{MALLARD}p"):
        text = re.sub(r"\s+", " ", "".join(p.itertext())).strip()
        if text and re.search(script, text):
            parts.append(text)
    return parts


def help_sample(root, lang):
    parts = []
    for page in HELP_PAGES[lang]:
        path = os.path.join(root, "usr/share/help", lang, "gnome-help", page + ".page")
        if os.path.exists(path):
            for part in page_text(path, SCRIPT[lang]):
                # Figure captions repeat their description verbatim; keep one.
                if not parts or parts[-1] != part:
                    parts.append(part)
    return "\n\n".join(parts) + "\n"


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: extract.py dict-devil_*.deb gnome-user-docs_*.deb")
    with tempfile.TemporaryDirectory() as tmp:
        unpack(argv[1], tmp)
        unpack(argv[2], tmp)
        text, words = devils_dictionary(tmp)
        with open(os.path.join(HERE, "devils-dictionary-10k.txt"), "w") as f:
            f.write(text)
        print(f"devils-dictionary-10k.txt: {words} words")
        for lang, name in (("fa", "persian-gnome-help.txt"), ("zh_CN", "chinese-gnome-help.txt")):
            sample = help_sample(tmp, lang)
            with open(os.path.join(HERE, name), "w") as f:
                f.write(sample)
            print(f"{name}: {len(sample)} characters")


if __name__ == "__main__":
    main(sys.argv)
