"""Chunking a corpus of files on a Dask cluster, through chunkscope.

    python python/examples/dask_corpus.py DIR [--workers 1 2 ...] [--size 1000]

The files under DIR (sorted by path) are cut into a few contiguous batches per
worker; each batch is one task: a worker reads its files, splits each with
LangChain's ``RecursiveCharacterTextSplitter`` as chunkscope reproduces it
(``add_start_index=True``), and returns, per file, its path, the chunks'
start indices and their texts (columns: a list of small tuples costs Dask far
more to measure and ship than the splitting itself). The splitter is built
once here and shipped to the workers (it pickles as its configuration).
Batches are gathered in order, so the output is :func:`chunk_locally`'s, one
process, chunk for chunk; the run checks that, and prints the throughput for
each number of worker processes (``LocalCluster``, one thread each).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from chunkscope import RecursiveCharacterTextSplitter
from chunkscope.langchain import document_class

FileChunks = tuple[str, list[int], list[str]]  # (path, start indices, chunk texts)


def corpus(directory: str) -> list[str]:
    """Every file under ``directory``, in path order."""
    paths = []
    for root, dirs, files in os.walk(directory):
        dirs.sort()
        paths += [os.path.join(root, name) for name in sorted(files)]
    return paths


def chunk_files(paths: list[str], splitter: Any) -> list[FileChunks]:
    """One task: the chunks of some UTF-8 files, file by file."""
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            docs = splitter.create_documents([f.read()])
        out.append((path, [d.metadata["start_index"] for d in docs], [d.page_content for d in docs]))
    return out


def chunk_locally(paths: list[str], splitter: Any) -> list[FileChunks]:
    """The reference: the same work in this process."""
    return chunk_files(paths, splitter)


def chunk_on(client: Any, paths: list[str], splitter: Any, per_worker: int = 4) -> list[FileChunks]:
    """The same work as tasks on a Dask cluster: ``per_worker`` contiguous
    batches of files per worker, gathered in order."""
    tasks = max(1, min(len(paths), per_worker * len(client.scheduler_info()["workers"])))
    bounds = [len(paths) * i // tasks for i in range(tasks + 1)]
    batches = [paths[a:b] for a, b in zip(bounds, bounds[1:])]
    shared = client.scatter(splitter, broadcast=True)
    futures = client.map(chunk_files, batches, splitter=shared, pure=False)
    return [chunks for batch in client.gather(futures) for chunks in batch]


def main() -> None:
    from dask.distributed import Client, LocalCluster

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--size", type=int, default=1000)
    args = parser.parse_args()
    paths = corpus(args.directory)
    mb = sum(os.path.getsize(p) for p in paths) / 1e6
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=args.size, chunk_overlap=args.size // 10, add_start_index=True
    )
    document_class()  # imported before the clock starts, as on the workers
    started = time.perf_counter()
    expected = chunk_locally(paths, splitter)
    alone = time.perf_counter() - started
    count = sum(len(texts) for _, _, texts in expected)
    print(f"{len(paths)} files, {mb:.1f} MB, {count} chunks; "
          f"one process: {mb / alone:.1f} MB/s")
    for workers in args.workers:
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.run(document_class)  # every worker imports its Document, untimed
            started = time.perf_counter()
            got = chunk_on(client, paths, splitter)
            took = time.perf_counter() - started
        if got != expected:
            raise SystemExit("the cluster's chunks differ from one process's")
        print(f"{workers} worker(s): {mb / took:.1f} MB/s, {mb / took / workers:.1f} MB/s per "
              f"worker; identical to one process")


if __name__ == "__main__":
    main()
