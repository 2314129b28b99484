"""The shape of a report (``chunkscope.split``, ``Splitter.split``): the JSON of
the ``chunkscope`` command, field for field (docs/cli.md), as typed dicts.

Fields that do not apply are absent, not ``None``; a trace node's fields are
always present and may be ``None``.
"""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = ["Chunk", "Heading", "Report", "SpanReport"]


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
    text)."""

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


class _ReportFields(TypedDict):
    chunks: list[Chunk]


class Report(_ReportFields, total=False):
    """A split: its chunks, and with ``trace=True`` the recursion tree, the
    checks, the configuration and LangChain's section."""

    trace: dict[str, Any]
    checks: dict[str, Any]
    config: dict[str, Any]
    langchain: dict[str, Any]
    sentences: list[SpanReport]
    sentence_candidates: list[dict[str, Any]]
