//! What each card's splits show, as values: counts, lengths, sizes, and the
//! short texts that are data (a chunk's text, the word around a cut). Nothing
//! here is a sentence; [`super::words`] says every value.
//!
//! Each card's function takes the splits of the card's view in the view's
//! order (one, or two and more for a compare view). Numbers the engine's
//! statistics already define (lengths, cuts by what made them, cuts inside a
//! word) are read from the split's [`chunkscope::stats`] summary, never
//! counted again here.

use crate::state::Split;
use chunkscope::sentence::Reason;
use chunkscope::stats::{inside_word, Lengths};
use chunkscope::{Action as Step, Cut, Node, Strategy, Unit};

/// What made a cut, as a card names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CutBy {
    /// A separator of the list, by its label ([`chunkscope::Separator::label`]).
    Separator(String),
    /// A hard cut: no separator was left, or the list said `""`.
    Hard,
    /// The end of a fixed window.
    Window,
}

/// How many cuts between chunks each separator made, in list order, then the
/// hard cuts, then the window ends. Only what cut at least once is listed.
/// Cuts at the document's structure and semantic breakpoints are left out:
/// no card's view makes them, and no card names them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CutCounts(pub Vec<(CutBy, usize)>);

impl CutCounts {
    /// The cuts of `split`, from its statistics.
    pub fn of(split: &Split) -> CutCounts {
        let stats = split.stats();
        let mut counts: Vec<(CutBy, usize)> = (stats.fired.iter().enumerate())
            .filter(|&(_, &n)| n > 0)
            .map(|(i, &n)| (CutBy::Separator(split.separators[i].label()), n))
            .collect();
        counts.extend(
            [(CutBy::Hard, stats.hard), (CutBy::Window, stats.windows)]
                .into_iter()
                .filter(|&(_, n)| n > 0),
        );
        CutCounts(counts)
    }

    /// The hard cuts among them.
    pub fn hard(&self) -> usize {
        self.0
            .iter()
            .filter(|(by, _)| *by == CutBy::Hard)
            .map(|(_, n)| n)
            .sum()
    }

    /// The cuts a separator of the list made.
    pub fn named(&self) -> usize {
        self.0
            .iter()
            .filter(|(by, _)| matches!(by, CutBy::Separator(_)))
            .map(|(_, n)| n)
            .sum()
    }
}

/// A split's chunks and what cut them, the first thing most cards say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chunks {
    pub count: usize,
    pub cuts: CutCounts,
}

impl Chunks {
    /// The chunks of `split`.
    pub fn of(split: &Split) -> Chunks {
        Chunks {
            count: split.output.chunks.len(),
            cuts: CutCounts::of(split),
        }
    }
}

/// The separators that occur nowhere in the text (found absent when the
/// whole text was split), by label, in list order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Absent(pub Vec<String>);

impl Absent {
    /// The separators the root of `split`'s trace found absent.
    pub fn of(split: &Split) -> Absent {
        Absent(
            (split.output.trace.nodes.first())
                .map(|root| {
                    (root.absent.iter())
                        .filter_map(|&i| split.separators.get(i))
                        .map(|s| s.label())
                        .collect()
                })
                .unwrap_or_default(),
        )
    }
}

/// One count of chunks taken on both sides of a recursive-against-Markdown
/// view: the mistake the card shows, and the same mistake under the Markdown
/// strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides {
    pub recursive: usize,
    pub markdown: usize,
}

impl Sides {
    /// `count` of the view's two splits, recursive first.
    fn of(splits: &[&Split], count: fn(&Split) -> usize) -> Sides {
        Sides {
            recursive: count(splits[0]),
            markdown: count(splits[1]),
        }
    }
}

/// The text's length and its token counts, for the line under the tokens
/// card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRatio {
    /// The text's length in chars.
    pub chars: usize,
    /// Its count in each encoding counted so far (none while no tables are
    /// installed).
    pub counts: Vec<(chunkscope::tokens::Encoding, usize)>,
}

impl TokenRatio {
    /// How many chars a token holds for a count of `tokens`, in tenths,
    /// rounded to the nearest; `None` without tokens.
    pub fn tenths_a_token(&self, tokens: usize) -> Option<usize> {
        (tokens > 0).then(|| (self.chars * 10 + tokens / 2) / tokens)
    }
}

/// What the splits on screen show about one card's point. Chunks are numbered
/// from 0, as the page numbers them; lengths are in the split's unit unless a
/// field says chars.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The tokens card in a unit that is not tokens.
    NotInTokens { unit: Unit },
    /// The tokens card: the chunks in a token unit, and how long the longest
    /// is in chars.
    Tokens {
        unit: Unit,
        chunks: usize,
        size: usize,
        longest_chars: usize,
    },
    /// Overlap: the chunks that start by repeating the end of the one before,
    /// and the longest repeat in chars.
    Overlap {
        chunks: usize,
        repeating: usize,
        most: usize,
        overlap: usize,
        longest: usize,
        size: usize,
    },
    /// The Markdown card on a split with no heading paths.
    NoHeadings,
    /// Markdown: the chunks with a heading path, and the last chunk's path,
    /// outermost heading first.
    Markdown {
        chunks: usize,
        with_path: usize,
        last_path: Vec<String>,
        /// Whether the last chunk's prefix starts with that path.
        prefixed: bool,
    },
    /// Chunks that end in a heading whose body starts the next chunk.
    MdHeading(Sides),
    /// Recursive chunks of table rows with no header row, against Markdown
    /// chunks that record the header as context.
    MdTable { rows_alone: usize, headed: usize },
    /// Chunks holding an odd number of fence lines: a code block cut in two.
    MdFence(Sides),
    /// Chunks that open with a pronoun ("It", "They", "This") whose subject
    /// is in another chunk, with their text.
    TooSmall {
        size: usize,
        chunks: usize,
        dangling: Vec<(usize, String)>,
    },
    /// The chunk holding the most paragraphs (the first such).
    TooBig {
        size: usize,
        chunks: usize,
        biggest: usize,
        len: usize,
        paragraphs: usize,
    },
    /// Chunk lengths at a typical size, the overlap as a rounded percentage
    /// of it.
    Typical {
        size: usize,
        overlap: usize,
        percent: usize,
        chunks: usize,
        median: usize,
        shortest: usize,
        longest: usize,
    },
    /// Fixed windows against recursive chunks (the view's first and last
    /// splits).
    Headline {
        windows: usize,
        /// The windows' cuts inside a word.
        mid_word: usize,
        /// The word at each of those cuts, before and after it: one pair a
        /// cut.
        cut_words: Vec<(String, String)>,
        recursive: Chunks,
    },
    /// Each library's chunk count on the same text, the pairs that give the
    /// same chunks, and the chunks every library gives.
    Libraries {
        chunks: Vec<(Strategy, usize)>,
        /// Each pair once, in view order.
        alike: Vec<(Strategy, Strategy)>,
        common: usize,
    },
    /// Every chunk's length, and the shortest and longest.
    EqualSized {
        size: usize,
        lengths: Vec<usize>,
        shortest: usize,
        longest: usize,
    },
    /// Which pieces each level of the list split, by their lengths, and the
    /// levels that never ran.
    AllAtOnce {
        used: Vec<(CutBy, Vec<usize>)>,
        unused: Vec<CutBy>,
        /// Whether some piece was cut hard.
        hard_cut: bool,
        /// The pieces of the recursion tree, and how many of them a
        /// separator split.
        pieces: usize,
        split: usize,
    },
    /// The hard cuts that keep a blob within the size.
    Fallback {
        chunks: Chunks,
        longest: usize,
        size: usize,
    },
    /// The first chunk about both refunds and shipping, with its text.
    Meaning { mixed: Option<(usize, String)> },
    /// Chunks with the merge, pieces without it, and the shortest piece in
    /// chars.
    Merge {
        merged: usize,
        unmerged: usize,
        shortest: usize,
    },
    /// A chat export: which separators never occur, and what cut instead.
    Slack { absent: Absent, chunks: Chunks },
    /// The cuts by what made them, of all `total`, and those inside a word.
    DoingWork {
        chunks: Chunks,
        total: usize,
        mid_word: usize,
    },
    /// PDF text: the cuts at “. ”, and the hard-cut chunks' text.
    Pdf {
        absent: Absent,
        chunks: Chunks,
        full_stop: usize,
        hard_cut: Vec<String>,
    },
    /// CSV without line breaks: of the chunks after the first, those that
    /// start where a row starts.
    Csv {
        absent: Absent,
        chunks: Chunks,
        after_first: usize,
        at_row: usize,
    },
    /// One-line JSON: the text of each chunk that starts inside a word.
    Json {
        absent: Absent,
        chunks: Chunks,
        mid_word_starts: Vec<String>,
    },
    /// Windows line ends: the text's blank lines of each kind, and the chunks
    /// that hold a paragraph break inside them.
    Crlf {
        crlf: usize,
        lf: usize,
        absent: Absent,
        with_break: Vec<String>,
    },
    /// NFC against NFD: each line's length in chars, and each chunk that
    /// starts with a combining mark, with that mark.
    Nfd {
        lines: Vec<usize>,
        torn: Vec<(usize, char)>,
    },
    /// The word before each cut by “. ”, and the shortest chunk's text.
    Abbreviations {
        after: Vec<String>,
        shortest: String,
    },
    /// The sentence card on a split that found no sentences.
    NoSentences,
    /// The sentences found, and each full stop judged not to end one: the
    /// word around it and why (a word doubted twice in a row listed once).
    Sentences {
        sentences: usize,
        kept: Vec<(String, Reason)>,
    },
    /// Chunks that start with the closing quote of the sentence before, with
    /// their text.
    CjkQuote {
        chunks: Chunks,
        opened: Vec<(usize, String)>,
    },
    /// Thai without a separator between words: the chunks that start with a
    /// mark torn from its consonant, and the zero-width spaces the list
    /// passed over.
    Thai {
        chunks: Chunks,
        torn: Vec<(usize, char)>,
        zero_width: usize,
    },
    /// Thai with the zero-width space in the list.
    Zwsp { chunks: Chunks, torn: usize },
}

impl Finding {
    /// Whether the point the card makes is visible in the splits.
    pub fn holds(&self) -> bool {
        match self {
            Finding::NotInTokens { .. } | Finding::NoHeadings | Finding::NoSentences => false,
            Finding::Tokens { .. } => true,
            Finding::Overlap {
                repeating,
                longest,
                size,
                ..
            } => *repeating > 0 && longest <= size,
            Finding::Markdown {
                with_path,
                prefixed,
                ..
            } => *with_path > 0 && *prefixed,
            Finding::MdHeading(sides) | Finding::MdFence(sides) => {
                sides.recursive > 0 && sides.markdown == 0
            }
            Finding::MdTable { rows_alone, headed } => *rows_alone > 0 && *headed > 0,
            Finding::TooSmall { dangling, .. } => !dangling.is_empty(),
            Finding::TooBig { paragraphs, .. } => *paragraphs >= 3,
            Finding::Typical { size, percent, .. } => {
                (1000..=2000).contains(size) && (10..=15).contains(percent)
            }
            Finding::Headline {
                mid_word,
                recursive,
                ..
            } => *mid_word > 0 && recursive.cuts.hard() == 0,
            // The word means a different rule in each library: the card holds
            // while some two of them cut this text differently. Giving the
            // same chunks is an equivalence, so all agree only when every
            // pair does.
            Finding::Libraries { chunks, alike, .. } => {
                alike.len() < chunks.len() * chunks.len().saturating_sub(1) / 2
            }
            Finding::EqualSized {
                shortest, longest, ..
            } => shortest < longest,
            Finding::AllAtOnce { pieces, split, .. } => *split > 0 && split < pieces,
            Finding::Fallback {
                chunks,
                longest,
                size,
            } => chunks.cuts.hard() > 0 && longest <= size,
            Finding::Meaning { mixed } => mixed.is_some(),
            Finding::Merge {
                merged, unmerged, ..
            } => unmerged > merged,
            Finding::Slack { absent, .. } => !absent.0.is_empty(),
            Finding::DoingWork {
                chunks, mid_word, ..
            } => chunks.cuts.named() > chunks.cuts.hard() + mid_word,
            Finding::Pdf {
                full_stop,
                hard_cut,
                ..
            } => *full_stop > 0 && !hard_cut.is_empty(),
            Finding::Csv {
                absent,
                after_first,
                at_row,
                ..
            } => !absent.0.is_empty() && at_row < after_first,
            Finding::Json { chunks, .. } | Finding::Thai { chunks, .. } => chunks.cuts.hard() > 0,
            Finding::Crlf {
                crlf, with_break, ..
            } => *crlf > 0 && !with_break.is_empty(),
            Finding::Nfd { lines, torn } => {
                lines.len() == 2 && lines[0] != lines[1] && !torn.is_empty()
            }
            Finding::Abbreviations { after, .. } => !after.is_empty(),
            Finding::Sentences { kept, .. } => !kept.is_empty(),
            Finding::CjkQuote { opened, .. } => !opened.is_empty(),
            Finding::Zwsp { chunks, torn } => *torn == 0 && chunks.cuts.hard() == 0,
        }
    }
}

/// Each chunk's text, with its index.
fn texts(split: &Split) -> impl Iterator<Item = (usize, &str)> {
    (split.output.chunks.iter().enumerate()).map(|(k, c)| (k, c.text(&split.text)))
}

/// The chunks whose text `keep` keeps, with their text.
fn chunks_where(split: &Split, keep: impl Fn(&str) -> bool) -> Vec<(usize, String)> {
    texts(split)
        .filter(|(_, t)| keep(t))
        .map(|(k, t)| (k, t.to_string()))
        .collect()
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

/// The chunks whose text starts with a combining mark, with that mark.
fn torn(split: &Split) -> Vec<(usize, char)> {
    texts(split)
        .filter_map(|(k, t)| {
            let first = t.chars().next()?;
            is_combining(first).then_some((k, first))
        })
        .collect()
}

/// The node's separator, if it was split by one.
fn split_by(node: &Node) -> Option<usize> {
    match node.action {
        Step::Split { separator, .. } => Some(separator),
        _ => None,
    }
}

/// Whether a chunk was cut by the separator `. `, the sentence level of the
/// seed list.
fn at_full_stop(split: &Split, cut: Cut) -> bool {
    match cut {
        Cut::Separator(i) => split.separators.get(i).is_some_and(|s| s.pattern == ". "),
        _ => false,
    }
}

/// The chunks whose end is a cut inside a word, as core's
/// [`chunkscope::stats::Cuts`] counts them: every cut but the last chunk's
/// end, with a letter or digit on both sides.
fn mid_word_cuts(split: &Split) -> impl Iterator<Item = usize> + '_ {
    (split.output.chunks.iter().enumerate())
        .filter(|(_, c)| c.cut != Cut::End && inside_word(&split.text, c.span.end))
        .map(|(k, _)| k)
}

/// Where the word (up to whitespace) that ends at byte `end` starts.
fn word_start(text: &str, end: usize) -> usize {
    text[..end]
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// The word (up to whitespace) that ends at byte `end`.
fn word_before(text: &str, end: usize) -> &str {
    &text[word_start(text, end)..end]
}

/// The word (between whitespace) around byte range `[a, b)`.
fn word_around(text: &str, a: usize, b: usize) -> &str {
    let end = text[b..]
        .char_indices()
        .find(|&(_, c)| c.is_whitespace())
        .map_or(text.len(), |(i, _)| b + i);
    &text[word_start(text, a)..end]
}

// ---- Interview follow-ups (seed 000) --------------------------------------

/// Tokens: the unit and the chunks in it. The text's own token counts are
/// [`super::TokenCounts`]'s, asked of the worker (the page carries no
/// encoder).
pub fn tokens(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let unit = split.config.unit;
    if !matches!(unit, Unit::Tokens(_)) {
        return Finding::NotInTokens { unit };
    }
    let in_chars = Lengths::of(texts(split).map(|(_, t)| chars(t)));
    Finding::Tokens {
        unit,
        chunks: split.output.chunks.len(),
        size: split.config.size,
        longest_chars: in_chars.max,
    }
}

/// Overlap: how many chunks repeat the one before, and by how much at most.
pub fn overlap(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let repeats: Vec<usize> = (split.output.chunks.iter())
        .filter_map(|c| c.overlap.map(|o| chars(o.text(&split.text))))
        .collect();
    Finding::Overlap {
        chunks: split.output.chunks.len(),
        repeating: repeats.len(),
        most: repeats.iter().copied().max().unwrap_or(0),
        overlap: split.config.overlap,
        longest: split.stats().max,
        size: split.config.size,
    }
}

/// The Markdown strategy with its prefix: how many chunks carry a heading
/// path, and the last chunk's path, put before it as its prefix.
pub fn markdown(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let Some(md) = split.output.markdown.as_ref() else {
        return Finding::NoHeadings;
    };
    let chunks = split.output.chunks.len();
    let last = chunks.saturating_sub(1);
    let last_path: Vec<String> = (md.path_texts(&split.text, last).into_iter())
        .map(String::from)
        .collect();
    // Its prefix starts with its heading path as the engine joins it (a
    // repeated table header may follow the path, or stand alone when the
    // heading prefix is off).
    let joined = last_path.join(" > ");
    let prefixed = (md.chunks.get(last))
        .and_then(|c| c.prefix.as_deref())
        .is_some_and(|p| !joined.is_empty() && p.starts_with(&joined));
    Finding::Markdown {
        chunks,
        with_path: md.chunks.iter().filter(|c| !c.path.is_empty()).count(),
        last_path,
        prefixed,
    }
}

/// Chunks of `split` whose last non-empty line is a heading while the next
/// chunk starts with body text: a heading cut off from what it heads.
fn ending_in_heading(split: &Split) -> usize {
    let is_heading = |l: &str| l.trim_start().starts_with('#');
    let texts: Vec<&str> = texts(split).map(|(_, t)| t).collect();
    (texts.windows(2))
        .filter(|w| {
            let last = w[0].lines().rev().find(|l| !l.trim().is_empty());
            let next = w[1].lines().find(|l| !l.trim().is_empty());
            last.is_some_and(is_heading) && next.is_some_and(|l| !is_heading(l))
        })
        .count()
}

/// A heading cut from its body: recursive against Markdown.
pub fn md_heading(splits: &[&Split]) -> Finding {
    Finding::MdHeading(Sides::of(splits, ending_in_heading))
}

/// Table rows without their header: the Markdown side records the header
/// for each later part of the table; the recursive side has rows alone.
pub fn md_table(splits: &[&Split]) -> Finding {
    let rows_alone = texts(splits[0])
        .filter(|(_, t)| t.trim_start().starts_with('|') && !t.contains("---"))
        .count();
    let headed = splits[1].output.markdown.as_ref().map_or(0, |m| {
        m.chunks.iter().filter(|c| c.table_header.is_some()).count()
    });
    Finding::MdTable { rows_alone, headed }
}

/// Chunks holding an odd number of fence lines: a code block cut in two.
fn fences_cut(split: &Split) -> usize {
    let fence_lines = |t: &str| {
        t.lines()
            .filter(|l| l.trim_start().starts_with("```"))
            .count()
    };
    texts(split)
        .filter(|(_, t)| fence_lines(t) % 2 == 1)
        .count()
}

/// A fence split at a blank line: recursive against Markdown.
pub fn md_fence(splits: &[&Split]) -> Finding {
    Finding::MdFence(Sides::of(splits, fences_cut))
}

// ---- Sizing ----------------------------------------------------------------

/// Too small: chunks that open with a pronoun whose subject is in another chunk.
pub fn too_small(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let dangling = chunks_where(split, |t| {
        ["It ", "They ", "This "].iter().any(|p| t.starts_with(p))
    });
    Finding::TooSmall {
        size: split.config.size,
        chunks: split.output.chunks.len(),
        dangling,
    }
}

/// Too big: how many paragraphs share the biggest chunk.
pub fn too_big(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let (biggest, paragraphs) = texts(split)
        .map(|(k, t)| (k, t.matches("\n\n").count() + 1))
        .max_by_key(|&(_, p)| p)
        .unwrap_or((0, 0));
    Finding::TooBig {
        size: split.config.size,
        chunks: split.output.chunks.len(),
        biggest,
        len: split.output.chunks.get(biggest).map_or(0, |c| c.len),
        paragraphs,
    }
}

/// Typical sizes: the chunk lengths a size of 1,000–2,000 chars gives.
pub fn typical(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let lengths = split.stats();
    let (size, overlap) = (split.config.size, split.config.overlap);
    Finding::Typical {
        size,
        overlap,
        percent: (overlap * 100 + size / 2) / size.max(1),
        chunks: lengths.count,
        median: lengths.median,
        shortest: lengths.min,
        longest: lengths.max,
    }
}

// ---- Seed 002's headline question and what costs you it --------------------

/// Fixed against recursive: windows that end inside a word, cuts at separators.
pub fn headline(splits: &[&Split]) -> Finding {
    let (fixed, rec) = (splits[0], splits[splits.len() - 1]);
    let t = &*fixed.text;
    let cut_words = mid_word_cuts(fixed)
        .map(|k| {
            let at = fixed.output.chunks[k].span.end;
            let left = word_before(t, at);
            let right = &word_around(t, at, at)[left.len()..];
            (left.to_string(), right.to_string())
        })
        .collect();
    Finding::Headline {
        windows: fixed.output.chunks.len(),
        mid_word: fixed.stats().mid_word,
        cut_words,
        recursive: Chunks::of(rec),
    }
}

/// "What does recursive mean in each library?": each library's chunk count on
/// the same text and size, and which of them agree.
pub fn libraries(splits: &[&Split]) -> Finding {
    let outputs: Vec<&chunkscope::Output> = splits.iter().map(|s| &s.output).collect();
    let agreement = chunkscope::stats::Agreement::of(&splits[0].text, &outputs);
    let strategy = |i: usize| splits[i].config.kind();
    let alike = (agreement.same_as.iter().enumerate())
        .flat_map(|(i, others)| others.iter().filter(move |&&j| j > i).map(move |&j| (i, j)))
        .map(|(i, j)| (strategy(i), strategy(j)))
        .collect();
    Finding::Libraries {
        chunks: (splits.iter())
            .map(|s| (s.config.kind(), s.output.chunks.len()))
            .collect(),
        alike,
        common: agreement.common,
    }
}

/// "Equal-sized chunks": the lengths the recursive splitter really gives.
pub fn equal_sized(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::EqualSized {
        size: split.config.size,
        lengths: split.output.chunks.iter().map(|c| c.len).collect(),
        shortest: split.stats().min,
        longest: split.stats().max,
    }
}

/// "All separators at once": which pieces each separator was used on.
pub fn one_at_a_time(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let nodes = &split.output.trace.nodes;
    let mut used = Vec::new();
    let mut unused = Vec::new();
    for (i, sep) in split.separators.iter().enumerate() {
        let lens: Vec<usize> = (nodes.iter())
            .filter(|n| split_by(n) == Some(i))
            .map(|n| n.len)
            .collect();
        let by = if sep.is_hard_cut() {
            CutBy::Hard
        } else {
            CutBy::Separator(sep.label())
        };
        if lens.is_empty() {
            unused.push(by);
        } else {
            used.push((by, lens));
        }
    }
    Finding::AllAtOnce {
        used,
        unused,
        hard_cut: (nodes.iter()).any(|n| matches!(n.action, Step::HardCut { .. })),
        pieces: nodes.len(),
        split: nodes.iter().filter(|n| split_by(n).is_some()).count(),
    }
}

/// "Forgetting the fallback": the hard cuts that keep a blob within the size.
pub fn fallback(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::Fallback {
        chunks: Chunks::of(split),
        longest: split.stats().max,
        size: split.config.size,
    }
}

/// "Skipping the merge": chunks with the merge, pieces without it (seed 002's
/// eleven lines, run by the bug gallery's variant).
pub fn merge(splits: &[&Split]) -> Finding {
    use chunkscope_teach::bugs::{self, Bug};
    let split = splits[0];
    let text = &*split.text;
    let without = bugs::run(
        Bug::NoMerge,
        text,
        &split.config,
        &chunkscope_wasm::loaded::held(),
    );
    Finding::Merge {
        merged: split.output.chunks.len(),
        unmerged: without.chunks.len(),
        shortest: Lengths::of(without.chunks.iter().map(|c| chars(&c.rope.text(text)))).min,
    }
}

/// "It understands meaning": a chunk that holds two topics.
pub fn meaning(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let mixed = chunks_where(split, |t| {
        let t = t.to_ascii_lowercase();
        t.contains("refund") && t.contains("ship")
    });
    Finding::Meaning {
        mixed: mixed.into_iter().next(),
    }
}

// ---- Failure modes ---------------------------------------------------------

/// A chat export: no blank line, the newline does the work.
pub fn slack(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::Slack {
        absent: Absent::of(split),
        chunks: Chunks::of(split),
    }
}

/// Seed 002's "is the hierarchy doing any work?": the cuts by what made
/// them, and how many fell inside a word.
pub fn doing_work(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::DoingWork {
        chunks: Chunks::of(split),
        total: split.stats().cuts,
        mid_word: split.stats().mid_word,
    }
}

/// PDF text without newlines: sentences, spaces, then hard cuts.
pub fn pdf(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let full_stop = (split.stats().fired.iter().enumerate())
        .filter(|&(i, _)| at_full_stop(split, Cut::Separator(i)))
        .map(|(_, n)| n)
        .sum();
    Finding::Pdf {
        absent: Absent::of(split),
        chunks: Chunks::of(split),
        full_stop,
        hard_cut: texts(split)
            .filter(|&(k, _)| split.output.chunks[k].cut == Cut::Hard)
            .map(|(_, t)| t.to_string())
            .collect(),
    }
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
pub fn csv(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::Csv {
        absent: Absent::of(split),
        chunks: Chunks::of(split),
        after_first: split.output.chunks.len().saturating_sub(1),
        at_row: chunks_at_rows(split),
    }
}

/// Machine JSON on one line: hard cuts inside keys and values.
pub fn json(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::Json {
        absent: Absent::of(split),
        chunks: Chunks::of(split),
        mid_word_starts: mid_word_cuts(split)
            .filter_map(|k| split.output.chunks.get(k + 1))
            .map(|c| c.text(&split.text).to_string())
            .collect(),
    }
}

/// CRLF line ends: `\n\n` never matches `\r\n\r\n`.
pub fn crlf(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::Crlf {
        crlf: split.text.matches("\r\n\r\n").count(),
        lf: split.text.matches("\n\n").count(),
        absent: Absent::of(split),
        with_break: chunks_where(split, |t| t.contains("\r\n\r\n"))
            .into_iter()
            .map(|(_, t)| t)
            .collect(),
    }
}

/// NFC against NFD: the same words, other lengths, other cuts.
pub fn nfd(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::Nfd {
        lines: split.text.lines().map(chars).collect(),
        torn: torn(split),
    }
}

/// `. ` cuts after abbreviations.
pub fn abbreviations(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let t = &*split.text;
    let chunks = &split.output.chunks;
    Finding::Abbreviations {
        after: (chunks.iter())
            .filter(|c| at_full_stop(split, c.cut))
            .map(|c| word_before(t, c.span.end).to_string())
            .collect(),
        shortest: (chunks.iter())
            .map(|c| c.text(t))
            .min_by_key(|s| chars(s))
            .unwrap_or("")
            .to_string(),
    }
}

/// The sentence segmenter's judgments on the same text.
pub fn sentences(splits: &[&Split]) -> Finding {
    let split = splits[0];
    let Some(found) = &split.output.sentences else {
        return Finding::NoSentences;
    };
    let mut kept: Vec<(String, Reason)> = (found.decisions.iter())
        .filter(|d| !d.end)
        .map(|d| {
            let word = word_around(&split.text, d.stop.start, d.stop.end);
            (word.to_string(), d.reason)
        })
        .collect();
    // A word with several full stops is doubted once per stop; it is listed
    // once.
    kept.dedup();
    Finding::Sentences {
        sentences: found.spans.len(),
        kept,
    }
}

/// A CJK full stop before a closing quote.
pub fn cjk_quote(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::CjkQuote {
        chunks: Chunks::of(split),
        opened: chunks_where(split, |t| t.starts_with(['”', '」', '』'])),
    }
}

/// Thai: no spaces, zero-width spaces the list does not know.
pub fn thai(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::Thai {
        chunks: Chunks::of(split),
        torn: torn(split),
        zero_width: split.text.matches('\u{200B}').count(),
    }
}

/// Thai with the zero-width space in the list: cuts between words.
pub fn zwsp(splits: &[&Split]) -> Finding {
    let split = splits[0];
    Finding::Zwsp {
        chunks: Chunks::of(split),
        torn: torn(split).len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teach::facts::written::{chunks, sep};
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

    /// Where the card's point is not on screen, the finding says so: the
    /// libraries all agreeing, an overlap that is not 10–15 % of the size, a
    /// recursive split that fell back to hard cuts.
    #[test]
    fn a_finding_holds_only_where_its_point_shows() {
        use Strategy::{LangChain, Semchunk, TextSplitter};
        let libraries = |alike: Vec<(Strategy, Strategy)>| Finding::Libraries {
            chunks: vec![(LangChain, 5), (TextSplitter, 5), (Semchunk, 5)],
            alike,
            common: 5,
        };
        assert!(!libraries(vec![
            (LangChain, TextSplitter),
            (LangChain, Semchunk),
            (TextSplitter, Semchunk)
        ])
        .holds());
        assert!(libraries(vec![(TextSplitter, Semchunk)]).holds());
        let typical = |overlap: usize, percent: usize| Finding::Typical {
            size: 1200,
            overlap,
            percent,
            chunks: 10,
            median: 1100,
            shortest: 700,
            longest: 1200,
        };
        assert!(typical(150, 13).holds());
        assert!(!typical(0, 0).holds());
        let headline = |cuts: Vec<(CutBy, usize)>| Finding::Headline {
            windows: 3,
            mid_word: 1,
            cut_words: vec![("g".into(), "et".into())],
            recursive: chunks(5, cuts),
        };
        let space = sep(" ", 3);
        assert!(headline(vec![space.clone()]).holds());
        assert!(!headline(vec![space, (CutBy::Hard, 1)]).holds());
        assert!(!Finding::NotInTokens { unit: Unit::Chars }.holds());
    }
}
