#!/usr/bin/env bash
# bench/memory.sh [MB] — peak memory of a large input (default 50 MB), through
# the library (core/examples/split_file.rs) and the `chunkscope` CLI.
#
# The input is the three corpora of bench/corpus.sh concatenated and repeated
# up to the size. Peak resident memory comes from `/usr/bin/time -v` (Debian's
# `time` package); the input file itself is part of it, since both read it
# whole.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MB="${1:-50}"
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time: apt-get install time" >&2; exit 2; }

bench/corpus.sh >/dev/null
input="$ROOT/target/bench/memory-${MB}mb.txt"
mkdir -p "$(dirname "$input")"
if [ ! -s "$input" ]; then
  python3 - "$input" "$MB" target/corpus/markdown.md target/corpus/code.rs target/corpus/prose.txt <<'PY'
import sys
out, mb, *parts = sys.argv[1:]
blob = "".join(open(p, encoding="utf-8").read() for p in parts)
want = int(mb) * 1_000_000
text = (blob * (want // len(blob) + 1))[:want]
text = text[: text.rfind("\n") + 1]
with open(out, "w", encoding="utf-8") as f:
    f.write(text)
PY
fi

export CARGO_TARGET_DIR="$ROOT/target/bench"
cargo build --quiet --release -p chunkscope --example split_file
cargo build --quiet --release -p chunkscope-cli --bin chunkscope

peak() { # peak LABEL COMMAND...
  local label=$1 report
  shift
  report="$( { /usr/bin/time -v "$@" >/dev/null; } 2>&1 )" || { echo "$report" >&2; return 1; }
  printf '%-44s peak RSS %6.0f MB, %s s\n' "$label" \
    "$(awk -F': ' '/Maximum resident set size/ { print $2 / 1024 }' <<<"$report")" \
    "$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' <<<"$report")"
}

echo "input: $(wc -c <"$input") bytes"
peak "library, recursive 1000, no trace" target/bench/release/examples/split_file "$input" 1000
peak "library, recursive 1000, trace" target/bench/release/examples/split_file "$input" 1000 --trace
peak "library, recursive 256, trace" target/bench/release/examples/split_file "$input" 256 --trace
peak "library, fixed 1000, trace" target/bench/release/examples/split_file "$input" 1000 --trace --fixed
peak "CLI, recursive 1000 (JSON chunks)" target/bench/release/chunkscope --size 1000 "$input"
peak "CLI, recursive 1000 --trace (JSON + trace)" target/bench/release/chunkscope --size 1000 --trace "$input"
