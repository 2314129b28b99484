"""Shared helpers: running a LangChain-style case through chunkscope (or the
real LangChain) and describing its outcome so that two can be compared."""

from __future__ import annotations

import importlib
import logging
import os
import re
from collections.abc import Callable
from typing import Any

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Warnings(logging.Handler):
    """Keeps the messages logged at WARNING and above on some loggers."""

    def __init__(self, *names: str) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []
        for name in names:
            log = logging.getLogger(name)
            log.addHandler(self)
            log.propagate = False

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


WARNINGS = Warnings("chunkscope", "langchain_text_splitters.base", "langchain_text_splitters")

# LangChain's exception kinds as the recorded answers name them (the class's
# __name__): how chunkscope's `langchain` attribute spells each, and the class
# it stands for, which chunkscope's exception must also be an instance of.
KINDS: dict[str, tuple[str, type[BaseException]]] = {
    "ValueError": ("ValueError", ValueError),
    "error": ("re.error", re.error),
    "OverflowError": ("OverflowError", OverflowError),
    "TypeError": ("TypeError", TypeError),
    "IndexError": ("IndexError", IndexError),
}


def outcome(run: Callable[[], list[Any]]) -> dict[str, Any]:
    """What one split gave, in the recorded answers' shape: chunks, start
    indices and warnings from `create_documents` with `add_start_index=True`,
    or the exception (its class kept for comparing by kind)."""
    WARNINGS.messages = []
    try:
        docs = run()
    except Exception as exc:  # every failure is an answer to compare
        return {"error": type(exc).__name__, "message": str(exc), "exception": exc}
    return {
        "chunks": [d.page_content for d in docs],
        "start_indices": [d.metadata["start_index"] for d in docs],
        "warnings": list(WARNINGS.messages),
    }


# The engine's own refusals: a regex Python accepts but whose result the
# engine will not guess (the i flag, \N{NAME}, …), and more separators in
# use than LangChain's recursion follows. The Rust differential
# lists the same refusals; they are counted, never taken for agreement with
# an answer.
OWN_REFUSALS = ("UnsupportedError", "RecursionLimitError")


def refused(ours: dict[str, Any]) -> bool:
    """Whether `ours` is one of the engine's own refusals."""
    return ours.get("error") in OWN_REFUSALS


def differs(ours: dict[str, Any], theirs: dict[str, Any]) -> str | None:
    """None when the outcomes agree: the same chunks, start indices and
    warnings, or the same exception: ours is an instance of LangChain's class
    and says, in its `langchain` attribute, that LangChain raises exactly
    this class with exactly this message. The caller sets the engine's own
    refusals ([`refused`]) apart first."""
    if "error" in theirs:
        if "error" not in ours:
            return f"LangChain raises {theirs['error']}: {theirs['message']}; we give {ours}"
        if theirs["error"] not in KINDS:
            return f"LangChain raises {theirs['error']}, which these tests do not expect: {theirs}"
        spelt, kind = KINDS[theirs["error"]]
        exc = ours["exception"]
        if not isinstance(exc, kind):
            return f"LangChain raises {theirs['error']}, we raise {ours['error']}: {ours['message']}"
        said = getattr(exc, "langchain", None)
        if said != (spelt, theirs["message"]):
            return (
                f"LangChain raises {spelt}({theirs['message']!r}); "
                f"our {ours['error']} says it raises {said!r}"
            )
        return None
    if "error" in ours:
        return f"we raise {ours['error']}: {ours['message']}; LangChain gives {theirs}"
    for key in ("chunks", "start_indices", "warnings"):
        if ours[key] != theirs[key]:
            return f"{key} differ:\n  ours   {ours[key]!r}\n  theirs {theirs[key]!r}"
    return None


def build(module: Any, case: dict[str, Any]) -> Any:
    """The splitter a recorded case describes (tests/reference/langchain/
    driver.py's protocol), from `module`: chunkscope or langchain_text_splitters."""
    kwargs: dict[str, Any] = {
        "chunk_size": case["chunk_size"],
        "chunk_overlap": case["chunk_overlap"],
        "keep_separator": case["keep_separator"],
        "is_separator_regex": case["is_separator_regex"],
        "strip_whitespace": case["strip_whitespace"],
        "add_start_index": True,
    }
    unit = case.get("unit", "chars")
    if unit == "bytes":
        kwargs["length_function"] = utf8_length(module)
    separators = case["separators"]
    if case["kind"] == "character":
        if separators:
            kwargs["separator"] = separators[0]
        cls = module.CharacterTextSplitter
    else:
        kwargs["separators"] = separators
        cls = module.RecursiveCharacterTextSplitter
    if unit in ("cl100k", "o200k"):
        return cls.from_tiktoken_encoder(encoding_name=unit + "_base", **kwargs)
    return cls(**kwargs)


def utf8_length(module: Any) -> Callable[[str], int]:
    """LangChain takes any function; chunkscope recognises its own."""
    if getattr(module, "__name__", "") == "chunkscope":
        return module.utf8_len
    return lambda s: len(s.encode("utf-8"))


def split_case(module: Any, case: dict[str, Any]) -> dict[str, Any]:
    return outcome(lambda: build(module, case).create_documents([case["text"]]))


def reference(module: str, package: str) -> Any:
    """Imports a reference library (the pinned one in `./x test`). Missing,
    the live comparisons are skipped, unless CHUNKSCOPE_LIVE=1 asks for them
    (as `./x test` does): then it is an error."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CHUNKSCOPE_LIVE") == "1":
            raise
        pytest.skip(f"{package} is not installed (CHUNKSCOPE_LIVE=1 requires it)")


@pytest.fixture(scope="session")
def langchain() -> Any:
    """The real langchain-text-splitters."""
    return reference("langchain_text_splitters", "langchain-text-splitters")


@pytest.fixture(scope="session")
def semchunk() -> Any:
    """The real semchunk."""
    return reference("semchunk", "semchunk")


@pytest.fixture(scope="session")
def text_splitter() -> Any:
    """The real semantic-text-splitter."""
    return reference("semantic_text_splitter", "semantic-text-splitter")


@pytest.fixture(scope="session")
def chonkie() -> Any:
    """The real chonkie, and tiktoken for its token unit."""
    return reference("chonkie", "chonkie"), reference("tiktoken", "tiktoken")


@pytest.fixture(scope="session")
def llamaindex() -> Any:
    """The real LlamaIndex SentenceSplitter, with the NLTK data its wheel
    bundles (so that nothing is downloaded), and tiktoken for o200k."""
    core = reference("llama_index.core", "llama-index-core")
    os.environ.setdefault(
        "NLTK_DATA", os.path.join(os.path.dirname(core.__file__), "_static", "nltk_cache")
    )
    parser = reference("llama_index.core.node_parser", "llama-index-core")
    return parser.SentenceSplitter, reference("tiktoken", "tiktoken")


@pytest.fixture(scope="session")
def llamaindex_token(llamaindex) -> Any:
    """The real LlamaIndex TokenTextSplitter, from the same package."""
    return reference("llama_index.core.node_parser", "llama-index-core").TokenTextSplitter


@pytest.fixture(scope="session")
def llamaindex_markdown(llamaindex) -> Any:
    """The real LlamaIndex MarkdownNodeParser and Document, from the same package."""
    core = reference("llama_index.core", "llama-index-core")
    return reference("llama_index.core.node_parser", "llama-index-core").MarkdownNodeParser, core.Document
