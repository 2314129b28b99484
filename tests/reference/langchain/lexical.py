"""The lexical embedder (chunkscope's `Lexical`), written again from its
definition alone, as the reference the Rust one is compared with
(core/tests/semantic.rs, through semantic_driver.py):

- a word is a maximal run of alphanumeric characters: the Unicode property
  Alphabetic, or a number (general category Nd, Nl or No); everything else
  (spaces, punctuation, symbols) separates words and counts for nothing;
- a word is lowercased character by character (each character's own
  lowercase mapping, without context such as Greek final sigma);
- each group of text is a sparse vector: a word's weight is its count in the
  group times its smoothed IDF, ln((1 + n) / (1 + df)) + 1, where n is the
  number of groups and df how many of them hold the word; no normalisation;
- a word's dimension is the order in which it first appears across the
  groups (from 0), and each vector lists its words by dimension.
"""

from __future__ import annotations

import math

import regex

WORD = regex.compile(r"[\p{Alphabetic}\p{Nd}\p{Nl}\p{No}]+")


def words(text: str) -> list[str]:
    return ["".join(c.lower() for c in w) for w in WORD.findall(text)]


def embed(texts: list[str]) -> list[list[tuple[int, float]]]:
    dims: dict[str, int] = {}
    bags = []
    for text in texts:
        bag: dict[int, int] = {}
        for w in words(text):
            d = dims.setdefault(w, len(dims))
            bag[d] = bag.get(d, 0) + 1
        bags.append(bag)
    df = [0] * len(dims)
    for bag in bags:
        for d in bag:
            df[d] += 1
    n = len(texts)
    idf = [math.log((1 + n) / (1 + k)) + 1 for k in df]
    return [sorted((d, count * idf[d]) for d, count in bag.items()) for bag in bags]
