#!/usr/bin/env python3
"""Checks every relative link in README.md, CHANGELOG.md and docs/*.md (and the DocC articles): the file or
folder it names exists, and its #anchor is a heading of that file (GitHub's way of making anchors: lower case,
punctuation dropped, spaces to hyphens, -1, -2 for repeats). Links to http(s) and mailto are not followed.

Usage: Tests/Docs/check-links.py [file.md ...]
Exit:  0 when every link resolves, 1 otherwise (each broken link with its file and line).
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s{0,8}(```+|~~~+)")


def anchors(path, cache={}):
    """The anchors GitHub makes for the headings of `path`."""
    if path in cache:
        return cache[path]
    seen, found, in_fence = {}, set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        match = None if in_fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        text = re.sub(r"`([^`]*)`", r"\1", match.group(1))
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    cache[path] = found
    return found


def links(path):
    """(line, target) for each link outside code blocks and code spans."""
    in_fence = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for match in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            yield number, match.group(1) or match.group(2)


def main():
    files = [Path(argument).resolve() for argument in sys.argv[1:]] or (
        [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "Tests/Benchmarks/README.md", ROOT / "Tests/Benchmarks/HISTORY.md"]
        + sorted((ROOT / "docs").glob("*.md")) + sorted(ROOT.glob("Sources/*/*.docc/*.md")))
    broken, checked = [], 0
    for file in files:
        for number, target in links(file):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("<doc:"):
                continue
            checked += 1
            path_part, _, anchor = target.partition("#")
            destination = (file.parent / path_part).resolve() if path_part else file
            where = f"{file.relative_to(ROOT)}:{number}"
            if not destination.exists():
                broken.append(f"{where}: {target}: no such file or folder")
            elif anchor and destination.is_file() and destination.suffix == ".md" and anchor not in anchors(destination):
                broken.append(f"{where}: {target}: {destination.relative_to(ROOT)} has no heading #{anchor}")
    for line in broken:
        print(line)
    print(f"check-links: {checked} relative link(s) in {len(files)} file(s), {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
