"""chunkscope's LangChain classes against the real langchain-text-splitters,
asked now, in the same process: random texts and configurations (a fixed
seed, so every run asks the same), LangChain's own test cases, languages, and
the document methods. Exceptions are compared by kind."""

from __future__ import annotations

import collections
import gzip
import json
import os
import random
from typing import Any

import chunkscope
from conftest import ROOT, build, differs, split_case

SEED = 20_251_201
CASES_PER_CLASS = 3_000

# Text pieces: words that repeat (so LangChain's `find` can land on an
# earlier copy), every kind of whitespace `str.strip` knows, multi-byte and
# combining characters, regex-significant punctuation, special tokens.
ATOMS = [
    "a", "b", "ab", "foo", "bar", "x", "Q", "7", "42", "_", "é", "e\u0301", "中文", "😀",
    "Ünï", " ", " ", "  ", "\n", "\n", "\n\n", "\t", "\r\n", "\u3000", "\xa0", "\x1c",
    "\x85", ".", ". ", ",", "!", "?", "。", "-", "#", "## ", "\n# ", "$", "(", ")", "\\",
    "def ", "\nclass ", "का", "²", "\u212a", "<|endoftext|>",
]
LITERALS = ["\n\n", "\n", " ", "", ".", ". ", "ab", "a", "😀", "。", ",", "  ", "\t", "foo"]
# Regexes both accept, some only Python's `re` reads this way, and a few both
# reject (LangChain raises re.error when it reaches them).
REGEXES = [
    r"\s+", r"\n+", r"[.!?]\s*", r"\d+", "a|b", "(?:ab)+", "x*", r"\b", r"(?<=\.)",
    "(?=a)", "(?<!b)", "$", "(?m)^", r"\n#{1,6} ", r"\w+", r"\W", r"[^\w\s]", r"\Z", "a{,2}",
    "{", "[]a]", r"(?s).", "(?>a+)b?", "a++", "(?i)7", r"(?=\d{2})", "(a)", r"(\s)|(,)",
    "(", "[", "a{2,1}", r"\p{L}", "",
]


def random_text(rng: random.Random) -> str:
    atoms = rng.choices(ATOMS, k=rng.randrange(150 if rng.random() < 0.1 else 40))
    text = "".join(atoms)
    if text and rng.random() < 0.5:
        a, b = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        text += (text[a:b] + rng.choice([" ", "\n", "", ". "])) * rng.randint(1, 4)
    return text


def random_case(rng: random.Random, kind: str) -> dict[str, Any]:
    size = rng.choice([0, 1, 2, 3]) if rng.random() < 0.1 else rng.randint(1, 40)
    roll = rng.random()
    overlap = size if roll < 0.1 else size + 1 if roll < 0.14 else 0 if roll < 0.5 else rng.randint(0, size)
    regex = rng.random() < 0.4
    count = (1 if rng.random() < 0.95 else 0) if kind == "character" else rng.randrange(5)
    separators = [rng.choice(REGEXES if regex else LITERALS) for _ in range(count)]
    if kind == "recursive" and rng.random() < 0.3:
        separators.append("")
    unit = rng.choices(["chars", "bytes", "cl100k", "o200k"], [60, 25, 8, 7])[0]
    return {
        "kind": kind,
        "text": random_text(rng),
        "chunk_size": size,
        "chunk_overlap": overlap,
        "separators": separators,
        "keep_separator": rng.choice([False, True, "start", "end"]),
        "is_separator_regex": regex,
        "strip_whitespace": rng.random() < 0.75,
        "unit": unit,
    }


def test_random_cases_give_langchains_answers(langchain: Any) -> None:
    rng = random.Random(SEED)
    tally: collections.Counter[str] = collections.Counter()
    problems = []
    for kind in ("recursive", "character"):
        for _ in range(CASES_PER_CLASS):
            case = random_case(rng, kind)
            theirs = split_case(langchain, case)
            ours = split_case(chunkscope, case)
            tally[f"{kind} cases"] += 1
            tally[f"  unit {case['unit']}"] += 1
            if "error" in theirs:
                tally[f"  LangChain raised {theirs['error']}"] += 1
            problem = differs(ours, theirs)
            if problem:
                problems.append(f"{problem}\n  case {json.dumps(case, ensure_ascii=False)}")
            elif "error" in theirs:
                tally["  the same exception: class and message"] += 1
    print(f"compared with the live LangChain: {dict(tally)}")
    assert not problems, f"{len(problems)} differences; the first:\n\n" + "\n\n".join(problems[:10])
    assert tally["recursive cases"] == tally["character cases"] == CASES_PER_CLASS
    # The generator reaches every unit and every kind of LangChain exception.
    for key in ("cl100k", "o200k", "bytes"):
        assert tally[f"  unit {key}"] >= 100, key
    for key in ("ValueError", "error", "TypeError"):
        assert tally[f"  LangChain raised {key}"] >= 10, key
    # Every exception compared exactly: no refusal is taken for agreement here.
    raised = sum(v for k, v in tally.items() if k.startswith("  LangChain raised"))
    assert tally["  the same exception: class and message"] == raised, tally


def test_langchains_own_test_cases_live(langchain: Any) -> None:
    with gzip.open(os.path.join(ROOT, "tests", "vectors", "langchain.jsonl.gz"), "rt") as f:
        next(f)
        fixtures = [c["in"] for c in map(json.loads, f) if "name" in c["in"]]
    problems = [
        f"{case['name']}: {problem}"
        for case in fixtures
        if (problem := differs(split_case(chunkscope, case), split_case(langchain, case)))
    ]
    assert len(fixtures) == 56
    assert not problems, "\n\n".join(problems)


def test_every_language_splits_as_langchain(langchain: Any) -> None:
    rng = random.Random(SEED + 1)
    compared = 0
    for language in langchain.Language:
        try:
            theirs_seps = langchain.RecursiveCharacterTextSplitter.get_separators_for_language(
                language
            )
        except ValueError as e:
            try:
                chunkscope.RecursiveCharacterTextSplitter.get_separators_for_language(language)
            except chunkscope.ChunkscopeError:
                continue
            raise AssertionError(f"{language}: LangChain raises ({e}), we do not") from None
        assert (
            chunkscope.RecursiveCharacterTextSplitter.get_separators_for_language(language)
            == theirs_seps
        )
        for _ in range(20):
            text = random_text(rng) + "\nclass A:\n    def f(self):\n        return 1\n" * 3
            size = rng.randint(5, 60)
            ours = chunkscope.RecursiveCharacterTextSplitter.from_language(
                language, chunk_size=size, chunk_overlap=0, add_start_index=True
            )
            theirs = langchain.RecursiveCharacterTextSplitter.from_language(
                language, chunk_size=size, chunk_overlap=0, add_start_index=True
            )
            assert ours.create_documents([text]) == theirs.create_documents([text]), language
            compared += 1
    assert compared == 27 * 20


def test_documents_are_langchains_documents(langchain: Any) -> None:
    from langchain_core.documents import Document

    docs = [
        Document(page_content="Refund policy\n\nRefunds take 5 days.", metadata={"src": "a", "n": [1]}),
        Document(page_content="ab ab ab ab", metadata={}),
    ]
    for cls in ("RecursiveCharacterTextSplitter", "CharacterTextSplitter"):
        kwargs = {"chunk_size": 12, "chunk_overlap": 3, "add_start_index": True}
        if cls == "CharacterTextSplitter":
            kwargs["separator"] = " "
        ours = getattr(chunkscope, cls)(**kwargs)
        theirs = getattr(langchain, cls)(**kwargs)
        got = ours.split_documents(docs)
        assert got == theirs.split_documents(docs)
        assert all(type(d) is Document for d in got)
        # Metadata is copied per chunk, never shared.
        got[0].metadata["n"].append(2)
        assert got[1].metadata["n"] == [1]
        assert ours.transform_documents(docs) == theirs.transform_documents(docs)
        metadatas = [{"i": 0}, {"i": 1}]
        texts = [d.page_content for d in docs]
        assert ours.create_documents(texts, metadatas) == theirs.create_documents(texts, metadatas)


def test_split_text_gives_langchains_strings(langchain: Any) -> None:
    # split_text takes its own path through the engine (strings only, no
    # start_index): the same random cases, compared string for string.
    rng = random.Random(SEED + 2)
    compared = 0
    problems = []
    for kind in ("recursive", "character"):
        for _ in range(CASES_PER_CLASS // 3):
            case = random_case(rng, kind)
            theirs = outcome_of(lambda: build(langchain, case).split_text(case["text"]))
            ours = outcome_of(lambda: build(chunkscope, case).split_text(case["text"]))
            if "UnsupportedError" == ours[0]:
                continue
            compared += 1
            same = ours == theirs if theirs[0] is None else (
                ours[0] is not None and isinstance(ours[1], type(theirs[1]))
            )
            if not same:
                problems.append(f"ours {ours!r}\n  theirs {theirs!r}\n  case {json.dumps(case, ensure_ascii=False)}")
    assert not problems, f"{len(problems)} differences; the first:\n\n" + "\n\n".join(problems[:5])
    assert compared >= CASES_PER_CLASS * 2 // 3 * 9 // 10


def outcome_of(run: Any) -> tuple[str | None, Any]:
    """(None, the strings) or (the exception's class name, the exception)."""
    try:
        return None, run()
    except Exception as exc:  # every failure is an answer to compare
        return type(exc).__name__, exc
