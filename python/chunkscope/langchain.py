"""LangChain's ``RecursiveCharacterTextSplitter``, ``CharacterTextSplitter`` and
``MarkdownHeaderTextSplitter``, exactly, at engine speed.

The classes take LangChain's constructor arguments and give LangChain's output,
string for string: chunk texts (quirks included, such as a regex separator put
back as its pattern text), ``start_index`` metadata (LangChain's ``str.find``
from a guessed offset, which can land on an earlier repeat), the warnings it
logs, and the exceptions it raises (by kind). The pinned reference is
``langchain-text-splitters`` 1.1.3; a differential test holds every case to it.

Swapping the import is the whole migration::

    from chunkscope import RecursiveCharacterTextSplitter
    splitter = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=100)
    chunks = splitter.split_text(text)

What cannot be reproduced at engine speed is refused with a message, never
approximated: a ``length_function`` other than ``len`` (characters),
:func:`utf8_len` (UTF-8 bytes) or :class:`TokenLength` (what
``from_tiktoken_encoder`` sets up, for ``cl100k_base`` and ``o200k_base``).
"""

from __future__ import annotations

import asyncio
import copy
import enum
import functools
import logging
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from . import _native
from .errors import ChunkscopeError, _as_langchain

__all__ = [
    "CharacterTextSplitter",
    "Document",
    "Language",
    "MarkdownHeaderTextSplitter",
    "RecursiveCharacterTextSplitter",
    "TextSplitter",
    "TokenLength",
    "utf8_len",
]

logger = logging.getLogger("chunkscope")

KeepSeparator = bool | Literal["start", "end"]

Language = enum.Enum(  # type: ignore[misc]
    "Language",
    [(name.upper(), name) for name in _native.LANGUAGES],
    type=str,
    module=__name__,
)
Language.__doc__ = """The languages of ``from_language``, named as LangChain's
``Language`` enum names them (LangChain's own members are accepted too, and so
are plain strings such as ``"python"``)."""


def utf8_len(text: str) -> int:
    """The length of ``text`` in UTF-8 bytes, ``len(text.encode("utf-8"))``.

    Pass it as ``length_function`` to count bytes: chunkscope recognises it and
    counts natively.
    """
    return len(text.encode("utf-8"))


class TokenLength:
    """``len(encoding.encode(text))`` for a tiktoken encoding, as a
    ``length_function``: what ``from_tiktoken_encoder`` installs.

    Counting is native (the same token counts as tiktoken, several times
    faster). As with tiktoken's ``encode`` defaults, a text holding a special
    token such as ``<|endoftext|>`` is refused with a ``ValueError``.
    """

    __slots__ = ("encoding_name", "unit")

    def __init__(self, encoding_name: str) -> None:
        self.unit: str = _native.encoding_unit(encoding_name)
        self.encoding_name: str = encoding_name

    def __call__(self, text: str) -> int:
        return _native.count_tokens(self.unit, text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TokenLength) and other.unit == self.unit

    def __hash__(self) -> int:
        return hash(("TokenLength", self.unit))

    def __reduce__(self) -> tuple[Any, ...]:
        return (TokenLength, (self.encoding_name,))

    def __repr__(self) -> str:
        return f"TokenLength({self.encoding_name!r})"


def _unit_of(length_function: Callable[[str], int]) -> str:
    if length_function is len:
        return "chars"
    if length_function is utf8_len:
        return "bytes"
    if isinstance(length_function, TokenLength):
        return length_function.unit
    raise ChunkscopeError(
        f"length_function={length_function!r} cannot be reproduced natively: chunkscope "
        "counts with len (characters), chunkscope.utf8_len (UTF-8 bytes), or the tokens "
        "of from_tiktoken_encoder(encoding_name='cl100k_base' or 'o200k_base'); an "
        "arbitrary Python function would run once per piece and lose the speed"
    )


def _placement(keep_separator: object) -> str:
    # LangChain: falsy keeps nothing, "end" keeps at the end, and any other
    # truthy value at the start. Only the documented values are taken.
    if keep_separator is True or keep_separator == "start":
        return "start"
    if keep_separator == "end":
        return "end"
    if keep_separator is False:
        return "none"
    raise ChunkscopeError(
        f'keep_separator must be True, False, "start" or "end", got {keep_separator!r}'
    )


def _whole(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ChunkscopeError(f"{name} must be a whole number (an int), got {value!r}")
    if value > sys.maxsize:
        raise ChunkscopeError(f"{name} ({value}) is too large for this machine")
    return value


_DOCUMENT: type | None = None


def document_class() -> type:
    """LangChain's ``Document`` when ``langchain-core`` is installed, else
    chunkscope's own :class:`_Document` with the same fields."""
    global _DOCUMENT
    if _DOCUMENT is None:
        try:
            from langchain_core.documents import Document as found
        except ImportError:
            found = _Document
        _DOCUMENT = found
    return _DOCUMENT


def __getattr__(name: str) -> Any:
    # `Document` is resolved on first use, so importing chunkscope never
    # imports langchain-core.
    if name == "Document":
        return document_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Document:
    """A piece of text and its metadata: LangChain's ``Document`` fields
    (``page_content``, ``metadata``, ``id``, ``type``) for when
    ``langchain-core`` is not installed."""

    __slots__ = ("id", "metadata", "page_content")
    type = "Document"

    def __init__(
        self, page_content: str, metadata: dict[Any, Any] | None = None, id: str | None = None
    ) -> None:
        self.page_content = page_content
        self.metadata = {} if metadata is None else metadata
        self.id = id

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Document)
            and (self.page_content, self.metadata, self.id)
            == (other.page_content, other.metadata, other.id)
        )

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Document, (self.page_content, self.metadata, self.id))

    def __repr__(self) -> str:
        id_ = "" if self.id is None else f"id={self.id!r}, "
        return f"Document({id_}metadata={self.metadata!r}, page_content={self.page_content!r})"


_Document.__name__ = _Document.__qualname__ = "Document"


class DocumentTransformer:
    """LangChain's document interface over a class's ``create_documents``:
    ``split_documents``, ``transform_documents`` and ``atransform_documents``
    (shared by the text splitters and the semantic chunker)."""

    def split_documents(self, documents: Iterable[Any]) -> list[Any]:
        """Splits each document's ``page_content``, keeping its metadata."""
        texts, metadatas = [], []
        for doc in documents:
            texts.append(doc.page_content)
            metadatas.append(doc.metadata)
        return self.create_documents(texts, metadatas=metadatas)

    def transform_documents(self, documents: Sequence[Any], **kwargs: Any) -> Sequence[Any]:
        """LangChain's ``BaseDocumentTransformer`` interface: splits them."""
        return self.split_documents(list(documents))

    async def atransform_documents(self, documents: Sequence[Any], **kwargs: Any) -> Sequence[Any]:
        """:meth:`transform_documents` in the event loop's executor."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, functools.partial(self.transform_documents, documents, **kwargs)
        )


class TextSplitter(DocumentTransformer):
    """What both classes share: LangChain's ``TextSplitter`` arguments and its
    document methods, over a native splitter built once."""

    _strategy = ""

    def __init__(
        self,
        chunk_size: int = 4000,
        chunk_overlap: int = 200,
        length_function: Callable[[str], int] = len,
        keep_separator: KeepSeparator = False,
        add_start_index: bool = False,
        strip_whitespace: bool = True,
    ) -> None:
        # LangChain's checks, in its order (the engine repeats the last one).
        chunk_size = _whole("chunk_size", chunk_size)
        chunk_overlap = _whole("chunk_overlap", chunk_overlap)
        if chunk_size <= 0:
            raise _as_langchain(
                ChunkscopeError(
                    f"chunk_size must be at least 1, got {chunk_size}: no chunk could hold anything"
                ),
                "ValueError",
                f"chunk_size must be > 0, got {chunk_size}",
            )
        if chunk_overlap < 0:
            raise _as_langchain(
                ChunkscopeError(f"chunk_overlap must be 0 or more, got {chunk_overlap}"),
                "ValueError",
                f"chunk_overlap must be >= 0, got {chunk_overlap}",
            )
        self._chunk_size = chunk_size
        self._chunk_overlap = chunk_overlap
        self._length_function = length_function
        self._keep_separator = keep_separator
        self._add_start_index = bool(add_start_index)
        self._strip_whitespace = bool(strip_whitespace)
        self._unit = _unit_of(length_function)

    def _compile(self, separators: list[str], is_separator_regex: bool) -> None:
        self._splitter = _native.Splitter(
            strategy=self._strategy,
            size=self._chunk_size,
            overlap=self._chunk_overlap,
            separators=list(separators),
            unit=self._unit,
            placement=_placement(self._keep_separator),
            trim=self._strip_whitespace,
            regex=bool(is_separator_regex),
        )

    def split_text(self, text: str) -> list[str]:
        """Splits ``text`` into LangChain's chunk strings.

        Logs LangChain's warning ("Created a chunk of size N, which is longer
        than the specified M") on the ``chunkscope`` logger where LangChain
        logs it.
        """
        chunks, warnings = self._splitter.split_text(text)
        for warning in warnings:
            logger.warning("%s", warning)
        return chunks

    def create_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> list[Any]:
        """One ``Document`` per chunk of each text, with a deep copy of that
        text's metadata, plus ``start_index`` (LangChain's value) when
        ``add_start_index`` is set."""
        document = document_class()
        metadatas_ = metadatas or [{}] * len(texts)
        documents = []
        for i, text in enumerate(texts):
            if self._add_start_index:
                chunks, starts, warnings = self._splitter.split_indexed(text)
            else:
                chunks, warnings = self._splitter.split_text(text)
                starts = None
            for warning in warnings:
                logger.warning("%s", warning)
            base = metadatas_[i]
            for j, chunk in enumerate(chunks):
                metadata = copy.deepcopy(base) if base else {}
                if starts is not None:
                    metadata["start_index"] = starts[j]
                documents.append(document(page_content=chunk, metadata=metadata))
        return documents

    def report(self, text: str, trace: bool = True) -> dict[str, Any]:
        """Why each chunk is where it is: the report of ``chunkscope.split``
        (chunks with char and byte offsets, LangChain's text and
        ``start_index``; with ``trace``, the recursion tree, the checks and
        LangChain's warnings)."""
        return self._splitter.split(text, trace=trace)

    @classmethod
    def from_tiktoken_encoder(
        cls,
        encoding_name: str = "gpt2",
        model_name: str | None = None,
        allowed_special: Literal["all"] | Iterable[str] | None = None,
        disallowed_special: Literal["all"] | Iterable[str] = "all",
        **kwargs: Any,
    ) -> Any:
        """The splitter counting tiktoken tokens, as LangChain's: chunk sizes in
        ``len(encoding.encode(piece))``. ``encoding_name`` must be
        ``"cl100k_base"`` or ``"o200k_base"`` (a ``model_name`` is resolved by
        tiktoken, when installed, to one of them); special tokens are refused,
        as with LangChain's defaults."""
        if model_name is not None:
            encoding_name = _encoding_for_model(model_name)
        allows_none = allowed_special is None or (
            allowed_special != "all" and not set(allowed_special)
        )
        if not allows_none or disallowed_special != "all":
            raise ChunkscopeError(
                "allowed_special and disallowed_special must keep their defaults (None, "
                '"all"): chunkscope refuses special tokens as tiktoken does by default'
            )
        return cls(length_function=TokenLength(encoding_name), **kwargs)

    @classmethod
    def from_huggingface_tokenizer(cls, tokenizer: Any, **kwargs: Any) -> Any:
        """Not available: a Hugging Face tokenizer is Python code chunkscope
        cannot run natively."""
        raise ChunkscopeError(
            "from_huggingface_tokenizer is not supported: chunkscope counts characters, "
            "UTF-8 bytes, or OpenAI tokens (from_tiktoken_encoder with 'cl100k_base' or "
            "'o200k_base')"
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._splitter!r})"


def _encoding_for_model(model_name: str) -> str:
    try:
        import tiktoken
    except ImportError:
        raise ChunkscopeError(
            f"model_name={model_name!r} needs tiktoken installed to name its encoding; "
            "or pass encoding_name='cl100k_base' or 'o200k_base'"
        ) from None
    try:
        return str(tiktoken.encoding_name_for_model(model_name))
    except KeyError:
        raise ChunkscopeError(
            f"tiktoken knows no encoding for model {model_name!r}: pass encoding_name "
            "('cl100k_base' or 'o200k_base')"
        ) from None


class RecursiveCharacterTextSplitter(TextSplitter):
    """LangChain's ``RecursiveCharacterTextSplitter``: tries the separators in
    order, splits at the first one present, merges pieces up to
    ``chunk_size``, and splits what is still too big with the separators
    after it.

    ``separators=None`` (or ``[]``) is LangChain's ``["\\n\\n", "\\n", " ",
    ""]``. Regex separators (``is_separator_regex=True``) use Python's ``re``
    syntax and semantics.
    """

    _strategy = "langchain"

    def __init__(
        self,
        separators: list[str] | None = None,
        keep_separator: KeepSeparator = True,
        is_separator_regex: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(keep_separator=keep_separator, **kwargs)
        self._separators = list(separators or ["\n\n", "\n", " ", ""])
        self._is_separator_regex = is_separator_regex
        self._compile(self._separators, is_separator_regex)

    @classmethod
    def from_language(cls, language: Any, **kwargs: Any) -> RecursiveCharacterTextSplitter:
        """The splitter for a programming or markup language, with LangChain's
        separators for it (regular expressions)."""
        separators = cls.get_separators_for_language(language)
        return cls(separators=separators, is_separator_regex=True, **kwargs)

    @staticmethod
    def get_separators_for_language(language: Any) -> list[str]:
        """LangChain's separators for ``language`` (a ``Language`` member, or
        its value such as ``"python"``)."""
        name = getattr(language, "value", language)
        separators = _native.separators_for_language(str(name))
        if separators is None:
            raise ChunkscopeError(
                f"language {name!r} is not one LangChain implements: choose from "
                + ", ".join(_native.LANGUAGES)
            )
        return separators


class CharacterTextSplitter(TextSplitter):
    """LangChain's ``CharacterTextSplitter``: splits at one separator, then
    merges pieces up to ``chunk_size``; a piece that is too big stays too big
    (with LangChain's warning)."""

    _strategy = "langchain-character"

    def __init__(
        self, separator: str = "\n\n", is_separator_regex: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self._separator = separator
        self._is_separator_regex = is_separator_regex
        self._compile([separator], is_separator_regex)


class MarkdownHeaderTextSplitter:
    """LangChain's ``MarkdownHeaderTextSplitter``: one ``Document`` per section
    (or per paragraph with ``return_each_line=True``), its metadata the
    enclosing headers, named as ``headers_to_split_on`` names them.

    LangChain's output exactly, quirks included: lines are stripped and lose
    characters ``str.isprintable`` rejects (tabs too), paragraphs of a section
    are joined with ``"  \\n"``, headers inside code fences are content, and
    with ``strip_headers=False`` a header line directly above a deeper header
    joins that section. It never measures a chunk: follow it with a
    :class:`RecursiveCharacterTextSplitter` to bound sizes, as LangChain's
    documentation does.

    ``custom_header_patterns`` is not supported (a ``ChunkscopeError``).
    """

    def __init__(
        self,
        headers_to_split_on: list[tuple[str, str]],
        return_each_line: bool = False,
        strip_headers: bool = True,
        custom_header_patterns: dict[str, int] | None = None,
    ) -> None:
        if custom_header_patterns:
            raise ChunkscopeError(
                "custom_header_patterns is not supported: chunkscope splits on the markers "
                "of headers_to_split_on (runs of '#')"
            )
        headers = []
        for entry in headers_to_split_on:
            try:
                marker, name = entry
            except (TypeError, ValueError):
                raise ChunkscopeError(
                    f"each entry of headers_to_split_on is a (marker, name) pair such as "
                    f"('#', 'Header 1'), got {entry!r}"
                ) from None
            if not isinstance(marker, str) or not isinstance(name, str):
                raise ChunkscopeError(
                    f"a header marker and its name are strings, got {entry!r}"
                )
            if not marker:
                raise ChunkscopeError(
                    "a header marker cannot be empty: use '#', '##', ... (every line would be a header)"
                )
            headers.append((marker, name))
        self._headers = headers
        self.headers_to_split_on = sorted(headers, key=lambda h: len(h[0]), reverse=True)
        self.return_each_line = bool(return_each_line)
        self.strip_headers = bool(strip_headers)

    def split_text(self, text: str) -> list[Any]:
        """The ``Document`` of each chunk: LangChain's ``page_content`` and its
        header metadata (a fresh dict each)."""
        document = document_class()
        return [
            document(page_content=chunk, metadata=metadata)
            for chunk, metadata in _native.markdown_header_split(
                text, self._headers, self.return_each_line, self.strip_headers
            )
        ]

    def __repr__(self) -> str:
        return (
            f"MarkdownHeaderTextSplitter(headers_to_split_on={self._headers!r}, "
            f"return_each_line={self.return_each_line}, strip_headers={self.strip_headers})"
        )
