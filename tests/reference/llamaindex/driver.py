"""Runs the real LlamaIndex SentenceSplitter, TokenTextSplitter or
MarkdownNodeParser on cases from the Rust test suite (core/tests/llamaindex.rs,
core/tests/llamaindex_token.rs, core/tests/llamaindex_markdown.rs).

Reads one JSON object per line on stdin, writes one per line on stdout, in
order. A case:
    {"text": str, "size": int, "unit": "chars" | "bytes" | "cl100k" | "o200k",
     "overlap"?: int}
answers, from SentenceSplitter(chunk_size=size, chunk_overlap=overlap,
tokenizer=...).split_text(text):
    {"chunks": [str, ...], "offsets": [[start, end], ...]}
A case with "splitter": "token" is answered the same way from
TokenTextSplitter(chunk_size=size, chunk_overlap=overlap,
tokenizer=...).split_text(text), its other settings its defaults, with what
its `_split` and `_merge` did on the way (not compared):
    "quirks": {"over": splits over the size kept whole, "blank": runs of
    splits `strip` emptied, "popped": the most splits one overlap dropped
    from the front, "kept": the most it carried over}
A case with "splitter": "markdown" (its size and unit are not the parser's:
it has none) is answered from MarkdownNodeParser() through
get_nodes_from_documents([Document(text=text)]), each node's text, its
start_char_idx and end_char_idx as LlamaIndex set them (null where its
str.find did not find the text) and its metadata:
    {"chunks": [str, ...], "offsets": [[start|null, end|null], ...],
     "metadata": [{"header_path": str}, ...]}
Any of them, when LlamaIndex raises: {"error": "<exception type>", "message": str}.

The tokenizer is LlamaIndex's own default for cl100k (tiktoken's
encoding_for_model("gpt-3.5-turbo") with allowed_special="all"),
tiktoken.get_encoding("o200k_base").encode for o200k, list for chars, and
UTF-8 bytes for bytes.

LlamaIndex returns strings only. The char offsets are where the library's own
splits (`_split`) put each chunk: the driver checks that the splits tile the
text, replays the class's `_merge` on their positions, and checks that this
replay gives the library's strings exactly, else it answers
{"error": "DriverError"}.

The sentence tokenizer's NLTK data (punkt_tab, stopwords) is the copy bundled
in the llama-index-core wheel (`_static/nltk_cache`); NLTK_DATA is pointed
there so that nothing is downloaded.

    {"op": "versions"} -> {"python": str, "packages": {name: str}}
"""

import importlib.metadata
import json
import logging
import os
import platform
import sys
import warnings

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)

import llama_index.core  # noqa: E402

os.environ["NLTK_DATA"] = os.path.join(
    os.path.dirname(llama_index.core.__file__), "_static", "nltk_cache"
)

import tiktoken  # noqa: E402
from llama_index.core import Document  # noqa: E402
from llama_index.core.node_parser import (  # noqa: E402
    MarkdownNodeParser,
    SentenceSplitter,
    TokenTextSplitter,
)

O200K = tiktoken.get_encoding("o200k_base")


def tokenizer(unit):
    if unit == "cl100k":
        return None
    if unit == "o200k":
        return O200K.encode
    if unit == "chars":
        return list
    return lambda text: text.encode("utf-8")


def versions():
    return {
        "python": platform.python_version(),
        "packages": {
            name: importlib.metadata.version(name)
            for name in ("llama-index-core", "nltk", "regex", "tiktoken")
        },
    }


def starts_of(texts, text):
    """Where each of the library's splits starts, once they are checked to
    tile the text."""
    if "".join(texts) != text:
        raise AssertionError("the splits do not tile the text")
    starts = []
    at = 0
    for t in texts:
        starts.append(at)
        at += len(t)
    return starts


def stripped_spans(text, starts, lengths, raw, chunks):
    """The runs of splits `raw` ((first, last) indices) as the library's
    stripped chunks, blank ones dropped: their char spans, checked to be
    the library's strings."""
    out, texts = [], []
    for first, last in raw:
        start, end = starts[first], starts[last] + lengths[last]
        piece = text[start:end]
        stripped = piece.strip()
        if not stripped:
            continue
        start += len(piece) - len(piece.lstrip())
        out.append([start, start + len(stripped)])
        texts.append(stripped)
    if texts != chunks:
        raise AssertionError("the replayed merge differs from split_text")
    return out


def token_offsets(splitter, text, size, chunks):
    """Replays TokenTextSplitter's `_merge` on the positions of its own
    splits; with it, the quirks it went through."""
    splits = splitter._split(text, size)
    starts = starts_of(splits, text)
    lens = [len(splitter._tokenizer(s)) for s in splits]
    overlap = splitter.chunk_overlap
    raw, cur, cur_len = [], [], 0
    popped = kept = 0
    for i, n in enumerate(lens):
        if cur_len + n > size:
            if cur:
                raw.append((cur[0], cur[-1]))
            before = len(cur)
            while cur and (cur_len > overlap or cur_len + n > size):
                cur_len -= lens[cur.pop(0)]
            popped, kept = max(popped, before - len(cur)), max(kept, len(cur))
        cur.append(i)
        cur_len += n
    if cur:
        raw.append((cur[0], cur[-1]))
    spans = stripped_spans(text, starts, [len(s) for s in splits], raw, chunks)
    quirks = {
        "over": sum(n > size for n in lens),
        "blank": len(raw) - len(spans),
        "popped": popped,
        "kept": kept,
    }
    return spans, quirks


def offsets(splitter, text, size, chunks):
    """Replays `_merge` on the positions of the library's own splits."""
    splits = splitter._split(text, size)
    starts = starts_of([s.text for s in splits], text)
    overlap = splitter.chunk_overlap
    raw, cur, cur_len, new_chunk = [], [], 0, True
    i = 0

    def close():
        nonlocal cur, cur_len
        raw.append((cur[0], cur[-1]))
        last, cur, cur_len = cur, [], 0
        for j in reversed(last):
            if cur_len + splits[j].token_size > overlap:
                break
            cur_len += splits[j].token_size
            cur.insert(0, j)

    while i < len(splits):
        s = splits[i]
        if cur_len + s.token_size > size and not new_chunk:
            close()
            new_chunk = True
            continue
        if new_chunk:
            while cur and cur_len + s.token_size > size:
                cur_len -= splits[cur.pop(0)].token_size
        if s.is_sentence or cur_len + s.token_size <= size or new_chunk:
            cur_len += s.token_size
            cur.append(i)
            i += 1
            new_chunk = False
        else:
            close()
            new_chunk = True
    if not new_chunk:
        raw.append((cur[0], cur[-1]))
    return stripped_spans(text, starts, [len(s.text) for s in splits], raw, chunks)


def markdown(text):
    """MarkdownNodeParser's nodes as LlamaIndex gives them: offsets and
    metadata are its own, not the driver's."""
    try:
        nodes = MarkdownNodeParser().get_nodes_from_documents([Document(text=text)])
    except Exception as e:  # noqa: BLE001 - every exception is an answer
        return {"error": type(e).__name__, "message": str(e)}
    return {
        "chunks": [n.text for n in nodes],
        "offsets": [[n.start_char_idx, n.end_char_idx] for n in nodes],
        "metadata": [dict(n.metadata) for n in nodes],
    }


def answer(case):
    if case.get("op") == "versions":
        return versions()
    if case.get("splitter") == "markdown":
        return markdown(case["text"])
    text, size = case["text"], case["size"]
    token = case.get("splitter") == "token"
    try:
        splitter = (TokenTextSplitter if token else SentenceSplitter)(
            chunk_size=size,
            chunk_overlap=case.get("overlap", 0),
            tokenizer=tokenizer(case["unit"]),
        )
        chunks = splitter.split_text(text)
    except Exception as e:  # noqa: BLE001 - every exception is an answer
        return {"error": type(e).__name__, "message": str(e)}
    try:
        if token:
            where, quirks = token_offsets(splitter, text, size, chunks)
            return {"chunks": chunks, "offsets": where, "quirks": quirks}
        where = offsets(splitter, text, size, chunks)
    except AssertionError as e:
        return {"error": "DriverError", "message": str(e), "chunks": chunks}
    return {"chunks": chunks, "offsets": where}


def main():
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line)), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
