from typing import List

class RecursiveTextChunker:
    def __init__(self, chunk_size: int = 500, chunk_overlap: int = 50, separators: List[str] = None):
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self.separators = separators or ["\n\n", "\n", ". ", " "]

    def split_text(self, text: str) -> List[str]:
        final_chunks: List[str] = []
        # Recursive splitting logic preserving semantic paragraphs
        splits = self._split(text, self.separators)
        
        current_chunk = ""
        for s in splits:
            if len(current_chunk) + len(s) <= self.chunk_size:
                current_chunk += s
            else:
                if current_chunk:
                    final_chunks.append(current_chunk.strip())
                # Overlap logic
                current_chunk = current_chunk[-self.chunk_overlap:] + s if self.chunk_overlap < len(current_chunk) else s
        
        if current_chunk:
            final_chunks.append(current_chunk.strip())
        return final_chunks

    def _split(self, text: str, separators: List[str]) -> List[str]:
        if not separators:
            return list(text)
        sep = separators[0]
        splits = text.split(sep)
        result = []
        for s in splits:
            if len(s) > self.chunk_size and len(separators) > 1:
                result.extend(self._split(s, separators[1:]))
            else:
                result.append(s + sep)
        return result
