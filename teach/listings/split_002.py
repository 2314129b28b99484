def split(text, size, seps):
    if len(text) <= size or not seps:
        return [text]
    sep, rest = seps[0], seps[1:]
    parts = text.split(sep) if sep else list(text)
    out = []
    for p in parts:
        out.extend(split(p, size, rest) if len(p) > size else [p])
    return out

print(split("aa\n\nbbb\ncccccc", 3, ["\n\n", "\n", ""]))
