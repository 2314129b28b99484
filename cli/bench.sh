#!/usr/bin/env bash
# cli/bench.sh — the whole chunkscope process on a 10 MB file, against
# LangChain's RecursiveCharacterTextSplitter in-process, and peak memory.
#
#   cli/bench.sh            sizes 256, 1000, 4000; overlap 0; characters
#
# The input is the first 10 MB (cut at a line end) of the three corpora of
# bench/corpus.sh, one after the other (Markdown, Rust, prose). Each row times
# the release-native binary, mapping the file and writing every chunk (to
# /dev/null): the least CPU time (user + system, from the kernel's
# accounting of the child, in microseconds) of 15 runs, and the peak resident
# size (the process's, binary included: about 3 MB of it).
#   langchain   --strategy langchain: LangChain's splitter exactly (its defaults)
#   recursive   --strategy recursive --placement start: our engine with
#               LangChain's separators and separator placement
# Times are jsonl runs; the last column is the peak of the default JSON
# (recursive), which holds every chunk's text at once.
# LangChain is timed in-process on the same text (the text already read, no
# output written; the least CPU time of 5 runs), which leaves out its
# interpreter start-up and I/O: the comparison favours it. CPU time rather
# than wall time, because on a shared machine other processes stretch wall
# time; both sides are measured the same way in the same run.
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
cargo rustc --quiet --profile release-native -p chunkscope-cli --bin chunkscope \
  -- -C target-feature=+crt-static
bin="$ROOT/target/release-native/chunkscope"
mb="$(stat -c %s "$input")"

run() { # run FORMAT ARGS... -> "least_cpu_seconds peak_kb"
  "$PY" - "$bin" "$input" "$@" <<'PY'
import os, subprocess, sys
binary, path, fmt, *args = sys.argv[1:]
best, peak = float("inf"), 0
for _ in range(15):
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen([binary, "--format", fmt, *args, path], stdout=null)
        _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        sys.exit(f"{binary} failed: status {status}")
    best = min(best, usage.ru_utime + usage.ru_stime)
    peak = max(peak, usage.ru_maxrss)
print(f"{best:.4f} {peak}")
PY
}

langchain() { # langchain SIZE -> best seconds of 5 in-process
  "$PY" - "$input" "$1" <<'PY'
import logging, sys, time
from langchain_text_splitters import RecursiveCharacterTextSplitter
logging.disable(logging.WARNING)
text = open(sys.argv[1], encoding="utf-8").read()
splitter = RecursiveCharacterTextSplitter(chunk_size=int(sys.argv[2]), chunk_overlap=0)
best = min(
    (lambda t: (splitter.split_text(text), time.process_time() - t)[1])(time.process_time())
    for _ in range(5)
)
print(f"{best:.4f}")
PY
}

printf 'input: %s bytes; %s\n\n' "$mb" "$(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '| size | LangChain in-process | --strategy langchain | × | peak | --strategy recursive | × | peak | peak, json |\n'
printf '| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n'
for size in "${SIZES[@]}"; do
  lc="$(langchain "$size")"
  read -r lcs lcm < <(run jsonl --strategy langchain --size "$size")
  read -r rs rm < <(run jsonl --strategy recursive --placement start --size "$size")
  read -r _ jm < <(run json --strategy recursive --placement start --size "$size")
  "$PY" - "$size" "$lc" "$lcs" "$rs" "$lcm" "$rm" "$jm" "$mb" <<'PY'
import sys
size = sys.argv[1]
lc, lcs, rs = map(float, sys.argv[2:5])
lcm, rm, jm = (int(kb) * 1024 for kb in sys.argv[5:8])
mb = int(sys.argv[8])
peak = lambda b: f"{b / 1e6:.0f} MB ({b / mb:.1f}×)"
print(f"| {size} | {lc:.3f} s | {lcs:.3f} s | {lc / lcs:.1f}× | {peak(lcm)} "
      f"| {rs:.3f} s | {lc / rs:.1f}× | {peak(rm)} | {peak(jm)} |")
PY
done
