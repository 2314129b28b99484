"""Prints bench/markdown_compare.sh's results: MB/s per engine and size, the
ratios the issue sets targets for, and the chunk counts.

Usage: python3 markdown_table.py RESULTS.tsv [cpu|wall]
RESULTS.tsv lines: engine, size, best wall s, best cpu s, chunks, bytes.
"""

import sys

ENGINES = [
    "chunkscope-markdown",
    "chunkscope-markdown+trace",
    "chunkscope-markdown+prefix",
    "text-splitter-markdown",
    "langchain-headers+recursive",
    "chunkscope-lc-headers+recursive",
    "langchain-headers",
    "chunkscope-lc-headers",
]
# The target: the Markdown strategy at least 10× LangChain's header
# splitter + recursive splitter.
TARGET = 10.0


def main() -> int:
    path = sys.argv[1]
    clock = sys.argv[2] if len(sys.argv) > 2 else "cpu"
    column = 3 if clock == "cpu" else 2
    speed, chunks = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            engine, size, wall, cpu, n, size_bytes = line.rstrip("\n").split("\t")
            seconds = float(cpu if column == 3 else wall)
            speed[engine, int(size)] = int(size_bytes) / seconds / 1e6
            chunks[engine, int(size)] = int(n)
    sizes = sorted({size for _, size in speed})
    print(f"\nMB/s of source text ({clock} time, best run), chunk count in brackets\n")
    print("| engine | " + " | ".join(f"size {s}" for s in sizes) + " |")
    print("| --- |" + " --- |" * len(sizes))
    for engine in ENGINES:
        cells = [
            f"{speed[engine, s]:.1f} ({chunks[engine, s]})" if (engine, s) in speed else "–"
            for s in sizes
        ]
        print(f"| {engine} | " + " | ".join(cells) + " |")
    print()
    missed = []
    for s in sizes:
        ours = speed.get(("chunkscope-markdown", s))
        lc = speed.get(("langchain-headers+recursive", s))
        ts = speed.get(("text-splitter-markdown", s))
        mine_lc = speed.get(("chunkscope-lc-headers+recursive", s))
        line = []
        if ours and lc:
            line.append(f"markdown {ours / lc:.1f}× LangChain's recipe")
            if ours / lc < TARGET:
                missed.append(f"size {s}: {ours / lc:.1f}× (target ≥ {TARGET:.0f}×)")
        if ours and ts:
            line.append(f"{ours / ts:.1f}× text-splitter's MarkdownSplitter")
        if mine_lc and lc:
            same = chunks[("chunkscope-lc-headers+recursive", s)] == chunks[("langchain-headers+recursive", s)]
            line.append(
                f"the recipe through our LangChain engines {mine_lc / lc:.1f}× LangChain"
                f" ({'same' if same else 'DIFFERENT'} chunk count)"
            )
        print(f"size {s}: " + ", ".join(line))
    print()
    if missed:
        print("target missed:\n  " + "\n  ".join(missed))
    else:
        print("target met: markdown ≥ 10× LangChain's header + recursive splitters at every size")
    return 0


if __name__ == "__main__":
    sys.exit(main())
