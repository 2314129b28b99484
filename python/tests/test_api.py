"""The package's own API: `split` and `Splitter` (the CLI's report as Python
data), errors, the LangChain classes' refusals, documents without
langchain-core, token counts, pickling and threads."""

from __future__ import annotations

import doctest
import json
import os
import pickle
import random
import re
import subprocess
import sys
import threading

import pytest

import chunkscope
from chunkscope import ChunkscopeError, RecursiveCharacterTextSplitter, CharacterTextSplitter

REFUND = (
    "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n"
    "COD orders get store credit.\n\nContact us 24x7."
)
SEED_SEPARATORS = ["\n\n", "\n", ". ", " ", ""]


def test_refund_page_gives_the_five_chunks_of_the_lesson() -> None:
    report = chunkscope.split(REFUND, size=40, separators=SEED_SEPARATORS)
    assert report == {
        "chunks": [
            {"index": 0, "start": 0, "end": 13, "byte_start": 0, "byte_end": 13, "len": 13,
             "cut": "\n\n", "text": "Refund policy"},
            {"index": 1, "start": 15, "end": 35, "byte_start": 15, "byte_end": 35, "len": 20,
             "cut": ". ", "text": "Refunds take 5 days."},
            {"index": 2, "start": 36, "end": 67, "byte_start": 36, "byte_end": 67, "len": 31,
             "cut": "\n", "text": "They go to the original UPI id."},
            {"index": 3, "start": 68, "end": 96, "byte_start": 68, "byte_end": 96, "len": 28,
             "cut": "\n\n", "text": "COD orders get store credit."},
            {"index": 4, "start": 98, "end": 114, "byte_start": 98, "byte_end": 114, "len": 16,
             "cut": "end", "text": "Contact us 24x7."},
        ]
    }


def test_the_trace_and_checks_come_with_trace() -> None:
    report = chunkscope.split(REFUND, size=40, separators=SEED_SEPARATORS, trace=True)
    assert sorted(report) == ["checks", "chunks", "config", "trace"]
    assert report["checks"]["ok"] is True
    assert list(report["checks"]) == ["ok", "coverage", "max_size", "order", "overlap", "determinism"]
    root = report["trace"]["nodes"][0]
    assert (root["action"], root["separator"]["pattern"], root["split_into"]) == ("split", "\n\n", 3)
    assert report["trace"]["depth"] == 4
    assert [c["cut_label"] for c in report["chunks"]] == ["\\n\\n", ". ", "\\n", "\\n\\n", "end"]
    # The tree replayed as events: each chunk emitted once, in order, from its node.
    events = report["trace"]["events"]
    assert events[:2] == [{"kind": "measured", "node": 0}, {"kind": "split", "node": 0}]
    emitted = [(e["node"], e["chunk"]) for e in events if e["kind"] == "emitted"]
    assert emitted == [(c["node"], c["index"]) for c in report["chunks"]]
    assert report["config"] == {
        "strategy": "recursive", "size": 40, "overlap": 0, "unit": "chars",
        "separators": [{"pattern": s, "regex": False} for s in SEED_SEPARATORS],
        "placement": "end", "trim": True,
    }


def test_fixed_windows_and_their_overlap() -> None:
    report = chunkscope.split("abcdefghij", strategy="fixed", size=4, overlap=1)
    assert [(c["text"], c["cut"]) for c in report["chunks"]] == [
        ("abcd", "window"), ("defg", "window"), ("ghij", "end")
    ]
    assert report["chunks"][1]["overlap"] == {"start": 3, "end": 4, "byte_start": 3, "byte_end": 4}


def test_offsets_slice_the_text_in_chars_and_bytes() -> None:
    rng = random.Random(7)
    atoms = ["Ünï", "😀", "中文", " ", "\n\n", "é", "word", ". "]
    compared = 0
    for strategy in ("fixed", "recursive", "langchain", "langchain-character"):
        for unit in ("chars", "bytes", "cl100k"):
            for _ in range(25):
                text = "".join(rng.choices(atoms, k=rng.randrange(60)))
                size = rng.randint(4, 30)
                splitter = chunkscope.Splitter(
                    strategy=strategy, size=size, overlap=size // 4,
                    # Fixed windows read no separators; LangChain's own.
                    separators=(
                        None
                        if strategy == "fixed" or strategy.startswith("langchain")
                        else ["\n\n", " ", ""]
                    ),
                    unit=unit,
                )
                for chunk in splitter.split(text)["chunks"]:
                    raw = text.encode()[chunk["byte_start"]:chunk["byte_end"]].decode()
                    assert text[chunk["start"]:chunk["end"]] == raw
                    if chunk.get("is_slice", True):
                        assert chunk["text"] == raw
                    compared += 1
    assert compared == 1686


def test_the_report_is_the_command_lines_json() -> None:
    cli = os.environ.get("CHUNKSCOPE_CLI")
    if not cli:
        if os.environ.get("CHUNKSCOPE_LIVE") == "1":
            raise AssertionError("CHUNKSCOPE_CLI must name the chunkscope binary")
        pytest.skip("CHUNKSCOPE_CLI (the chunkscope binary) is not set")
    cases = [
        (["--size", "40", "--trace"], {"size": 40}),
        (["--strategy", "langchain", "--size", "20", "--overlap", "5", "--trace"],
         {"strategy": "langchain", "size": 20, "overlap": 5}),
        (["--strategy", "langchain-character", "--sep", " ", "--size", "12", "--trace"],
         {"strategy": "langchain-character", "size": 12, "separators": [" "]}),
        (["--strategy", "fixed", "--size", "9", "--overlap", "2", "--unit", "cl100k"],
         {"strategy": "fixed", "size": 9, "overlap": 2, "unit": "cl100k"}),
    ]
    for args, kwargs in cases:
        out = subprocess.run([cli, *args], input=REFUND.encode(), capture_output=True, check=True)
        trace = "--trace" in args
        assert chunkscope.split(REFUND, trace=trace, **kwargs) == json.loads(out.stdout), args


def test_a_splitter_is_reused_pickled_and_shown() -> None:
    splitter = chunkscope.Splitter(strategy="langchain", size=10, overlap=2)
    assert splitter.config == {
        "strategy": "langchain", "size": 10, "overlap": 2, "separators": [],
        "unit": "chars", "placement": "start", "trim": True, "regex": False,
    }
    again = pickle.loads(pickle.dumps(splitter))
    assert again.config == splitter.config
    assert again.split_text("hello world again") == (["hello", "world", "again"], [])
    assert repr(splitter) == (
        'Splitter(strategy="langchain", size=10, overlap=2, separators=[], unit="chars", '
        'placement="start", trim=True, regex=False)'
    )
    lc = RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name="o200k_base", chunk_size=3, chunk_overlap=1
    )
    assert pickle.loads(pickle.dumps(lc)).split_text("one two three four") == lc.split_text(
        "one two three four"
    )


def test_threads_share_a_splitter() -> None:
    splitter = RecursiveCharacterTextSplitter(chunk_size=50, chunk_overlap=10)
    texts = [f"paragraph {i} " * (50 + i) + "\n\n" + "tail " * i for i in range(40)]
    expected = [splitter.split_text(t) for t in texts]
    results: dict[int, list[str]] = {}

    def work(i: int) -> None:
        results[i] = splitter.split_text(texts[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(texts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [results[i] for i in range(len(texts))] == expected


MESSAGES = [
    (lambda: chunkscope.split("x", size=0),
     "size must be at least 1: a chunk of size 0 can hold nothing, so the splitter would never move forward"),
    (lambda: chunkscope.split("x", size=-3), "size must be a whole number of units from 0 up, got -3"),
    (lambda: chunkscope.split("x", strategy="late"),
     'unknown strategy "late": use "fixed", "recursive", "sentence", "markdown", "langchain", "langchain-character", "langchain-markdown", "semantic", "semchunk", "chonkie-recursive", "chonkie-token", "chonkie-sentence", "llamaindex-sentence", "llamaindex-token", "llamaindex-markdown", "text-splitter" or "text-splitter-markdown"'),
    (lambda: chunkscope.split("x", unit="tokens"),
     'unknown unit "tokens": use "chars" (Unicode characters), "bytes" (UTF-8 bytes), "cl100k" or "o200k" (OpenAI tokens)'),
    (lambda: chunkscope.split("x", placement="middle"),
     'unknown placement "middle": use "end", "start" or "none"'),
    (lambda: chunkscope.split("a\ud800b"),
     'the text holds a lone surrogate at position 1, which is not Unicode text (it has no UTF-8 form): decode the source with errors="replace" or fix it first'),
    (lambda: RecursiveCharacterTextSplitter(chunk_size=0),
     "chunk_size must be at least 1, got 0: no chunk could hold anything"),
    (lambda: RecursiveCharacterTextSplitter(chunk_size=5, chunk_overlap=-1),
     "chunk_overlap must be 0 or more, got -1"),
    (lambda: RecursiveCharacterTextSplitter(chunk_size=5.0),
     "chunk_size must be a whole number (an int), got 5.0"),
    (lambda: RecursiveCharacterTextSplitter(chunk_size=5, chunk_overlap=6),
     "chunk_overlap (6) is larger than chunk_size (5): LangChain refuses this; an overlap may be as large as the size, never larger"),
    (lambda: CharacterTextSplitter(keep_separator="middle"),
     'keep_separator must be True, False, "start" or "end", got \'middle\''),
    (lambda: RecursiveCharacterTextSplitter.from_tiktoken_encoder(chunk_size=5, chunk_overlap=0),
     'encoding "gpt2" is not one chunkscope counts in: use "cl100k_base" (GPT-4, GPT-3.5) or "o200k_base" (GPT-4o and later)'),
    (lambda: RecursiveCharacterTextSplitter.from_tiktoken_encoder(
        encoding_name="cl100k_base", allowed_special="all", chunk_size=5, chunk_overlap=0),
     'allowed_special and disallowed_special must keep their defaults (None, "all"): chunkscope refuses special tokens as tiktoken does by default'),
    (lambda: RecursiveCharacterTextSplitter.from_huggingface_tokenizer(object()),
     "from_huggingface_tokenizer is not supported: chunkscope counts characters, UTF-8 bytes, or OpenAI tokens (from_tiktoken_encoder with 'cl100k_base' or 'o200k_base')"),
    (lambda: RecursiveCharacterTextSplitter.get_separators_for_language("klingon"),
     "language 'klingon' is not one LangChain implements: choose from " + ", ".join(chunkscope.LANGUAGES)),
]


@pytest.mark.parametrize("call,message", MESSAGES)
def test_refusals_are_value_errors_that_say_what_to_change(call, message) -> None:
    with pytest.raises(ChunkscopeError) as caught:
        call()
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == message


def test_a_length_function_chunkscope_cannot_run_natively_is_refused() -> None:
    with pytest.raises(ChunkscopeError, match=r"length_function=<function .*<lambda> at 0x[0-9a-f]+> cannot be reproduced natively: chunkscope counts with len \(characters\), chunkscope.utf8_len"):
        RecursiveCharacterTextSplitter(chunk_size=5, chunk_overlap=0, length_function=lambda s: len(s))
    bytes_ = RecursiveCharacterTextSplitter(
        chunk_size=4, chunk_overlap=0, length_function=chunkscope.utf8_len, separators=[""]
    )
    assert bytes_.split_text("ééé") == ["éé", "é"]


def test_exceptions_are_of_langchains_kinds_too() -> None:
    bad = RecursiveCharacterTextSplitter(
        chunk_size=5, chunk_overlap=0, separators=["("], is_separator_regex=True
    )
    with pytest.raises(re.error) as caught:
        bad.split_text("a(b")
    assert isinstance(caught.value, chunkscope.RegexError)
    assert (caught.value.pattern, caught.value.pos) == ("(", 0)
    crash = RecursiveCharacterTextSplitter(
        chunk_size=5, chunk_overlap=0, separators=["(a)"], is_separator_regex=True
    )
    with pytest.raises(IndexError) as crashed:
        crash.split_text("xxa a a aaa b a")
    assert isinstance(crashed.value, chunkscope.LangChainCrash)
    assert type(crashed.value).__name__ == "LangChainCrash"
    unsupported = RecursiveCharacterTextSplitter(
        chunk_size=5, chunk_overlap=0, separators=["(?i)q"], is_separator_regex=True
    )
    with pytest.raises(chunkscope.UnsupportedError, match="case-insensitive"):
        unsupported.split_text("a Q b")
    tokens = CharacterTextSplitter.from_tiktoken_encoder(
        encoding_name="cl100k_base", separator=" ", chunk_size=5, chunk_overlap=0
    )
    with pytest.raises(ValueError, match="<|endoftext|>"):
        tokens.split_text("a <|endoftext|> b")


def test_documents_without_langchain_core(monkeypatch: pytest.MonkeyPatch) -> None:
    import chunkscope.langchain as lc

    monkeypatch.setitem(sys.modules, "langchain_core", None)
    monkeypatch.setitem(sys.modules, "langchain_core.documents", None)
    monkeypatch.setattr(lc, "_DOCUMENT", None)
    splitter = CharacterTextSplitter(separator=" ", chunk_size=7, chunk_overlap=3, add_start_index=True)
    docs = splitter.create_documents(["foo bar baz 123"], [{"src": "x"}])
    assert chunkscope.Document is type(docs[0])
    assert [(d.page_content, d.metadata) for d in docs] == [
        ("foo bar", {"src": "x", "start_index": 0}),
        ("bar baz", {"src": "x", "start_index": 4}),
        ("baz 123", {"src": "x", "start_index": 8}),
    ]
    assert repr(docs[0]) == "Document(metadata={'src': 'x', 'start_index': 0}, page_content='foo bar')"
    assert splitter.split_documents(docs[:1]) == [
        chunkscope.Document(page_content="foo bar", metadata={"src": "x", "start_index": 0})
    ]
    assert pickle.loads(pickle.dumps(docs[1])) == docs[1]


def test_token_counts_are_tiktokens() -> None:
    assert chunkscope.count_tokens("cl100k_base", "hello world") == 2
    assert chunkscope.count_tokens("o200k", "") == 0
    length = chunkscope.TokenLength("o200k_base")
    assert (length.unit, length("Refund policy")) == ("o200k", 2)
    try:
        import tiktoken
    except ImportError:
        return
    rng = random.Random(3)
    atoms = ["hello", " ", "world", "😀", "中文", "\n\n", "'s", "123456", "é", "  "]
    compared = 0
    for name in ("cl100k_base", "o200k_base"):
        enc = tiktoken.get_encoding(name)
        for _ in range(300):
            text = "".join(rng.choices(atoms, k=rng.randrange(40)))
            assert chunkscope.count_tokens(name, text) == len(enc.encode(text)), text
            compared += 1
    assert compared == 600


def test_the_package_docstring_runs() -> None:
    result = doctest.testmod(chunkscope)
    assert (result.failed, result.attempted) == (0, 3)


def test_languages_are_langchains_names() -> None:
    assert chunkscope.Language.PYTHON.value == "python"
    assert chunkscope.Language.PYTHON == "python"
    assert len(chunkscope.Language) == len(chunkscope.LANGUAGES) == 27
    splitter = RecursiveCharacterTextSplitter.from_language("python", chunk_size=30, chunk_overlap=0)
    assert splitter.split_text("class A:\n    pass\n\ndef f():\n    return 1\n") == [
        "class A:\n    pass", "def f():\n    return 1"
    ]


def test_every_field_of_a_real_report_is_declared_in_the_typed_dicts() -> None:
    """The typed dicts are the report's shape: each key a real report writes
    is declared, and each required one is written (a field added to the report
    and not here fails)."""
    import typing

    from chunkscope.report import (
        Check, Checks, Chunk, Node, Report, SemanticSettings, Settings, Trace, TraceEvent,
    )

    def keys_of(cls: type) -> tuple[frozenset[str], frozenset[str]]:
        return cls.__required_keys__, cls.__required_keys__ | cls.__optional_keys__

    def check(value: dict, cls: type, where: str) -> None:
        required, declared = keys_of(cls)
        assert required <= value.keys(), f"{where}: missing {sorted(required - value.keys())}"
        assert value.keys() <= declared, f"{where}: undeclared {sorted(value.keys() - declared)}"

    kinds = set(typing.get_args(typing.get_type_hints(TraceEvent)["kind"]))
    actions = set(typing.get_args(typing.get_type_hints(Node)["action"]))
    markdown = "# Refunds\n\nWithin 5 days.\n\n## UPI\n\n| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * 12
    cases = [
        (REFUND, dict(size=40, separators=SEED_SEPARATORS)),
        (REFUND, dict(strategy="fixed", size=12, overlap=3)),
        (REFUND, dict(size=25, separators=["\n\n", ""])),
        (markdown, dict(strategy="markdown", size=60, heading_prefix=True, table_header="repeat")),
        (REFUND, dict(strategy="langchain", size=40)),
        (REFUND, dict(strategy="semantic", size=60)),
    ]
    seen_kinds: set[str] = set()
    seen_actions: set[str] = set()
    for text, settings in cases:
        report = chunkscope.split(text, trace=True, **settings)
        where = settings.get("strategy", "recursive")
        check(report, Report, where)
        for chunk in report["chunks"]:
            check(chunk, Chunk, f"{where} chunk")
        check(report["trace"], Trace, f"{where} trace")
        check(report["checks"], Checks, f"{where} checks")
        for name, value in report["checks"].items():
            if name != "ok":
                check(value, Check, f"{where} check {name}")
        check(report["config"], Settings, f"{where} config")
        if "semantic" in report["config"]:
            check(report["config"]["semantic"], SemanticSettings, f"{where} semantic settings")
        for separator in report["config"].get("separators", []):
            assert separator.keys() <= {"pattern", "regex", "level"}, separator
        for node in report["trace"]["nodes"]:
            check(node, Node, f"{where} node")
            assert node["action"] in actions, node["action"]
            seen_actions.add(node["action"])
        for event in report["trace"]["events"]:
            check(event, TraceEvent, f"{where} event")
            assert event["kind"] in kinds, event["kind"]
            seen_kinds.add(event["kind"])
    assert seen_kinds == kinds
    assert {"fits", "split", "hard_cut", "windows", "structure"} <= seen_actions
