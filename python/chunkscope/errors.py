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
    """A configuration or a text that chunkscope refuses, with what to change."""


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


_CRASHES = {"TypeError": _LangChainTypeError, "IndexError": _LangChainIndexError}
for _cls in _CRASHES.values():
    _cls.__name__ = _cls.__qualname__ = "LangChainCrash"


def _make(kind: str, message: str, *extra: object) -> ChunkscopeError:
    """The exception for one of the engine's refusals (called by the native
    module, which names the kind)."""
    if kind == "regex":
        pattern, pos = extra
        return RegexError(message, pattern, pos)  # type: ignore[arg-type]
    if kind == "unsupported":
        return UnsupportedError(message)
    if kind == "too_deep":
        return RecursionLimitError(message)
    if kind == "crash":
        return _CRASHES.get(str(extra[0]), LangChainCrash)(message)
    return ChunkscopeError(message)
