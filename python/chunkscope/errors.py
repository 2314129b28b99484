"""The exceptions chunkscope raises.

Every one is a :class:`ChunkscopeError`, which is a :class:`ValueError`, and
carries the engine's message: what is wrong and what to change. Where LangChain
raises another kind for the same input (``re.error`` for a bad regex,
``TypeError``/``IndexError`` where LangChain itself crashes, ``RecursionError``
for a list too deep), the exception also subclasses that kind, so code written
around LangChain's exceptions keeps catching them.
"""

from __future__ import annotations

import re

__all__ = [
    "ChunkscopeError",
    "LangChainCrash",
    "RecursionLimitError",
    "RegexError",
    "UnsupportedError",
]


class ChunkscopeError(ValueError):
    """A configuration or a text that chunkscope refuses, with what to change.

    ``langchain`` is what LangChain raises on the same input: its exception's
    class as Python spells it (``"ValueError"``, ``"re.error"``, …) and its
    message word for word, or ``None`` where chunkscope refuses on its own
    (LangChain would go on).
    """

    langchain: tuple[str, str] | None = None


class RegexError(ChunkscopeError, re.error):
    """A regex separator that does not compile (LangChain raises ``re.error``).

    ``pattern`` is the separator, ``pos`` where in it the error is (chars), when
    known.
    """

    def __init__(self, message: str, pattern: str | None = None, pos: int | None = None):
        ChunkscopeError.__init__(self, message)
        self.msg = message
        self.pattern = pattern
        self.pos = pos
        self.lineno = self.colno = None


class UnsupportedError(ChunkscopeError):
    """A regex separator Python accepts but chunkscope cannot reproduce exactly
    (or one that backtracks too much on this text): refused rather than split
    differently from LangChain."""


class RecursionLimitError(ChunkscopeError, RecursionError):
    """More separators in use than LangChain's recursion could follow (Python
    stops near 1000 levels with a ``RecursionError``)."""


class LangChainCrash(ChunkscopeError):
    """An input on which LangChain itself crashes (a regex separator with its own
    capturing groups and ``keep_separator``); also the exception LangChain
    raises, ``TypeError`` or ``IndexError``."""


class _LangChainTypeError(LangChainCrash, TypeError):
    pass


class _LangChainIndexError(LangChainCrash, IndexError):
    pass


class _RegexOverflowError(RegexError, OverflowError):
    pass


_CRASHES = {"TypeError": _LangChainTypeError, "IndexError": _LangChainIndexError}
for _cls in _CRASHES.values():
    _cls.__name__ = _cls.__qualname__ = "LangChainCrash"
_RegexOverflowError.__name__ = _RegexOverflowError.__qualname__ = "RegexError"


def _as_langchain(exc: ChunkscopeError, cls: str, message: str) -> ChunkscopeError:
    """`exc`, saying that LangChain raises `cls(message)` on the same input."""
    exc.langchain = (cls, message)
    return exc


def _make(
    kind: str, message: str, langchain: tuple[str, str] | None, *extra: object
) -> ChunkscopeError:
    """The exception for one of the engine's refusals (called by the native
    module, which names the kind and what LangChain raises, if it does)."""
    exc: ChunkscopeError
    if kind == "regex":
        pattern, pos = extra
        # CPython checks the size of a repeat outside its parser, with an
        # OverflowError: so does LangChain, through it.
        cls = _RegexOverflowError if langchain and langchain[0] == "OverflowError" else RegexError
        exc = cls(message, pattern, pos)  # type: ignore[arg-type]
    elif kind == "unsupported":
        exc = UnsupportedError(message)
    elif kind == "too_deep":
        exc = RecursionLimitError(message)
    elif kind == "crash":
        exc = _CRASHES.get(str(extra[0]), LangChainCrash)(message)
    else:
        exc = ChunkscopeError(message)
    exc.langchain = langchain
    return exc
