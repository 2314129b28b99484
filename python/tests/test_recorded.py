"""chunkscope's LangChain classes against LangChain's recorded answers
(tests/vectors/langchain.jsonl.gz, made by `./x vectors` from the pinned
langchain-text-splitters): every recorded split, LangChain's own test cases
among them, and every recorded run of generated Python code, with the import
swapped for chunkscope's. Needs no LangChain."""

from __future__ import annotations

import collections
import gzip
import json
import os

import chunkscope
from conftest import ROOT, differs, outcome, refused, split_case

VECTORS = os.path.join(ROOT, "tests", "vectors", "langchain.jsonl.gz")


def recorded() -> tuple[dict, list[tuple[dict, dict]]]:
    with gzip.open(VECTORS, "rt", encoding="utf-8") as f:
        header = json.loads(next(f))
        cases = [(c["in"], c["out"]) for c in map(json.loads, f)]
    return header, cases


def run_code(code: str, text: str) -> dict:
    """Runs LangChain's "copy as Python" code against chunkscope: the import
    swapped, and the UTF-8 length lambda swapped for chunkscope.utf8_len (an
    arbitrary function is refused)."""
    code = code.replace("from langchain_text_splitters import", "from chunkscope import")
    code = code.replace('lambda s: len(s.encode("utf-8"))', "utf8_len")
    scope = {"text": text, "utf8_len": chunkscope.utf8_len}

    class Docs(list):
        pass

    def run() -> list:
        exec(code, scope)
        docs = Docs()
        for content, start in scope["chunks"]:
            docs.append(
                type("D", (), {"page_content": content, "metadata": {"start_index": start}})
            )
        return docs

    return outcome(run)


def test_every_recorded_case_gives_langchains_answer() -> None:
    header, cases = recorded()
    assert header["packages"]["langchain-text-splitters"] == "1.1.3"
    tally: collections.Counter[str] = collections.Counter()
    problems = []
    for request, answer in cases:
        op = request.get("op", "split")
        if op == "split":
            ours = split_case(chunkscope, request)
            tally["fixtures" if "name" in request else f"{request['kind']} cases"] += 1
            tally[f"  unit {request['unit']}"] += 1
        elif op == "python":
            ours = run_code(request["code"], request["text"])
            tally["generated Python code"] += 1
        else:
            continue  # the regex and table cases concern the engine alone
        if "error" in answer:
            tally[f"  LangChain raised {answer['error']}"] += 1
        if refused(ours):
            tally["  refused by the engine"] += 1
            continue
        problem = differs(ours, answer)
        if problem:
            problems.append(f"{problem}\n  case {json.dumps(request, ensure_ascii=False)}")
        elif "error" in answer:
            tally["  the same exception: class and message"] += 1
    compared = sum(v for k, v in tally.items() if not k.startswith(" "))
    print(f"compared {compared} recorded cases: {dict(tally)}")
    assert not problems, f"{len(problems)} differences; the first:\n\n" + "\n\n".join(problems[:10])
    # The engine's own refusals, a ceiling at today's count: 30 of 6 356
    # cases are not compared. Of LangChain's 1 141 exceptions, 1 129 are
    # compared exactly, class and message; the other 12 are among those 30.
    assert tally["  refused by the engine"] <= 30, tally
    assert tally["  the same exception: class and message"] >= 1129, tally
    # Every recorded split and code run was compared.
    assert tally["fixtures"] == 56
    assert tally["recursive cases"] + tally["character cases"] == 6000
    assert tally["generated Python code"] == 300


def _planted(answer: dict, plant: str) -> dict:
    wrong = json.loads(json.dumps(answer))
    if plant == "one chunk":
        wrong["chunks"][0] += "x"
    elif plant == "one start index":
        wrong["start_indices"][0] += 1
    elif plant == "a warning":
        wrong["warnings"].append("Created a chunk of size 1")
    elif plant == "chunks where LangChain raises":
        wrong = {"chunks": ["a"], "start_indices": [0], "warnings": []}
    elif plant == "the exception's message":
        wrong["message"] += "x"
    elif plant == "the exception's class":
        wrong["error"] = "IndexError" if wrong["error"] != "IndexError" else "TypeError"
    return wrong


def test_a_planted_wrong_answer_is_caught() -> None:
    """Each kind of wrong answer, planted into a recorded case chunkscope
    agrees with, makes `differs` report it: the comparison is blind to none
    of chunks, start indices, warnings, an exception's class or its message."""
    _, cases = recorded()
    splits = [(r, a) for r, a in cases if r.get("op", "split") == "split" and "name" not in r]
    answered = next(
        (r, a) for r, a in splits if a.get("chunks") and not differs(split_case(chunkscope, r), a)
    )
    plants = {
        "one chunk": answered,
        "one start index": answered,
        "a warning": answered,
    }
    for error in ("ValueError", "error", "OverflowError", "TypeError"):
        request, answer = next(
            (r, a)
            for r, a in splits
            if a.get("error") == error and not differs(split_case(chunkscope, r), a)
        )
        plants[f"the exception's message ({error})"] = (request, answer)
        plants[f"the exception's class ({error})"] = (request, answer)
        plants[f"chunks where LangChain raises ({error})"] = (request, answer)
    for what, (request, answer) in plants.items():
        wrong = _planted(answer, what.split(" (")[0])
        assert wrong != answer, what
        assert differs(split_case(chunkscope, request), wrong), f"{what}: not caught in {request}"
