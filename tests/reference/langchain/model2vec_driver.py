"""Runs the real model2vec StaticModel on models the Rust test suite
(core/tests/model2vec.rs) describes: builds each one with the `tokenizers`
library, saves it with `StaticModel.save_pretrained` (the files our reader
must read), loads it back with `StaticModel.from_pretrained` and encodes the
case's texts.

Reads one JSON object per line on stdin, writes one per line on stdout, in
order. A case:
    {"model": "WordPiece" | "WordLevel" | "Unigram",
     "vocab": [str, ...],               # ids in order
     "scores": [float, ...] | null,     # Unigram only
     "unk": str | null,                 # WordPiece/WordLevel unk token
     "unk_id": int | null,              # Unigram
     "max_chars": int | null,           # WordPiece max_input_chars_per_word
     "normalizer": "bert" | "bert-cased" | "nfd-lower-strip" | "nfkc" | null,
     "pre_tokenizer": "bert" | "whitespace" | "whitespace-split" | "metaspace",
     "added": [str, ...],               # special tokens added after the vocab
     "dtype": "F32" | "F16",
     "bits": [int, ...],                # the table's values as IEEE bits, row-major
     "dims": int,
     "normalize": bool, "max_length": int | null,
     "texts": [str, ...]}
answers
    {"files": {"model.safetensors": base64, "tokenizer.json": str,
               "config.json": str},
     "ids": [[int, ...], ...],          # StaticModel.tokenize(text[:cut])
     "vectors": [[float, ...], ...]}    # StaticModel.encode(texts)

    {"op": "versions"} -> {"python": str, "packages": {name: str}}
"""

import base64
import importlib.metadata
import json
import platform
import sys
import tempfile
import warnings

warnings.simplefilter("ignore")

import numpy as np  # noqa: E402
from model2vec import StaticModel  # noqa: E402
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers  # noqa: E402

NORMALIZERS = {
    None: lambda: None,
    "bert": lambda: normalizers.BertNormalizer(lowercase=True),
    "bert-cased": lambda: normalizers.BertNormalizer(lowercase=False),
    "nfd-lower-strip": lambda: normalizers.Sequence(
        [normalizers.NFD(), normalizers.Lowercase(), normalizers.StripAccents()]
    ),
    "nfkc": lambda: normalizers.NFKC(),
}
PRE_TOKENIZERS = {
    "bert": pre_tokenizers.BertPreTokenizer,
    "whitespace": pre_tokenizers.Whitespace,
    "whitespace-split": pre_tokenizers.WhitespaceSplit,
    "metaspace": pre_tokenizers.Metaspace,
}


def build(case):
    vocab = case["vocab"]
    if case["model"] == "WordPiece":
        kwargs = {"unk_token": case["unk"]} if case["unk"] is not None else {}
        if case["max_chars"] is not None:
            kwargs["max_input_chars_per_word"] = case["max_chars"]
        model = models.WordPiece({t: i for i, t in enumerate(vocab)}, **kwargs)
    elif case["model"] == "WordLevel":
        model = models.WordLevel({t: i for i, t in enumerate(vocab)}, unk_token=case["unk"])
    else:
        model = models.Unigram(list(zip(vocab, case["scores"])), unk_id=case["unk_id"], byte_fallback=False)
    tok = Tokenizer(model)
    norm = NORMALIZERS[case["normalizer"]]()
    if norm is not None:
        tok.normalizer = norm
    tok.pre_tokenizer = PRE_TOKENIZERS[case["pre_tokenizer"]]()
    if case["added"]:
        tok.add_special_tokens(case["added"])
    rows = len(tok.get_vocab())
    dims = case["dims"]
    if case["dtype"] == "F32":
        table = np.array(case["bits"][: rows * dims], dtype=np.uint32).view(np.float32)
    else:
        table = np.array(case["bits"][: rows * dims], dtype=np.uint16).view(np.float16)
    return StaticModel(
        table.reshape(rows, dims), tok, normalize=case["normalize"], max_length=case["max_length"]
    )


def run(case):
    built = build(case)
    with tempfile.TemporaryDirectory() as folder:
        built.save_pretrained(folder)
        files = {}
        for name in ["tokenizer.json", "config.json"]:
            with open(f"{folder}/{name}", encoding="utf-8") as f:
                files[name] = f.read()
        with open(f"{folder}/model.safetensors", "rb") as f:
            files["model.safetensors"] = base64.b64encode(f.read()).decode()
        model = StaticModel.from_pretrained(folder)
    texts = case["texts"]
    if model.max_length is not None:
        cut = model.max_length * model.median_token_length
        ids = model.tokenize([t[:cut] for t in texts])
    else:
        ids = model.tokenize(texts)
    vectors = model.encode(texts)
    return {
        "files": files,
        "ids": [list(map(int, i)) for i in ids],
        "vectors": [[float(x) for x in v] for v in vectors],
    }


def versions():
    names = ["model2vec", "tokenizers", "safetensors", "numpy"]
    return {
        "python": platform.python_version(),
        "packages": {n: importlib.metadata.version(n) for n in names},
    }


def main():
    for line in sys.stdin:
        case = json.loads(line)
        answer = versions() if case.get("op") == "versions" else run(case)
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
