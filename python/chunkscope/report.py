"""The shape of a report (``chunkscope.split``, ``Splitter.split``): the JSON of
the ``chunkscope`` command, field for field (docs/cli.md), as typed dicts.

Fields that do not apply are absent, not ``None``; a trace node's fields are
always present and may be ``None``.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

__all__ = [
    "Check",
    "Checks",
    "Chunk",
    "Heading",
    "Node",
    "Report",
    "SemanticSettings",
    "Settings",
    "SpanReport",
    "Trace",
    "TraceEvent",
]


class SpanReport(TypedDict):
    """A stretch of the text in chars and in UTF-8 bytes, half-open."""

    start: int
    end: int
    byte_start: int
    byte_end: int


class Heading(TypedDict):
    """A heading on a Markdown chunk's path: its level (1 to 6), its text as
    written, and where that text is (chars and bytes)."""

    level: int
    text: str
    start: int
    end: int
    byte_start: int
    byte_end: int


class _ChunkFields(TypedDict):
    index: int
    start: int
    end: int
    byte_start: int
    byte_end: int
    len: int
    cut: str
    text: str


class Chunk(_ChunkFields, total=False):
    """One chunk. ``text`` is the source from ``start`` to ``end`` unless
    ``is_slice`` is false (a LangChain chunk glued back with a regex's pattern
    text, a Chonkie chunk whose tokens were decoded apart to U+FFFD)."""

    is_slice: bool
    start_index: int
    overlap: SpanReport
    cut_separator: int
    cut_label: str
    node: int
    metadata: dict[str, str]
    heading_path: list[Heading]
    prefix: str
    table_header: SpanReport


class _EventFields(TypedDict):
    kind: Literal["closed", "measured", "split", "cut", "emitted"]
    node: int


class TraceEvent(_EventFields, total=False):
    """One thing the engine did, in order: a piece ``measured`` against the
    size, ``split`` (its children's events follow) or ``cut`` into windows, a
    group ``closed`` because the next part would not fit, a chunk ``emitted``
    (with its index in ``chunk``)."""

    chunk: int


class SeparatorRef(TypedDict, total=False):
    """The separator a node was split by: its index in the list, its raw text
    or regex, the label a person reads, whether it is a regex, and for a named
    level, its name."""

    index: int
    pattern: str
    label: str
    regex: bool
    level: str


class _NodeFields(TypedDict):
    id: int
    depth: int
    parent: int | None
    children: list[int]
    start: int
    end: int
    byte_start: int
    byte_end: int
    len: int
    too_big: bool
    action: Literal[
        "fits",
        "empty",
        "split",
        "hard_cut",
        "windows",
        "structure",
        "chonkie_level",
        "sentences",
    ]
    separator: SeparatorRef | None
    absent: list[int]
    parts: dict[str, int] | None
    split_into: int | None
    windows: int | None
    stride: int | None
    close: dict[str, Any] | None
    chunk: int | None


class Node(_NodeFields, total=False):
    """A node of the recursion tree (docs/cli.md, ``trace.nodes``); ``level``
    only for ``structure`` and ``chonkie_level`` nodes."""

    level: str


class _TraceFields(TypedDict):
    depth: int
    nodes: list[Node]
    events: list[TraceEvent]


class Trace(_TraceFields, total=False):
    """The recursion tree, flattened in the order the engine visited it, and
    its events; ``semantic`` for the semantic strategy."""

    semantic: dict[str, Any]


class Check(TypedDict):
    """One invariant: whether it holds, and the first violation or a one-line
    confirmation."""

    ok: bool
    detail: str


class _ChecksFields(TypedDict):
    ok: bool


class Checks(_ChecksFields, total=False):
    """The invariants: ``ok`` when every one checked holds, then each by name
    (``determinism`` only when the second run was made)."""

    coverage: Check
    max_size: Check
    order: Check
    overlap: Check
    determinism: Check


class SemanticSettings(TypedDict, total=False):
    """The semantic strategy's settings, with LangChain's names."""

    breakpoint: str
    amount: float
    buffer: int
    number_of_chunks: int
    min_chunk_size: int
    embedder: str


class Settings(TypedDict, total=False):
    """The configuration that made a split (``report["config"]``), in the
    shape ``split`` takes as keywords, so a report can be replayed. Each
    separator is ``{"pattern": …, "regex": …}``, or ``{"level": "sentence"}``."""

    strategy: str
    size: int
    overlap: int
    unit: str
    separators: list[dict[str, Any]]
    placement: str
    trim: bool
    each_line: bool
    then_recursive: list[dict[str, Any]]
    heading_prefix: bool
    table_header: str
    semantic: SemanticSettings
    min_characters_per_chunk: int


class _ReportFields(TypedDict):
    chunks: list[Chunk]


class Report(_ReportFields, total=False):
    """A split: its chunks, and with ``trace=True`` the recursion tree, the
    checks, the configuration and LangChain's section."""

    trace: Trace
    checks: Checks
    config: Settings
    langchain: dict[str, Any]
    sentences: list[SpanReport]
    sentence_candidates: list[dict[str, Any]]
