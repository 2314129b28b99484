"""The `semchunk` strategy against semchunk itself, in the same process: the
same chunks and offsets for random texts, sizes, overlaps and units, and
errors where semchunk never returns. The differential test of
record is core/tests/semchunk.rs (2 600 recorded cases); this one checks the
package's path to the engine."""

import random

import pytest

import chunkscope


WORDS = ["refunds", "take", "5", "days.", "UPI", "id,", "café", "東京", "😀", "(COD)", "e.g.", "—", "x"]
GAPS = [" ", " ", "  ", "\n", "\n\n", "\r\n", "\t", "\u3000", ""]
COUNTERS = {"chars": len, "bytes": lambda t: len(t.encode("utf-8")), "cl100k": "cl100k_base"}


def test_the_same_chunks_as_semchunk(semchunk) -> None:
    rng = random.Random(5)
    compared = 0
    for _ in range(300):
        text = "".join(rng.choice(WORDS) + rng.choice(GAPS) for _ in range(rng.randrange(1, 50)))
        unit = rng.choice(list(COUNTERS))
        size = rng.randint(4, 60)
        overlap = rng.choice([0, 0, rng.randrange(1, size)])
        chunker = semchunk.chunkerify(COUNTERS[unit], size)
        try:
            theirs, offsets = chunker(text, offsets=True, overlap=overlap or None)
        except RecursionError:
            with pytest.raises(chunkscope.ChunkscopeError, match="RecursionError"):
                chunkscope.split(text, strategy="semchunk", size=size, overlap=overlap, unit=unit)
            continue
        report = chunkscope.split(text, strategy="semchunk", size=size, overlap=overlap, unit=unit)
        ours = [c["text"] for c in report["chunks"]]
        assert ours == theirs, (text, unit, size, overlap)
        assert [(c["start"], c["end"]) for c in report["chunks"]] == [tuple(o) for o in offsets]
        compared += 1
    assert compared >= 250
