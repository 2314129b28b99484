#!/usr/bin/env bash
# bench/libraries.sh — the strategies that reproduce another library, against
# that library, in-process, on the same text and settings.
#
#   bench/libraries.sh                 the first 1 MB of the Markdown corpus
#   bench/libraries.sh --seconds 5     time budget per engine and size (default 2)
#
# semchunk: chunkerify(len, size) and chunkerify("cl100k_base", size), no
# overlap, against the `semchunk` strategy in chars and cl100k; chonkie:
# RecursiveChunker("character" or tiktoken's cl100k_base, chunk_size=size)
# against `chonkie-recursive`, TokenChunker (the same tokenizers,
# chunk_size=size, no overlap) against `chonkie-token`, and SentenceChunker
# (the same, its defaults) against `chonkie-sentence`; LlamaIndex: SentenceSplitter(chunk_size=size,
# chunk_overlap=0) with tokenizer=list or its default (cl100k) tokenizer against
# `llamaindex-sentence`, TokenTextSplitter (the same) against
# `llamaindex-token`, and MarkdownNodeParser() (get_nodes_from_documents)
# against `llamaindex-markdown`. Both sides must give the same number of chunks
# (the differential tests compare the chunks themselves). Uses the pinned
# reference virtualenv ./x test makes.
#
# text-splitter and text-splitter-markdown reproduce the text-splitter
# crate, so they are timed against the crate called directly, in Rust
# (core/examples/text_splitter_crate.rs: its Characters sizer, or
# tiktoken-rs's CoreBPE for cl100k), which must give the same chunks.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TOOLS="${CHUNKSCOPE_TOOLS:-$HOME/.cache/chunkscope}"
PY="$TOOLS/langchain-venv/bin/python"
seconds=2
[ "${1:-}" = "--seconds" ] && seconds="$2"
[ -x "$PY" ] || { echo "no reference virtualenv at $TOOLS/langchain-venv: run ./x test first" >&2; exit 2; }
export TIKTOKEN_CACHE_DIR; TIKTOKEN_CACHE_DIR="$(tools/tiktoken-cache.sh)"

bench/corpus.sh >/dev/null
input="$ROOT/target/bench/libraries-input.md"
mkdir -p "$(dirname "$input")"
head -c 1000000 "$ROOT/target/corpus/markdown.md" | python3 -c '
import sys
data = sys.stdin.buffer.read()
sys.stdout.buffer.write(data[: data.rfind(b"\n") + 1])' >"$input"
cargo build -q --release -p chunkscope --features tiktoken --example libraries --example text_splitter_crate

printf 'strategy\tunit\tsize\tchunkscope ms\tlibrary ms\tspeed-up\tchunks\n'
for strategy in semchunk chonkie-recursive chonkie-token chonkie-sentence llamaindex-sentence llamaindex-token llamaindex-markdown; do
  units=(chars cl100k)
  # MarkdownNodeParser has no size: one row, its sections (the size only
  # judges them).
  [ "$strategy" = llamaindex-markdown ] && units=(chars)
  for unit in "${units[@]}"; do
    case "$strategy/$unit" in
      llamaindex-markdown/*) sizes=(1000) ;;
      */chars) sizes=(256 1000 4000) ;;
      *) sizes=(64 256 1000) ;;
    esac
    paste <(target/release/examples/libraries "$strategy" "$unit" "$input" "$seconds" "${sizes[@]}") \
          <(STRATEGY="$strategy" "$PY" "bench/libraries/${strategy%%-*}_time.py" "$unit" "$input" "$seconds" "${sizes[@]}") |
      awk -v strategy="$strategy" -v unit="$unit" -F'\t' '{
        if ($4 != $8) { printf "%s: chunk counts differ at size %s: %s and %s\n", strategy, $1, $4, $8 > "/dev/stderr"; exit 1 }
        printf "%s\t%s\t%s\t%.1f\t%.1f\t%.0f×\t%s\n", strategy, unit, $1, $3 * 1000, $7 * 1000, $7 / $3, $4 }'
  done
done
for strategy in text-splitter text-splitter-markdown; do
  for unit in chars cl100k; do
    case "$unit" in chars) sizes=(256 1000 4000) ;; *) sizes=(64 256 1000) ;; esac
    target/release/examples/text_splitter_crate "$strategy" "$unit" "$input" "$seconds" "${sizes[@]}" |
      awk -v strategy="$strategy" -v unit="$unit" -F'\t' '{
        printf "%s\t%s\t%s\t%.1f\t%.1f\t%.2f×\t%s\n", strategy, unit, $1, $2 * 1000, $3 * 1000, $3 / $2, $4 }'
  done
done
