"""An independent model of the lessons' two splitters, built on Python strings.

The Rust engine works on byte spans and never builds a string; this model does the
opposite: it slices, splits, concatenates and strips real strings, exactly as the
lessons (and ARCHITECTURE.md's "The recursive engine, precisely") describe the
algorithms, and keeps each string's char offset beside it only to say where a chunk
is (it checks that the text at that offset is the string). If the two agree on
thousands of random cases, the span arithmetic did not drift, and neither did a cut's
label.

Reads one JSON case per line on stdin:
    {"strategy": "fixed" | "recursive", "text": str, "size": int, "overlap": int,
     "unit": "chars" | "bytes", "separators": [str, ...],   # "" is the hard cut
     "placement": "end" | "start" | "none", "trim": bool}
and writes one JSON answer per line on stdout:
    {"chunks": [[start, text, cut], ...]}
where `start` is the chunk's char offset and `cut` what ended it: a separator's index,
"hard", "window" or "end"; or, when a character is longer than `size` bytes and no
chunk can hold it,
    {"error": "char_too_big", "at": char offset of that character}.
"""

import json
import sys


class CharTooBig(Exception):
    def __init__(self, at):
        super().__init__(at)
        self.at = at


class Case:
    def __init__(self, case):
        self.text = case["text"]
        self.size = case["size"]
        self.overlap = case["overlap"]
        self.bytes = case["unit"] == "bytes"
        self.separators = case["separators"]
        self.placement = case["placement"]
        self.trim = case["trim"]

    def length(self, s):
        """`s` in the unit: Python's len, or its UTF-8 bytes."""
        return len(s.encode("utf-8")) if self.bytes else len(s)

    def window(self, s, at):
        """The longest prefix of `s` that holds at most `size` units; `s` starts at
        char `at` of the text (for the error)."""
        if not self.bytes:
            return s[: self.size]
        taken = 0
        for i, c in enumerate(s):
            taken += len(c.encode("utf-8"))
            if taken > self.size:
                if i == 0:
                    raise CharTooBig(at)
                return s[:i]
        return s


def fixed(case):
    """Windows of `size` units. The next window starts `size - overlap` units on
    (in bytes: at the first character that starts that far on, or later if the
    next window would otherwise not reach past this one; never past its end);
    the loop stops once a window reaches the end. Whitespace-only windows are
    dropped when trimming."""
    text = case.text
    chunks = []
    start = 0
    while start < len(text):
        window = case.window(text[start:], start)
        end = start + len(window)
        if not case.trim or window.strip():
            chunks.append([start, window, "window"])
        if end == len(text):
            break
        stride = case.size - case.overlap
        if not case.bytes:
            start += stride
            continue
        step = start
        while case.length(text[start:step]) < stride:
            step += 1
        reach = start
        while case.length(text[reach : end + 1]) > case.size:
            reach += 1
        start = min(max(step, reach), end)
    if chunks:
        chunks[-1][2] = "end"
    return chunks


def cut(piece, separator, placement):
    """`piece` cut at `separator` into parts, as (offset in piece, text)."""
    pieces = piece.split(separator)
    offsets, at = [], 0
    for p in pieces:
        offsets.append(at)
        at += len(p) + len(separator)
    if placement == "end":
        return [(o, p + separator) for o, p in zip(offsets, pieces[:-1])] + [
            (offsets[-1], pieces[-1])
        ]
    if placement == "start":
        return [(0, pieces[0])] + [
            (o - len(separator), separator + p) for o, p in zip(offsets[1:], pieces[1:])
        ]
    return list(zip(offsets, pieces))


def pack(case, parts, separator):
    """Consecutive parts while the group stays within `size`; a group that is still
    empty takes the next part instead (so no empty group is closed, and with
    placement "none" the separator before that part is in no group)."""
    glue = separator if case.placement == "none" else ""
    groups, group = [], None
    for offset, part in parts:
        if group is None or case.length(group[1]) == 0:
            group = (offset, part)
            continue
        joined = group[1] + glue + part
        if case.length(joined) > case.size:
            groups.append(group)
            group = (offset, part)
        else:
            group = (group[0], joined)
    groups.append(group)
    return groups


def hard_windows(case, at, piece):
    """Windows of `size` units, not trimmed (the lessons' `text[j:j + size]`)."""
    chunks, i = [], 0
    while i < len(piece):
        window = case.window(piece[i:], at + i)
        chunks.append([at + i, window, "hard"])
        i += len(window)
    chunks[-1][2] = "end"
    return chunks


def recursive(case, at, piece, first):
    """Chunks of `piece` (which starts at char `at`) with separators `first...`.
    The last chunk's cut says "end": whoever put something after it sets it."""
    if case.trim:
        at += len(piece) - len(piece.lstrip())
        piece = piece.strip()
    if case.length(piece) <= case.size:
        return [[at, piece, "end"]] if piece else []
    for index in range(first, len(case.separators)):
        separator = case.separators[index]
        if separator == "":
            return hard_windows(case, at, piece)
        if separator not in piece:
            continue
        parts = cut(piece, separator, case.placement)
        chunks = []
        for offset, group in pack(case, parts, separator):
            assert piece[offset : offset + len(group)] == group
            inner = recursive(case, at + offset, group, index + 1)
            if chunks and inner:
                chunks[-1][2] = index
            chunks += inner
        return chunks
    return hard_windows(case, at, piece)


def with_overlap(case, chunks):
    """Each chunk extended back into the one before (as it was before any
    extension) by at most `overlap` units and never past `size`; from a word
    start when the extension would begin inside a word and the stretch holds a
    space, and never on whitespace when trimming."""
    text = case.text
    before = [c[0] for c in chunks]
    for i in range(1, len(chunks)):
        at, chunk, label = chunks[i]
        budget = min(case.overlap, case.size - case.length(chunk))
        if budget <= 0:
            continue
        start = at
        while start > before[i - 1] and case.length(text[start - 1 : at]) <= budget:
            start -= 1
        mid_word = start > 0 and not text[start - 1].isspace()
        if mid_word:
            space = next(
                (j for j, c in enumerate(text[start:at]) if c.isspace()), None
            )
            if space is not None:
                start += space
        if case.trim or mid_word:
            while start < at and text[start].isspace():
                start += 1
        extended = text[start:at] + chunk
        if start < at and case.length(extended) <= case.size:
            chunks[i] = [start, extended, label]
    return chunks


def split(request):
    case = Case(request)
    try:
        if request["strategy"] == "fixed":
            chunks = fixed(case)
        else:
            chunks = recursive(case, 0, case.text, 0)
            if case.overlap > 0:
                chunks = with_overlap(case, chunks)
    except CharTooBig as e:
        return {"error": "char_too_big", "at": e.at}
    for at, chunk, _ in chunks:
        assert case.text[at : at + len(chunk)] == chunk
    return {"chunks": chunks}


def main():
    for line in sys.stdin:
        sys.stdout.write(json.dumps(split(json.loads(line))) + "\n")


if __name__ == "__main__":
    main()
