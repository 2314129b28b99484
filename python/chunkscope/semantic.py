"""LangChain's ``SemanticChunker`` (langchain-experimental 0.4.2), chunk for chunk.

The chunker asks ``embeddings.embed_documents`` for the vectors of its sentence
groups, once per text, exactly as LangChain's does (same texts, same order, and
no call where LangChain makes none); everything else (the sentences, the
groups, the cosine distances, NumPy's percentile, standard deviation and
gradient, the breakpoints, ``min_chunk_size``) runs in the engine, bit for bit
as LangChain computes it with NumPy. The vectors are read as 64-bit floats, as
NumPy reads a list of Python floats.
"""

from __future__ import annotations

import copy
from typing import Any

from . import _native
from .errors import ChunkscopeError, UnsupportedError
from .langchain import DocumentTransformer, document_class

__all__ = ["BREAKPOINT_DEFAULTS", "SemanticChunker"]

#: LangChain's default ``breakpoint_threshold_amount`` of each kind.
BREAKPOINT_DEFAULTS: dict[str, float] = {
    "percentile": 95,
    "standard_deviation": 3,
    "interquartile": 1.5,
    "gradient": 95,
}

_SENTENCE_SPLIT_REGEX = r"(?<=[.?!])\s+"


def _optional_whole(name: str, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ChunkscopeError(f"{name} must be a whole number or None, got {value!r}")
    return value


class SemanticChunker(DocumentTransformer):
    """``langchain_experimental.text_splitter.SemanticChunker``, with its
    constructor arguments and methods, giving its chunks string for string.

    ``embeddings`` is any LangChain ``Embeddings`` (only ``embed_documents``
    is called, once per text). ``buffer_size`` sentences either side join a
    sentence's group; a chunk ends after each group whose distance to the
    next is above the threshold (``breakpoint_threshold_type``
    ``"percentile"``, ``"standard_deviation"``, ``"interquartile"`` or
    ``"gradient"``, with ``breakpoint_threshold_amount``, default
    :data:`BREAKPOINT_DEFAULTS`); ``number_of_chunks`` sets the threshold
    from the chunk count instead; ``min_chunk_size`` (chars) keeps a chunk
    open until it is that long. Only LangChain's own ``sentence_split_regex``
    is reproduced; another is refused (:class:`chunkscope.UnsupportedError`).
    Unlike LangChain, a bad threshold kind or amount is refused here, when
    the chunker is made, rather than at the first split.
    """

    def __init__(
        self,
        embeddings: Any,
        buffer_size: int = 1,
        add_start_index: bool = False,
        breakpoint_threshold_type: str = "percentile",
        breakpoint_threshold_amount: float | None = None,
        number_of_chunks: int | None = None,
        sentence_split_regex: str = _SENTENCE_SPLIT_REGEX,
        min_chunk_size: int | None = None,
    ) -> None:
        if breakpoint_threshold_type not in BREAKPOINT_DEFAULTS:
            raise ChunkscopeError(
                f"Got unexpected `breakpoint_threshold_type`: {breakpoint_threshold_type}: use "
                + ", ".join(repr(k) for k in BREAKPOINT_DEFAULTS)
            )
        if sentence_split_regex != _SENTENCE_SPLIT_REGEX:
            raise UnsupportedError(
                f"sentence_split_regex {sentence_split_regex!r} is not reproduced: chunkscope "
                f"splits sentences as LangChain's default {_SENTENCE_SPLIT_REGEX!r} does"
            )
        buffer = _optional_whole("buffer_size", buffer_size)
        if buffer is None:
            raise ChunkscopeError("buffer_size must be a whole number, got None")
        self._add_start_index = bool(add_start_index)
        self.embeddings = embeddings
        self.buffer_size = buffer
        self.breakpoint_threshold_type = breakpoint_threshold_type
        self.number_of_chunks = _optional_whole("number_of_chunks", number_of_chunks)
        self.sentence_split_regex = sentence_split_regex
        if breakpoint_threshold_amount is None:
            self.breakpoint_threshold_amount = BREAKPOINT_DEFAULTS[breakpoint_threshold_type]
        else:
            self.breakpoint_threshold_amount = breakpoint_threshold_amount
        try:
            amount = float(self.breakpoint_threshold_amount)
        except (TypeError, ValueError):
            raise ChunkscopeError(
                f"breakpoint_threshold_amount must be a number, got {breakpoint_threshold_amount!r}"
            ) from None
        self._amount = amount
        self.min_chunk_size = _optional_whole("min_chunk_size", min_chunk_size)

    def _engine_counts(self) -> tuple[int | None, int | None]:
        # LangChain takes a number_of_chunks below 1 as 1 and never finds a
        # chunk shorter than a min_chunk_size below 1: 0 means the same.
        n, m = self.number_of_chunks, self.min_chunk_size
        return (None if n is None else max(n, 0), None if m is None else max(m, 0))

    def split_text(self, text: str) -> list[str]:
        """LangChain's chunk strings of ``text`` (sentences joined with one
        space; ``[""]`` for the empty text, as LangChain)."""
        number_of_chunks, min_chunk_size = self._engine_counts()
        return _native.semantic_split_text(
            text,
            self.embeddings.embed_documents,
            self.breakpoint_threshold_type,
            self._amount,
            max(self.buffer_size, 0),  # below 0, LangChain's groups are the sentences alone
            number_of_chunks,
            min_chunk_size,
        )

    def create_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> list[Any]:
        """One ``Document`` per chunk, with a deep copy of its text's metadata
        and, with ``add_start_index``, LangChain's ``start_index``: the sum of
        the lengths of the chunks before it (counted, not searched for)."""
        document = document_class()
        metadatas_ = metadatas or [{}] * len(texts)
        documents = []
        for i, text in enumerate(texts):
            start_index = 0
            for chunk in self.split_text(text):
                metadata = copy.deepcopy(metadatas_[i])
                if self._add_start_index:
                    metadata["start_index"] = start_index
                documents.append(document(page_content=chunk, metadata=metadata))
                start_index += len(chunk)
        return documents

    def __repr__(self) -> str:
        return (
            f"SemanticChunker(buffer_size={self.buffer_size}, "
            f"breakpoint_threshold_type={self.breakpoint_threshold_type!r}, "
            f"breakpoint_threshold_amount={self.breakpoint_threshold_amount!r}, "
            f"number_of_chunks={self.number_of_chunks!r}, "
            f"min_chunk_size={self.min_chunk_size!r})"
        )
