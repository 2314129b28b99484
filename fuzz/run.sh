#!/usr/bin/env bash
# fuzz/run.sh [SECONDS] — fuzzes every engine for a bounded total time.
#
#   fuzz/run.sh          about 2 minutes in all, split evenly between the targets
#   fuzz/run.sh 3600     an hour
#   fuzz/run.sh 60 recursive   only the named targets
#
# With CHUNKSCOPE_FUZZ_SEED set (as `./x test` does), libFuzzer's random
# generator starts from that seed, from an empty scratch corpus, and each
# target stops after the number of inputs in fuzz/campaign.txt (or the time,
# if that comes first). So a test run walks nearly the same inputs on every
# machine; not exactly, as the coverage that steers the walk varies a little
# with the engine's hash maps, whose keys are random per process. Without
# it, each run explores from where the last one stopped (the nightly way).
# A finding is saved and replayed the same way in both.
#
# Fails (exit 1) on any crash, timeout (an input that takes over 20 s) or
# out-of-memory; the input that did it is saved in fuzz/artifacts/<target>/ and
# the message says how to replay it. New inputs the fuzzer finds go to
# target/fuzz-corpus/<target>/, so the committed seeds in fuzz/corpus/ stay as
# they are; copy a finding there (small!) when it is worth keeping.
#
# Needs cargo-fuzz (./x setup installs it into ${CHUNKSCOPE_TOOLS:-~/.cache/chunkscope}/bin)
# and a nightly compiler: the nightly toolchain where rustup has one, else the
# stable one with RUSTC_BOOTSTRAP=1 (a machine may have only stable). Set
# CHUNKSCOPE_FUZZ_TOOLCHAIN=stable to force the latter.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="${CHUNKSCOPE_TOOLS:-$HOME/.cache/chunkscope}"
export PATH="$TOOLS/bin:$PATH"
TOTAL="${1:-120}"
shift || true
TIMEOUT=20

die() { printf 'error: %s\n' "$*" >&2; exit 1; }
log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

[[ "$TOTAL" =~ ^[0-9]+$ ]] && [ "$TOTAL" -gt 0 ] || die "SECONDS must be a positive number, not $TOTAL"
command -v cargo-fuzz >/dev/null || die "cargo-fuzz is missing: cargo install cargo-fuzz --locked --root $TOOLS"
if [ "${CHUNKSCOPE_FUZZ_TOOLCHAIN:-}" != stable ] && cargo +nightly --version >/dev/null 2>&1; then
  CARGO=(cargo +nightly)
else
  CARGO=(cargo)
  export RUSTC_BOOTSTRAP=1
fi

cd "$ROOT/fuzz"
if [ $# -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <("${CARGO[@]}" fuzz list)
fi
per=$((TOTAL / ${#targets[@]}))
[ "$per" -gt 0 ] || per=1

# No sanitizer: the engine is safe Rust, and without ASan the fuzzer runs about
# twice as many inputs in the same time. Debug assertions and overflow checks
# stay on (cargo-fuzz's default).
FUZZ=("${CARGO[@]}" fuzz run --sanitizer none --target-dir "$ROOT/target/fuzz")
log "building the fuzz targets"
"${CARGO[@]}" fuzz build --sanitizer none --target-dir "$ROOT/target/fuzz" >/dev/null 2>&1 \
  || "${CARGO[@]}" fuzz build --sanitizer none --target-dir "$ROOT/target/fuzz"

failed=()
summary=()
for target in "${targets[@]}"; do
  scratch="$ROOT/target/fuzz-corpus/$target"
  mkdir -p "$scratch" "corpus/$target"
  logfile="$ROOT/target/fuzz-$target.log"
  bound=()
  if [ -n "${CHUNKSCOPE_FUZZ_SEED:-}" ]; then
    inputs="$(awk -v t="$target" '$1 == t { print $2 }' campaign.txt)"
    [ -n "$inputs" ] || die "fuzz/campaign.txt has no number of inputs for $target"
    # A fresh scratch corpus of its own: what the open-ended runs found
    # would change the walk (and stays theirs).
    scratch="$ROOT/target/fuzz-campaign/$target"
    rm -rf "$scratch" && mkdir -p "$scratch"
    bound=(-seed="$CHUNKSCOPE_FUZZ_SEED" -runs="$inputs")
    log "fuzzing $target: $inputs inputs from seed $CHUNKSCOPE_FUZZ_SEED (at most ${per}s)"
  else
    log "fuzzing $target for ${per}s"
  fi
  if "${FUZZ[@]}" "$target" "$scratch" "corpus/$target" -- \
    -max_total_time="$per" "${bound[@]}" -timeout="$TIMEOUT" -rss_limit_mb=2048 -max_len=4096 \
    -print_final_stats=1 >"$logfile" 2>&1; then
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$logfile" | tail -n1)"
    secs="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$logfile" | tail -n1)"
    summary+=("$target: ${runs:-?} inputs in ${secs:-$per} s, no crash, no timeout")
  else
    failed+=("$target")
    tail -n 40 "$logfile" >&2
    artifact="$(grep -o 'artifacts/[^ ]*' "$logfile" | tail -n1 || true)"
    summary+=("$target: FAILED; replay with: cd fuzz && cargo +nightly fuzz run --sanitizer none $target ${artifact:-<artifact>}")
  fi
done

printf '%s\n' "${summary[@]}"
[ ${#failed[@]} -eq 0 ] || die "fuzzing found a problem in: ${failed[*]} (full logs in target/fuzz-<target>.log)"
