"""An independent model of the lessons' two splitters, built on Python strings.

The Rust engine works on byte spans and never builds a string; this model does the
opposite: it slices, splits, concatenates and strips real strings, exactly as the
lessons describe the algorithms. If the two agree on thousands of random cases,
the span arithmetic did not drift.

Reads one JSON case per line on stdin:
    {"strategy": "fixed" | "recursive", "text": str, "size": int, "overlap": int,
     "separators": [str, ...]}        # "" is the hard cut
and writes one JSON list of chunk strings per line on stdout.
"""

import json
import sys


def fixed_windows(text, size, overlap):
    """Windows of `size` chars every `size - overlap` chars; whitespace-only
    windows are dropped; the loop stops once a window reaches the end."""
    chunks = []
    start = 0
    while start < len(text):
        window = text[start : start + size]
        if window.strip():
            chunks.append(window)
        if start + size >= len(text):
            break
        start += size - overlap
    return chunks


def hard_windows(text, size):
    return [text[i : i + size] for i in range(0, len(text), size)]


def recursive(text, size, separators):
    """Strip; if it fits, done. Otherwise cut on the first separator present,
    keep each separator at the end of the part before it, pack parts greedily,
    and give each packed group only the separators after this one."""
    text = text.strip()
    if len(text) <= size:
        return [text] if text else []
    for position, separator in enumerate(separators):
        if separator == "":
            return hard_windows(text, size)
        if separator not in text:
            continue
        pieces = text.split(separator)
        parts = [piece + separator for piece in pieces[:-1]] + [pieces[-1]]
        groups, group = [], ""
        for part in parts:
            if group and len(group) + len(part) > size:
                groups.append(group)
                group = ""
            group += part
        groups.append(group)
        rest = separators[position + 1 :]
        return [chunk for g in groups for chunk in recursive(g, size, rest)]
    return hard_windows(text, size)


def main():
    for line in sys.stdin:
        case = json.loads(line)
        if case["strategy"] == "fixed":
            out = fixed_windows(case["text"], case["size"], case["overlap"])
        else:
            out = recursive(case["text"], case["size"], case["separators"])
        sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
