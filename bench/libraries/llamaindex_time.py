"""Times LlamaIndex's SentenceSplitter (llama-index-core 0.14.25) (or, with
STRATEGY=llamaindex-token, its TokenTextSplitter; with
STRATEGY=llamaindex-markdown, its MarkdownNodeParser, which has no size, through
get_nodes_from_documents as the strategy reads it) in-process on one file, for
bench/libraries.sh.

Usage: llamaindex_time.py UNIT FILE SECONDS SIZE...
Prints, tab-separated, one line per size: <size> <best wall s> <best cpu s> <chunks>.
SentenceSplitter(chunk_size=size, chunk_overlap=0) with its default tokenizer
for cl100k and tokenizer=list for chars, as the `llamaindex-sentence` and
`llamaindex-token` strategies read them; NLTK reads the data the wheel bundles. A new splitter each run,
called repeatedly for about SECONDS (at least 3 times); the fastest run is kept.
"""

import logging
import os
import sys
import time
import warnings

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)

import llama_index.core  # noqa: E402

os.environ["NLTK_DATA"] = os.path.join(
    os.path.dirname(llama_index.core.__file__), "_static", "nltk_cache"
)

from llama_index.core import Document  # noqa: E402
from llama_index.core.node_parser import (  # noqa: E402
    MarkdownNodeParser,
    SentenceSplitter,
    TokenTextSplitter,
)

SPLITTER = {"llamaindex-token": TokenTextSplitter}.get(
    os.environ.get("STRATEGY", ""), SentenceSplitter
)

unit, path, seconds, *sizes = sys.argv[1:]
text = open(path, encoding="utf-8").read()
for size in map(int, sizes):
    best_wall = best_cpu = float("inf")
    started, runs = time.perf_counter(), 0
    while runs < 3 or time.perf_counter() - started < float(seconds):
        tokenizer = list if unit == "chars" else None
        if os.environ.get("STRATEGY") == "llamaindex-markdown":
            parser = MarkdownNodeParser()
            w, c = time.perf_counter(), time.thread_time()
            chunks = parser.get_nodes_from_documents([Document(text=text)])
        else:
            splitter = SPLITTER(chunk_size=size, chunk_overlap=0, tokenizer=tokenizer)
            w, c = time.perf_counter(), time.thread_time()
            chunks = splitter.split_text(text)
        best_cpu = min(best_cpu, time.thread_time() - c)
        best_wall = min(best_wall, time.perf_counter() - w)
        runs += 1
    print(f"{size}\t{best_wall:.6f}\t{best_cpu:.6f}\t{len(chunks)}", flush=True)
