"""chunkscope's LangChain classes against LangChain's, in-process, on one text.

    python python/bench/compare.py [--tokens | --headers] [--seconds S] [--full] [FILE]

FILE defaults to the Markdown corpus of bench/corpus.sh (target/corpus/
markdown.md), cut to its first 2 MB at a line end unless --full. For chunk
sizes 256, 1000 and 4000 (overlap 0, LangChain's defaults otherwise), both
`RecursiveCharacterTextSplitter.split_text` run for about S seconds each
(at least 3 times) and the fastest run counts; the two outputs must be
identical, string for string. The last columns time chunkscope's own
recursive engine (`Splitter(strategy="recursive")`) with LangChain's
separators and separator placement, whose chunks differ a little (it never
passes an oversized piece through). With --tokens, both come from
`from_tiktoken_encoder(encoding_name="cl100k_base")` (tiktoken needs
TIKTOKEN_CACHE_DIR offline: tools/tiktoken-cache.sh fills one). With
--headers, `MarkdownHeaderTextSplitter(headers_to_split_on=#, ##, ###)
.split_text` instead, with and without return_each_line (its Documents
must be equal).

CPU time of the calling thread is the clock (the engine runs on it, with the
GIL released), so other processes' load on a shared machine inflates it less
than wall time. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from typing import Any, Callable

import chunkscope
import langchain_text_splitters

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIZES = (256, 1000, 4000)

# LangChain logs a warning per oversized chunk; logging is not splitting.
logging.disable(logging.WARNING)


def best(run: Callable[[], Any], seconds: float) -> tuple[float, Any]:
    fastest, result, runs, started = float("inf"), None, 0, time.perf_counter()
    while runs < 3 or time.perf_counter() - started < seconds:
        t = time.thread_time()
        result = run()
        fastest = min(fastest, time.thread_time() - t)
        runs += 1
    return fastest, result


def read(path: str, full: bool) -> str:
    with open(path, "rb") as f:
        data = f.read()
    if not full:
        data = data[:2_000_000]
        data = data[: data.rfind(b"\n") + 1]
    return data.decode("utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=os.path.join(ROOT, "target", "corpus", "markdown.md"))
    parser.add_argument("--tokens", action="store_true", help="count cl100k tokens (tiktoken)")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--full", action="store_true", help="the whole file, not its first 2 MB")
    parser.add_argument("--headers", action="store_true", help="MarkdownHeaderTextSplitter")
    args = parser.parse_args()
    text = read(args.file, args.full)
    mb = len(text.encode()) / 1e6
    if args.headers:
        headers(text, mb, args.seconds)
        return
    unit = "cl100k tokens" if args.tokens else "chars"
    print(f"{mb:.2f} MB of {os.path.basename(args.file)}, {unit}, overlap 0, CPU time, best of >= 3 runs")
    print()
    print("| size | chunkscope MB/s | LangChain MB/s | × LangChain | chunks (identical) "
          "| recursive engine MB/s | × LangChain | its chunks |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for size in SIZES:
        splitters = []
        for module in (chunkscope, langchain_text_splitters):
            cls = module.RecursiveCharacterTextSplitter
            if args.tokens:
                splitters.append(cls.from_tiktoken_encoder(
                    encoding_name="cl100k_base", chunk_size=size, chunk_overlap=0))
            else:
                splitters.append(cls(chunk_size=size, chunk_overlap=0))
        (ours_s, ours), (theirs_s, theirs) = (
            best(lambda s=s: s.split_text(text), args.seconds) for s in splitters
        )
        if ours != theirs:
            raise SystemExit(f"size {size}: the chunks differ from LangChain's")
        engine = chunkscope.Splitter(
            strategy="recursive", size=size, separators=["\n\n", "\n", " ", ""],
            placement="start", unit="cl100k" if args.tokens else "chars",
        )
        engine_s, (engine_chunks, _) = best(lambda: engine.split_text(text), args.seconds)
        print(
            f"| {size} | {mb / ours_s:.1f} | {mb / theirs_s:.2f} | {theirs_s / ours_s:.1f}× "
            f"| {len(ours)} | {mb / engine_s:.0f} | {theirs_s / engine_s:.1f}× | {len(engine_chunks)} |",
            flush=True,
        )


def headers(text: str, mb: float, seconds: float) -> None:
    print(f"{mb:.2f} MB, MarkdownHeaderTextSplitter, CPU time, best of >= 3 runs")
    print()
    print("| return_each_line | chunkscope MB/s | LangChain MB/s | × LangChain | documents (identical) |")
    print("| --- | --- | --- | --- | --- |")
    on = [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")]
    for each_line in (False, True):
        (ours_s, ours), (theirs_s, theirs) = (
            best(lambda m=m: m.MarkdownHeaderTextSplitter(on, return_each_line=each_line)
                 .split_text(text), seconds)
            for m in (chunkscope, langchain_text_splitters)
        )
        if ours != theirs:
            raise SystemExit(f"return_each_line={each_line}: the documents differ from LangChain's")
        print(f"| {each_line} | {mb / ours_s:.1f} | {mb / theirs_s:.2f} | {theirs_s / ours_s:.1f}× "
              f"| {len(ours)} |", flush=True)


if __name__ == "__main__":
    main()
