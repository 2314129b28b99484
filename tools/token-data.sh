#!/bin/sh
# Writes the token units' tables into target/tokens (Trunk's pre_build hook; the
# page fetches them when a token unit is chosen). Built natively from
# tiktoken-rs's embedded data: about 2 s once compiled.
#
# The wasm build's settings (std built from source for the wasm target, its
# flags) are not for this native program, so they are cleared here.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
unset CARGO_UNSTABLE_BUILD_STD CARGO_BUILD_TARGET
exec cargo run --quiet --manifest-path "$root/Cargo.toml" --target-dir "$root/target" \
  -p chunkscope-tokdata -- "$root/target/tokens" >/dev/null
