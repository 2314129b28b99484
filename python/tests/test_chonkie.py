"""The `chonkie-recursive` strategy against chonkie's RecursiveChunker in the
same process: the same chunks and offsets for random texts, sizes and units,
and the same ValueError on a special token. The differential test of record
is core/tests/chonkie.rs (2 700 recorded cases); this one checks the
package's path to the engine."""

import random

import pytest

import chunkscope


WORDS = ["refunds", "take", "5", "days.", "UPI", "id,", "café", "(COD)", "e.g.", "—", "x", "Donaudampfschifffahrt"]
GAPS = [" ", " ", "  ", "\n", "\n\n", "\r\n", "\t", ". ", ", ", ""]


def test_the_same_chunks_as_chonkie(chonkie) -> None:
    module, tiktoken = chonkie
    rng = random.Random(9)
    compared = 0
    for _ in range(300):
        text = "".join(rng.choice(WORDS) + rng.choice(GAPS) for _ in range(rng.randrange(1, 60)))
        unit = rng.choice(["chars", "chars", "cl100k"])
        size = rng.randint(4, 80)
        tokenizer = "character" if unit == "chars" else tiktoken.get_encoding("cl100k_base")
        theirs = module.RecursiveChunker(tokenizer=tokenizer, chunk_size=size).chunk(text)
        report = chunkscope.split(text, strategy="chonkie-recursive", size=size, unit=unit)
        assert [c["text"] for c in report["chunks"]] == [c.text for c in theirs], (text, unit, size)
        assert [(c["start"], c["end"]) for c in report["chunks"]] == [
            (c.start_index, c.end_index) for c in theirs
        ]
        compared += 1
    assert compared == 300


def test_a_special_token_raises_as_in_chonkie(chonkie) -> None:
    module, tiktoken = chonkie
    text = "Refunds take 5 days <|endoftext|> and more."
    with pytest.raises(ValueError) as theirs:
        module.RecursiveChunker(tokenizer=tiktoken.get_encoding("cl100k_base"), chunk_size=8).chunk(text)
    with pytest.raises(chunkscope.ChunkscopeError, match="<\\|endoftext\\|>"):
        chunkscope.split(text, strategy="chonkie-recursive", size=8, unit="cl100k")
    assert "disallowed special token '<|endoftext|>'" in str(theirs.value)
