def fixed_chunks(text: str, size: int = 500, overlap: int = 50) -> list[str]:
    """Windows of `size` chars; each starts `size - overlap` after the previous one."""
    if size <= 0 or not 0 <= overlap < size:
        raise ValueError("need size > 0 and 0 <= overlap < size")
    chunks, start = [], 0
    while start < len(text):
        piece = text[start:start + size]
        if piece.strip():
            chunks.append(piece)
        if start + size >= len(text):          # reached the end: no tail fragment
            break
        start += size - overlap
    return chunks
