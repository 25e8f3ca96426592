#!/usr/bin/env python3
"""Every line of Swift that only Apple platforms compile, which no Linux build type-checks.

Lists each such line of Sources/ and Tests/ as `file:line: code` (comments, blank lines and the `#if` lines
themselves left out), a count per file, and the total. With `--readme README.md`, also fails unless the
README states that total as "<N> Darwin-only lines", so the number the README gives cannot go stale.

Usage: darwin-lines.py [--root DIR] [--readme FILE]   Exit status: 0, or 1 when the README's number is off.
"""

import argparse
import os
import re
import sys

import swiftsource


def darwin_only_lines(path):
    """`(line number, text)` for each code line of `path` that macOS or iOS compiles and Linux does not."""
    with open(path, "rb") as file:
        source = file.read()
    linux = swiftsource.inactive_ranges(source, "Linux")
    apple = [swiftsource.inactive_ranges(source, platform) for platform in ("macOS", "iOS")]
    found, offset = [], 0
    for number, line in enumerate(source.split(b"\n"), start=1):
        text = line.decode("utf-8", "replace").strip()
        is_code = text and not text.startswith(("//", "#if", "#elseif", "#else", "#endif", "///", "*", "/*"))
        if is_code and inside(offset, linux) and any(not inside(offset, ranges) for ranges in apple):
            found.append((number, text))
        offset += len(line) + 1
    return found


def inside(offset, ranges):
    return any(start <= offset < end for start, end in ranges)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=".", help="the package's folder (default: here)")
    parser.add_argument("--readme", help="a README that must state the total")
    parser.add_argument("--summary", action="store_true", help="the counts only, not each line")
    arguments = parser.parse_args()
    counts, total = [], 0
    for folder in ("Sources", "Tests"):
        for directory, _, files in sorted(os.walk(os.path.join(arguments.root, folder))):
            for name in sorted(files):
                if not name.endswith(".swift") or "/.build" in directory:
                    continue
                path = os.path.join(directory, name)
                lines = darwin_only_lines(path)
                shown = os.path.relpath(path, arguments.root)
                for number, text in [] if arguments.summary else lines:
                    print(f"{shown}:{number}: {text}")
                if lines:
                    counts.append((shown, len(lines)))
                    total += len(lines)
    if not arguments.summary:
        print()
    for shown, count in counts:
        print(f"{count:5d}  {shown}")
    print(f"{total:5d}  Darwin-only lines in {len(counts)} files")
    if arguments.readme:
        with open(arguments.readme) as file:
            stated = re.findall(r"(\d[\d,]*)\s+Darwin-only\s+lines", file.read())
        if [int(n.replace(",", "")) for n in stated] != [total]:
            print(f"{arguments.readme} must say \"{total} Darwin-only lines\" once; it says: "
                  f"{stated or 'nothing'}", file=sys.stderr)
            sys.exit(1)


if __name__ == "__main__":
    main()
