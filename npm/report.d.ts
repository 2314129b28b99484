// The JSON of a chunkscope report: what `split` returns. Generated from the
// Rust types (`chunkscope::report::Report::typescript`); do not edit.

/** A stretch of the source in chars and in bytes (both half-open). */
export interface SpanReport {
  start: number;
  end: number;
  byte_start: number;
  byte_end: number;
}

/** A heading on a chunk's heading path (Markdown). */
export interface HeadingReport {
  /** 1 to 6. */
  level: number;
  /** The heading's text as written. */
  text: string;
  start: number;
  end: number;
  byte_start: number;
  byte_end: number;
}

/** One chunk. `text` is the source between the offsets unless `is_slice` is false. */
export interface ChunkReport {
  /** Position in the output, from 0. */
  index: number;
  /** First char. */
  start: number;
  /** One past the last char. */
  end: number;
  byte_start: number;
  byte_end: number;
  /** Length in the configured unit. */
  len: number;
  /** What ended the chunk: the separator's raw text, or "hard", "end", "window", "breakpoint", a level's name. */
  cut: string;
  /** The chunk's text (a library's own string where `is_slice` is false). */
  text: string;
  /** Library strategies: whether `text` is exactly the source between the offsets. */
  is_slice?: boolean;
  /** Library strategies: the start index the library reports (-1 when it finds none). */
  start_index?: number;
  /** `langchain-markdown`: the Document's metadata, the enclosing headers in LangChain's order; `llamaindex-markdown`: the node's `header_path`. */
  metadata?: Record<string, string>;
  /** The part that repeats the previous chunk. */
  overlap?: SpanReport;
  /** Index in `config.separators` of the separator that made the cut (full reports, separator cuts). */
  cut_separator?: number;
  /** The cut as a person reads it (`\n\n`, `hard`, …; full reports). */
  cut_label?: string;
  /** The trace node the chunk came from (full reports). */
  node?: number;
  /** Markdown: the headings whose sections enclose the chunk, outermost first. */
  heading_path?: HeadingReport[];
  /** Markdown with `heading_prefix`: the text to put before the chunk for embedding. */
  prefix?: string;
  /** Markdown: where a cut table's header rows are, for a chunk of its rows. */
  table_header?: SpanReport;
}

/** A separator as a node refers to it. */
export interface SeparatorRef {
  /** Index in `config.separators`. */
  index: number;
  pattern: string;
  /** The escaped label a person reads. */
  label: string;
  regex: boolean;
  /** A named level instead of a pattern. */
  level?: string;
}

/** Which parts of the parent's split were packed into a node (half-open). */
export interface PartsReport {
  first: number;
  last: number;
}

/** Why the packer closed a group. */
export type CloseReport =
  | { kind: "next_would_exceed"; group_len: number; gap_len: number; next_len: number; would_be: number }
  | { kind: "parent_ended" };

/** One node of the recursion tree. */
export interface NodeReport {
  /** Its index in `trace.nodes`. */
  id: number;
  /** 1 for the root. */
  depth: number;
  parent: number | null;
  children: number[];
  start: number;
  end: number;
  byte_start: number;
  byte_end: number;
  len: number;
  /** Whether it was longer than `size`. */
  too_big: boolean;
  action: "fits" | "empty" | "split" | "hard_cut" | "windows" | "structure" | "chonkie_level" | "sentences";
  separator: SeparatorRef | null;
  /** Separators tried on it and not found. */
  absent: number[];
  parts: PartsReport | null;
  split_into: number | null;
  windows: number | null;
  stride: number | null;
  /** `structure` and `chonkie_level` nodes: the level that cut it. */
  level?: string;
  close: CloseReport | null;
  /** The chunk it became, when it fit. */
  chunk: number | null;
}

/** One of `SemanticChunker`'s chunks. */
export interface SemanticChunkReport extends SpanReport {
  sentences: PartsReport;
  /** LangChain's text (its sentences joined with one space). */
  text: string;
  is_slice: boolean;
  start_index: number;
  /** The output chunks it became. */
  output: PartsReport;
  /** Whether it was over the size and split by the recursive engine. */
  fallback: boolean;
}

/** What the semantic engine did. */
export interface SemanticReport {
  embedder: string;
  embedding_calls: number;
  vectors: number;
  dims: number;
  sentences: SpanReport[];
  /** `1 − cosine similarity` between sentence group `i` and `i + 1`. */
  distances: number[];
  gradient?: number[];
  /** `null` when there were too few sentences for one. */
  threshold: number | null;
  breakpoints: number[];
  chunks: SemanticChunkReport[];
}

/** One thing the engine did: a piece measured, split, cut into windows, a group closed, a chunk emitted. */
export type TraceEvent =
  | { kind: "closed" | "measured" | "split" | "cut"; node: number }
  | { kind: "emitted"; node: number; chunk: number };

/** The recursion tree, flattened in the order the engine visited it. */
export interface TraceReport {
  depth: number;
  nodes: NodeReport[];
  /** What the engine did, one event at a time, in the order it did it. */
  events: TraceEvent[];
  semantic?: SemanticReport;
}

/** One invariant. */
export interface CheckReport {
  ok: boolean;
  /** The first violation, or a one-line confirmation. */
  detail: string;
}

/** The invariants: `ok` when every one checked holds, then each by name. */
export type ChecksReport = { ok: boolean } & { [property in "coverage" | "max_size" | "order" | "overlap" | "determinism"]?: CheckReport };

/** What a LangChain strategy adds. */
export interface LangChainReport {
  /** The Python class reproduced. */
  class: string;
  /** LangChain's log lines, in order. */
  warnings: string[];
  /** The separators it really used. */
  separators: Separator[];
  /** Python that builds the same splitter. */
  python: string;
}

/** One judgment on a candidate sentence end. */
export interface CandidateReport {
  at: number;
  byte_at: number;
  stop: SpanReport;
  end: boolean;
  reason: string;
  why: string;
  refinement: boolean;
}

/** One split: what `split` returns. */
export interface Report {
  chunks: ChunkReport[];
  trace?: TraceReport;
  checks?: ChecksReport;
  /** The configuration that made the split, to pass back in. */
  config?: Settings;
  langchain?: LangChainReport;
  /** The text's sentences, when the separator list has the sentence level. */
  sentences?: SpanReport[];
  sentence_candidates?: CandidateReport[];
}
