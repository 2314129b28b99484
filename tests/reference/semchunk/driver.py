"""Runs the real semchunk on cases from the Rust test suite
(core/tests/semchunk.rs).

Reads one JSON object per line on stdin, writes one per line on stdout, in
order. A case:
    {"text": str, "size": int, "overlap": int | null,
     "unit": "chars" | "bytes" | "cl100k" | "o200k"}
answers, from semchunk.chunkerify(counter, size)(text, offsets=True,
overlap=overlap):
    {"chunks": [str, ...], "offsets": [[start, end], ...]}
or, when semchunk raises, {"error": "<exception type>", "message": str}.

The counter is `len` for chars, the UTF-8 length for bytes, and the tiktoken
encoding's name for a token unit (`chunkerify("cl100k_base", size)`, as a
user writes it; tiktoken reads its tables from TIKTOKEN_CACHE_DIR).

    {"op": "versions"} -> {"python": str, "packages": {name: str},
                           "max_token_chars": {"cl100k": int, "o200k": int}}
"""

import importlib.metadata
import json
import platform
import sys

import semchunk
import tiktoken

ENCODINGS = {"cl100k": "cl100k_base", "o200k": "o200k_base"}


def utf8_len(text):
    return len(text.encode("utf-8"))


def counter(unit):
    if unit == "chars":
        return len
    if unit == "bytes":
        return utf8_len
    return ENCODINGS[unit]


def versions():
    return {
        "python": platform.python_version(),
        "packages": {
            name: importlib.metadata.version(name) for name in ("semchunk", "tiktoken")
        },
        # What chunkerify reads from the encoding for its shortcut on long
        # texts: the longest token, in bytes.
        "max_token_chars": {
            unit: max(len(t) for t in tiktoken.get_encoding(name).token_byte_values())
            for unit, name in ENCODINGS.items()
        },
    }


def answer(case):
    if case.get("op") == "versions":
        return versions()
    try:
        chunker = semchunk.chunkerify(counter(case["unit"]), case["size"])
        chunks, offsets = chunker(case["text"], offsets=True, overlap=case["overlap"])
    except Exception as e:  # noqa: BLE001 - every exception is an answer
        return {"error": type(e).__name__, "message": str(e)}
    return {"chunks": list(chunks), "offsets": [list(o) for o in offsets]}


def main():
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line)), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
