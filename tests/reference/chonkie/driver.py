"""Runs the real chonkie RecursiveChunker, TokenChunker or SentenceChunker on
cases from the Rust test suite (core/tests/chonkie.rs,
core/tests/chonkie_token.rs, core/tests/chonkie_sentence.rs).

Reads one JSON object per line on stdin, writes one per line on stdout, in
order. A case:
    {"text": str, "size": int, "unit": "chars" | "cl100k" | "o200k",
     "min_characters_per_chunk"?: int}
answers, from RecursiveChunker(tokenizer, chunk_size=size,
min_characters_per_chunk=...).chunk(text) with its default rules (and its
default minimum when the case gives none):
    {"chunks": [str, ...], "offsets": [[start_index, end_index], ...],
     "token_counts": [int, ...]}
A case with "chunker": "token" (and "overlap": int) is answered the same
way from TokenChunker(tokenizer, chunk_size=size,
chunk_overlap=overlap).chunk(text), and one with "chunker": "sentence" from
SentenceChunker(tokenizer, chunk_size=size, chunk_overlap=overlap) with its
other defaults.
Either, when chonkie raises: {"error": "<exception type>", "message": str}.

The tokenizer is "character" for chars, and tiktoken's encoding object for a
token unit (chonkie's own name "cl100k_base" loads a copy from the Hugging
Face hub, which needs the network; the object is what works offline).

    {"op": "versions"} -> {"python": str, "packages": {name: str}}
"""

import importlib.metadata
import json
import logging
import platform
import sys
import warnings

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)

import tiktoken  # noqa: E402
from chonkie import RecursiveChunker, SentenceChunker, TokenChunker  # noqa: E402

ENCODINGS = {"cl100k": "cl100k_base", "o200k": "o200k_base"}
# The chunkers built alike: a tokenizer, a size and an overlap.
WITH_OVERLAP = {"token": TokenChunker, "sentence": SentenceChunker}


def tokenizer(unit):
    if unit == "chars":
        return "character"
    return tiktoken.get_encoding(ENCODINGS[unit])


def versions():
    return {
        "python": platform.python_version(),
        "packages": {
            name: importlib.metadata.version(name)
            for name in ("chonkie", "chonkie-core", "tiktoken")
        },
    }


def answer(case):
    if case.get("op") == "versions":
        return versions()
    try:
        if case.get("chunker") in WITH_OVERLAP:
            chunker = WITH_OVERLAP[case["chunker"]](
                tokenizer=tokenizer(case["unit"]),
                chunk_size=case["size"],
                chunk_overlap=case["overlap"],
            )
        else:
            kwargs = {}
            if "min_characters_per_chunk" in case:
                kwargs["min_characters_per_chunk"] = case["min_characters_per_chunk"]
            chunker = RecursiveChunker(
                tokenizer=tokenizer(case["unit"]), chunk_size=case["size"], **kwargs
            )
        chunks = chunker.chunk(case["text"])
    except Exception as e:  # noqa: BLE001 - every exception is an answer
        return {"error": type(e).__name__, "message": str(e)}
    return {
        "chunks": [c.text for c in chunks],
        "offsets": [[c.start_index, c.end_index] for c in chunks],
        "token_counts": [c.token_count for c in chunks],
    }


def main():
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line)), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
