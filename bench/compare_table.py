"""Prints bench/compare.sh's results as a table of MB/s and ratios, and the
issue's targets as met or missed.

Usage: python3 compare_table.py RESULTS.tsv [cpu|wall]
RESULTS.tsv lines: engine, size, best wall s, best cpu s, chunks, bytes.
"""

import sys

TARGETS = {"langchain": 10.0, "text-splitter": 30.0}
TRACE_LIMIT = 2.0


def main() -> int:
    path = sys.argv[1]
    clock = sys.argv[2] if len(sys.argv) > 2 else "cpu"
    column = 3 if clock == "cpu" else 2
    speed, chunks = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            engine, size, seconds, n, size_bytes = (
                fields[0],
                int(fields[1]),
                float(fields[column]),
                int(fields[4]),
                int(fields[5]),
            )
            speed[engine, size] = size_bytes / seconds / 1e6
            chunks[engine, size] = n
    sizes = sorted({size for _, size in speed})
    header = (
        f"{'size':>5} | {'chunkscope':>10} | {'+trace':>8} | {'trace×':>6} | "
        f"{'langchain':>9} | {'text-splitter':>13} | {'× langchain':>11} | {'× text-splitter':>15}"
    )
    print(f"\nMB/s of source text ({clock} time, best run; chunk counts below)\n")
    print(header)
    print("-" * len(header))
    missed = []
    for size in sizes:
        ours = speed[("chunkscope", size)]
        traced = speed[("chunkscope+trace", size)]
        slowdown = ours / traced
        lc = speed.get(("langchain", size))
        ts = speed.get(("text-splitter", size))
        x_lc = ours / lc if lc else float("nan")
        x_ts = ours / ts if ts else float("nan")
        print(
            f"{size:>5} | {ours:>10.0f} | {traced:>8.0f} | {slowdown:>5.2f}× | "
            f"{lc or float('nan'):>9.1f} | {ts or float('nan'):>13.2f} | "
            f"{x_lc:>10.1f}× | {x_ts:>14.0f}×"
        )
        if lc and x_lc < TARGETS["langchain"]:
            missed.append(f"size {size}: {x_lc:.1f}× LangChain (target ≥ 10×)")
        if ts and x_ts < TARGETS["text-splitter"]:
            missed.append(f"size {size}: {x_ts:.0f}× text-splitter (target ≥ 30×)")
        if slowdown > TRACE_LIMIT:
            missed.append(f"size {size}: trace costs {slowdown:.2f}× (target ≤ 2×)")
    print()
    for size in sizes:
        counts = ", ".join(
            f"{engine} {chunks[engine, size]}"
            for engine in ("chunkscope", "langchain", "text-splitter")
            if (engine, size) in chunks
        )
        print(f"chunks at size {size}: {counts}")
    tokens = sorted({e.split("@")[1] for e, _ in speed if "@" in e})
    for unit in tokens:
        print(f"\nIn {unit} tokens (LangChain: from_tiktoken_encoder, tiktoken's length)\n")
        header = (
            f"{'size':>5} | {'chunkscope':>10} | {'+trace':>8} | {'langchain':>9} | "
            f"{'× langchain':>11} | chunks (ours / langchain)"
        )
        print(header)
        print("-" * len(header))
        for size in sizes:
            ours = speed.get((f"chunkscope@{unit}", size))
            traced = speed.get((f"chunkscope+trace@{unit}", size))
            lc = speed.get((f"langchain@{unit}", size))
            if not (ours and traced and lc):
                continue
            ratio = ours / lc
            print(
                f"{size:>5} | {ours:>10.1f} | {traced:>8.1f} | {lc:>9.2f} | {ratio:>10.1f}× | "
                f"{chunks[f'chunkscope@{unit}', size]} / {chunks[f'langchain@{unit}', size]}"
            )
            if ratio < TARGETS["langchain"]:
                missed.append(f"size {size}: {ratio:.1f}× LangChain in {unit} tokens (target ≥ 10×)")
            if ours / traced > TRACE_LIMIT:
                missed.append(f"size {size}: trace costs {ours / traced:.2f}× in tokens (target ≤ 2×)")
    print()
    if missed:
        print("targets missed:\n  " + "\n  ".join(missed))
    else:
        print("targets met: ≥ 10× LangChain, ≥ 30× text-splitter, trace ≤ 2× at every size")
    return 0


if __name__ == "__main__":
    sys.exit(main())
