#!/usr/bin/env python3
"""Checks the links of README.md and docs/*.md: every link must resolve inside the repository.

A link is `[text](target)` or a reference definition `[name]: target`, outside fenced code blocks.
Refused, each printed as FILE:LINE: reason, exit status 1:
- a link to another site (http:, https:, mailto:, any scheme), or an absolute path;
- a relative path that leaves the repository or names no file or folder;
- a `#fragment` that names no heading of the Markdown file it points to (GitHub's heading ids).

Usage: scripts/check-links.py [FILE.md ...]   (default: README.md and docs/*.md)
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INLINE = re.compile(r"\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")


def code_free_lines(text, blank_spans=True):
    """(line number, line) outside fenced code blocks, code spans blanked unless told otherwise."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if m:
            marker = m.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
                continue
            if marker.startswith(fence):
                fence = None
                continue
        if fence is None and not blank_spans:
            yield number, line
        elif fence is None:
            # Code spans blanked to x's of the same length: a `](` inside one is not a link opener.
            yield number, re.sub(r"`[^`]*`", lambda s: "x" * len(s.group(0)), line)


def slug(heading):
    """GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


_anchors = {}


def anchors(path):
    """Every heading id of a Markdown file, with GitHub's -1, -2 … for repeats."""
    cache = _anchors
    if path not in cache:
        seen, ids = {}, set()
        for _, line in code_free_lines(path.read_text(encoding="utf-8"), blank_spans=False):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            ids.add(base if n == 0 else f"{base}-{n}")
        cache[path] = ids
    return cache[path]


def targets(path):
    """(line number, target) of every link in a Markdown file."""
    text = path.read_text(encoding="utf-8")
    raw = text.splitlines()
    for number, line in code_free_lines(text):
        original = raw[number - 1]
        # Find link targets on the original line (a target may contain backticks), but only where the
        # blanked line still shows the `](` opener, i.e. not inside a code span.
        for m in INLINE.finditer(original):
            if line[m.start():m.start() + 2] == "](":
                yield number, m.group(1)
        m = REFERENCE.match(line)
        if m:
            yield number, REFERENCE.match(original).group(1)


def problem(source, target):
    """Why a link target is refused, or None."""
    if not target:
        return "empty link target"
    if SCHEME.match(target) or target.startswith("//"):
        return f"links outside the repository: {target}"
    path_part, _, fragment = target.partition("#")
    if path_part.startswith("/"):
        return f"absolute path (use a relative one): {target}"
    resolved = (source.parent / path_part).resolve() if path_part else source
    try:
        resolved.relative_to(ROOT)
    except ValueError:
        return f"leaves the repository: {target}"
    if not resolved.exists():
        return f"no such file: {target}"
    if fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
        return f"no heading #{fragment} in {resolved.relative_to(ROOT)}"
    return None


def main(arguments):
    files = [Path(a).resolve() for a in arguments] or [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    failures = checked = 0
    for source in files:
        for number, target in targets(source):
            checked += 1
            reason = problem(source, target)
            if reason:
                failures += 1
                print(f"{source.relative_to(ROOT)}:{number}: {reason}")
    print(f"check-links: {checked} links in {len(files)} files, {failures} broken or outside the repository")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
