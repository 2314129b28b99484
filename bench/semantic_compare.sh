#!/usr/bin/env bash
# Semantic chunking's splitting part, ours beside LangChain's SemanticChunker,
# with the same 64-dimension vectors on 2 MB of generated prose. Needs the
# pinned LangChain virtualenv (`./x setup`; tests/reference/langchain/
# requirements.txt) or CHUNKSCOPE_LANGCHAIN_PYTHON.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
py="${CHUNKSCOPE_LANGCHAIN_PYTHON:-${CHUNKSCOPE_TOOLS:-$HOME/.cache/chunkscope}/langchain-venv/bin/python}"
dir="$root/target/semantic-compare"
ours="$(cd "$root" && cargo run --quiet --release -p chunkscope --example semantic_compare -- "$dir")"
theirs="$("$py" "$root/bench/semantic_compare.py" "$dir")"
echo "chunkscope: $ours"
echo "SemanticChunker: $theirs"
python3 - "$ours" "$theirs" <<'PY'
import json, sys
ours, theirs = (json.loads(a) for a in sys.argv[1:])
print(f"splitting part, {ours['bytes'] / 2**20:.1f} MB, {ours['sentences']} sentences: "
      f"{theirs['seconds'] / ours['seconds']:.0f}x faster; same chunks: {theirs['same_chunks']}")
PY
