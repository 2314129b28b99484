"""Writes the site's index.html into a build directory (`./x build` calls it).

    python3 tools/site.py index.html STAGE

`./x build` has already put the wasm-bindgen output of each Rust artifact into
STAGE; this turns the build directives of index.html (its `<link data-build ...>`
elements) into what the browser loads, and copies the static files they name:

    rel="css" href=FILE        FILE copied as NAME-HASH.css, linked with its SRI integrity
    rel="copy-file" href=FILE  FILE copied as it is (same name, no hash)
    rel="copy-dir" href=DIR    DIR copied as STAGE/<basename of DIR>
    rel="rust" data-bin=NAME   the page module: the one inline loader script that
                               imports STAGE/NAME-HASH.js and starts it on
                               NAME-HASH_bg.wasm, plus preload links (with
                               integrity) for both at the end of <head>
    rel="rust" data-bin=NAME data-type="worker"
                               a worker, started by a script of its own: only
                               checked to be in STAGE (NAME.js, NAME_bg.wasm)

Hashed names let a browser cache each file forever without ever mixing two
builds. Every file the page loads by a tag carries a SHA-384 integrity. Last, the
Content-Security-Policy (tools/csp.py) is added, with the hash of the loader.
Any directive it does not know, or a file it cannot find, stops the build with a
message naming it.
"""

import base64
import hashlib
import html.parser
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csp  # noqa: E402

DIRECTIVE = re.compile(r"[ \t]*<link\b[^>]*\bdata-build\b[^>]*>[ \t]*\n?")


class BuildError(Exception):
    pass


def attributes(tag: str) -> dict:
    """The attributes of one `<link ...>` tag, as the HTML parser reads them."""
    found = {}

    class Parser(html.parser.HTMLParser):
        def handle_starttag(self, name, attrs):
            found.update((k, v if v is not None else "") for k, v in attrs)

        handle_startendtag = handle_starttag

    Parser().feed(tag)
    return found


def sri(path: str) -> str:
    with open(path, "rb") as f:
        digest = hashlib.sha384(f.read()).digest()
    return "sha384-" + base64.b64encode(digest).decode()


def content_hash(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def one(stage: str, pattern: str, what: str) -> str:
    """The one file in STAGE whose name matches `pattern`."""
    names = [n for n in os.listdir(stage) if re.fullmatch(pattern, n)]
    if len(names) != 1:
        raise BuildError(f"expected one {what} in {stage}, found {len(names)}: {names}")
    return names[0]


def build(source: str, stage: str, root: str) -> str:
    with open(source, encoding="utf-8") as f:
        page = f.read()
    preloads = []

    def expand(match: re.Match) -> str:
        tag = match.group(0)
        indent = tag[: len(tag) - len(tag.lstrip())]
        a = attributes(tag)
        rel, href = a.get("rel"), a.get("href")
        if rel in ("css", "copy-file", "copy-dir"):
            if not href:
                raise BuildError(f"{tag.strip()} has no href")
            path = os.path.join(root, href)
            if not os.path.exists(path):
                raise BuildError(f"{tag.strip()}: {href} does not exist")
        if rel == "css":
            stem = os.path.splitext(os.path.basename(href))[0]
            name = f"{stem}-{content_hash(path)}.css"
            shutil.copyfile(path, os.path.join(stage, name))
            return f'{indent}<link rel="stylesheet" href="/{name}" integrity="{sri(path)}"/>\n'
        if rel == "copy-file":
            shutil.copyfile(path, os.path.join(stage, os.path.basename(href)))
            return ""
        if rel == "copy-dir":
            shutil.copytree(path, os.path.join(stage, os.path.basename(os.path.normpath(href))))
            return ""
        if rel == "rust":
            bin_name = a.get("data-bin")
            if not bin_name:
                raise BuildError(f"{tag.strip()} has no data-bin")
            if a.get("data-type") == "worker":
                for name in (f"{bin_name}.js", f"{bin_name}_bg.wasm"):
                    if not os.path.isfile(os.path.join(stage, name)):
                        raise BuildError(f"the worker {bin_name} was not built: no {name} in {stage}")
                return ""
            js = one(stage, re.escape(bin_name) + r"-[0-9a-f]{16}\.js", f"{bin_name}-HASH.js")
            wasm = js[: -len(".js")] + "_bg.wasm"
            if not os.path.isfile(os.path.join(stage, wasm)):
                raise BuildError(f"no {wasm} beside {js} in {stage}")
            preloads.append(
                f'<link rel="modulepreload" href="/{js}" crossorigin="anonymous" '
                f'integrity="{sri(os.path.join(stage, js))}">'
            )
            preloads.append(
                f'<link rel="preload" href="/{wasm}" crossorigin="anonymous" '
                f'integrity="{sri(os.path.join(stage, wasm))}" as="fetch" type="application/wasm">'
            )
            return (
                f'{indent}<script type="module">\n'
                f"import init from '/{js}';\n"
                f"await init({{ module_or_path: '/{wasm}' }});\n"
                f"{indent}</script>\n"
            )
        raise BuildError(f"unknown build directive: {tag.strip()}")

    page = DIRECTIVE.sub(expand, page)
    if "</head>" not in page:
        raise BuildError(f"{source} has no </head>")
    page = page.replace("</head>", "".join(preloads) + "</head>", 1)
    if "data-build" in page:
        raise BuildError(f"{source}: a data-build directive was left (split over lines?)")
    return csp.add(page, source)


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: site.py INDEX_HTML STAGE", file=sys.stderr)
        return 2
    source, stage = sys.argv[1], sys.argv[2]
    root = os.path.dirname(os.path.abspath(source))
    try:
        page = build(source, stage, root)
    except (BuildError, csp.PolicyError) as e:
        print(f"site.py: {e}", file=sys.stderr)
        return 1
    with open(os.path.join(stage, "index.html"), "w", encoding="utf-8") as f:
        f.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
