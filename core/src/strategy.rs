//! What splits the text, as names: the strategies, LangChain's classes and
//! `SemanticChunker`'s thresholds.
//!
//! Plain data the CLI, the JS API and the page list and parse. Which engine a
//! [`Strategy`] runs is decided in one place, `compile.rs`; this file knows
//! no engine.

use crate::separator::Placement;
use std::fmt;
use std::str::FromStr;

/// Which engine splits the text. More are coming (every lesson's strategy),
/// so outside this crate a `match` needs a `_` arm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Strategy {
    /// Windows of `size` units every `size − overlap` units, stopping once a window
    /// reaches the end (so there is no overlap-only tail).
    Fixed,
    /// Split on the first separator present, pack the pieces greedily up to `size`,
    /// and split what is still too big with the separators after it.
    #[default]
    Recursive,
    /// LangChain's `RecursiveCharacterTextSplitter`, reproduced exactly, quirks
    /// included: lengths measured before stripping, a piece of exactly `size`
    /// split again, oversized pieces passed through. See [`crate::langchain`].
    LangChain,
    /// LangChain's `CharacterTextSplitter`: one separator (the first), then
    /// merging; pieces that are too big stay too big.
    LangChainCharacter,
    /// LangChain's `MarkdownHeaderTextSplitter`: a section per header, the
    /// enclosing headers as metadata, no size limit. The separators are the
    /// header markers (`#`, `##`, …); placement none strips header lines,
    /// start keeps them. See [`crate::langchain::MarkdownHeaderConfig`].
    LangChainMarkdown,
    /// Markdown by its structure: sections by heading depth, then blocks
    /// (packed, never across a section), then table rows or fence lines of a
    /// block that alone is over the size, then the separators. Every chunk
    /// has a heading path. See [`crate::markdown`].
    Markdown,
    /// Pack whole sentences ([`crate::sentence`]) up to `size`; only a
    /// sentence longer than `size` is cut, by the separators after the
    /// sentence level (`" "`, then the hard cut, by default). The recursive
    /// engine with a list that starts with the sentence level.
    Sentence,
    /// LangChain's `SemanticChunker`: sentences, embedded in groups, cut
    /// where neighbouring groups are far apart; exact given the same vectors,
    /// with the size limit kept by splitting a chunk that is too long with
    /// the recursive engine. See [`crate::semantic`].
    Semantic,
    /// semchunk's `chunkerify(counter, size)` (semchunk 4.1.1), reproduced
    /// exactly: at each level the most meaningful splitter present (runs of
    /// newlines, tabs or spaces, a space after a sentence end, punctuation,
    /// characters), splits merged up to the size by a binary search. See
    /// [`crate::semchunk`].
    Semchunk,
    /// Chonkie's `RecursiveChunker` (chonkie 1.7.0) with its default rules,
    /// reproduced exactly: paragraphs, sentences, pauses, words, then runs
    /// of tokens, splits under `min_characters_per_chunk` bytes (24) joined, the
    /// chunks tiling the text. See [`crate::chonkie`].
    ChonkieRecursive,
    /// Chonkie's `TokenChunker` (chonkie 1.7.0), reproduced exactly:
    /// windows of `size` tokens (chars with its character tokenizer) every
    /// `size − overlap`, each decoded alone, the last reaching the end; a
    /// whitespace-only text gives no chunk. See [`crate::chonkie_token`].
    ChonkieToken,
    /// Chonkie's `SentenceChunker` (chonkie 1.7.0) with its defaults,
    /// reproduced exactly: sentences ended by `. `, `! `, `? ` or a newline,
    /// ones under 12 bytes joined, packed whole up to the size with an
    /// overlap of whole sentences; a whitespace-only text gives no chunk.
    /// See [`crate::chonkie_sentence`].
    ChonkieSentence,
    /// LlamaIndex's `SentenceSplitter` (llama-index-core 0.14.25) with its
    /// defaults, reproduced exactly: paragraphs (`\n\n\n`), NLTK's untrained
    /// Punkt sentences, clauses, words, then characters, packed with its
    /// overlap of whole splits and stripped. See [`crate::llamaindex`].
    LlamaIndexSentence,
    /// LlamaIndex's `TokenTextSplitter` (llama-index-core 0.14.25) with its
    /// defaults, reproduced exactly: words (a space kept at the start of
    /// the next), lines, then characters, packed by the sum of their counts
    /// with an overlap of whole splits and stripped. See
    /// [`crate::llamaindex::token`].
    LlamaIndexToken,
    /// LlamaIndex's `MarkdownNodeParser` (llama-index-core 0.14.25) with its
    /// defaults, reproduced exactly: a section per header line outside
    /// backtick fences, its header line rebuilt as `#`s, a space and its
    /// text, stripped, its ancestors' headers as `header_path`, and
    /// LlamaIndex's own `start_char_idx`; no size limit. See
    /// [`crate::llamaindex::markdown`].
    LlamaIndexMarkdown,
    /// The `text-splitter` crate's `TextSplitter` (0.33.1, PyPI's
    /// `semantic-text-splitter`), reproduced exactly: the largest semantic units
    /// that fit (runs of line breaks, longer first, then sentences, words,
    /// graphemes, chars), packed up to the size, trimmed. Each cut labelled
    /// with the boundary it is on. See [`crate::text_splitter`].
    TextSplitter,
    /// The same library's `MarkdownSplitter`: its levels are Markdown's
    /// (headings, thematic breaks, blocks, inline elements, soft breaks)
    /// above sentences, words, graphemes and chars.
    TextSplitterMarkdown,
}

impl Strategy {
    /// Every strategy, in the order the UI lists them.
    pub const ALL: [Strategy; 17] = [
        Strategy::Fixed,
        Strategy::Recursive,
        Strategy::Sentence,
        Strategy::Markdown,
        Strategy::LangChain,
        Strategy::LangChainCharacter,
        Strategy::LangChainMarkdown,
        Strategy::Semantic,
        Strategy::Semchunk,
        Strategy::ChonkieRecursive,
        Strategy::ChonkieToken,
        Strategy::ChonkieSentence,
        Strategy::LlamaIndexSentence,
        Strategy::LlamaIndexToken,
        Strategy::LlamaIndexMarkdown,
        Strategy::TextSplitter,
        Strategy::TextSplitterMarkdown,
    ];

    /// The name used in the CLI, the JS API and the UI.
    pub const fn name(self) -> &'static str {
        match self {
            Strategy::Fixed => "fixed",
            Strategy::Recursive => "recursive",
            Strategy::LangChain => "langchain",
            Strategy::LangChainCharacter => "langchain-character",
            Strategy::LangChainMarkdown => "langchain-markdown",
            Strategy::Markdown => "markdown",
            Strategy::Sentence => "sentence",
            Strategy::Semantic => "semantic",
            Strategy::Semchunk => "semchunk",
            Strategy::ChonkieRecursive => "chonkie-recursive",
            Strategy::ChonkieToken => "chonkie-token",
            Strategy::ChonkieSentence => "chonkie-sentence",
            Strategy::LlamaIndexSentence => "llamaindex-sentence",
            Strategy::LlamaIndexToken => "llamaindex-token",
            Strategy::LlamaIndexMarkdown => "llamaindex-markdown",
            Strategy::TextSplitter => "text-splitter",
            Strategy::TextSplitterMarkdown => "text-splitter-markdown",
        }
    }

    /// Which LangChain class this strategy reproduces, if it is one.
    pub const fn langchain(self) -> Option<Kind> {
        match self {
            Strategy::LangChain => Some(Kind::Recursive),
            Strategy::LangChainCharacter => Some(Kind::Character),
            _ => None,
        }
    }

    /// The placement a strategy starts with: LangChain's own defaults
    /// (`keep_separator=True` for the recursive class, `False` for the
    /// character one), and the lessons' `p + sep` for ours.
    pub const fn default_placement(self) -> Placement {
        match self {
            Strategy::LangChain => Placement::Start,
            Strategy::LangChainCharacter | Strategy::LangChainMarkdown => Placement::None,
            _ => Placement::End,
        }
    }

    /// Whether the separator list holds header markers (`#`, `##`, …)
    /// rather than patterns to cut at, so a UI keeps a list of each kind.
    pub const fn separators_are_header_markers(self) -> bool {
        matches!(self, Strategy::LangChainMarkdown)
    }

    /// Whether the placement of a separator at a cut is read: only by the
    /// strategies that cut at separators of a list, and so not by those
    /// that do not read the list ([`Strategy::uses_separators`]).
    pub const fn uses_placement(self) -> bool {
        self.uses_separators()
    }

    /// Whether the separator list is read: a fixed window never looks at it,
    /// and the other libraries' splitters follow their own rules, so the UI
    /// can grey it out, and a list other than the strategy's default is
    /// refused ([`Error::NotRead`](crate::Error::NotRead)).
    pub const fn uses_separators(self) -> bool {
        !matches!(
            self,
            Strategy::Fixed
                | Strategy::Semchunk
                | Strategy::ChonkieRecursive
                | Strategy::ChonkieToken
                | Strategy::ChonkieSentence
                | Strategy::LlamaIndexSentence
                | Strategy::LlamaIndexToken
                | Strategy::LlamaIndexMarkdown
                | Strategy::TextSplitter
                | Strategy::TextSplitterMarkdown
        )
    }

    /// The library this strategy reproduces, with its pinned version (the
    /// one its differential tests run); `None` for our own engines.
    pub const fn library(self) -> Option<&'static str> {
        match self {
            Strategy::LangChain | Strategy::LangChainCharacter | Strategy::LangChainMarkdown => {
                Some("langchain-text-splitters 1.1.3")
            }
            Strategy::Semantic => Some("langchain-experimental 0.4.2"),
            Strategy::Semchunk => Some("semchunk 4.1.1"),
            Strategy::ChonkieRecursive | Strategy::ChonkieToken | Strategy::ChonkieSentence => {
                Some("chonkie 1.7.0")
            }
            Strategy::LlamaIndexSentence
            | Strategy::LlamaIndexToken
            | Strategy::LlamaIndexMarkdown => Some("llama-index-core 0.14.25"),
            Strategy::TextSplitter | Strategy::TextSplitterMarkdown => {
                Some("semantic-text-splitter 0.33.1")
            }
            _ => None,
        }
    }

    /// Whether this strategy reproduces one of LlamaIndex's splitters, which
    /// take an overlap equal to the size and refuse a larger one in their
    /// own words.
    pub const fn is_llamaindex(self) -> bool {
        matches!(
            self,
            Strategy::LlamaIndexSentence | Strategy::LlamaIndexToken
        )
    }

    /// Whether this strategy is the `text-splitter` library's, which checks
    /// the size and overlap as the library does (and refuses as it does).
    pub const fn is_text_splitter(self) -> bool {
        matches!(
            self,
            Strategy::TextSplitter | Strategy::TextSplitterMarkdown
        )
    }

    /// Whether trimming whitespace is read: semchunk decides it itself (its
    /// whitespace splitters are dropped, other whitespace kept), Chonkie's
    /// chunkers keep every whitespace, and LlamaIndex's splitters and its
    /// Markdown parser always strip their chunks.
    pub const fn uses_trim(self) -> bool {
        !matches!(
            self,
            Strategy::Semchunk
                | Strategy::ChonkieRecursive
                | Strategy::ChonkieToken
                | Strategy::ChonkieSentence
                | Strategy::LlamaIndexSentence
                | Strategy::LlamaIndexToken
                | Strategy::LlamaIndexMarkdown
        )
    }

    /// Whether a chunk can repeat the end of the one before. Semantic chunks
    /// and Chonkie's recursive ones never do (`SemanticChunker` and
    /// `RecursiveChunker` have no overlap, and the engines refuse one;
    /// `TokenChunker` and `SentenceChunker` have one),
    /// so a UI that keeps one overlap for every strategy leaves it out there
    /// rather than refuse the split.
    pub const fn uses_overlap(self) -> bool {
        !matches!(self, Strategy::Semantic | Strategy::ChonkieRecursive)
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Strategy, String> {
        Strategy::ALL
            .into_iter()
            .find(|strategy| strategy.name() == s)
            .ok_or_else(|| {
                let names: Vec<String> = Strategy::ALL
                    .iter()
                    .map(|s| format!("{:?}", s.name()))
                    .collect();
                let (last, rest) = names.split_last().expect("strategies exist");
                format!("unknown strategy {s:?}: use {} or {last}", rest.join(", "))
            })
    }
}

/// Which LangChain class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `RecursiveCharacterTextSplitter`: try the separators in order, split
    /// with the first one present, merge, and split again what is too big.
    #[default]
    Recursive,
    /// `CharacterTextSplitter`: split on one separator, then merge. Pieces
    /// that are too big stay too big.
    Character,
}

impl Kind {
    /// The Python class name.
    pub const fn class_name(self) -> &'static str {
        match self {
            Kind::Recursive => "RecursiveCharacterTextSplitter",
            Kind::Character => "CharacterTextSplitter",
        }
    }
}

/// How the breakpoint threshold is computed (`breakpoint_threshold_type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Breakpoint {
    /// The `amount`-th percentile of the distances (default 95).
    #[default]
    Percentile,
    /// Mean plus `amount` standard deviations (default 3).
    StandardDeviation,
    /// Mean plus `amount` interquartile ranges (default 1.5).
    Interquartile,
    /// The `amount`-th percentile of the distances' gradient, compared with
    /// the gradient (default 95).
    Gradient,
}

impl Breakpoint {
    /// Every kind, in LangChain's order.
    pub const ALL: [Breakpoint; 4] = [
        Breakpoint::Percentile,
        Breakpoint::StandardDeviation,
        Breakpoint::Interquartile,
        Breakpoint::Gradient,
    ];

    /// LangChain's name for it, which the CLI and the JS API use too.
    pub const fn name(self) -> &'static str {
        match self {
            Breakpoint::Percentile => "percentile",
            Breakpoint::StandardDeviation => "standard_deviation",
            Breakpoint::Interquartile => "interquartile",
            Breakpoint::Gradient => "gradient",
        }
    }

    /// LangChain's `BREAKPOINT_DEFAULTS`.
    pub const fn default_amount(self) -> f64 {
        match self {
            Breakpoint::Percentile | Breakpoint::Gradient => 95.0,
            Breakpoint::StandardDeviation => 3.0,
            Breakpoint::Interquartile => 1.5,
        }
    }

    /// Whether the amount is a percentile (NumPy refuses one outside 0..=100).
    pub const fn is_percentile(self) -> bool {
        matches!(self, Breakpoint::Percentile | Breakpoint::Gradient)
    }
}

impl fmt::Display for Breakpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Breakpoint {
    type Err = String;
    fn from_str(s: &str) -> Result<Breakpoint, String> {
        Breakpoint::ALL
            .into_iter()
            .find(|b| b.name() == s)
            .ok_or_else(|| {
                format!("unknown breakpoint {s:?}: use \"percentile\", \"standard_deviation\", \"interquartile\" or \"gradient\"")
            })
    }
}

/// What the Markdown strategy's chunks of table rows carry of their table's
/// header (its header and delimiter rows), when a table alone is over the
/// size and is cut between rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TableHeader {
    /// The header is in the table's first chunk only; every later chunk of
    /// the table records it as context (`MarkdownChunk::table_header`), and
    /// its text is its rows alone.
    #[default]
    Once,
    /// Every later chunk's embedded text starts with the header rows (its
    /// prefix, after the heading path when that is on), and the size counts
    /// them: no chunk with its header is over the size.
    Repeat,
}

impl TableHeader {
    /// Both, the default first.
    pub const ALL: [TableHeader; 2] = [TableHeader::Once, TableHeader::Repeat];

    /// The name the CLI (`--table-header`), the JS API and Python use.
    pub const fn name(self) -> &'static str {
        match self {
            TableHeader::Once => "once",
            TableHeader::Repeat => "repeat",
        }
    }
}

impl fmt::Display for TableHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TableHeader {
    type Err = String;
    fn from_str(s: &str) -> Result<TableHeader, String> {
        TableHeader::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown table header {s:?}: use \"once\" (in the table's first chunk) or \"repeat\" (in every chunk of its rows)"
                )
            })
    }
}
