//! The properties every split must have (the lessons' table), checked on a real
//! output. The playground's live badges and the property tests both use this.

use crate::config::Config;
use crate::resources::Resources;
use crate::span::{is_space, CharIndex};
use crate::trace::Output;
use crate::unit::{Counter, Unit};

/// The outcome of one property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// Whether the property holds.
    pub ok: bool,
    /// What was found: the first violation, or a one-line confirmation.
    pub detail: String,
}

impl Check {
    /// A property that holds.
    pub fn pass(detail: impl Into<String>) -> Check {
        Check {
            ok: true,
            detail: detail.into(),
        }
    }
    /// A property that does not hold.
    pub fn fail(detail: impl Into<String>) -> Check {
        Check {
            ok: false,
            detail: detail.into(),
        }
    }
}

/// One property of a split: a row of the lessons' table of invariants.
///
/// This is the one list of properties; titles and explanations for people
/// belong to whoever shows them (the page, the CLI's docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Property {
    /// Every non-whitespace character of the source is in some chunk.
    Coverage,
    /// No chunk is longer than `size` in the configured unit (with its
    /// heading prefix, when the Markdown strategy gives one).
    MaxSize,
    /// Chunks are in source order with contiguous indices, each one ends after the
    /// one before (every loop advanced), and each chunk's text is its span's text.
    Order,
    /// Consecutive chunks share text only when overlap is configured, and never
    /// more than `overlap` units.
    Overlap,
    /// Splitting the same text with the same configuration again gives the same
    /// chunks. It costs a second split, so it is checked only when asked for.
    Determinism,
}

impl Property {
    /// Every property, in the lessons' order.
    pub const ALL: [Property; 5] = [
        Property::Coverage,
        Property::MaxSize,
        Property::Order,
        Property::Overlap,
        Property::Determinism,
    ];

    /// The property's name in the JSON report and the JS API (`max_size`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Property::Coverage => "coverage",
            Property::MaxSize => "max_size",
            Property::Order => "order",
            Property::Overlap => "overlap",
            Property::Determinism => "determinism",
        }
    }
}

/// All properties of one split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checks {
    coverage: Check,
    max_size: Check,
    order: Check,
    overlap: Check,
    /// `None` until a second run is compared ([`Checks::with_again`]).
    determinism: Option<Check>,
}

impl Checks {
    /// Checks as judged elsewhere (a report read back from its encoding);
    /// determinism is unjudged until [`Checks::set`].
    pub fn new(coverage: Check, max_size: Check, order: Check, overlap: Check) -> Checks {
        Checks {
            coverage,
            max_size,
            order,
            overlap,
            determinism: None,
        }
    }

    /// The outcome of `property`; `None` for determinism when no second run
    /// was compared.
    pub fn get(&self, property: Property) -> Option<&Check> {
        match property {
            Property::Coverage => Some(&self.coverage),
            Property::MaxSize => Some(&self.max_size),
            Property::Order => Some(&self.order),
            Property::Overlap => Some(&self.overlap),
            Property::Determinism => self.determinism.as_ref(),
        }
    }

    /// Replaces the outcome of `property` (the bug gallery judges made-up
    /// text with its own measures).
    pub fn set(&mut self, property: Property, check: Check) {
        match property {
            Property::Coverage => self.coverage = check,
            Property::MaxSize => self.max_size = check,
            Property::Order => self.order = check,
            Property::Overlap => self.overlap = check,
            Property::Determinism => self.determinism = Some(check),
        }
    }

    /// The properties checked, with their outcomes, in [`Property::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Property, &Check)> {
        Property::ALL
            .into_iter()
            .filter_map(|p| self.get(p).map(|c| (p, c)))
    }

    /// True when every property checked holds.
    pub fn all_ok(&self) -> bool {
        self.iter().all(|(_, c)| c.ok)
    }

    /// The same checks with determinism judged: `again` is a second,
    /// independent split of the same input.
    pub fn with_again(mut self, output: &Output, again: &Output) -> Checks {
        self.determinism = Some(if again.chunks == output.chunks {
            Check::pass("a second run gave the same chunks")
        } else {
            Check::fail("a second run gave different chunks")
        });
        self
    }
}

/// The outcome of a property, for code that knows it was checked.
///
/// # Panics
///
/// For [`Property::Determinism`] when no second run was compared; use
/// [`Checks::get`] when that can be the case.
impl std::ops::Index<Property> for Checks {
    type Output = Check;
    fn index(&self, property: Property) -> &Check {
        self.get(property)
            .unwrap_or_else(|| panic!("{} was not checked", property.name()))
    }
}

/// Checks `output`, which claims to be the split of `source` under `config`.
/// Determinism is left unjudged; [`Checks::with_again`] adds it.
///
/// Lengths are counted with the unit's [`Counter`] from `resources`; with a
/// token unit whose tokenizer they do not hold, the two properties that
/// count (size and overlap) fail and say so rather than count 0.
pub fn check(source: &str, config: &Config, output: &Output, resources: &Resources) -> Checks {
    match resources.counter(config.unit) {
        Ok(counter) => check_with(source, config, counter, output),
        Err(e) => {
            let mut checks = check_with(
                source,
                &config.clone().with_unit(Unit::Chars),
                Counter::CHARS,
                output,
            );
            let cannot = Check::fail(format!("cannot count: {e}"));
            checks.max_size = cannot.clone();
            checks.overlap = cannot;
            checks
        }
    }
}

/// [`check`] with the counter a [`Splitter`](crate::Splitter) resolved.
pub(crate) fn check_with(
    source: &str,
    config: &Config,
    counter: Counter,
    output: &Output,
) -> Checks {
    let chars = CharIndex::new(source);
    Checks {
        coverage: coverage(source, output, &chars),
        max_size: max_size(source, config, counter, output, &chars),
        order: order(source, output, &chars),
        overlap: overlap(source, config, counter, output, &chars),
        determinism: None,
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

fn max_size(
    source: &str,
    config: &Config,
    counter: Counter,
    output: &Output,
    chars: &CharIndex<'_>,
) -> Check {
    let unit = config.unit;
    // A Markdown chunk with a heading prefix is embedded with it, so the two
    // are counted together.
    let prefix = |i: usize| {
        output
            .markdown
            .as_ref()
            .and_then(|m| m.chunks.get(i))
            .and_then(|c| c.prefix.as_deref())
            .filter(|p| !p.is_empty())
    };
    let len = |c: &crate::trace::Chunk| match prefix(c.index) {
        Some(p) => counter.len(&format!("{p}{}", c.text(source))),
        None => counter.len(c.text(source)),
    };
    match output.chunks.iter().find(|c| len(c) > config.size) {
        Some(c) => Check::fail(format!(
            "chunk {} at position {} is {} {unit}{}, over the size of {}",
            c.index,
            chars.char_offset(c.span.start),
            len(c),
            if prefix(c.index).is_some() {
                " with its heading prefix"
            } else {
                ""
            },
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
        let own = output.library.as_ref().and_then(|l| l.get(i)?.text());
        if let (true, Some(own)) = (c.span.is_empty(), own) {
            return Check::fail(format!(
                "chunk {i} at position {} holds no character of the source: it is the library's {own:?}, bytes of a character its run cut on both sides",
                at()
            ));
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

fn overlap(
    source: &str,
    config: &Config,
    counter: Counter,
    output: &Output,
    chars: &CharIndex<'_>,
) -> Check {
    let unit = config.unit;
    let mut most = 0;
    for pair in output.chunks.windows(2) {
        let shared = pair[0]
            .span
            .intersect(pair[1].span)
            .map_or(0, |s| counter.len(s.text(source)));
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
