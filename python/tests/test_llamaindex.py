"""The `llamaindex-sentence`, `llamaindex-token` and `llamaindex-markdown`
strategies against LlamaIndex's SentenceSplitter, TokenTextSplitter and
MarkdownNodeParser in the same process: the same chunks for random texts,
sizes, overlaps and units (cl100k as their default tokenizer, chars as
`tokenizer=list`), the chunks at the offsets the report gives, the same
ValueError on a character over the size (SentenceSplitter) and on an overlap
over the size, and MarkdownNodeParser's nodes with their start_char_idx and
header_path. The differential tests of record are core/tests/llamaindex.rs
(2 700 recorded cases), core/tests/llamaindex_token.rs (2 300) and
core/tests/llamaindex_markdown.rs (2 400); this one checks the package's path
to the engines."""

import random

import pytest

import chunkscope


WORDS = ["Dr.", "Smith", "e.g.", "J.", "R.", "Tolkien", "5.", "apples", "3.14", "refunds", "take",
         "days.", "UPI", "id,", "café", "(COD)", "東京。", "x", "Hi!", "why?", "...", "“quoted.”"]
GAPS = [" ", " ", "  ", "\n", "\n\n", "\n\n\n", "\t", ". ", ", ", ""]


def test_the_same_chunks_as_llamaindex(llamaindex) -> None:
    splitter_class, _ = llamaindex
    rng = random.Random(11)
    compared = 0
    for _ in range(300):
        text = "".join(rng.choice(WORDS) + rng.choice(GAPS) for _ in range(rng.randrange(1, 60)))
        unit = rng.choice(["chars", "chars", "cl100k"])
        size = rng.randint(4, 80)
        overlap = rng.choice([0, 0, rng.randint(0, size)])
        tokenizer = list if unit == "chars" else None
        theirs = splitter_class(chunk_size=size, chunk_overlap=overlap, tokenizer=tokenizer).split_text(text)
        report = chunkscope.split(
            text, strategy="llamaindex-sentence", size=size, overlap=overlap, unit=unit
        )
        assert [c["text"] for c in report["chunks"]] == theirs, (text, unit, size, overlap)
        assert [text[c["start"]:c["end"]] for c in report["chunks"]] == theirs
        compared += 1
    assert compared == 300


def test_a_character_over_the_size_raises_as_in_llamaindex(llamaindex) -> None:
    splitter_class, _ = llamaindex
    text = "Refunds take 🫠🫠 days."
    with pytest.raises(ValueError) as theirs:
        splitter_class(chunk_size=1, chunk_overlap=0).split_text(text)
    with pytest.raises(chunkscope.ChunkscopeError, match="Single token exceeded chunk size"):
        chunkscope.split(text, strategy="llamaindex-sentence", size=1, unit="cl100k")
    assert str(theirs.value) == "Single token exceeded chunk size"


def test_the_same_chunks_as_llamaindex_token_text_splitter(llamaindex_token) -> None:
    rng = random.Random(12)
    for _ in range(300):
        text = "".join(rng.choice(WORDS) + rng.choice(GAPS + ["   ", "\n \n"]) for _ in range(rng.randrange(1, 60)))
        unit = rng.choice(["chars", "chars", "cl100k"])
        size = rng.randint(1, 80)
        overlap = rng.choice([0, 0, rng.randint(0, size)])
        tokenizer = list if unit == "chars" else None
        theirs = llamaindex_token(chunk_size=size, chunk_overlap=overlap, tokenizer=tokenizer).split_text(text)
        report = chunkscope.split(text, strategy="llamaindex-token", size=size, overlap=overlap, unit=unit)
        assert [c["text"] for c in report["chunks"]] == theirs, (text, unit, size, overlap)
        assert [text[c["start"]:c["end"]] for c in report["chunks"]] == theirs


def test_an_overlap_over_the_size_raises_as_in_llamaindex(llamaindex, llamaindex_token) -> None:
    splitter_class, _ = llamaindex
    for strategy, splitter in [("llamaindex-sentence", splitter_class), ("llamaindex-token", llamaindex_token)]:
        with pytest.raises(ValueError) as theirs:
            splitter(chunk_size=5, chunk_overlap=6)
        with pytest.raises(chunkscope.ChunkscopeError) as ours:
            chunkscope.split("Refunds take 5 days.", strategy=strategy, size=5, overlap=6, unit="chars")
        assert str(theirs.value) == "Got a larger chunk overlap (6) than chunk size (5), should be smaller."
        assert f"is larger than size (5), which LlamaIndex's {splitter.__name__} refuses" in str(ours.value)


MARKDOWN_LINES = ["# Refunds", "## UPI", "##\tCards", "### Fees", "#tag", "```", "# in a fence",
                  "Within 5 days.", "see # UPI", "", "  ", "café 東京"]


def test_the_same_nodes_as_llamaindex_markdown_node_parser(llamaindex_markdown) -> None:
    parser_class, document = llamaindex_markdown
    rng = random.Random(13)
    for _ in range(300):
        end = rng.choice(["\n", "\r\n"])
        text = end.join(rng.choice(MARKDOWN_LINES) for _ in range(rng.randrange(0, 20)))
        nodes = parser_class().get_nodes_from_documents([document(text=text)])
        report = chunkscope.split(text, strategy="llamaindex-markdown", size=200)
        chunks = report["chunks"]
        assert [c["text"] for c in chunks] == [n.text for n in nodes], text
        assert [c["metadata"]["header_path"] for c in chunks] == [n.metadata["header_path"] for n in nodes]
        starts = [n.start_char_idx if n.start_char_idx is not None else -1 for n in nodes]
        assert [c["start_index"] for c in chunks] == starts, text
        assert [c["is_slice"] for c in chunks] == [text[c["start"]:c["end"]] == c["text"] for c in chunks]
