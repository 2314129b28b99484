// The written form of a chunkscope configuration: what `split` takes as its
// config and a report echoes as `config`. Generated from the Rust types
// (`chunkscope::Settings::typescript`); do not edit.

/** A separator: a literal string, a pattern that may be a regular expression, or a named level. */
export type Separator = string | { pattern: string; regex?: boolean } | { level: "sentence"; pattern?: ""; regex?: false };

/** The semantic strategy's settings, with LangChain's names. */
export interface SemanticSettings {
  /** `breakpoint_threshold_type`. */
  breakpoint?: "percentile" | "standard_deviation" | "interquartile" | "gradient" | null;
  /** `breakpoint_threshold_amount`; the kind's default when left out. */
  amount?: number | null;
  /** `buffer_size`: sentences either side in a group. */
  buffer?: number | null;
  /** `number_of_chunks`. */
  number_of_chunks?: number | null;
  /** `min_chunk_size`. */
  min_chunk_size?: number | null;
  /** `"lexical"`, or `"model:N"` for a model a worker loaded. */
  embedder?: string | null;
}

/** A configuration: every field may be left out for the strategy's default. A field of one strategy given to another is refused. */
export interface Settings {
  /** The engine; `recursive` when left out. */
  strategy?: "fixed" | "recursive" | "sentence" | "markdown" | "langchain" | "langchain-character" | "langchain-markdown" | "semantic" | "semchunk" | "chonkie-recursive" | "chonkie-token" | "chonkie-sentence" | "llamaindex-sentence" | "llamaindex-token" | "llamaindex-markdown" | "text-splitter" | "text-splitter-markdown" | null;
  /** The most units a chunk may hold (a whole number). */
  size?: number | null;
  /** The most units a chunk may repeat from the one before. */
  overlap?: number | null;
  /** What size and overlap count. */
  unit?: "chars" | "bytes" | "cl100k" | "o200k" | null;
  /** Strongest first; `""` is the hard cut. */
  separators?: Separator[] | null;
  /** Which chunk keeps a separator at a cut. */
  placement?: "end" | "start" | "none" | null;
  /** Whether whitespace at the ends of pieces is trimmed off. */
  trim?: boolean | null;
  /** `langchain-markdown` only: one chunk per paragraph (`return_each_line`). */
  each_line?: boolean | null;
  /** `langchain-markdown` only: split each section again with `RecursiveCharacterTextSplitter` on these (`[]`: LangChain's default list). */
  then_recursive?: Separator[] | null;
  /** `markdown` only: each chunk's heading path before it, counted in the size. */
  heading_prefix?: boolean | null;
  /** `markdown` only: a cut table's header rows in each chunk of its rows (`"repeat"`, counted in the size) or in its first chunk only (`"once"`). */
  table_header?: "once" | "repeat" | null;
  /** `semantic` only: `SemanticChunker`'s arguments. */
  semantic?: SemanticSettings | null;
  /** `chonkie-recursive` only: `min_characters_per_chunk`, splits shorter than this many UTF-8 bytes joined to a neighbour (24; at least 1). */
  min_characters_per_chunk?: number | null;
}
