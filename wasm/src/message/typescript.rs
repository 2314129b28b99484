//! The TypeScript declarations of the worker's messages (`worker.js`):
//! `WorkerRequest` and `WorkerReply`, beside core's `Settings` and `Report`.
//! The names that come from enums (details, encodings, tokenizers) are
//! listed from the same enums the reader parses; the npm package's test
//! type-checks a real reply of every kind, and a request of every kind,
//! against them.

use super::Encoding;
use crate::contract::Detail;

/// The declarations, with `{details}`, `{encodings}` and `{tokenizers}`
/// filled in by [`typescript`].
const TEMPLATE: &str = r#"/** A document of a request: its name and text. */
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
  | { id?: unknown; text: string; config?: Settings | null; detail?: {details} | null; encoding?: {encodings} | null }
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
  | { id: unknown; installed: {tokenizers} }
  | { id: unknown; loaded: LoadedModel | null }
  | { id: unknown; parsed: EvalQuestion[] }
  | { id: unknown; evaluation: Evaluation }
  | { id: unknown; corpus: { total: CorpusStats; documents: (CorpusStats & { name: string })[] }; export?: string }
  | { id: unknown; error: { message: string; field: string | null; separator: number | null } };
"#;

/// The TypeScript declarations of the worker's messages (`npm/worker.d.ts`,
/// checked to be this text).
pub fn typescript() -> String {
    use chunkscope::typescript::union;
    let details = Detail::ALL.map(Detail::name);
    let encodings = [Encoding::Object, Encoding::Binary].map(Encoding::name);
    let tokenizers = chunkscope::tokens::Encoding::ALL.map(chunkscope::tokens::Encoding::name);
    format!(
        "// The messages of chunkscope's worker (worker.js). Generated from the Rust\n\
         // types (`chunkscope_wasm::message::typescript`); do not edit.\n\n{}",
        TEMPLATE
            .replace("{details}", &union(details))
            .replace("{encodings}", &union(encodings))
            .replace("{tokenizers}", &union(tokenizers))
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_shipped_worker_typescript_is_the_one_the_types_make() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../npm/worker.d.ts");
        chunkscope::typescript::assert_shipped(
            path,
            &super::typescript(),
            "cargo test -p chunkscope-wasm --lib typescript",
        );
    }
}
