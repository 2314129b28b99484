"""Adds a Content-Security-Policy to the built page (Trunk's post_build hook,
Trunk.toml; by hand: `python3 tools/csp.py dist/index.html`).

The page needs nothing from anywhere but its own origin, so the policy says so:
scripts only from the origin plus the inline scripts the build writes (Trunk's
loader, and under `trunk serve` its reload script; each allowed by its SHA-256,
computed here because the loader names the hashed file names of each build),
WebAssembly compilation, the splitting worker only from the origin (no blob: or
data: workers), requests only to the origin, no plugins, no <base>, no form
targets. Styles allow inline style attributes, which the UI sets for
positions and sizes. A page that cannot reach anywhere cannot leak the text a
learner pastes into it.
"""

import base64
import hashlib
import os
import re
import sys

MARKER = '<meta charset="utf-8" />'


def policy(html: str) -> str:
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, flags=re.S)
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in inline
    )
    return (
        "default-src 'none'; "
        f"script-src 'self' {hashes} 'wasm-unsafe-eval'; "
        "style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data: blob:; "
        "worker-src 'self'; "
        "connect-src 'self'; "
        "font-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'none'"
    )


class PolicyError(Exception):
    pass


# `trunk serve`'s reload script names the server's address and the socket's
# base path by placeholders that the server fills in per response: the script
# the browser runs would then differ from the one hashed here. They are filled
# in here instead, with what the server would write (the page's own host, which
# is also Trunk's fallback, and the public URL, the base's default), so the
# script is served as built and its hash holds.
SERVE_ADDRESS = "'{{__TRUNK_ADDRESS__}}'"
SERVE_WS_BASE = "{{__TRUNK_WS_BASE__}}"


def add(html: str, path: str) -> str:
    """`html` with the policy right after its charset (unchanged if it has one)."""
    if "Content-Security-Policy" in html:
        return html
    html = html.replace(SERVE_ADDRESS, "window.location.host")
    html = html.replace(SERVE_WS_BASE, os.environ.get("TRUNK_PUBLIC_URL", "/"))
    if MARKER not in html:
        raise PolicyError(f"{path} has no {MARKER!r} to put the policy after")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy(html)}" />'
    return html.replace(MARKER, MARKER + "\n    " + meta, 1)


def main() -> int:
    staging = os.environ.get("TRUNK_STAGING_DIR")
    path = os.path.join(staging, "index.html") if staging else (sys.argv[1] if len(sys.argv) > 1 else "")
    if not path or not os.path.exists(path):
        print("csp.py: no built index.html (run it through trunk, or pass its path)", file=sys.stderr)
        return 1
    with open(path, encoding="utf-8") as f:
        html = f.read()
    try:
        out = add(html, path)
    except PolicyError as e:
        print(f"csp.py: {e}", file=sys.stderr)
        return 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
