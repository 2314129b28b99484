"""Runs the real langchain-experimental SemanticChunker on cases from the Rust
test suite (core/tests/semantic.rs), with the vectors the Rust engine used.

Reads one JSON object per line on stdin, writes one per line on stdout, in
order. A case:
    {"text": str, "breakpoint": "percentile" | "standard_deviation"
                                | "interquartile" | "gradient",
     "amount": real | null, "buffer": int,
     "number_of_chunks": int | null, "min_chunk_size": int | null,
     "dims": int,
     "vectors": [[[index, value], ...], ...],   # sparse, one per group
     "lengths": [int, ...]}   # optional: each vector's own length
A real is a JSON number, or one of the strings "nan", "inf" and "-inf"
(JSON has no such numbers). A vector is `dims` long unless `lengths` gives
each its own. The vectors need not be one per group, nor all of one length,
nor finite: the test cases include such faults, on which SemanticChunker
raises or goes on, and the engine must do the same or refuse as documented
in core/tests/semantic.rs.
answers
    {"chunks": [str, ...], "start_indices": [int, ...],
     "embedded": [str, ...] | null,     # the texts LangChain asked to embed
     "distances": [real, ...], "threshold": real | null,
     "breakpoints": [int, ...],
     "lexical": [[[index, value], ...], ...]}   # "kind": "lexical" cases only
`lexical` is the lexical embedder's vectors of the embedded texts as
lexical.py computes them from its definition, independently of the Rust one.
or, when SemanticChunker raises, {"error": "<exception type>", "message": str}.

`chunks` and `start_indices` come from create_documents([text]) with
add_start_index=True; distances, threshold and breakpoints from the chunker's
own methods, called as split_text calls them.

    {"op": "versions"} -> {"python": str, "packages": {name: str}}
"""

import importlib.metadata
import json
import math
import platform
import sys
import warnings

warnings.simplefilter("ignore")

try:
    import simsimd  # noqa: F401

    sys.exit("simsimd is installed: cosine_similarity would compute in float32")
except ImportError:
    pass

import lexical  # noqa: E402
from langchain_core.embeddings import Embeddings  # noqa: E402
from langchain_experimental.text_splitter import SemanticChunker  # noqa: E402


class Given(Embeddings):
    """Answers with the vectors the Rust engine used, and keeps the texts."""

    def __init__(self, dims, vectors, lengths=None):
        self.lengths = lengths or [dims] * len(vectors)
        self.vectors = vectors
        self.asked = None

    def embed_documents(self, texts):
        self.asked = list(texts)
        out = []
        for sparse, length in zip(self.vectors, self.lengths):
            dense = [0.0] * length
            for index, value in sparse:
                dense[index] = float(value)
            out.append(dense)
        return out

    def embed_query(self, text):
        raise AssertionError("SemanticChunker never embeds a query")


def real(x):
    """A float as the answers write it: a JSON number when finite."""
    x = float(x)
    return x if math.isfinite(x) else repr(x)


def run(case):
    embeddings = Given(case["dims"], case["vectors"], case.get("lengths"))
    amount = case["amount"]
    chunker = SemanticChunker(
        embeddings,
        buffer_size=case["buffer"],
        add_start_index=True,
        breakpoint_threshold_type=case["breakpoint"],
        breakpoint_threshold_amount=None if amount is None else float(amount),
        number_of_chunks=case["number_of_chunks"],
        min_chunk_size=case["min_chunk_size"],
    )
    text = case["text"]
    try:
        docs = chunker.create_documents([text])
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__, "message": str(e)}
    answer = {
        "chunks": [d.page_content for d in docs],
        "start_indices": [d.metadata["start_index"] for d in docs],
        "embedded": embeddings.asked,
        "distances": [],
        "threshold": None,
        "breakpoints": [],
    }
    if case.get("kind") == "lexical" and embeddings.asked is not None:
        answer["lexical"] = lexical.embed(embeddings.asked)
    sentences = chunker._get_single_sentences_list(text)
    if len(sentences) == 1 or (
        case["breakpoint"] == "gradient" and len(sentences) == 2
    ):
        return answer
    distances, _ = chunker._calculate_sentence_distances(sentences)
    if chunker.number_of_chunks is not None:
        threshold = chunker._threshold_from_clusters(distances)
        compared = distances
    else:
        threshold, compared = chunker._calculate_breakpoint_threshold(distances)
    answer["distances"] = [real(d) for d in distances]
    answer["threshold"] = real(threshold)
    answer["breakpoints"] = [i for i, x in enumerate(compared) if x > threshold]
    return answer


def versions():
    names = ["langchain-experimental", "langchain-community", "langchain-core", "numpy"]
    return {
        "python": platform.python_version(),
        "packages": {n: importlib.metadata.version(n) for n in names},
    }


def main():
    for line in sys.stdin:
        case = json.loads(line)
        answer = versions() if case.get("op") == "versions" else run(case)
        # allow_nan=False: a number that is not finite is written by real(),
        # never as Python's NaN, which is not JSON.
        sys.stdout.write(json.dumps(answer, ensure_ascii=False, allow_nan=False) + "\n")


if __name__ == "__main__":
    main()
