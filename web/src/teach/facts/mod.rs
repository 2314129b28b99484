//! What a card's setup really shows, read from the splits on screen.
//!
//! A card's answer is prose; its *fact* is computed here from the engine's
//! output and trace every time the page draws, so a card cannot claim what the
//! engine does not do. Each function takes the splits of the card's view in
//! the view's order (one, or two for a compare view) and says what they show,
//! and whether the point of the card is visible in them (`holds`). The native
//! tests in `cards.rs` load every card's setup through the worker's contract
//! and pin these sentences word for word.

pub mod token_counts;

pub use token_counts::TokenCounts;

use crate::state::Split;
use chunkscope::stats::inside_word;
use chunkscope::tokens::Encoding;
use chunkscope::{Action as Step, Cut, Node, Unit};

/// What the current split shows about a card's point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    /// Whether the point the card makes is visible in the split.
    pub holds: bool,
    /// What the split shows, in words, with its numbers.
    pub text: String,
}

impl Fact {
    fn new(holds: bool, text: impl Into<String>) -> Fact {
        Fact {
            holds,
            text: text.into(),
        }
    }
}

/// A chunk's text.
fn text(split: &Split, k: usize) -> &str {
    split.output.chunks[k].text(&split.text)
}

/// `text` quoted as a learner reads it: newlines as ↵, long text shortened.
pub fn quote(text: &str) -> String {
    format!(
        "“{}”",
        crate::model::preview(&text.replace('\r', "\\r"), 40)
    )
}

/// A separator's label with invisible characters spelled out (a zero-width
/// space drawn as itself would be an empty pair of quotes).
fn label(sep: &chunkscope::Separator) -> String {
    sep.label()
        .chars()
        .map(|c| match c {
            '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => format!("\\u{{{:X}}}", c as u32),
            c => c.to_string(),
        })
        .collect()
}

/// The name of the cut `cut` in this split: its separator's label, quoted.
fn cut_name(split: &Split, cut: Cut) -> String {
    match cut {
        Cut::Separator(i) => split
            .separators
            .get(i)
            .map(|s| format!("“{}”", label(s)))
            .unwrap_or_else(|| "a separator".into()),
        Cut::Hard => "a hard cut".into(),
        Cut::Window => "a window's end".into(),
        Cut::Structure(_) => "the structure".into(),
        Cut::Breakpoint => "a breakpoint".into(),
        Cut::End => "the end".into(),
    }
}

/// How many cuts between chunks each separator (or a hard cut) made, in list
/// order, hard cuts last (the split's [`Split::stats`], named for a reader).
pub fn cut_counts(split: &Split) -> Vec<(String, usize)> {
    let cuts = split.stats();
    let mut out: Vec<(String, usize)> = cuts
        .fired
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(i, &n)| (cut_name(split, Cut::Separator(i)), n))
        .collect();
    if cuts.hard > 0 {
        out.push((cut_name(split, Cut::Hard), cuts.hard));
    }
    if cuts.windows > 0 {
        out.push((cut_name(split, Cut::Window), cuts.windows));
    }
    out
}

fn counts_line(split: &Split) -> String {
    let counts = cut_counts(split);
    if counts.is_empty() {
        return "no cut".into();
    }
    counts
        .iter()
        .map(|(name, n)| format!("{n} by {name}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn hard_cuts(split: &Split) -> usize {
    split.stats().hard
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// A combining mark that belongs to the character before it (Latin accents,
/// Thai vowel and tone marks, the zero-width joiner's neighbours aside): a chunk
/// that starts with one has torn it from its letter.
pub fn is_combining(c: char) -> bool {
    matches!(c as u32,
        0x0300..=0x036F | 0x0E31 | 0x0E34..=0x0E3A | 0x0E47..=0x0E4E | 0x1AB0..=0x1AFF
        | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// The chunks (by index) whose text starts with a combining mark.
fn torn(split: &Split) -> Vec<usize> {
    (0..split.output.chunks.len())
        .filter(|&k| text(split, k).chars().next().is_some_and(is_combining))
        .collect()
}

/// The node's separator, if it was split by one.
fn split_by(node: &Node) -> Option<usize> {
    match node.action {
        Step::Split { separator, .. } => Some(separator),
        _ => None,
    }
}

/// The word (up to whitespace) that ends at byte `end`.
fn word_before(text: &str, end: usize) -> &str {
    let head = &text[..end];
    let start = head
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    &head[start..]
}

/// The word (between whitespace) around byte range `[a, b)`.
fn word_around(text: &str, a: usize, b: usize) -> &str {
    let start = text[..a]
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[b..]
        .char_indices()
        .find(|&(_, c)| c.is_whitespace())
        .map_or(text.len(), |(i, _)| b + i);
    &text[start..end]
}

// ---- Interview follow-ups (seed 000) --------------------------------------

/// Tokens: the unit and the chunks in it. The text's own token counts are
/// [`TokenCounts`]'s, asked of the worker (the page carries no encoder).
pub fn tokens(splits: &[&Split]) -> Fact {
    let split = splits[0];
    if !matches!(split.config.unit, Unit::Tokens(_)) {
        return Fact::new(
            false,
            format!(
                "Counting in {}: choose cl100k or o200k to count in tokens.",
                split.config.unit.name()
            ),
        );
    }
    let longest = (0..split.output.chunks.len())
        .map(|k| chars(text(split, k)))
        .max()
        .unwrap_or(0);
    Fact::new(
        true,
        format!(
            "In {}, {} chunks of at most {} tokens; the longest is {longest} chars.",
            split.config.unit.name(),
            split.output.chunks.len(),
            split.config.size
        ),
    )
}

/// The line under the tokens card: the text's length in chars and, for
/// every encoding counted, its tokens and chars per token.
pub fn ratio_line(chars: usize, counts: &[(Encoding, usize)]) -> String {
    if counts.is_empty() {
        return format!("This text is {chars} chars; choose cl100k or o200k to count its tokens.");
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|&(enc, n)| {
            format!(
                "{n} {} tokens ({} chars a token)",
                enc.name(),
                ratio(chars, n)
            )
        })
        .collect();
    format!("This text is {chars} chars: {}.", parts.join(", "))
}

/// `chars / tokens` with one decimal.
fn ratio(chars: usize, tokens: usize) -> String {
    if tokens == 0 {
        return "no".into();
    }
    let tenths = (chars * 10 + tokens / 2) / tokens;
    format!("{}.{}", tenths / 10, tenths % 10)
}

/// Overlap: how many chunks repeat the one before, and by how much at most.
pub fn overlap(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let lens: Vec<usize> = split
        .output
        .chunks
        .iter()
        .filter_map(|c| c.overlap.map(|o| chars(o.text(&split.text))))
        .collect();
    let most = lens.iter().copied().max().unwrap_or(0);
    let longest = split.output.chunks.iter().map(|c| c.len).max().unwrap_or(0);
    Fact::new(
        !lens.is_empty() && longest <= split.config.size,
        format!(
            "{} of {} chunks start by repeating the end of the one before (at most {most} chars, the overlap is {}); the longest chunk is {longest}, within the size {}.",
            lens.len(),
            split.output.chunks.len(),
            split.config.overlap,
            split.config.size
        ),
    )
}

/// The Markdown strategy with its prefix: how many chunks carry a heading
/// path, and the last chunk's path, put before it as its prefix.
pub fn markdown(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let n = split.output.chunks.len();
    let Some(md) = split.output.markdown.as_ref() else {
        return Fact::new(
            false,
            "No heading paths: this is not the Markdown strategy.",
        );
    };
    let with_path = md.chunks.iter().filter(|c| !c.path.is_empty()).count();
    let last = n.saturating_sub(1);
    let path = md.path_texts(&split.text, last).join(" > ");
    // Its prefix starts with its heading path (a repeated table header may
    // follow the path, or stand alone when the heading prefix is off).
    let prefixed = md
        .chunks
        .get(last)
        .and_then(|c| c.prefix.as_deref())
        .is_some_and(|p| !path.is_empty() && p.starts_with(&path));
    Fact::new(
        with_path > 0 && prefixed,
        format!(
            "{with_path} of {n} chunks carry a heading path; the last one's is “{path}”, put before it as its prefix and counted in its size."
        ),
    )
}

/// Chunks of `split` whose last non-empty line is a heading while the next
/// chunk starts with body text: a heading cut off from what it heads.
fn ending_in_heading(split: &Split) -> usize {
    let is_heading = |l: &str| l.trim_start().starts_with('#');
    let n = split.output.chunks.len();
    (0..n.saturating_sub(1))
        .filter(|&k| {
            let last = text(split, k).lines().rev().find(|l| !l.trim().is_empty());
            let next = text(split, k + 1).lines().find(|l| !l.trim().is_empty());
            last.is_some_and(is_heading) && next.is_some_and(|l| !is_heading(l))
        })
        .count()
}

/// A heading cut from its body: recursive against Markdown.
pub fn md_heading(splits: &[&Split]) -> Fact {
    let (ours, md) = (ending_in_heading(splits[0]), ending_in_heading(splits[1]));
    Fact::new(
        ours > 0 && md == 0,
        format!(
            "Recursive: {ours} chunk{} end{} in a heading whose body starts the next chunk; Markdown: {md}.",
            if ours == 1 { "" } else { "s" },
            if ours == 1 { "s" } else { "" }
        ),
    )
}

/// Table rows without their header: the Markdown side records the header
/// for each later part of the table; the recursive side has rows alone.
pub fn md_table(splits: &[&Split]) -> Fact {
    let rows_alone = (0..splits[0].output.chunks.len())
        .filter(|&k| {
            let t = text(splits[0], k);
            t.trim_start().starts_with('|') && !t.contains("---")
        })
        .count();
    let headed = splits[1].output.markdown.as_ref().map_or(0, |m| {
        m.chunks.iter().filter(|c| c.table_header.is_some()).count()
    });
    Fact::new(
        rows_alone > 0 && headed > 0,
        format!(
            "Recursive: {rows_alone} chunk{} of rows with no header row; Markdown: {headed} with the header row recorded as context.",
            if rows_alone == 1 { "" } else { "s" }
        ),
    )
}

/// Chunks holding an odd number of fence lines: a code block cut in two.
fn fences_cut(split: &Split) -> usize {
    (0..split.output.chunks.len())
        .filter(|&k| {
            text(split, k)
                .lines()
                .filter(|l| l.trim_start().starts_with("```"))
                .count()
                % 2
                == 1
        })
        .count()
}

/// A fence split at a blank line: recursive against Markdown.
pub fn md_fence(splits: &[&Split]) -> Fact {
    let (ours, md) = (fences_cut(splits[0]), fences_cut(splits[1]));
    Fact::new(
        ours > 0 && md == 0,
        format!("Chunks holding half a code fence: recursive {ours}, Markdown {md}."),
    )
}

// ---- Sizing ----------------------------------------------------------------

/// Too small: chunks that open with a pronoun whose subject is in another chunk.
pub fn too_small(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let dangling: Vec<String> = (0..split.output.chunks.len())
        .filter(|&k| {
            let t = text(split, k);
            ["It ", "They ", "This "].iter().any(|p| t.starts_with(p))
        })
        .map(|k| format!("chunk {k} {}", quote(text(split, k))))
        .collect();
    Fact::new(
        !dangling.is_empty(),
        format!(
            "At size {}: {}; {} open with a pronoun whose subject is in another chunk: {}.",
            split.config.size,
            crate::model::count(split.output.chunks.len(), "chunk", "chunks"),
            dangling.len(),
            dangling.join(", ")
        ),
    )
}

/// Too big: how many paragraphs share the biggest chunk.
pub fn too_big(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let (k, paragraphs) = (0..split.output.chunks.len())
        .map(|k| (k, text(split, k).matches("\n\n").count() + 1))
        .max_by_key(|&(_, p)| p)
        .unwrap_or((0, 0));
    let len = split.output.chunks.get(k).map_or(0, |c| c.len);
    Fact::new(
        paragraphs >= 3,
        format!(
            "At size {}: {}; chunk {k} is {len} chars and holds {paragraphs} paragraphs on different topics, so one vector has to stand for all of them.",
            split.config.size,
            crate::model::count(split.output.chunks.len(), "chunk", "chunks")
        ),
    )
}

/// Typical sizes: the chunk lengths a size of 1,000–2,000 chars gives.
pub fn typical(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let lengths = split.stats();
    let (size, overlap) = (split.config.size, split.config.overlap);
    let percent = (overlap * 100 + size / 2) / size.max(1);
    Fact::new(
        (1000..=2000).contains(&size) && (10..=15).contains(&percent),
        format!(
            "Size {size} chars with overlap {overlap} ({percent} % of the size): {} chunks, median {} chars, shortest {}, longest {}.",
            lengths.count, lengths.median, lengths.min, lengths.max
        ),
    )
}

// ---- Seed 002's headline question and what costs you it --------------------

/// Fixed against recursive: windows that end inside a word, cuts at separators.
pub fn headline(splits: &[&Split]) -> Fact {
    let (fixed, rec) = (splits[0], splits[splits.len() - 1]);
    let inside: Vec<String> = fixed
        .output
        .chunks
        .windows(2)
        .filter(|w| w[0].span.end == w[1].span.start && inside_word(&fixed.text, w[0].span.end))
        .map(|w| {
            let t = &*fixed.text;
            let a = w[0].span.end;
            let left = word_before(t, a);
            let right = word_around(t, a, a);
            format!("“{}|{}”", left, &right[left.len()..])
        })
        .collect();
    Fact::new(
        !inside.is_empty() && hard_cuts(rec) == 0,
        format!(
            "Fixed: {} windows, {} of them cut inside a word ({}). Recursive: {} chunks, cut {}.",
            fixed.output.chunks.len(),
            inside.len(),
            inside.join(", "),
            rec.output.chunks.len(),
            counts_line(rec)
        ),
    )
}

/// "What does recursive mean in each library?": each library's chunk count on
/// the same text and size, and whether any two agree.
pub fn libraries(splits: &[&Split]) -> Fact {
    let outputs: Vec<&chunkscope::Output> = splits.iter().map(|s| &s.output).collect();
    let agreement = chunkscope::stats::Agreement::of(&splits[0].text, &outputs);
    let counts: Vec<String> = splits
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let n = s.output.chunks.len();
            let name = crate::state::View::short_title_of(s.config.kind());
            if i == 0 {
                format!("{name} {n} {}", if n == 1 { "chunk" } else { "chunks" })
            } else {
                format!("{name} {n}")
            }
        })
        .collect();
    let alike: Vec<String> = (agreement.same_as.iter().enumerate())
        .flat_map(|(i, others)| others.iter().filter(move |&&j| j > i).map(move |&j| (i, j)))
        .map(|(i, j)| {
            format!(
                "{} and {}",
                crate::state::View::short_title_of(splits[i].config.kind()),
                crate::state::View::short_title_of(splits[j].config.kind())
            )
        })
        .collect();
    let same = if alike.is_empty() {
        "no two libraries give the same chunks".to_string()
    } else {
        format!("the same chunks from {}", alike.join(", "))
    };
    let common = match agreement.common {
        0 => "no chunk is the same in all of them".to_string(),
        n => format!(
            "{n} {} the same in all of them",
            if n == 1 { "chunk is" } else { "chunks are" }
        ),
    };
    // The card's claim is that the word means a different rule in each
    // library: it holds while some two of them cut this text differently.
    let differ = agreement
        .same_as
        .iter()
        .any(|others| others.len() + 1 < splits.len());
    Fact::new(
        differ,
        format!(
            "Same page, same size: {}; {same}, and {common}.",
            counts.join(", ")
        ),
    )
}

/// "Equal-sized chunks": the lengths the recursive splitter really gives.
pub fn equal_sized(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let lens: Vec<String> = split
        .output
        .chunks
        .iter()
        .map(|c| c.len.to_string())
        .collect();
    let min = split.output.chunks.iter().map(|c| c.len).min().unwrap_or(0);
    let max = split.output.chunks.iter().map(|c| c.len).max().unwrap_or(0);
    Fact::new(
        min < max,
        format!(
            "Chunk lengths at size {}: {}: from {min} to {max}, and none has to reach the size.",
            split.config.size,
            lens.join(", ")
        ),
    )
}

/// "All separators at once": which pieces each separator was used on.
pub fn one_at_a_time(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let nodes = &split.output.trace.nodes;
    let mut said = Vec::new();
    let mut unused = Vec::new();
    for (i, sep) in split.separators.iter().enumerate() {
        let lens: Vec<String> = nodes
            .iter()
            .filter(|n| split_by(n) == Some(i))
            .map(|n| n.len.to_string())
            .collect();
        let name = if sep.is_hard_cut() {
            "the hard cut".to_string()
        } else {
            format!("“{}”", label(sep))
        };
        if lens.is_empty() {
            unused.push(name);
        } else {
            said.push(format!(
                "{name} split {} of {} chars",
                crate::model::count(lens.len(), "piece", "pieces"),
                lens.join(", ")
            ));
        }
    }
    let hard = nodes
        .iter()
        .any(|n| matches!(n.action, Step::HardCut { .. }));
    let pieces = nodes.len();
    let split_nodes = nodes.iter().filter(|n| split_by(n).is_some()).count();
    Fact::new(
        split_nodes > 0 && split_nodes < pieces,
        format!(
            "{}; {} never ran{}. Each finer separator was tried only on a piece still too big.",
            said.join("; "),
            if unused.is_empty() {
                "nothing else".to_string()
            } else {
                unused.join(" and ")
            },
            if hard { " (a piece was cut hard)" } else { "" }
        ),
    )
}

/// "Forgetting the fallback": the hard cuts that keep a blob within the size.
pub fn fallback(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let n = split.output.chunks.len();
    let longest = split.output.chunks.iter().map(|c| c.len).max().unwrap_or(0);
    let hard = hard_cuts(split);
    Fact::new(
        hard > 0 && longest <= split.config.size,
        format!(
            "{n} chunks, cut {}. The longest is {longest}, within the size {}: without the hard cut the blob would stay one oversized piece.",
            counts_line(split),
            split.config.size
        ),
    )
}

/// "Skipping the merge": chunks with the merge, pieces without it (seed 002's
/// eleven lines, run by the bug gallery's variant).
pub fn merge(splits: &[&Split]) -> Fact {
    use chunkscope_teach::bugs::{self, Bug};
    let split = splits[0];
    let text = &*split.text;
    let without = bugs::run(
        Bug::NoMerge,
        text,
        &split.config,
        &chunkscope_wasm::loaded::held(),
    );
    let merged = split.output.chunks.len();
    let unmerged = without.chunks.len();
    let shortest = without
        .chunks
        .iter()
        .map(|c| chars(&c.rope.text(text)))
        .min()
        .unwrap_or(0);
    Fact::new(
        unmerged > merged,
        format!(
            "With the merge: {merged} chunks. Without it (the lesson's eleven lines): {unmerged} pieces, the shortest {shortest} chars."
        ),
    )
}

/// "It understands meaning": a chunk that holds two topics.
pub fn meaning(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let mixed: Vec<usize> = (0..split.output.chunks.len())
        .filter(|&k| {
            let t = text(split, k).to_ascii_lowercase();
            t.contains("refund") && t.contains("ship")
        })
        .collect();
    Fact::new(
        !mixed.is_empty(),
        match mixed.first() {
            Some(&k) => format!(
                "Chunk {k} {} is about refunds and about shipping: the cut fell where the length ran out, not where the topic changed.",
                quote(text(split, k))
            ),
            None => "No chunk mixes refunds and shipping at these settings.".into(),
        },
    )
}

// ---- Failure modes ---------------------------------------------------------

/// Separators that never matched at the root.
fn absent_at_root(split: &Split) -> Vec<String> {
    split
        .output
        .trace
        .nodes
        .first()
        .map(|root| {
            root.absent
                .iter()
                .filter_map(|&i| split.separators.get(i))
                .map(|s| format!("“{}”", label(s)))
                .collect()
        })
        .unwrap_or_default()
}

fn absent_line(split: &Split) -> String {
    let absent = absent_at_root(split);
    match absent.len() {
        0 => "every separator occurs".into(),
        1 => format!("{} never occurs", absent[0]),
        _ => format!("{} never occur", absent.join(" and ")),
    }
}

/// A chat export: no blank line, the newline does the work.
pub fn slack(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let absent = absent_at_root(split);
    Fact::new(
        !absent.is_empty(),
        format!(
            "{}; {} chunks, cut {}.",
            absent_line(split),
            split.output.chunks.len(),
            counts_line(split)
        ),
    )
}

/// Seed 002's "is the hierarchy doing any work?": the cuts by what made
/// them, and how many fell inside a word.
pub fn doing_work(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let cuts = split.stats();
    let named: usize = cuts.fired.iter().sum();
    Fact::new(
        named > cuts.hard + cuts.mid_word,
        format!(
            "{}, cut {}: {named} of {} cuts by a named separator, {} inside a word.",
            crate::model::count(split.output.chunks.len(), "chunk", "chunks"),
            counts_line(split),
            cuts.cuts,
            cuts.mid_word
        ),
    )
}

/// PDF text without newlines: sentences, spaces, then hard cuts.
pub fn pdf(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let hard: Vec<String> = (0..split.output.chunks.len())
        .filter(|&k| split.output.chunks[k].cut == Cut::Hard)
        .map(|k| quote(text(split, k)))
        .collect();
    let by_sentence = split.output.chunks.iter().any(|c| match c.cut {
        Cut::Separator(i) => split.separators.get(i).is_some_and(|s| s.pattern == ". "),
        _ => false,
    });
    Fact::new(
        by_sentence && !hard.is_empty(),
        format!(
            "{}; {} chunks, cut {}. Hard-cut: {}.",
            absent_line(split),
            split.output.chunks.len(),
            counts_line(split),
            if hard.is_empty() {
                "nothing".into()
            } else {
                hard.join(", ")
            }
        ),
    )
}

/// Chunks that start inside a word (the previous chunk ended on a letter or
/// digit and this one starts with one, with no gap).
fn mid_word_starts(split: &Split) -> Vec<usize> {
    split
        .output
        .chunks
        .windows(2)
        .filter(|w| w[0].span.end == w[1].span.start && inside_word(&split.text, w[0].span.end))
        .map(|w| w[1].index)
        .collect()
}

/// Where each row of a CSV that lost its line breaks starts (byte offsets):
/// every `columns`-th field, fields being what the commas separate.
pub fn row_starts(text: &str, columns: usize) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices(',').map(|(i, _)| i + 1))
        .step_by(columns.max(1))
        .collect()
}

/// The chunks after the first that start where a row of the `csv` preset
/// starts.
fn chunks_at_rows(split: &Split) -> usize {
    let rows = row_starts(&split.text, crate::presets::CSV_COLUMNS);
    let chunks = &split.output.chunks;
    chunks[1.min(chunks.len())..]
        .iter()
        .filter(|c| rows.binary_search(&c.span.start).is_ok())
        .count()
}

/// CSV that lost its newlines: no row boundary to cut at.
pub fn csv(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let at_row = chunks_at_rows(split);
    let n = split.output.chunks.len();
    Fact::new(
        !absent_at_root(split).is_empty() && at_row + 1 < n,
        format!(
            "{}; {n} chunks, cut {}; {at_row} of the {} chunks after the first start where a row starts.",
            absent_line(split),
            counts_line(split),
            n.saturating_sub(1)
        ),
    )
}

/// Machine JSON on one line: hard cuts inside keys and values.
pub fn json(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let starts: Vec<String> = mid_word_starts(split)
        .into_iter()
        .map(|k| quote(&crate::model::preview(text(split, k), 12)))
        .collect();
    Fact::new(
        hard_cuts(split) > 0,
        format!(
            "{}; {} chunks, cut {}. Chunks starting inside a key or a value: {}.",
            absent_line(split),
            split.output.chunks.len(),
            counts_line(split),
            if starts.is_empty() {
                "none".into()
            } else {
                starts.join(", ")
            }
        ),
    )
}

/// CRLF line ends: `\n\n` never matches `\r\n\r\n`.
pub fn crlf(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let crlf = split.text.matches("\r\n\r\n").count();
    let blank_inside: Vec<String> = (0..split.output.chunks.len())
        .filter(|&k| text(split, k).contains("\r\n\r\n"))
        .map(|k| quote(text(split, k)))
        .collect();
    Fact::new(
        crlf > 0 && !blank_inside.is_empty(),
        format!(
            "The text has {crlf} “\\r\\n\\r\\n” and {} “\\n\\n”, so {}. {} chunks hold a paragraph break inside them: {}.",
            split.text.matches("\n\n").count(),
            absent_line(split),
            blank_inside.len(),
            blank_inside.join(", ")
        ),
    )
}

/// NFC against NFD: the same words, other lengths, other cuts.
pub fn nfd(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let lines: Vec<usize> = split.text.lines().map(chars).collect();
    let torn = torn(split);
    Fact::new(
        lines.len() == 2 && lines[0] != lines[1] && !torn.is_empty(),
        format!(
            "The two lines look the same but are {} chars long (one é is one char in NFC, two in NFD). Chunks starting with an accent cut from its letter: {}.",
            lines.iter().map(usize::to_string).collect::<Vec<_>>().join(" and "),
            torn.iter()
                .map(|&k| format!("chunk {k} (U+{:04X})", text(split, k).chars().next().map_or(0, |c| c as u32)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
}

/// `. ` cuts after abbreviations.
pub fn abbreviations(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let t = &*split.text;
    let after: Vec<String> = split
        .output
        .chunks
        .iter()
        .filter(|c| match c.cut {
            Cut::Separator(i) => split.separators.get(i).is_some_and(|s| s.pattern == ". "),
            _ => false,
        })
        .map(|c| format!("“{}”", word_before(t, c.span.end)))
        .collect();
    let short = split
        .output
        .chunks
        .iter()
        .map(|c| c.text(t))
        .min_by_key(|s| chars(s))
        .unwrap_or("");
    Fact::new(
        !after.is_empty(),
        format!(
            "“. ” cut after {}. The shortest chunk is {}.",
            after.join(", "),
            quote(short)
        ),
    )
}

/// The sentence segmenter's judgments on the same text.
pub fn sentences(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let t = &*split.text;
    let Some(found) = &split.output.sentences else {
        return Fact::new(
            false,
            "This split has no sentences: choose the sentence strategy.",
        );
    };
    let mut kept: Vec<String> = found
        .decisions
        .iter()
        .filter(|d| !d.end)
        .map(|d| {
            format!(
                "“{}” ({})",
                word_around(t, d.stop.start, d.stop.end),
                d.reason.name().replace('_', " ")
            )
        })
        .collect();
    // A word with several full stops is doubted once per stop; say it once.
    kept.dedup();
    Fact::new(
        !kept.is_empty(),
        format!(
            "{} sentences. Not sentence ends: {}.",
            found.spans.len(),
            kept.join(", ")
        ),
    )
}

/// A CJK full stop before a closing quote.
pub fn cjk_quote(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let opened: Vec<String> = (0..split.output.chunks.len())
        .filter(|&k| text(split, k).starts_with(['”', '」', '』']))
        .map(|k| format!("chunk {k}: {}", text(split, k)))
        .collect();
    Fact::new(
        !opened.is_empty(),
        format!(
            "{} chunks, cut {}. Chunks that start with the closing quote of the sentence before: {}.",
            split.output.chunks.len(),
            counts_line(split),
            if opened.is_empty() { "none".into() } else { opened.join(", ") }
        ),
    )
}

/// Thai: no spaces, zero-width spaces the list does not know.
pub fn thai(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let zw = split.text.matches('\u{200B}').count();
    let torn = torn(split);
    Fact::new(
        hard_cuts(split) > 0,
        format!(
            "No space to cut at: {} chunks, cut {}. {} chunks start with a vowel or tone mark torn from its consonant ({}). The text has {zw} zero-width spaces (U+200B) between words; the list does not use them.",
            split.output.chunks.len(),
            counts_line(split),
            torn.len(),
            torn.iter()
                .map(|&k| format!("U+{:04X}", text(split, k).chars().next().map_or(0, |c| c as u32)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
}

/// Thai with the zero-width space in the list: cuts between words.
pub fn zwsp(splits: &[&Split]) -> Fact {
    let split = splits[0];
    let torn = torn(split);
    Fact::new(
        torn.is_empty() && hard_cuts(split) == 0,
        format!(
            "{} chunks, cut {}; {} chunks start with a mark torn from its letter.",
            split.output.chunks.len(),
            counts_line(split),
            torn.len()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope_wasm::contract::{analyze, Detail};

    fn split_of(text: crate::text::Text, config: chunkscope::Config) -> Split {
        let analysis = analyze(&text, config, Detail::Full).unwrap();
        Split::new(text, analysis)
    }

    #[test]
    fn a_row_starts_every_seventh_field() {
        assert_eq!(row_starts("a,b,c,d,e,f", 3), [0, 6]);
        assert_eq!(row_starts("", 7), [0]);
        let csv = crate::presets::text("csv").unwrap();
        let rows = row_starts(&csv, crate::presets::CSV_COLUMNS);
        // The header, then each row with its five-digit order id first: the
        // sample's own shape, checked apart from the rule.
        assert_eq!(&csv[..rows[0] + 9], "order_id,");
        let ids = rows[1..]
            .iter()
            .filter(|&&at| {
                let t = csv[at..].as_bytes();
                t.len() > 5 && t[..5].iter().all(u8::is_ascii_digit) && t[5] == b','
            })
            .count();
        assert_eq!(ids, rows.len() - 1);
        assert!(ids > 50, "{ids} rows");
    }

    /// Cut at commas, some chunks start where a row does; the fact counts
    /// them as the order ids at their starts say.
    #[test]
    fn chunks_that_start_a_row_are_counted() {
        let csv = crate::presets::text("csv").unwrap();
        let config = chunkscope::Config::recursive(60).with_separators([",", ""]);
        let split = split_of(csv.clone(), config);
        let by_id = split.output.chunks[1..]
            .iter()
            .filter(|c| {
                let t = c.text(&csv).as_bytes();
                t.len() > 5 && t[..5].iter().all(u8::is_ascii_digit) && t[5] == b','
            })
            .count();
        assert!(by_id > 0);
        assert_eq!(chunks_at_rows(&split), by_id);
    }
}
