//! The properties every split must have (the lessons' table), checked on a real
//! output. The playground's live badges and the property tests both use this.

use crate::config::Config;
use crate::span::{is_space, CharIndex};
use crate::trace::Output;

/// The outcome of one property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// Whether the property holds.
    pub ok: bool,
    /// What was found: the first violation, or a one-line confirmation.
    pub detail: String,
}

impl Check {
    fn pass(detail: impl Into<String>) -> Check {
        Check {
            ok: true,
            detail: detail.into(),
        }
    }
    fn fail(detail: impl Into<String>) -> Check {
        Check {
            ok: false,
            detail: detail.into(),
        }
    }
}

/// All properties of one split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checks {
    /// Every non-whitespace character of the source is in some chunk.
    pub coverage: Check,
    /// No chunk is longer than `size` in the configured unit.
    pub max_size: Check,
    /// Chunks are in source order with contiguous indices, each one ends after the
    /// one before (every loop advanced), and each chunk's text is its span's text.
    pub order: Check,
    /// Consecutive chunks share text only when overlap is configured, and never
    /// more than `overlap` units.
    pub overlap: Check,
    /// Splitting the same text with the same configuration again gives the same
    /// chunks.
    pub determinism: Check,
}

impl Checks {
    /// True when every property holds.
    pub fn all_ok(&self) -> bool {
        [
            &self.coverage,
            &self.max_size,
            &self.order,
            &self.overlap,
            &self.determinism,
        ]
        .iter()
        .all(|c| c.ok)
    }
}

/// Checks `output`, which claims to be the split of `source` under `config`.
/// `again` is a second, independent split of the same input, for determinism.
pub fn check(source: &str, config: &Config, output: &Output, again: &Output) -> Checks {
    let chars = CharIndex::new(source);
    Checks {
        coverage: coverage(source, output, &chars),
        max_size: max_size(source, config, output, &chars),
        order: order(source, output, &chars),
        overlap: overlap(source, config, output, &chars),
        determinism: if again.chunks == output.chunks {
            Check::pass("a second run gave the same chunks")
        } else {
            Check::fail("a second run gave different chunks")
        },
    }
}

fn coverage(source: &str, output: &Output, chars: &CharIndex<'_>) -> Check {
    let mut covered = 0;
    for chunk in &output.chunks {
        if chunk.span.start > covered {
            if let Some(missing) = first_visible(source, covered, chunk.span.start) {
                return lost(source, missing, chars);
            }
        }
        covered = covered.max(chunk.span.end);
    }
    match first_visible(source, covered, source.len()) {
        Some(missing) => lost(source, missing, chars),
        None => Check::pass("every non-whitespace character is in a chunk"),
    }
}

fn first_visible(source: &str, from: usize, to: usize) -> Option<usize> {
    let from = from.min(to);
    source[from..to]
        .char_indices()
        .find(|&(_, c)| !is_space(c))
        .map(|(i, _)| from + i)
}

fn lost(source: &str, at: usize, chars: &CharIndex<'_>) -> Check {
    let ch = source[at..].chars().next().unwrap_or(' ');
    Check::fail(format!(
        "{ch:?} at position {} is in no chunk: text was lost",
        chars.char_offset(at)
    ))
}

fn max_size(source: &str, config: &Config, output: &Output, chars: &CharIndex<'_>) -> Check {
    let unit = config.unit;
    match output
        .chunks
        .iter()
        .find(|c| unit.len(c.text(source)) > config.size)
    {
        Some(c) => Check::fail(format!(
            "chunk {} at position {} is {} {unit}, over the size of {}",
            c.index,
            chars.char_offset(c.span.start),
            unit.len(c.text(source)),
            config.size
        )),
        None => {
            let longest = output.chunks.iter().map(|c| c.len).max().unwrap_or(0);
            Check::pass(format!(
                "the longest chunk is {longest} {unit} (size {})",
                config.size
            ))
        }
    }
}

fn order(source: &str, output: &Output, chars: &CharIndex<'_>) -> Check {
    let mut prev: Option<&crate::trace::Chunk> = None;
    for (i, c) in output.chunks.iter().enumerate() {
        let at = || chars.char_offset(c.span.start);
        if c.index != i {
            return Check::fail(format!("chunk {i} is numbered {}", c.index));
        }
        if c.span.is_empty()
            || c.span.end > source.len()
            || !source.is_char_boundary(c.span.start)
            || !source.is_char_boundary(c.span.end)
        {
            return Check::fail(format!("chunk {i} at position {} has a broken span", at()));
        }
        if let Some(p) = prev {
            if c.span.start < p.span.start || c.span.end <= p.span.end {
                return Check::fail(format!(
                    "chunk {i} at position {} does not come after chunk {}",
                    at(),
                    p.index
                ));
            }
        }
        prev = Some(c);
    }
    Check::pass(format!(
        "{} chunks in source order, numbered 0 to {}",
        output.chunks.len(),
        output.chunks.len().saturating_sub(1)
    ))
}

fn overlap(source: &str, config: &Config, output: &Output, chars: &CharIndex<'_>) -> Check {
    let unit = config.unit;
    let mut most = 0;
    for pair in output.chunks.windows(2) {
        let shared = pair[0]
            .span
            .intersect(pair[1].span)
            .map_or(0, |s| unit.len(s.text(source)));
        if shared > config.overlap {
            return Check::fail(format!(
                "chunks {} and {} at position {} share {shared} {unit}, more than the overlap of {}",
                pair[0].index,
                pair[1].index,
                chars.char_offset(pair[1].span.start),
                config.overlap
            ));
        }
        if pair[1].overlap != pair[0].span.intersect(pair[1].span) {
            return Check::fail(format!(
                "chunk {} reports an overlap that is not the text it shares",
                pair[1].index
            ));
        }
        most = most.max(shared);
    }
    if config.overlap == 0 {
        Check::pass("no chunk repeats text of another")
    } else {
        Check::pass(format!(
            "at most {most} {unit} repeated between neighbours (overlap {})",
            config.overlap
        ))
    }
}
