"""Runs the real langchain-text-splitters on cases from the Rust test suite.

Reads one JSON object per line on stdin and writes one JSON object per line on
stdout, in the same order, so that thousands of cases cost one Python process.

A splitting case:
    {"kind": "recursive" | "character", "text": str,
     "chunk_size": int, "chunk_overlap": int,
     "separators": [str, ...],          # character: the first one is `separator`
                                        # (none given: LangChain's default)
     "keep_separator": false | true | "start" | "end",
     "is_separator_regex": bool, "strip_whitespace": bool,
     "unit": "chars" | "bytes"          # bytes: len(s.encode("utf-8"))
             | "cl100k" | "o200k"}        # tokens: from_tiktoken_encoder
(other keys, such as a fixture's "name", are ignored)
answers
    {"chunks": [str, ...], "start_indices": [int, ...], "warnings": [str, ...]}
taken from create_documents([text]) with add_start_index=True, the warnings
being what LangChain logged; or, when LangChain raises,
    {"error": "<exception type>", "message": str}.

Other requests:
    {"op": "languages"}  -> {"languages": {name: [str, ...] | null}} from
                            get_separators_for_language (null: it raises)
    {"op": "re_split", "pattern": str, "text": str}
                         -> {"items": [str | null, ...]} from re.split, or an error
    {"op": "re_search", "pattern": str, "text": str}
                         -> {"found": bool} from re.search, or an error
    {"op": "unicode_tables"}
                         -> {"python": str, "version": str, "rendered": str}:
                            this Python, its Unicode version, and the tables.rs
                            that unicode_tables.py renders with it
    {"op": "python", "code": str, "text": str}
                         -> runs generated code with `text` bound; answers like a
                            splitting case from its `chunks` list of
                            (content, start_index) pairs (other keys are
                            ignored: the tests send the configuration too)
    {"op": "markdown_headers", "text": str, "headers": [[marker, name], ...],
     "each_line": bool, "strip_headers": bool}
                         -> {"chunks": [str, ...], "metadata": [[[key, value], ...], ...]}
                            from MarkdownHeaderTextSplitter(...).split_text(text)
                            (metadata as pairs, to keep the dict's order), or an error
    {"op": "markdown_recipe", "text": str, "headers": [[marker, name], ...],
     "each_line": bool, "strip_headers": bool, "chunk_size": int, "chunk_overlap": int}
                         -> {"chunks": [str, ...], "metadata": [[[key, value], ...], ...]}
                            from the recipe of LangChain's docs: MarkdownHeaderTextSplitter
                            (...).split_text(text), then RecursiveCharacterTextSplitter(
                            chunk_size=..., chunk_overlap=...).split_documents(those)
    the same with "recursive": a splitting case (kind "recursive", no text)
                         -> its RecursiveCharacterTextSplitter instead (no
                            add_start_index), and also "warnings"
    {"op": "recipe_python", "code": str, "text": str}
                         -> as "python", the pairs being (content, metadata)
    {"op": "versions"}   -> {"python": str, "unicode": str, "packages": {name: str}}:
                            what the answers depend on, for the header of the
                            recorded test vectors (tests/vectors/langchain.jsonl.gz)
"""

import importlib.metadata
import json
import logging
import os
import platform
import re
import sys
import unicodedata
import warnings

from langchain_text_splitters import (
    CharacterTextSplitter,
    Language,
    MarkdownHeaderTextSplitter,
    RecursiveCharacterTextSplitter,
)

warnings.simplefilter("ignore")


class Recorder(logging.Handler):
    """Keeps what LangChain logs at WARNING and above."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


RECORDER = Recorder()
for name in ("langchain_text_splitters.base", "langchain_text_splitters"):
    log = logging.getLogger(name)
    log.addHandler(RECORDER)
    log.propagate = False


# Token units, as LangChain counts them: from_tiktoken_encoder measures
# len(encoding.encode(text)). tiktoken finds the encodings in
# TIKTOKEN_CACHE_DIR (./x fills it; nothing is downloaded).
TIKTOKEN = {"cl100k": "cl100k_base", "o200k": "o200k_base"}


# The packages whose versions the answers depend on.
PACKAGES = ("langchain-text-splitters", "langchain-core", "tiktoken")


def utf8_len(s):
    return len(s.encode("utf-8"))


def failure(exc):
    return {"error": type(exc).__name__, "message": str(exc)}


def make_splitter(case, add_start_index):
    """The splitter a splitting case describes (its "text" is not read)."""
    kwargs = {
        "chunk_size": case["chunk_size"],
        "chunk_overlap": case["chunk_overlap"],
        "keep_separator": case["keep_separator"],
        "is_separator_regex": case["is_separator_regex"],
        "strip_whitespace": case["strip_whitespace"],
        "add_start_index": add_start_index,
    }
    unit = case.get("unit", "chars")
    if unit == "bytes":
        kwargs["length_function"] = utf8_len
    separators = case["separators"]
    if case["kind"] == "character":
        if separators:
            kwargs["separator"] = separators[0]
        cls = CharacterTextSplitter
    else:
        kwargs["separators"] = separators
        cls = RecursiveCharacterTextSplitter
    if unit in TIKTOKEN:
        return cls.from_tiktoken_encoder(encoding_name=TIKTOKEN[unit], **kwargs)
    return cls(**kwargs)


def split_case(case):
    RECORDER.messages = []
    try:
        splitter = make_splitter(case, add_start_index=True)
        docs = splitter.create_documents([case["text"]])
    except Exception as exc:  # LangChain's own failures are answers too
        return failure(exc)
    return {
        "chunks": [d.page_content for d in docs],
        "start_indices": [d.metadata["start_index"] for d in docs],
        "warnings": RECORDER.messages,
    }


def languages():
    out = {}
    for lang in Language:
        try:
            out[lang.value] = RecursiveCharacterTextSplitter.get_separators_for_language(
                lang
            )
        except ValueError:
            out[lang.value] = None
    return {"languages": out}


def run_code(case):
    scope = {"text": case["text"]}
    RECORDER.messages = []
    try:
        exec(case["code"], scope)
    except Exception as exc:
        return failure(exc)
    pairs = scope["chunks"]
    return {
        "chunks": [c for c, _ in pairs],
        "start_indices": [i for _, i in pairs],
        "warnings": RECORDER.messages,
    }


def markdown_headers(case):
    try:
        splitter = MarkdownHeaderTextSplitter(
            headers_to_split_on=[tuple(h) for h in case["headers"]],
            return_each_line=case["each_line"],
            strip_headers=case["strip_headers"],
        )
        docs = splitter.split_text(case["text"])
    except Exception as exc:
        return failure(exc)
    return {
        "chunks": [d.page_content for d in docs],
        "metadata": [list(d.metadata.items()) for d in docs],
    }


def markdown_recipe(case):
    try:
        headers = MarkdownHeaderTextSplitter(
            headers_to_split_on=[tuple(h) for h in case["headers"]],
            return_each_line=case["each_line"],
            strip_headers=case["strip_headers"],
        )
        if "recursive" in case:
            recursive = make_splitter(case["recursive"], add_start_index=False)
        else:
            recursive = RecursiveCharacterTextSplitter(
                chunk_size=case["chunk_size"], chunk_overlap=case["chunk_overlap"]
            )
        RECORDER.messages = []
        docs = recursive.split_documents(headers.split_text(case["text"]))
    except Exception as exc:
        return failure(exc)
    out = {
        "chunks": [d.page_content for d in docs],
        "metadata": [list(d.metadata.items()) for d in docs],
    }
    if "recursive" in case:
        out["warnings"] = RECORDER.messages
    return out


def answer(case):
    op = case.get("op", "split")
    if op == "split":
        return split_case(case)
    if op == "languages":
        return languages()
    if op == "re_split":
        try:
            return {"items": re.split(case["pattern"], case["text"])}
        except Exception as exc:
            return failure(exc)
    if op == "re_search":
        try:
            return {"found": re.search(case["pattern"], case["text"]) is not None}
        except Exception as exc:
            return failure(exc)
    if op == "python":
        return run_code(case)
    if op == "markdown_headers":
        return markdown_headers(case)
    if op == "markdown_recipe":
        return markdown_recipe(case)
    if op == "recipe_python":
        return run_code(case)
    if op == "unicode_tables":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import unicode_tables

        return {
            "python": platform.python_version(),
            "version": unicodedata.unidata_version,
            "rendered": unicode_tables.render(),
        }
    if op == "versions":
        return {
            "python": platform.python_version(),
            "unicode": unicodedata.unidata_version,
            "packages": {p: importlib.metadata.version(p) for p in PACKAGES},
        }
    return {"error": "ValueError", "message": f"unknown op {op!r}"}


def main():
    sys.stdin.reconfigure(encoding="utf-8")
    sys.stdout.reconfigure(encoding="utf-8")
    for line in sys.stdin:
        if line.strip():
            sys.stdout.write(json.dumps(answer(json.loads(line)), ensure_ascii=False))
            sys.stdout.write("\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
