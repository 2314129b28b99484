"""The `text-splitter` and `text-splitter-markdown` strategies against the
semantic-text-splitter package in the same process: the same chunks and
offsets for random texts, sizes, overlaps and units, and the same ValueError
for an overlap not below the size. The differential test of record is
core/tests/text_splitter.rs (4 600 recorded cases); this one checks the
package's path to the engine."""

import random

import pytest

import chunkscope


WORDS = ["Refunds", "take", "5", "days.", "UPI", "id,", "café", "東京", "😀", "e.g.", "x", "**bold**"]
GAPS = [" ", " ", "  ", "\n", "\n\n", "\r\n", "\t", ". ", "\n# Title\n", "\n- item\n", ""]
MODELS = {"cl100k": "gpt-3.5-turbo", "o200k": "gpt-4o"}
STRATEGIES = {"text-splitter": "TextSplitter", "text-splitter-markdown": "MarkdownSplitter"}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_the_same_chunks_as_the_package(text_splitter, strategy) -> None:
    cls = getattr(text_splitter, STRATEGIES[strategy])
    rng = random.Random(29)
    for _ in range(200):
        text = "".join(rng.choice(WORDS) + rng.choice(GAPS) for _ in range(rng.randrange(1, 60)))
        unit = rng.choice(["chars", "chars", "cl100k", "o200k"])
        size = rng.randint(1, 80)
        overlap = rng.choice([0, 0, rng.randrange(size)])
        if unit == "chars":
            theirs = cls(size, overlap=overlap)
        else:
            theirs = cls.from_tiktoken_model(MODELS[unit], size, overlap=overlap)
        expected = theirs.chunk_indices(text)
        report = chunkscope.split(text, strategy=strategy, size=size, overlap=overlap, unit=unit)
        assert [c["text"] for c in report["chunks"]] == [c for _, c in expected], (text, unit, size)
        assert [c["start"] for c in report["chunks"]] == [s for s, _ in expected]


def test_an_overlap_not_below_the_size_raises_as_in_the_package(text_splitter) -> None:
    for size, overlap in [(0, 0), (10, 10)]:
        with pytest.raises(ValueError) as theirs:
            text_splitter.TextSplitter(size, overlap=overlap)
        with pytest.raises(chunkscope.ChunkscopeError) as ours:
            chunkscope.split("Refunds take 5 days.", strategy="text-splitter", size=size, overlap=overlap)
        assert str(theirs.value) in str(ours.value)
