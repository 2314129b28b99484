#!/usr/bin/env bash
# bench/compare.sh — chunkscope against the peers, on the same text and settings.
#
#   bench/compare.sh                 the first 2 MB of the Markdown corpus
#   bench/compare.sh --full          the whole Markdown corpus (3.2 MB)
#   bench/compare.sh --corpus prose  another corpus of bench/corpus.sh (markdown, code, prose)
#   bench/compare.sh --seconds 5     time budget per engine and size (default 2)
#   bench/compare.sh --tokens        also in cl100k tokens: chunkscope against
#                                    LangChain's from_tiktoken_encoder (tiktoken)
#   CHUNKSCOPE_CLOCK=wall bench/compare.sh   rank by wall time instead of CPU time
#
# Settings, the same for all three: characters, no overlap, sizes 256 / 1000 /
# 4000, whitespace trimmed.
#   chunkscope     recursive engine, separators ["\n\n", "\n", " ", ""], the
#                  separator kept at the start of the next piece (LangChain's
#                  defaults); timed with and without the trace.
#   langchain      RecursiveCharacterTextSplitter (langchain-text-splitters, pinned
#                  in bench/peers/langchain/requirements.txt), its defaults.
#   text-splitter  the `text-splitter` crate's TextSplitter (characters). It has
#                  no separator list: it cuts at the highest of its own levels
#                  that fits (runs of newlines, longest first, then Unicode
#                  sentences, words, graphemes, chars), and packs by binary
#                  search, so its chunk count differs a little.
# Every engine reads the file once and times only the split, in-process; the
# best of several runs is kept. CPU time (the thread's own) is the default
# clock because this machine is shared: other processes' load inflates wall
# time but not CPU time. Numbers are still noisy: run it twice.
#
# Tools go where ./x keeps them: ${CHUNKSCOPE_TOOLS:-~/.cache/chunkscope}.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TOOLS="${CHUNKSCOPE_TOOLS:-$HOME/.cache/chunkscope}"
VENV="$TOOLS/bench-venv"
CORPUS_DIR="${CHUNKSCOPE_CORPUS:-$ROOT/target/corpus}"
SIZES=(256 1000 4000)
corpus=markdown prefix=2000000 seconds=2 tokens=0

while [ $# -gt 0 ]; do
  case "$1" in
    --full) prefix=0 ;;
    --corpus) corpus="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --tokens) tokens=1 ;;
    *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
  shift
done

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

bench/corpus.sh >/dev/null
source_file="$(ls "$CORPUS_DIR/$corpus".* 2>/dev/null | head -n1)"
[ -f "$source_file" ] || { echo "no corpus named $corpus in $CORPUS_DIR" >&2; exit 2; }
input="$ROOT/target/bench/compare-input.txt"
mkdir -p "$(dirname "$input")"
if [ "$prefix" -gt 0 ]; then
  # A prefix that ends at a line end, so no character is cut in half.
  head -c "$prefix" "$source_file" | python3 -c '
import sys
data = sys.stdin.buffer.read()
sys.stdout.buffer.write(data[: data.rfind(b"\n") + 1])' >"$input"
else
  cp "$source_file" "$input"
fi

log "building chunkscope (opt-level 3) and the text-splitter peer"
# The release profile (opt-level 3, as the peer's), in a target dir of its own
# so that no other build is invalidated.
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

results="$ROOT/target/bench/compare.tsv"
log "timing on $(wc -c <"$input") bytes of $(basename "$source_file"), ${seconds}s per engine and size"
{
  target/bench/release/examples/throughput "$input" "$seconds" "${SIZES[@]}"
  "$VENV/bin/python" bench/peers/langchain/bench.py "$input" "$seconds" "${SIZES[@]}"
  target/peers/release/peer-text-splitter "$input" "$seconds" "${SIZES[@]}"
  if [ "$tokens" = 1 ]; then
    target/bench/release/examples/throughput --unit cl100k "$input" "$seconds" "${SIZES[@]}"
    TIKTOKEN_CACHE_DIR="$(tools/tiktoken-cache.sh)" "$VENV/bin/python" bench/peers/langchain/bench.py \
      --tiktoken cl100k_base "$input" "$seconds" "${SIZES[@]}"
  fi
} | tee "$results" >&2

python3 bench/compare_table.py "$results" "${CHUNKSCOPE_CLOCK:-cpu}"
