"""Times LangChain's RecursiveCharacterTextSplitter on one file, in-process,
for bench/compare.sh.

Usage: python bench.py [--tiktoken ENCODING | --markdown] FILE SECONDS SIZE...

With --markdown it times the recipe of LangChain's docs instead:
MarkdownHeaderTextSplitter on "#", "##", "###" (its defaults otherwise) alone,
printed as langchain-headers, and followed by
RecursiveCharacterTextSplitter(chunk_size=SIZE, chunk_overlap=0)
.split_documents(...), printed as langchain-headers+recursive.

With --tiktoken (cl100k_base, o200k_base) the splitter is
RecursiveCharacterTextSplitter.from_tiktoken_encoder(encoding_name=...), which
measures length as len(encoding.encode(chunk)), and the engine is printed as
langchain@cl100k (or @o200k). tiktoken loads the encoding from
TIKTOKEN_CACHE_DIR (bench/compare.sh fills it; nothing is downloaded).

Its defaults, which chunkscope's side of the comparison copies: separators
["\\n\\n", "\\n", " ", ""], the separator kept at the start of the piece after
the cut (keep_separator=True), whitespace stripped, len() as the length (so
characters), chunk_overlap=0 here. The file is read once; each size is then
split repeatedly for about SECONDS (at least 3 times) and the fastest run is
kept, so interpreter start-up, imports and I/O are excluded.

Prints, tab-separated, one line per size:
langchain <size> <best wall s> <best cpu s> <chunks> <bytes>
CPU time is the thread's own, which other processes' load does not inflate.
"""

import logging
import sys
import time

from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

# An oversized chunk is logged as a warning; the log is not part of splitting.
logging.disable(logging.WARNING)


def main() -> None:
    args = sys.argv[1:]
    encoding = None
    if args[:1] == ["--tiktoken"]:
        encoding, args = args[1], args[2:]
    markdown = args[:1] == ["--markdown"]
    if markdown:
        args = args[1:]
    path, budget, *sizes = args
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if markdown:
        time_markdown(text, float(budget), list(map(int, sizes)))
        return
    engine = "langchain"
    if encoding:
        engine = "langchain@" + encoding.removesuffix("_base")
    for size in map(int, sizes):
        if encoding:
            splitter = RecursiveCharacterTextSplitter.from_tiktoken_encoder(
                encoding_name=encoding, chunk_size=size, chunk_overlap=0
            )
        else:
            splitter = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=0)
        wall = cpu = float("inf")
        runs, chunks, started = 0, 0, time.perf_counter()
        while runs < 3 or time.perf_counter() - started < float(budget):
            w, c = time.perf_counter(), time.thread_time()
            chunks = len(splitter.split_text(text))
            cpu = min(cpu, time.thread_time() - c)
            wall = min(wall, time.perf_counter() - w)
            runs += 1
        print(f"{engine}\t{size}\t{wall:.6f}\t{cpu:.6f}\t{chunks}\t{len(text.encode())}", flush=True)


def best_of(budget, f):
    """The fastest wall and CPU times of f over about budget seconds (at
    least 3 runs), and what its last run returned."""
    wall = cpu = float("inf")
    runs, result, started = 0, 0, time.perf_counter()
    while runs < 3 or time.perf_counter() - started < budget:
        w, c = time.perf_counter(), time.thread_time()
        result = f()
        cpu = min(cpu, time.thread_time() - c)
        wall = min(wall, time.perf_counter() - w)
        runs += 1
    return wall, cpu, result


def time_markdown(text, budget, sizes):
    headers = MarkdownHeaderTextSplitter(
        headers_to_split_on=[("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")]
    )
    for size in sizes:
        recursive = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=0)
        rows = [
            ("langchain-headers", lambda: len(headers.split_text(text))),
            (
                "langchain-headers+recursive",
                lambda: len(recursive.split_documents(headers.split_text(text))),
            ),
        ]
        for engine, f in rows:
            wall, cpu, chunks = best_of(budget, f)
            print(f"{engine}\t{size}\t{wall:.6f}\t{cpu:.6f}\t{chunks}\t{len(text.encode())}", flush=True)


if __name__ == "__main__":
    main()
