//! One analysis of one text: what every caller (the CLI, the JS API, the
//! page) asks the engine for, at the detail it needs.
//!
//! Splitting is the cheap part; recording the trace, checking the properties,
//! converting byte spans to char offsets and judging determinism (a second
//! split) each cost something, so [`Detail`] says which of them to do. The
//! determinism re-run is never on by default: it doubles the work.

use crate::check::Checks;
use crate::separator::Separator;
use crate::span::{CharCursor, CharIndex};
use crate::trace::Output;
use crate::unit::CharTable;

/// What an analysis records beyond the chunks' spans.
///
/// ```
/// use chunkscope::Detail;
/// let page = Detail::FULL.with_determinism(true);
/// assert!(page.trace && page.checks && page.determinism && !page.tokens);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Detail {
    /// Record the trace (the recursion tree, packing, the node behind each chunk).
    pub trace: bool,
    /// Check the properties (all but determinism).
    pub checks: bool,
    /// Split a second time and compare, for the determinism property. Needs
    /// `checks`.
    pub determinism: bool,
    /// With a token unit, where each chunk's tokens end (for drawing them).
    pub tokens: bool,
}

impl Detail {
    /// Only the chunks: the fast path for pipelines.
    pub const CHUNKS: Detail = Detail {
        trace: false,
        checks: false,
        determinism: false,
        tokens: false,
    };

    /// The trace and the properties, without the determinism re-run.
    pub const FULL: Detail = Detail {
        trace: true,
        checks: true,
        determinism: false,
        tokens: false,
    };

    /// The same detail with the determinism re-run on or off.
    pub const fn with_determinism(mut self, on: bool) -> Detail {
        self.determinism = on;
        self
    }

    /// The same detail with token ends on or off.
    pub const fn with_tokens(mut self, on: bool) -> Detail {
        self.tokens = on;
        self
    }
}

/// One text analysed: the output, its checks, and its offsets in chars.
///
/// # Invariants
///
/// `chunk_chars[i]` is the char span of `output.chunks[i]` and `node_chars[i]`
/// that of `output.trace.nodes[i]`; `separators` is the list `Cut::Separator`
/// and the trace's indices refer to; `token_ends[i]`, when present, holds the
/// byte offsets (relative to the chunk's start) where the tokens of chunk `i`'s
/// own text end, the last being its length.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Analysis {
    /// The chunks, and the trace when asked for.
    pub output: Output,
    /// The properties, when asked for.
    pub checks: Option<Checks>,
    /// Each chunk's span in chars (half-open).
    pub chunk_chars: Vec<(usize, usize)>,
    /// Each trace node's span in chars (half-open).
    pub node_chars: Vec<(usize, usize)>,
    /// The separators the cuts and the trace index: the configured list, or
    /// the one a LangChain strategy really used.
    pub separators: Vec<Separator>,
    /// Where each chunk's tokens end, with a token unit and when asked for.
    pub token_ends: Option<Vec<Vec<usize>>>,
}

impl Analysis {
    /// An analysis put together from its parts, for a reader of an encoded
    /// report that already has the char offsets. The caller keeps the
    /// invariants above (a decoder checks every index it reads).
    pub fn from_parts(
        output: Output,
        checks: Option<Checks>,
        chunk_chars: Vec<(usize, usize)>,
        node_chars: Vec<(usize, usize)>,
        separators: Vec<Separator>,
        token_ends: Option<Vec<Vec<usize>>>,
    ) -> Analysis {
        Analysis {
            output,
            checks,
            chunk_chars,
            node_chars,
            separators,
            token_ends,
        }
    }

    /// `chars` is the engine's table of the source's continuation bytes,
    /// when it built one.
    pub(crate) fn new(
        source: &str,
        chars: Option<CharTable>,
        separators: Vec<Separator>,
        output: Output,
        checks: Option<Checks>,
        token_ends: Option<Vec<Vec<usize>>>,
    ) -> Analysis {
        // Chunks come in text order: a cursor counts each stretch once, or
        // the engine's table answers at once. The trace's nodes jump about,
        // so they get an index (only with a trace).
        let chunk_chars = match chars {
            Some(table) => output
                .chunks
                .iter()
                .map(|c| {
                    (
                        table.char_offset(source, c.span.start),
                        table.char_offset(source, c.span.end),
                    )
                })
                .collect(),
            None => {
                let mut cursor = CharCursor::new(source);
                output
                    .chunks
                    .iter()
                    .map(|c| cursor.char_span(c.span))
                    .collect()
            }
        };
        let node_chars = if output.trace.nodes.is_empty() {
            Vec::new()
        } else {
            let chars = CharIndex::new(source);
            output
                .trace
                .nodes
                .iter()
                .map(|n| chars.char_span(n.span))
                .collect()
        };
        Analysis::from_parts(
            output,
            checks,
            chunk_chars,
            node_chars,
            separators,
            token_ends,
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Detail, Splitter, Strategy};

    #[test]
    fn chunk_chars_from_the_engines_table_are_the_counted_ones() {
        // Long and mostly ASCII, so the engine keeps a table of its
        // continuation bytes; overlapping chunks look offsets up out of order.
        let text =
            "Refunds take five days to reach the card. Then the café closes 😀.\n\n".repeat(400);
        let mut compared = 0;
        for (strategy, overlap) in [
            (Strategy::Recursive, 0),
            (Strategy::Recursive, 30),
            (Strategy::Sentence, 0),
            (Strategy::Markdown, 0),
            (Strategy::LangChain, 0),
            (Strategy::LangChain, 30),
        ] {
            let mut config = Config::for_strategy(strategy);
            config.size = 90;
            config.overlap = overlap;
            let splitter = Splitter::new(config, &crate::Resources::new()).unwrap();
            let split = splitter
                .engine
                .split(&text, splitter.config(), splitter.counter, false)
                .unwrap();
            assert!(split.chars.is_some(), "{strategy:?}: no table");
            let analysis = splitter.analyze(&text, Detail::CHUNKS).unwrap();
            let chars = |b: usize| text[..b].chars().count();
            for (c, &got) in analysis.output.chunks.iter().zip(&analysis.chunk_chars) {
                assert_eq!(
                    got,
                    (chars(c.span.start), chars(c.span.end)),
                    "{strategy:?}"
                );
                compared += 1;
            }
        }
        assert!(compared > 1_000, "{compared}");
    }
}
