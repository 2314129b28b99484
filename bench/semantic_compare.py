"""Times LangChain's SemanticChunker.split_text on the text and vectors that
core/examples/semantic_compare.rs wrote, and checks its chunks are ours.

python semantic_compare.py DIR  ->  one JSON line: bytes, chunks, the fastest
process CPU time of split_text (of 5), and whether the chunk texts are ours.
"""

import json
import sys
import time
import warnings

warnings.simplefilter("ignore")

from langchain_core.embeddings import Embeddings  # noqa: E402
from langchain_experimental.text_splitter import SemanticChunker  # noqa: E402


class Given(Embeddings):
    def __init__(self, vectors):
        self.vectors = vectors

    def embed_documents(self, texts):
        assert len(texts) == len(self.vectors)
        return self.vectors

    def embed_query(self, text):
        raise AssertionError("not used")


def main():
    d = sys.argv[1]
    text = open(f"{d}/text.txt", encoding="utf-8").read()
    vectors = json.load(open(f"{d}/vectors.json"))
    ours = json.load(open(f"{d}/chunks.json"))
    chunker = SemanticChunker(Given(vectors))
    best = None
    for _ in range(5):
        start = time.process_time()
        chunks = chunker.split_text(text)
        took = time.process_time() - start
        best = took if best is None else min(best, took)
    print(json.dumps({
        "bytes": len(text.encode("utf-8")),
        "chunks": len(chunks),
        "seconds": best,
        "same_chunks": chunks == ours,
    }))


if __name__ == "__main__":
    main()
