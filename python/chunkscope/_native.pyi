"""The compiled engine (see chunkscope/__init__.py for the documented API)."""

from collections.abc import Callable, Sequence
from typing import Any, Literal

Strategy = Literal[
    "fixed",
    "recursive",
    "sentence",
    "markdown",
    "langchain",
    "langchain-character",
    "langchain-markdown",
    "semantic",
]

__version__: str
LANGUAGES: list[str]
STRATEGIES: list[str]
UNITS: list[str]
PLACEMENTS: list[str]

class Splitter:
    """A splitting configuration, checked and compiled once; immutable and
    shareable between threads. Pickles as its configuration.

    ``strategy`` is ``"fixed"``, ``"recursive"``, ``"sentence"`` (sentence
    ends first), ``"markdown"`` (sections by heading, blocks packed, each
    chunk with its heading path), ``"langchain"``, ``"langchain-character"``,
    ``"langchain-markdown"`` or ``"semantic"`` (``SemanticChunker``'s
    breakpoints over the built-in lexical embedder or a word-vector file;
    :class:`chunkscope.SemanticChunker` takes LangChain's own embeddings).
    ``separators=None`` and ``placement=None`` take the strategy's defaults.
    ``each_line`` is ``return_each_line`` and ``then_recursive`` the
    separators of the ``RecursiveCharacterTextSplitter`` that LangChain's
    docs run on each section (``[]``: its default list; regexes when
    ``regex``) (``"langchain-markdown"`` only),
    ``heading_prefix`` counts each chunk's heading path in its size and
    ``table_header`` (``"once"`` or ``"repeat"``) says whether each chunk of
    a cut table's rows starts with its header rows (``"markdown"`` only); ``breakpoint``, ``amount``, ``buffer``,
    ``number_of_chunks``, ``min_chunk_size`` and ``embedder`` (``"lexical"``
    or the path of a GloVe/fastText text file) are ``SemanticChunker``'s
    (``"semantic"`` only); ``min_characters_per_chunk`` is
    ``RecursiveChunker``'s (``"chonkie-recursive"`` only: splits shorter than
    this many UTF-8 bytes joined to a neighbour; ``None`` is chonkie's 24).
    A setting of another strategy is refused.
    Raises ``chunkscope.ChunkscopeError`` for a configuration the engine
    refuses.
    """

    def __new__(
        cls,
        strategy: Strategy = "recursive",
        size: int = 1000,
        overlap: int = 0,
        separators: list[str] | None = None,
        unit: str = "chars",
        placement: str | None = None,
        trim: bool = True,
        regex: bool = False,
        each_line: bool = False,
        heading_prefix: bool = False,
        breakpoint: str | None = None,
        amount: float | None = None,
        buffer: int | None = None,
        number_of_chunks: int | None = None,
        min_chunk_size: int | None = None,
        embedder: str | None = None,
        then_recursive: list[str] | None = None,
        table_header: str | None = None,
        min_characters_per_chunk: int | None = None,
    ) -> Splitter: ...
    def split(self, text: str, trace: bool = False) -> dict[str, Any]:
        """The report of the ``chunkscope`` command, as dicts and lists."""
    def split_text(self, text: str) -> tuple[list[str], list[str]]:
        """The chunk texts (LangChain's strings), and LangChain's warnings."""
    def split_indexed(self, text: str) -> tuple[list[str], list[int], list[str]]:
        """The chunk texts, their ``start_index`` values, and the warnings."""
    @property
    def config(self) -> dict[str, Any]:
        """The configuration, in the names the constructor takes."""

def markdown_header_split(
    text: str,
    headers: list[tuple[str, str]],
    return_each_line: bool = False,
    strip_headers: bool = True,
) -> list[tuple[str, dict[str, str]]]:
    """``MarkdownHeaderTextSplitter``'s chunks: LangChain's text and header
    metadata of each."""

def semantic_split_text(
    text: str,
    embed: Callable[[list[str]], Sequence[Sequence[float]]],
    breakpoint: str = "percentile",
    amount: float | None = None,
    buffer: int = 1,
    number_of_chunks: int | None = None,
    min_chunk_size: int | None = None,
) -> list[str]:
    """``SemanticChunker.split_text``: LangChain's chunk strings, with
    ``embed`` (``embed_documents``) called once with the sentence groups, or
    not at all where LangChain makes no call. Its exceptions come out
    unchanged."""

def count_tokens(encoding: str, text: str) -> int:
    """Tokens of ``text`` in ``encoding`` (as tiktoken's ``encode``; special
    tokens refused)."""

def encoding_unit(name: str) -> str:
    """``"cl100k_base"`` -> ``"cl100k"``, ``"o200k_base"`` -> ``"o200k"``."""

def separators_for_language(name: str) -> list[str] | None:
    """LangChain's separators for a language, or None."""
