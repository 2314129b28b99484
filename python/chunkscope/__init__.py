"""chunkscope: exact, traced text splitting for retrieval, at engine speed.

Two ways in:

- :func:`split` (and :class:`Splitter`, to reuse one configuration): any of the
  engine's strategies, returning plain data, the report the ``chunkscope``
  command prints as JSON::

      >>> import chunkscope
      >>> report = chunkscope.split("Refund policy\\n\\nRefunds take 5 days.", size=15)
      >>> [(c["text"], c["start"], c["end"], c["cut"]) for c in report["chunks"]]
      [('Refund policy', 0, 13, '\\n\\n'), ('Refunds take 5', 15, 29, ' '), ('days.', 30, 35, 'end')]

- LangChain's ``RecursiveCharacterTextSplitter``, ``CharacterTextSplitter`` and
  ``MarkdownHeaderTextSplitter``, argument for argument and string for string
  (see :mod:`chunkscope.langchain`), and langchain-experimental's
  ``SemanticChunker`` with the caller's embeddings (:mod:`chunkscope.semantic`).

Every refusal is a :class:`ChunkscopeError` (a ``ValueError``) whose message says
what to change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import errors
from ._native import LANGUAGES, PLACEMENTS, STRATEGIES, UNITS, Splitter, __version__, count_tokens
from .errors import (
    ChunkscopeError,
    LangChainCrash,
    RecursionLimitError,
    RegexError,
    UnsupportedError,
)
from .langchain import (
    CharacterTextSplitter,
    Language,
    MarkdownHeaderTextSplitter,
    RecursiveCharacterTextSplitter,
    TextSplitter,
    TokenLength,
    utf8_len,
)
from .report import Report
from .semantic import SemanticChunker

if TYPE_CHECKING:
    from ._native import Strategy

__all__ = [
    "LANGUAGES",
    "PLACEMENTS",
    "STRATEGIES",
    "UNITS",
    "CharacterTextSplitter",
    "ChunkscopeError",
    "Document",
    "LangChainCrash",
    "Language",
    "MarkdownHeaderTextSplitter",
    "RecursionLimitError",
    "RecursiveCharacterTextSplitter",
    "RegexError",
    "Report",
    "SemanticChunker",
    "Splitter",
    "TextSplitter",
    "TokenLength",
    "UnsupportedError",
    "__version__",
    "count_tokens",
    "errors",
    "split",
    "utf8_len",
]


def split(
    text: str,
    *,
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
    trace: bool = False,
) -> Report:
    """Splits ``text`` and returns the report the ``chunkscope`` command prints.

    ``report["chunks"]`` lists the chunks in order, each a dict with ``text``,
    ``start``/``end`` (char offsets, what Python slices with), ``byte_start``/
    ``byte_end`` (UTF-8 offsets), ``len`` (in ``unit``), ``cut`` (the separator
    that ended it, or ``"hard"``, ``"window"``, ``"end"``) and ``index``; a
    LangChain strategy adds ``is_slice`` and ``start_index`` (so does a Chonkie
    one when a chunk is not a slice, and ``"llamaindex-markdown"``). With
    ``trace=True`` the report also holds ``trace`` (the recursion tree),
    ``checks`` (the invariants, with a determinism re-run), ``config`` and, for
    LangChain, ``langchain`` (its warnings and equivalent Python code).

    Arguments are those of the command line (docs/cli.md): ``strategy`` is
    ``"fixed"``, ``"recursive"``, ``"sentence"``, ``"markdown"``,
    ``"langchain"``, ``"langchain-character"``, ``"langchain-markdown"``,
    ``"semantic"``, ``"semchunk"`` (semchunk's ``chunkerify``, exactly:
    ``split(text, strategy="semchunk", size=40)`` gives
    ``semchunk.chunkerify(len, 40)(text)``'s chunks) or
    ``"chonkie-recursive"`` (chonkie's ``RecursiveChunker``, exactly),
    ``"chonkie-token"`` (its ``TokenChunker``, exactly:
    ``split(text, strategy="chonkie-token", size=40, overlap=5)`` gives
    ``TokenChunker("character", chunk_size=40, chunk_overlap=5).chunk(text)``),
    ``"chonkie-sentence"`` (its ``SentenceChunker`` with its defaults,
    exactly: ``split(text, strategy="chonkie-sentence", size=40, overlap=5)``
    gives ``SentenceChunker("character", chunk_size=40,
    chunk_overlap=5).chunk(text)``),
    ``"llamaindex-sentence"`` (LlamaIndex's ``SentenceSplitter``, exactly:
    ``split(text, strategy="llamaindex-sentence", size=40, unit="cl100k")``
    gives ``SentenceSplitter(chunk_size=40, chunk_overlap=0).split_text(text)``;
    ``unit`` stays ``"chars"`` unless given, so pass ``"cl100k"`` for
    LlamaIndex's default tokenizer),
    ``"llamaindex-token"`` (its ``TokenTextSplitter`` with its defaults,
    exactly: ``split(text, strategy="llamaindex-token", size=40, overlap=5,
    unit="cl100k")`` gives ``TokenTextSplitter(chunk_size=40,
    chunk_overlap=5).split_text(text)``),
    ``"llamaindex-markdown"`` (its ``MarkdownNodeParser`` with its defaults,
    exactly: ``split(text, strategy="llamaindex-markdown")`` gives the nodes
    of ``MarkdownNodeParser().get_nodes_from_documents([Document(text=text)])``,
    each chunk's ``metadata`` their ``header_path``, its ``start_index``
    their ``start_char_idx`` (-1 where that is ``None``), and ``is_slice``
    false where a header line was rebuilt; no size limit: ``size`` only
    judges the chunks) or
    ``"text-splitter"`` or ``"text-splitter-markdown"`` (the
    ``semantic-text-splitter`` package's ``TextSplitter`` and
    ``MarkdownSplitter``: ``split(text, strategy="text-splitter", size=40)``
    gives ``TextSplitter(40).chunks(text)``);
    ``size`` and ``overlap`` count ``unit`` (``"chars"``, ``"bytes"``,
    ``"cl100k"``, ``"o200k"``); ``separators`` are strongest first (real
    strings: ``"\\n\\n"``, and ``""`` for the hard cut), regular expressions
    when ``regex``; ``None`` takes the strategy's defaults, and so does
    ``placement=None`` (``"end"``, ``"start"`` or ``"none"``: which chunk keeps
    a separator).

    Strategy by strategy:

    - ``"sentence"``: the recursive engine whose first separator is the
      sentence level (``"\\p{sentence}"``: the whitespace after each sentence,
      abbreviations, initials, URLs and decimals not taken for ends); with
      ``trace=True`` the report lists the sentences and every doubtful stop.
    - ``"markdown"``: sections by heading, blocks packed inside a section,
      tables cut by rows and code by lines; each chunk carries its heading
      path, and ``heading_prefix=True`` counts that path (as a prefix) in the
      size; ``table_header="repeat"`` puts a cut table's header rows before
      each later chunk of its rows (in its ``prefix``) and counts them too
      (``"once"``, the default: they are in the table's first chunk only).
    - ``"langchain-markdown"``: LangChain's ``MarkdownHeaderTextSplitter``
      (``separators`` are the header markers, default ``#``, ``##``,
      ``###``; ``placement="start"`` keeps the header lines, ``each_line``
      is ``return_each_line``); chunks carry ``metadata``. The class
      :class:`MarkdownHeaderTextSplitter` takes LangChain's own arguments.
      ``then_recursive`` runs the recipe of LangChain's docs: each section
      split again by ``RecursiveCharacterTextSplitter(separators=...,
      chunk_size=size, chunk_overlap=overlap).split_documents`` (``[]``:
      its default separators; regexes when ``regex``).
    - ``"semantic"``: LangChain's ``SemanticChunker``: a chunk ends where
      the cosine distance between neighbouring sentence groups passes the
      threshold (``breakpoint``: ``"percentile"``, ``"standard_deviation"``,
      ``"interquartile"`` or ``"gradient"``, its ``amount``; ``buffer``
      sentences either side; ``number_of_chunks``; ``min_chunk_size``
      chars). ``embedder`` is ``"lexical"`` (TF-IDF over the document's own
      sentences, no model) or the path of a GloVe/fastText text file; a
      chunk longer than ``size`` is split again at the separators.
    - ``"chonkie-recursive"``: ``min_characters_per_chunk`` is
      ``RecursiveChunker``'s: at each level, splits shorter than this many
      UTF-8 bytes are joined to a neighbour before packing (``None``:
      chonkie's 24; 1 joins none; 0 raises chonkie's ``ValueError``).

    Settings that do not apply to the strategy are refused, not ignored.
    """
    splitter = Splitter(
        strategy=strategy,
        size=size,
        overlap=overlap,
        separators=separators,
        unit=unit,
        placement=placement,
        trim=trim,
        regex=regex,
        each_line=each_line,
        heading_prefix=heading_prefix,
        breakpoint=breakpoint,
        amount=amount,
        buffer=buffer,
        number_of_chunks=number_of_chunks,
        min_chunk_size=min_chunk_size,
        embedder=embedder,
        then_recursive=then_recursive,
        table_header=table_header,
        min_characters_per_chunk=min_characters_per_chunk,
    )
    return splitter.split(text, trace=trace)  # type: ignore[return-value]


def __getattr__(name: str) -> Any:
    # LangChain's Document when langchain-core is installed, resolved on use.
    if name == "Document":
        from .langchain import document_class

        return document_class()
    raise AttributeError(f"module 'chunkscope' has no attribute {name!r}")
