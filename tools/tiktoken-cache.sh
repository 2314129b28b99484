#!/usr/bin/env bash
# tools/tiktoken-cache.sh — fills a TIKTOKEN_CACHE_DIR and prints its path.
#
# tiktoken (the token counter LangChain uses) reads an encoding from
# TIKTOKEN_CACHE_DIR, under the SHA-1 of its download address, before it tries
# to download it, which cannot work offline. The files are the ones the
# tiktoken-rs crate embeds: OpenAI's, byte for byte (tiktoken checks their
# SHA-256 when it loads them). Idempotent.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$ROOT/target/tiktoken-cache"
mkdir -p "$dir"
assets=""
for enc in cl100k_base o200k_base; do
  url="https://openaipublic.blob.core.windows.net/encodings/$enc.tiktoken"
  name="$(printf '%s' "$url" | sha1sum | cut -d' ' -f1)"
  [ -s "$dir/$name" ] && continue
  if [ -z "$assets" ]; then
    assets="$(cargo metadata --format-version 1 --manifest-path "$ROOT/Cargo.toml" | python3 -c '
import json, os, sys
pkgs = json.load(sys.stdin)["packages"]
print(next(os.path.dirname(p["manifest_path"]) for p in pkgs if p["name"] == "tiktoken-rs"))')/assets"
  fi
  cp "$assets/$enc.tiktoken" "$dir/$name.tmp"
  mv "$dir/$name.tmp" "$dir/$name"
done
printf '%s\n' "$dir"
