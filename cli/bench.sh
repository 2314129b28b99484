#!/usr/bin/env bash
# cli/bench.sh — the whole chunkscope process on a 10 MB file, against
# LangChain's RecursiveCharacterTextSplitter in-process, and peak memory.
#
#   cli/bench.sh [ROUNDS]   sizes 256, 1000, 4000; overlap 0; characters;
#                           ROUNDS rounds (default 15)
#
# The input is the first 10 MB (cut at a line end) of the three corpora of
# bench/corpus.sh, one after the other (Markdown, Rust, prose). Each round
# times, at each size, LangChain's split_text once in-process (on the text
# already read, no output written) and each chunkscope configuration once
# as a whole process (the release binary mapping the file and
# writing every chunk to /dev/null). A cell is the least CPU time (user +
# system; for a process, the kernel's accounting of the child) over the
# rounds. The rounds interleave both sides, so a burst of load on a shared
# machine falls on both alike rather than on one side's runs; CPU time
# rather than wall time, because other processes stretch wall time.
#   langchain   --strategy langchain: LangChain's splitter exactly (its defaults)
#   recursive   --strategy recursive --placement start: our engine with
#               LangChain's separators and separator placement
#   json        the recursive configuration's default output, one JSON object
# The first two write JSON Lines. Peaks are the process's resident size
# (binary included, about 3 MB). LangChain's interpreter start-up and I/O
# are left out: the comparison favours it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TOOLS="${CHUNKSCOPE_TOOLS:-$HOME/.cache/chunkscope}"
PY="${CHUNKSCOPE_PYTHON:-$TOOLS/python-venv/bin/python}"
SIZES=(256 1000 4000)
"$PY" -c 'import langchain_text_splitters' 2>/dev/null \
  || { echo "needs $PY with langchain-text-splitters (./x python makes it)" >&2; exit 2; }

bench/corpus.sh >/dev/null
input="$ROOT/target/bench/cli-10mb.txt"
mkdir -p "$(dirname "$input")"
"$PY" - "$input" target/corpus/markdown.md target/corpus/code.rs target/corpus/prose.txt <<'PY'
import sys
data = b"".join(open(p, "rb").read() for p in sys.argv[2:])[:10_000_000]
open(sys.argv[1], "wb").write(data[: data.rfind(b"\n") + 1])
PY
# Linked statically, as a binary to copy onto any Linux machine would be:
# the dynamic loader's work was a tenth of the process at 4000.
cargo rustc --quiet --release -p chunkscope-cli --bin chunkscope \
  -- -C target-feature=+crt-static
bin="$ROOT/target/release/chunkscope"
mb="$(stat -c %s "$input")"

rounds="${1:-15}"
printf 'input: %s bytes; %s rounds; %s\n\n' "$mb" "$rounds" "$(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
# Each configuration's arguments, by name: NAME ARGS...
configs='langchain --format jsonl --strategy langchain
recursive --format jsonl --strategy recursive --placement start
json --format json --strategy recursive --placement start'

# Peaks first, from a small interpreter: a child's peak resident size counts
# the memory of the process it was forked from, before its exec.
peaks="$("$PY" - "$bin" "$input" "$configs" "${SIZES[@]}" <<'PY'
import os, subprocess, sys
binary, path, configs, *sizes = sys.argv[1:]
for line in configs.splitlines():
    name, *args = line.split()
    for size in sizes:
        with open(os.devnull, "wb") as null:
            child = subprocess.Popen([binary, *args, "--size", size, path], stdout=null)
            _, status, usage = os.wait4(child.pid, 0)
        if status != 0:
            sys.exit(f"{binary} failed: status {status}")
        print(f"{size},{name},{usage.ru_maxrss * 1024}")
PY
)"

"$PY" - "$bin" "$input" "$rounds" "$configs" "$peaks" "${SIZES[@]}" <<'PY'
import logging, os, subprocess, sys, time
from langchain_text_splitters import RecursiveCharacterTextSplitter
logging.disable(logging.WARNING)
binary, path, rounds, configs, peaks, *sizes = sys.argv[1:]
text = open(path, encoding="utf-8").read()
size_of_input = os.path.getsize(path)
ours = {name: args for name, *args in map(str.split, configs.splitlines())}
peak = {(s, n): int(b) for s, n, b in (line.split(",") for line in peaks.splitlines())}
best = {}

def cpu(args):
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen([binary, *args, path], stdout=null)
        _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit(f"{binary} failed: status {status}")
    return usage.ru_utime + usage.ru_stime

for _ in range(int(rounds)):
    for size in sizes:
        splitter = RecursiveCharacterTextSplitter(chunk_size=int(size), chunk_overlap=0)
        t = time.process_time()
        splitter.split_text(text)
        cell = (size, "LangChain")
        best[cell] = min(best.get(cell, float("inf")), time.process_time() - t)
        for name in ("langchain", "recursive", "json"):
            cell = (size, name)
            best[cell] = min(best.get(cell, float("inf")), cpu([*ours[name], "--size", size]))

print("| size | LangChain in-process | --strategy langchain | × | peak "
      "| --strategy recursive | × | peak | json | × | peak |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
show = lambda b: f"{b / 1e6:.0f} MB ({b / size_of_input:.1f}×)"
for size in sizes:
    lc = best[(size, "LangChain")]
    cells = [f"| {size} | {lc * 1e3:.1f} ms "]
    for name in ("langchain", "recursive", "json"):
        t = best[(size, name)]
        cells.append(f"| {t * 1e3:.1f} ms | {lc / t:.1f}× | {show(peak[(size, name)])} ")
    print("".join(cells) + "|")
PY
