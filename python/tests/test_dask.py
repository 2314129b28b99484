"""The Dask example: a corpus chunked by a LocalCluster of worker processes
gives exactly the chunks of one process."""

from __future__ import annotations

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "examples"))

import dask_corpus  # noqa: E402
from chunkscope import RecursiveCharacterTextSplitter  # noqa: E402


@pytest.fixture(scope="module")
def distributed():
    try:
        from dask import distributed
    except ImportError:
        if os.environ.get("CHUNKSCOPE_LIVE") == "1":
            raise
        pytest.skip("dask.distributed is not installed (CHUNKSCOPE_LIVE=1 requires it)")
    return distributed


def test_a_cluster_of_processes_chunks_as_one_process(distributed, tmp_path) -> None:
    rng = random.Random(11)
    words = ["refund", "policy", "days", "UPI", "中文", "😀", "é", "store", "credit", "a"]
    for i in range(24):
        paragraphs = [
            " ".join(rng.choices(words, k=rng.randrange(5, 120))) for _ in range(rng.randrange(1, 30))
        ]
        sub = tmp_path / f"part{i % 3}"
        sub.mkdir(exist_ok=True)
        (sub / f"doc{i:02}.txt").write_text("\n\n".join(paragraphs), encoding="utf-8")
    paths = dask_corpus.corpus(str(tmp_path))
    assert len(paths) == 24
    splitter = RecursiveCharacterTextSplitter(chunk_size=200, chunk_overlap=30, add_start_index=True)
    expected = dask_corpus.chunk_locally(paths, splitter)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        got = dask_corpus.chunk_on(client, paths, splitter)
        pids = set(client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids
    assert got == expected
    assert [path for path, _, _ in got] == paths
    assert sum(len(texts) for _, _, texts in got) == 709
