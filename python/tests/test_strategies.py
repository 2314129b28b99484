"""The strategies beyond LangChain's two character splitters: LangChain's
MarkdownHeaderTextSplitter against the real library (random Markdown, a
fixed seed), and the sentence, markdown and semantic strategies through
`split()` with their settings, against the CLI's JSON where it has them."""

from __future__ import annotations

import collections
import json
import os
import random
import subprocess
from typing import Any

import pytest

import chunkscope

SEED = 20_251_202
MARKDOWN_CASES = 2_000

# Lines of Markdown: headers of every depth (with and without the space),
# fences, blank lines, tabs, CRLF, characters `str.isprintable` drops, and
# content that repeats (so repeated headers meet).
LINES = [
    "# Title", "## Section", "### Sub", "#### Deep", "#NoSpace", "##", "# Title",
    "## Section", "text", "more text", "  indented", "\tTabbed", "", "", "```", "```py",
    "~~~", "# in a fence?", "a ``` b", "- item", "1. one", "> quote", "é中😀",
    "x\x0cy", "tail  ", "## Other", "###### Six", "####### Seven", "Setext", "===",
]


def random_markdown(rng: random.Random) -> str:
    lines = rng.choices(LINES, k=rng.randrange(1, 30))
    newline = "\r\n" if rng.random() < 0.1 else "\n"
    return newline.join(lines) + (newline if rng.random() < 0.5 else "")


def random_headers(rng: random.Random) -> list[tuple[str, str]]:
    markers = rng.sample(["#", "##", "###", "####"], k=rng.randint(1, 4))
    names = {m: rng.choice([f"Header {len(m)}", f"h{len(m)}", "same"]) for m in markers}
    return [(m, names[m]) for m in markers]


def documents(docs: list[Any]) -> list[tuple[str, dict[str, str]]]:
    return [(d.page_content, dict(d.metadata)) for d in docs]


def test_markdown_header_splitter_gives_langchains_answers(langchain: Any) -> None:
    rng = random.Random(SEED)
    tally: collections.Counter[str] = collections.Counter()
    problems = []
    for _ in range(MARKDOWN_CASES):
        text = random_markdown(rng)
        kwargs = {
            "headers_to_split_on": random_headers(rng),
            "return_each_line": rng.random() < 0.3,
            "strip_headers": rng.random() < 0.7,
        }
        theirs = documents(langchain.MarkdownHeaderTextSplitter(**kwargs).split_text(text))
        ours = documents(chunkscope.MarkdownHeaderTextSplitter(**kwargs).split_text(text))
        tally["cases"] += 1
        tally["chunks"] += len(theirs)
        if ours != theirs:
            problems.append(f"{kwargs} {text!r}:\n  ours   {ours}\n  theirs {theirs}")
    print(f"MarkdownHeaderTextSplitter compared with the live LangChain: {dict(tally)}")
    assert not problems, f"{len(problems)} differences; the first:\n\n" + "\n\n".join(problems[:5])
    assert tally["cases"] == MARKDOWN_CASES
    assert tally["chunks"] > MARKDOWN_CASES


def test_markdown_header_splitter_documents(langchain: Any) -> None:
    from langchain_core.documents import Document

    text = "# Refunds\nWithin 5 days.\n\n## UPI\nInstant."
    headers = [("#", "Header 1"), ("##", "Header 2")]
    got = chunkscope.MarkdownHeaderTextSplitter(headers).split_text(text)
    assert got == langchain.MarkdownHeaderTextSplitter(headers).split_text(text)
    assert all(type(d) is Document for d in got)
    assert documents(got) == [
        ("Within 5 days.", {"Header 1": "Refunds"}),
        ("Instant.", {"Header 1": "Refunds", "Header 2": "UPI"}),
    ]
    # Each chunk's metadata is its own dict.
    got[0].metadata["x"] = 1
    assert "x" not in got[1].metadata


RECIPE_CASES = 400


def test_the_markdown_recipe_gives_langchains_answers(langchain: Any) -> None:
    """`then_recursive`: the header splitter, then the recursive splitter's
    `split_documents` on its sections, as LangChain's docs chain them, with
    random Markdown, sizes, overlaps and separator lists."""
    rng = random.Random(SEED + 1)
    headers = [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")]
    tally: collections.Counter[str] = collections.Counter()
    problems = []
    for _ in range(RECIPE_CASES):
        text = random_markdown(rng)
        size = rng.randint(1, 60)
        overlap = rng.choice([0, 0, rng.randint(0, size - 1)])
        separators = rng.choice([[], ["\n\n", "\n", " ", ""], [" ", ""], ["\n", "."]])
        strip_headers = rng.random() < 0.7
        trim = rng.random() < 0.8
        md = langchain.MarkdownHeaderTextSplitter(headers, strip_headers=strip_headers)
        recursive = langchain.RecursiveCharacterTextSplitter(
            chunk_size=size,
            chunk_overlap=overlap,
            strip_whitespace=trim,
            **({"separators": separators} if separators else {}),
        )
        theirs = documents(recursive.split_documents(md.split_text(text)))
        report = chunkscope.split(
            text,
            strategy="langchain-markdown",
            size=size,
            overlap=overlap,
            placement="none" if strip_headers else "start",
            trim=trim,
            then_recursive=separators,
        )
        ours = [(c["text"], c["metadata"]) for c in report["chunks"]]
        tally["cases"] += 1
        tally["chunks"] += len(theirs)
        if ours != theirs:
            problems.append(f"size {size} overlap {overlap} {separators} {text!r}:\n"
                            f"  ours   {ours}\n  theirs {theirs}")
    print(f"the Markdown recipe compared with the live LangChain: {dict(tally)}")
    assert not problems, f"{len(problems)} differences; the first:\n\n" + "\n\n".join(problems[:3])
    assert tally["cases"] == RECIPE_CASES
    assert tally["chunks"] > 2 * RECIPE_CASES


def test_markdown_header_splitter_refusals() -> None:
    with pytest.raises(chunkscope.ChunkscopeError, match="custom_header_patterns"):
        chunkscope.MarkdownHeaderTextSplitter([("#", "h")], custom_header_patterns={"**": 1})
    with pytest.raises(chunkscope.ChunkscopeError, match="cannot be empty"):
        chunkscope.MarkdownHeaderTextSplitter([("", "h")])
    with pytest.raises(chunkscope.ChunkscopeError, match=r"\(marker, name\) pair"):
        chunkscope.MarkdownHeaderTextSplitter(["#"])  # type: ignore[list-item]


DOC = (
    "# Refunds\n\nRefunds take 5 days. Dr. Smith approves them.\n\n"
    "## UPI\n\nUPI refunds are instant. See https://example.com/a.b for more.\n\n"
    "| a | b |\n| - | - |\n| 1 | 2 |\n"
)


def cli(args: list[str], text: str) -> dict[str, Any] | None:
    path = os.environ.get("CHUNKSCOPE_CLI")
    if not path:
        return None
    out = subprocess.run([path, *args], input=text, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize(
    ("kwargs", "flags"),
    [
        ({"strategy": "sentence", "size": 40}, ["--strategy", "sentence", "--size", "40"]),
        ({"strategy": "markdown", "size": 60}, ["--strategy", "markdown", "--size", "60"]),
        (
            {"strategy": "markdown", "size": 80, "heading_prefix": True},
            ["--strategy", "markdown", "--size", "80", "--heading-prefix"],
        ),
        (
            {"strategy": "markdown", "size": 26, "table_header": "repeat"},
            ["--strategy", "markdown", "--size", "26", "--table-header", "repeat"],
        ),
        (
            {"strategy": "langchain-markdown", "each_line": True},
            ["--strategy", "langchain-markdown", "--each-line"],
        ),
        (
            {"strategy": "langchain-markdown", "size": 40, "overlap": 10, "then_recursive": []},
            ["--strategy", "langchain-markdown", "--size", "40", "--overlap", "10",
             "--then-recursive"],
        ),
        (
            {"strategy": "langchain-markdown", "size": 30, "then_recursive": [r"\.\s", " "],
             "regex": True},
            ["--strategy", "langchain-markdown", "--size", "30", "--then-recursive",
             "--sep", r"\.\s", "--sep", " ", "--regex"],
        ),
        (
            {"strategy": "chonkie-recursive", "size": 30, "min_characters_per_chunk": 2},
            ["--strategy", "chonkie-recursive", "--size", "30", "--min-characters-per-chunk", "2"],
        ),
        (
            {"strategy": "semantic", "size": 200, "buffer": 0, "amount": 50},
            ["--strategy", "semantic", "--size", "200", "--buffer", "0", "--amount", "50"],
        ),
        (
            {"strategy": "semantic", "size": 200, "breakpoint": "standard_deviation",
             "number_of_chunks": 2, "min_chunk_size": 10},
            ["--strategy", "semantic", "--size", "200", "--breakpoint", "standard_deviation",
             "--number-of-chunks", "2", "--min-chunk-size", "10"],
        ),
    ],
)
def test_strategies_report_as_the_cli_does(kwargs: dict[str, Any], flags: list[str]) -> None:
    for trace in (False, True):
        report = chunkscope.split(DOC, trace=trace, **kwargs)
        assert report["chunks"], kwargs
        for c in report["chunks"]:
            if c.get("is_slice", True):
                assert DOC[c["start"] : c["end"]] == c["text"]
        expected = cli([*flags, *(["--trace"] if trace else [])], DOC)
        if expected is not None:
            assert report == expected
    if kwargs["strategy"] == "markdown":
        paths = [[h["text"] for h in c["heading_path"]] for c in report["chunks"]]
        assert ["Refunds", "UPI"] in paths
    if kwargs["strategy"] == "sentence":
        assert "sentences" in chunkscope.split(DOC, trace=True, **kwargs)
    if "table_header" in kwargs:
        # The table (27 chars) is cut: each chunk of its rows carries the header.
        header = "| a | b |\n| - | - |\n"
        assert [c for c in report["chunks"] if c.get("prefix") == header]


def test_strategy_settings_are_refused_where_they_do_not_apply() -> None:
    for kwargs, name in [
        ({"each_line": True}, "each_line"),
        ({"heading_prefix": True}, "heading_prefix"),
        ({"table_header": "repeat"}, "table_header"),
        ({"breakpoint": "percentile"}, "breakpoint"),
        ({"buffer": 2}, "buffer"),
        ({"then_recursive": []}, "then_recursive"),
        ({"embedder": "lexical"}, "embedder"),
        ({"min_characters_per_chunk": 5}, "min_characters_per_chunk"),
    ]:
        with pytest.raises(chunkscope.ChunkscopeError, match=name):
            chunkscope.split(DOC, strategy="recursive", **kwargs)
    with pytest.raises(chunkscope.ChunkscopeError, match="unknown breakpoint"):
        chunkscope.split(DOC, strategy="semantic", breakpoint="median")
    with pytest.raises(chunkscope.ChunkscopeError, match="cannot read the model"):
        chunkscope.split(DOC, strategy="semantic", embedder="/nonexistent/vectors.txt")


def test_a_semantic_splitter_pickles_with_its_settings() -> None:
    import pickle

    splitter = chunkscope.Splitter(strategy="semantic", size=300, buffer=0, amount=60.0)
    again = pickle.loads(pickle.dumps(splitter))
    assert again.config == splitter.config
    assert again.config["buffer"] == 0 and again.config["amount"] == 60.0
    assert again.split(DOC) == splitter.split(DOC)


def test_the_markdown_recipe_pickles_and_shows_its_separators() -> None:
    import pickle

    splitter = chunkscope.Splitter(
        strategy="langchain-markdown", size=30, then_recursive=[r"\.\s", " "], regex=True
    )
    assert splitter.config["then_recursive"] == [r"\.\s", " "]
    assert splitter.config["regex"] is True
    again = pickle.loads(pickle.dumps(splitter))
    assert again.config == splitter.config
    assert again.split(DOC) == splitter.split(DOC)
    plain = chunkscope.Splitter(strategy="langchain-markdown")
    assert plain.config["then_recursive"] is None
    assert pickle.loads(pickle.dumps(plain)).config == plain.config
