"""Times chonkie 1.7.0's RecursiveChunker (or, with STRATEGY=chonkie-token,
its TokenChunker; with STRATEGY=chonkie-sentence, its SentenceChunker)
in-process on one file, for bench/libraries.sh.

Usage: chonkie_time.py UNIT FILE SECONDS SIZE...
Prints, tab-separated, one line per size: <size> <best wall s> <best cpu s> <chunks>.
A new chunker each run (its token counter is memoized), called repeatedly for
about SECONDS (at least 3 times); the fastest run is kept.
"""

import logging
import os
import sys
import time
import warnings

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)

import tiktoken  # noqa: E402
from chonkie import RecursiveChunker, SentenceChunker, TokenChunker  # noqa: E402

CHUNKER = {
    "chonkie-token": TokenChunker,
    "chonkie-sentence": SentenceChunker,
}.get(os.environ.get("STRATEGY", ""), RecursiveChunker)

unit, path, seconds, *sizes = sys.argv[1:]
text = open(path, encoding="utf-8").read()
for size in map(int, sizes):
    best_wall = best_cpu = float("inf")
    started, runs = time.perf_counter(), 0
    while runs < 3 or time.perf_counter() - started < float(seconds):
        tokenizer = "character" if unit == "chars" else tiktoken.get_encoding(f"{unit}_base")
        chunker = CHUNKER(tokenizer=tokenizer, chunk_size=size)
        w, c = time.perf_counter(), time.thread_time()
        chunks = chunker.chunk(text)
        best_cpu = min(best_cpu, time.thread_time() - c)
        best_wall = min(best_wall, time.perf_counter() - w)
        runs += 1
    print(f"{size}\t{best_wall:.6f}\t{best_cpu:.6f}\t{len(chunks)}", flush=True)
