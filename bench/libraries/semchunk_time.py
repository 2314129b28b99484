"""Times semchunk 4.1.1 in-process on one file, for bench/libraries.sh.

Usage: semchunk_time.py UNIT FILE SECONDS SIZE...
Prints, tab-separated, one line per size: <size> <best wall s> <best cpu s> <chunks>.
Each chunker is made once per size (chunkerify memoizes its counter), then
called repeatedly for about SECONDS (at least 3 times); the fastest run is kept.
"""

import sys
import time

import semchunk

unit, path, seconds, *sizes = sys.argv[1:]
text = open(path, encoding="utf-8").read()
counter = {"chars": len, "bytes": lambda t: len(t.encode("utf-8"))}.get(unit) or {
    "cl100k": "cl100k_base",
    "o200k": "o200k_base",
}[unit]
for size in map(int, sizes):
    best_wall = best_cpu = float("inf")
    started, runs = time.perf_counter(), 0
    while runs < 3 or time.perf_counter() - started < float(seconds):
        # A new chunker each run, so no run reads the counter's cache of the last.
        chunker = semchunk.chunkerify(counter, size)
        w, c = time.perf_counter(), time.thread_time()
        chunks = chunker(text)
        best_cpu = min(best_cpu, time.thread_time() - c)
        best_wall = min(best_wall, time.perf_counter() - w)
        runs += 1
    print(f"{size}\t{best_wall:.6f}\t{best_cpu:.6f}\t{len(chunks)}", flush=True)
