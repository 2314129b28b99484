"""Runs the real semantic-text-splitter (the Python package of the Rust crate
text-splitter) on cases from the Rust test suite (core/tests/text_splitter.rs).

Reads one JSON object per line on stdin, writes one per line on stdout, in
order. A case:
    {"splitter": "text" | "markdown", "text": str, "size": int,
     "overlap": int?, "trim": bool?, "unit": "chars" | "cl100k" | "o200k"}
answers, from the splitter built with the library's defaults for what the
case leaves out (overlap 0, trim True) and its chunk_indices(text):
    {"chunks": [str, ...], "offsets": [[start, end], ...]}
(start is the char offset the package reports; end is start plus the chunk's
length in chars), or, when the package raises,
{"error": "<exception type>", "message": str}.

chars is the class itself (it counts chars); a token unit is
from_tiktoken_model with the model whose encoding it is ("gpt-3.5-turbo" is
cl100k_base, "gpt-4o" o200k_base).

    {"op": "versions"} -> {"python": str, "packages": {name: str}}
"""

import importlib.metadata
import json
import platform
import sys

from semantic_text_splitter import MarkdownSplitter, TextSplitter

CLASSES = {"text": TextSplitter, "markdown": MarkdownSplitter}
MODELS = {"cl100k": "gpt-3.5-turbo", "o200k": "gpt-4o"}


def versions():
    return {
        "python": platform.python_version(),
        "packages": {"semantic-text-splitter": importlib.metadata.version("semantic-text-splitter")},
    }


def splitter(case):
    cls = CLASSES[case["splitter"]]
    overlap = case.get("overlap", 0)
    trim = case.get("trim", True)
    if case["unit"] == "chars":
        return cls(case["size"], overlap=overlap, trim=trim)
    return cls.from_tiktoken_model(MODELS[case["unit"]], case["size"], overlap=overlap, trim=trim)


def answer(case):
    if case.get("op") == "versions":
        return versions()
    try:
        indices = splitter(case).chunk_indices(case["text"])
    # pyo3's PanicException (the library's panic) is a BaseException.
    except BaseException as e:  # noqa: BLE001 - every exception is an answer
        return {"error": type(e).__name__, "message": str(e)}
    return {
        "chunks": [chunk for _, chunk in indices],
        "offsets": [[start, start + len(chunk)] for start, chunk in indices],
    }


def main():
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line)), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
