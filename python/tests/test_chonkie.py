"""The `chonkie-recursive`, `chonkie-token` and `chonkie-sentence` strategies
against chonkie's RecursiveChunker, TokenChunker and SentenceChunker in the
same process: the same chunks and offsets for random texts, sizes, overlaps,
units and minimums (`min_characters_per_chunk`), and the same ValueError on a
special token, on a minimum of 0, and on a size of 0 or an overlap of at
least the size. The differential tests of record are core/tests/chonkie.rs,
core/tests/chonkie_token.rs and core/tests/chonkie_sentence.rs (3 000
recorded cases each); this one checks the package's path to the engines."""

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
        minimum = rng.choice([None, None, 1, rng.randint(2, 40), rng.randint(100, 900)])
        tokenizer = "character" if unit == "chars" else tiktoken.get_encoding("cl100k_base")
        given = {} if minimum is None else {"min_characters_per_chunk": minimum}
        theirs = module.RecursiveChunker(tokenizer=tokenizer, chunk_size=size, **given).chunk(text)
        report = chunkscope.split(
            text, strategy="chonkie-recursive", size=size, unit=unit, min_characters_per_chunk=minimum
        )
        assert [c["text"] for c in report["chunks"]] == [c.text for c in theirs], (
            text, unit, size, minimum
        )
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


def test_the_same_windows_as_chonkies_token_chunker(chonkie) -> None:
    module, tiktoken = chonkie
    rng = random.Random(11)
    compared = refused = 0
    for _ in range(300):
        text = "".join(rng.choice(WORDS) + rng.choice(GAPS) for _ in range(rng.randrange(1, 60)))
        unit = rng.choice(["chars", "chars", "cl100k"])
        size = rng.randint(1, 60)
        overlap = rng.choice([0, size - 1, rng.randrange(size)])
        tokenizer = "character" if unit == "chars" else tiktoken.get_encoding("cl100k_base")
        theirs = module.TokenChunker(tokenizer=tokenizer, chunk_size=size, chunk_overlap=overlap).chunk(text)
        try:
            report = chunkscope.split(text, strategy="chonkie-token", size=size, overlap=overlap, unit=unit)
        except chunkscope.ChunkscopeError as e:
            # Refused only where chonkie's own chunks are not the text.
            assert "U+FFFD" in str(e) and any("\ufffd" in c.text for c in theirs), (text, unit, size)
            refused += 1
            continue
        assert [c["text"] for c in report["chunks"]] == [c.text for c in theirs], (text, unit, size, overlap)
        assert [(c["start"], c["end"]) for c in report["chunks"]] == [
            (c.start_index, c.end_index) for c in theirs
        ]
        compared += 1
    assert compared >= 280, refused


def test_the_same_chunks_as_chonkies_sentence_chunker(chonkie) -> None:
    module, tiktoken = chonkie
    rng = random.Random(13)
    for _ in range(300):
        text = "".join(rng.choice(WORDS) + rng.choice(GAPS + ["! ", "? "]) for _ in range(rng.randrange(1, 60)))
        unit = rng.choice(["chars", "chars", "cl100k"])
        size = rng.randint(1, 80)
        overlap = rng.choice([0, size - 1, rng.randrange(size)])
        tokenizer = "character" if unit == "chars" else tiktoken.get_encoding("cl100k_base")
        theirs = module.SentenceChunker(tokenizer=tokenizer, chunk_size=size, chunk_overlap=overlap).chunk(text)
        report = chunkscope.split(text, strategy="chonkie-sentence", size=size, overlap=overlap, unit=unit)
        assert [c["text"] for c in report["chunks"]] == [c.text for c in theirs], (text, unit, size, overlap)
        assert [(c["start"], c["end"]) for c in report["chunks"]] == [
            (c.start_index, c.end_index) for c in theirs
        ]


def test_the_token_and_sentence_chunkers_value_errors(chonkie) -> None:
    module, _ = chonkie
    for strategy, chunker in [("chonkie-token", module.TokenChunker), ("chonkie-sentence", module.SentenceChunker)]:
        for size, overlap in [(0, 0), (5, 5), (5, 9)]:
            with pytest.raises(ValueError) as theirs:
                chunker(tokenizer="character", chunk_size=size, chunk_overlap=overlap)
            with pytest.raises(chunkscope.ChunkscopeError) as ours:
                chunkscope.split("Refunds take 5 days.", strategy=strategy, size=size, overlap=overlap)
            assert str(theirs.value) in str(ours.value)


def test_a_minimum_of_zero_raises_as_in_chonkie(chonkie) -> None:
    module, _ = chonkie
    with pytest.raises(ValueError) as theirs:
        module.RecursiveChunker(chunk_size=8, min_characters_per_chunk=0)
    with pytest.raises(chunkscope.ChunkscopeError) as ours:
        chunkscope.split("a b", strategy="chonkie-recursive", size=8, min_characters_per_chunk=0)
    assert str(theirs.value) == "min_characters_per_chunk must be greater than 0"
    assert str(theirs.value) in str(ours.value)


def test_the_minimum_is_chonkies_alone_and_pickles() -> None:
    import pickle

    with pytest.raises(chunkscope.ChunkscopeError, match="min_characters_per_chunk"):
        chunkscope.split("a b", strategy="recursive", min_characters_per_chunk=3)
    with pytest.raises(chunkscope.ChunkscopeError, match="min_characters_per_chunk"):
        chunkscope.split("a b", strategy="chonkie-recursive", min_characters_per_chunk=-1)
    splitter = chunkscope.Splitter(strategy="chonkie-recursive", size=20, min_characters_per_chunk=3)
    assert splitter.config["min_characters_per_chunk"] == 3
    again = pickle.loads(pickle.dumps(splitter))
    assert again.config == splitter.config
    report = splitter.split("Refunds take five days. UPI is instant.", trace=True)
    assert report["config"]["min_characters_per_chunk"] == 3
    default = chunkscope.split("Refunds take five days.", strategy="chonkie-recursive", trace=True)
    assert "min_characters_per_chunk" not in default["config"]
