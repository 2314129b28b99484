#!/usr/bin/env bash
# bench/markdown_compare.sh — structure-aware splitting on the same Markdown:
# chunkscope's `markdown` strategy, the `text-splitter` crate's MarkdownSplitter,
# and LangChain's recipe (MarkdownHeaderTextSplitter, then
# RecursiveCharacterTextSplitter on each of its documents), the recipe also
# through chunkscope's exact LangChain engines.
#
#   bench/markdown_compare.sh               the first 2 MB of the Markdown corpus
#   bench/markdown_compare.sh --full        the whole Markdown corpus
#   bench/markdown_compare.sh --seconds 5   time budget per engine and size (default 2)
#
# Characters, no overlap, sizes 256 / 1000 / 4000. The three structure-aware
# splitters do not cut alike (headings and blocks vs text-splitter's own
# levels vs LangChain's header lines then separators), so chunk counts differ;
# the recipe through chunkscope's LangChain engines gives LangChain's chunks
# (the counts are compared). Same clock and best-of rule as bench/compare.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TOOLS="${CHUNKSCOPE_TOOLS:-$HOME/.cache/chunkscope}"
VENV="$TOOLS/bench-venv"
CORPUS_DIR="${CHUNKSCOPE_CORPUS:-$ROOT/target/corpus}"
SIZES=(256 1000 4000)
prefix=2000000 seconds=2

while [ $# -gt 0 ]; do
  case "$1" in
    --full) prefix=0 ;;
    --seconds) seconds="$2"; shift ;;
    *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
  shift
done

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

bench/corpus.sh >/dev/null
source_file="$(ls "$CORPUS_DIR"/markdown.* | head -n1)"
input="$ROOT/target/bench/markdown-input.md"
mkdir -p "$(dirname "$input")"
if [ "$prefix" -gt 0 ]; then
  head -c "$prefix" "$source_file" | python3 -c '
import sys
data = sys.stdin.buffer.read()
sys.stdout.buffer.write(data[: data.rfind(b"\n") + 1])' >"$input"
else
  cp "$source_file" "$input"
fi

log "building chunkscope (opt-level 3) and the text-splitter peer"
CARGO_TARGET_DIR="$ROOT/target/bench" \
  cargo build --quiet --release -p chunkscope --features tiktoken --example throughput
CARGO_TARGET_DIR="$ROOT/target/peers" \
  cargo build --quiet --release --locked --manifest-path bench/peers/text-splitter/Cargo.toml

requirements="$ROOT/bench/peers/langchain/requirements.txt"
if ! cmp -s "$requirements" "$VENV/.chunkscope-requirements" 2>/dev/null; then
  log "python venv with LangChain's text splitters in $VENV (once)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$VENV/.chunkscope-requirements"
fi

results="$ROOT/target/bench/markdown-compare.tsv"
log "timing on $(wc -c <"$input") bytes of $(basename "$source_file"), ${seconds}s per engine and size"
{
  target/bench/release/examples/throughput --markdown "$input" "$seconds" "${SIZES[@]}"
  target/peers/release/peer-text-splitter --markdown "$input" "$seconds" "${SIZES[@]}"
  "$VENV/bin/python" bench/peers/langchain/bench.py --markdown "$input" "$seconds" "${SIZES[@]}"
} | tee "$results" >&2

python3 bench/markdown_table.py "$results" "${CHUNKSCOPE_CLOCK:-cpu}"
