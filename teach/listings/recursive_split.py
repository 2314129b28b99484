SEPARATORS = ("\n\n", "\n", ". ", " ")

def recursive_split(text: str, size: int = 500, separators=SEPARATORS) -> list[str]:
    """Chunks of at most `size` chars, cut at the coarsest separator that works."""
    text = text.strip()
    if len(text) <= size:
        return [text] if text else []
    for i, sep in enumerate(separators):
        if sep not in text:
            continue
        pieces = text.split(sep)
        parts = [p + sep for p in pieces[:-1]] + [pieces[-1]]     # keep the separator
        chunks, current = [], ""
        for part in parts:                                        # greedy packing
            if current and len(current + part) > size:
                chunks.append(current)
                current = ""
            current += part
        chunks.append(current)
        out = []
        for c in chunks:
            if len(c.strip()) <= size:
                out += [c.strip()] if c.strip() else []
            else:                                                 # still too big: finer separator
                out.extend(recursive_split(c, size, separators[i + 1:]))
        return out
    return [text[j:j + size] for j in range(0, len(text), size)]   # no separator left: hard cut
