"""chunkscope.SemanticChunker against the real langchain-experimental
SemanticChunker, asked now in the same process, with the same deterministic
fake embeddings on both sides: random texts (sentences, stray whitespace,
non-ASCII) and random settings (every threshold kind, amounts, buffers,
number_of_chunks, min_chunk_size), compared chunk for chunk, start index for
start index, the texts given to embed_documents and how often it was called,
exceptions by kind."""

from __future__ import annotations

import collections
import hashlib
import os
import random
from typing import Any

import pytest

import chunkscope

SEED = 20_251_202
CASES = 1_500


class HashEmbeddings:
    """A deterministic Embeddings: each word (a whitespace-separated run) adds
    1 to a few dimensions picked by its hash. Small whole numbers, so every
    sum, product and square NumPy makes of them is exact; `real=True` scales
    the counts by irrational-looking factors instead, so they are not."""

    def __init__(self, dims: int, real: bool = False) -> None:
        self.dims = dims
        self.real = real
        self.calls: list[list[str]] = []

    def _vector(self, text: str) -> list[float]:
        v = [0.0] * self.dims
        for word in text.split():
            h = hashlib.blake2b(word.lower().encode("utf-8"), digest_size=8).digest()
            for k in range(2):
                v[h[k] % self.dims] += 1.0
        if self.real:
            v = [x * (1.0 + (i * 0.6180339887498949) % 1.0) for i, x in enumerate(v)]
        return v

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        raise AssertionError("SemanticChunker never embeds a query")


WORDS = ["refund", "policy", "days", "UPI", "store", "credit", "rain", "monsoon", "cricket",
         "match", "é", "中文", "😀", "tea", "chai", "train", "late", "a", "the", "of"]
ENDS = [".", "?", "!", ".", "", ",", "..."]
GAPS = [" ", " ", " ", "  ", "\n", "\n\n", "\t", "\u3000", "\xa0", " \n "]


def random_text(rng: random.Random) -> str:
    parts = []
    if rng.random() < 0.1:
        parts.append(rng.choice(GAPS))
    for _ in range(rng.randrange(0, 40)):
        parts.append(" ".join(rng.choices(WORDS, k=rng.randint(1, 7))) + rng.choice(ENDS))
        parts.append(rng.choice(GAPS))
    if parts and rng.random() < 0.5:
        parts.pop()
    return "".join(parts)


def random_settings(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(["percentile", "standard_deviation", "interquartile", "gradient"])
    amount = None
    if rng.random() < 0.5:
        amount = rng.choice([0, 50, 90, 99, 100]) if kind in ("percentile", "gradient") else rng.choice([0, 0.5, 1, 2])
    return {
        "buffer_size": rng.choice([0, 1, 1, 2, 3]),
        "breakpoint_threshold_type": kind,
        "breakpoint_threshold_amount": amount,
        "number_of_chunks": rng.choice([None] * 4 + [0, 1, 2, 5, 50]),
        "min_chunk_size": rng.choice([None] * 3 + [1, 20, 100]),
    }


def run(cls: Any, embeddings: HashEmbeddings, settings: dict[str, Any], text: str) -> dict[str, Any]:
    embeddings.calls = []
    try:
        docs = cls(embeddings, add_start_index=True, **settings).create_documents([text], [{"n": 1}])
    except Exception as exc:  # compared by kind
        return {"error": type(exc), "message": str(exc)}
    return {
        "chunks": [d.page_content for d in docs],
        "starts": [d.metadata["start_index"] for d in docs],
        "metadata": [sorted(d.metadata) for d in docs],
        "embedded": embeddings.calls,
    }


@pytest.fixture(scope="module")
def experimental() -> Any:
    try:
        import simsimd  # noqa: F401

        pytest.fail("simsimd is installed: LangChain's cosine_similarity would compute in float32")
    except ImportError:
        pass
    try:
        from langchain_experimental.text_splitter import SemanticChunker
    except ImportError:
        if os.environ.get("CHUNKSCOPE_LIVE") == "1":
            raise
        pytest.skip("langchain-experimental is not installed (CHUNKSCOPE_LIVE=1 requires it)")
    return SemanticChunker


def test_random_cases_match_langchain(experimental: Any) -> None:
    rng = random.Random(SEED)
    counts: collections.Counter[str] = collections.Counter()
    for i in range(CASES):
        text = random_text(rng)
        settings = random_settings(rng)
        dims = rng.choice([3, 8, 32])
        real = rng.random() < 0.3
        ours = run(chunkscope.SemanticChunker, HashEmbeddings(dims, real), settings, text)
        theirs = run(experimental, HashEmbeddings(dims, real), settings, text)
        context = f"case {i}: {settings} dims={dims} real={real} text={text!r}"
        if "error" in theirs:
            assert "error" in ours, f"{context}: LangChain raises {theirs}, we give {ours}"
            assert issubclass(ours["error"], theirs["error"]), f"{context}: {ours} vs {theirs}"
            counts["exceptions"] += 1
            continue
        assert ours == theirs, f"{context}:\n ours   {ours}\n theirs {theirs}"
        counts["chunks"] += len(ours["chunks"])
        counts["embedding calls"] += len(ours["embedded"])
        counts["cases"] += 1
    print(dict(counts))
    assert counts["cases"] > CASES * 0.9
    assert counts["embedding calls"] > CASES * 0.5


def test_split_text_and_documents(experimental: Any) -> None:
    text = "Refunds take 5 days. They go to the UPI id!  COD orders get store credit?\nRain. Cricket."
    ours = chunkscope.SemanticChunker(HashEmbeddings(8), breakpoint_threshold_amount=50)
    theirs = experimental(HashEmbeddings(8), breakpoint_threshold_amount=50)
    assert ours.split_text(text) == theirs.split_text(text)
    assert ours.split_text("") == theirs.split_text("") == [""]
    docs = ours.split_documents(theirs.create_documents([text, "One sentence"], [{"a": 1}, {"b": 2}]))
    assert [(d.page_content, d.metadata) for d in docs] == [
        (d.page_content, d.metadata)
        for d in theirs.split_documents(theirs.create_documents([text, "One sentence"], [{"a": 1}, {"b": 2}]))
    ]


def test_embedder_exception_comes_out_unchanged() -> None:
    class Broken(HashEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise KeyError("no model")

    with pytest.raises(KeyError, match="no model"):
        chunkscope.SemanticChunker(Broken(4)).split_text("One. Two. Three.")


def test_bad_vectors_are_refused() -> None:
    class Ragged(HashEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[1.0] * (i + 1) for i in range(len(texts))]

    with pytest.raises(chunkscope.ChunkscopeError, match="dimensions"):
        chunkscope.SemanticChunker(Ragged(4)).split_text("One. Two. Three.")


def test_refusals() -> None:
    with pytest.raises(chunkscope.UnsupportedError, match="sentence_split_regex"):
        chunkscope.SemanticChunker(HashEmbeddings(4), sentence_split_regex=r"\n")
    with pytest.raises(chunkscope.ChunkscopeError, match="breakpoint_threshold_type"):
        chunkscope.SemanticChunker(HashEmbeddings(4), breakpoint_threshold_type="median")
    with pytest.raises(chunkscope.ChunkscopeError, match="percentile"):
        chunkscope.SemanticChunker(HashEmbeddings(4), breakpoint_threshold_amount=150).split_text(
            "One. Two. Three."
        )
