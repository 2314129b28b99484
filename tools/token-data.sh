#!/bin/sh
# Writes the token units' tables into target/tokens (Trunk's pre_build hook; the
# page fetches them when a token unit is chosen). Built natively from
# tiktoken-rs's embedded data: about 2 s once compiled.
#
# Its own target directory: `./x test` builds the site while the native tests
# run, and a build of the tokenizer in theirs would replace the library a test
# is being linked against.
#
# The wasm build's settings (std built from source for the wasm target, its
# flags) are not for this native program, so they are cleared here.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
unset CARGO_UNSTABLE_BUILD_STD CARGO_BUILD_TARGET
exec cargo run --quiet --manifest-path "$root/Cargo.toml" --target-dir "$root/target/tokdata" \
  -p chunkscope-tokdata -- "$root/target/tokens" >/dev/null
