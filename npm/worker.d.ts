// The messages of chunkscope's worker (worker.js). Generated from the Rust
// types (`chunkscope_wasm::message::typescript`); do not edit.

/** A document of a request: its name and text. */
export interface WorkerDocument {
  name: string;
  text: string;
}

/** A question and where its answers are (char offsets, half-open), as in a questions file. */
export interface EvalQuestion {
  question: string;
  doc: string;
  answers: { start: number; end: number }[];
}

/**
 * A message to the package's worker (`worker.js`). `id` is any value, sent back as it came.
 * A message asks one thing: one carrying two of `text`, `tokenizer`, `model`, `questions`,
 * `evaluate` and `corpus` is refused.
 */
export type WorkerRequest =
  | { id?: unknown; text: string; config?: Settings | null; detail?: "chunks" | "trace" | "full" | "determinism" | null; encoding?: "object" | "binary" | null }
  | { id?: unknown; tokenizer: Uint8Array | ArrayBuffer }
  | { id?: unknown; model: { name: string; files: { name: string; bytes: ArrayBuffer | Uint8Array }[] } | null }
  | { id?: unknown; questions: string; docs: WorkerDocument[] }
  | { id?: unknown; evaluate: { docs: WorkerDocument[]; questions: EvalQuestion[]; config?: Settings | null; top_k: number; retriever?: string } }
  | { id?: unknown; corpus: { docs: (WorkerDocument | File)[]; config?: Settings | null; export?: "jsonl" | "csv" } };

/** A static model the worker loaded; a configuration names it `model:${generation}`. */
export interface LoadedModel {
  generation: number;
  name: string;
  format: string;
  dims: number;
  words: number;
}

/** Retrieval scores of one question, or their means. */
export interface EvalScores {
  recall: number;
  precision: number;
  iou: number;
  whole: number;
  fragments: number;
}

/** One configuration evaluated on the questions. */
export interface Evaluation {
  questions: (EvalScores & {
    question: string;
    doc: string;
    retrieved: { doc: number; chunk: number; start: number; end: number; score: number }[];
  })[];
  mean: EvalScores;
  index: { chunks: number; units: number; longest: number };
  top_k: number;
  retriever: { k1: number; b: number };
  /** The model retrieved with, when not BM25. */
  model?: string;
}

/** The numbers of a corpus, or of one document. */
export interface CorpusStats {
  documents: number;
  bytes: number;
  chars: number;
  chunks: number;
  min: number;
  median: number;
  max: number;
  over: number;
  cuts: { by_separator: number[]; hard: number; windows: number; structure: number; breakpoints: number; mid_word: number };
}

/** A message from the package's worker: `ready` once, then one answer per request. */
export type WorkerReply =
  | { ready: string }
  | { id: unknown; report: Report | ArrayBuffer; ms: number }
  | { id: unknown; determinism: { ok: boolean; detail: string } }
  | { id: unknown; installed: "cl100k" | "o200k" }
  | { id: unknown; loaded: LoadedModel | null }
  | { id: unknown; parsed: EvalQuestion[] }
  | { id: unknown; evaluation: Evaluation }
  | { id: unknown; corpus: { total: CorpusStats; documents: (CorpusStats & { name: string })[] }; export?: string }
  | { id: unknown; error: { message: string; field: string | null; separator: number | null } };
