//! What the views say about a split, in words and glyphs. Everything here reads
//! the engine's output and trace; nothing re-derives where a cut should be.
//! Pure functions, so they are tested natively.

use crate::state::Split;
use chunkscope::langchain::NotSlice;
use chunkscope::stats::{Cuts, Lengths, Places};
use chunkscope::{
    Action, Chunk, Close, Cut, Level, Node, Output, Placement, Separator, Span, Strategy, Unit,
};
use std::ops::Range;

/// How many colours the separator palette has; separator `k` uses colour `k % N`.
pub const PALETTE: usize = 12;

/// The CSS class that colours a separator by its index in the list. The hard cut
/// has a style of its own (it is the fallback, not a boundary of the text).
pub fn separator_class(separators: &[Separator], index: usize) -> String {
    match separators.get(index) {
        Some(sep) if sep.is_hard_cut() => "cut-hard".into(),
        _ => format!("sep-{}", index % PALETTE),
    }
}

/// A short glyph for a separator: ¶ blank line, ↵ newline, · sentence end,
/// ␣ space, ✂ hard cut, § between sentences (the sentence level), or the
/// separator's own short label.
pub fn glyph(sep: &Separator) -> String {
    if sep.level.is_some() {
        return "§".into();
    }
    if sep.regex {
        return shorten(&sep.label(), 5);
    }
    match sep.pattern.as_str() {
        "" => "✂".into(),
        "\n\n" | "\r\n\r\n" => "¶".into(),
        "\n" | "\r\n" => "↵".into(),
        ". " => "·".into(),
        " " => "␣".into(),
        "\t" => "⇥".into(),
        p => match p.strip_prefix('\n') {
            Some(rest) if !rest.trim().is_empty() => format!("↵{}", shorten(rest.trim(), 4)),
            _ => shorten(&sep.label(), 4),
        },
    }
}

fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max - 1).collect();
        out.push('…');
        out
    }
}

/// A separator's label as drawn on screen: the escaped label with every space
/// shown as ␣, so a space separator (or the space in `. `) is never an empty box.
/// Data attributes keep the plain label of the test contract.
pub fn visible_label(sep: &Separator) -> String {
    sep.label().replace(' ', "␣")
}

/// The value of a chunk's `data-cut`: the escaped label of the separator that
/// ended it, or `hard`, `window`, `end`.
pub fn cut_attr(cut: Cut, separators: &[Separator]) -> String {
    match cut {
        Cut::Separator(i) => separators.get(i).map(Separator::label).unwrap_or_default(),
        Cut::Hard => "hard".into(),
        Cut::Window => "window".into(),
        Cut::Breakpoint => "breakpoint".into(),
        Cut::End => "end".into(),
        Cut::Structure(level) => level.name(),
    }
}

/// A cut as drawn on screen: [`cut_attr`] with spaces shown as ␣.
pub fn cut_label(cut: Cut, separators: &[Separator]) -> String {
    match cut {
        Cut::Separator(i) => separators.get(i).map(visible_label).unwrap_or_default(),
        _ => cut_attr(cut, separators),
    }
}

/// The glyph and CSS class of the marker drawn at a cut, or `None` at the end.
pub fn cut_marker(cut: Cut, separators: &[Separator]) -> Option<(String, String)> {
    match cut {
        Cut::Separator(i) => separators
            .get(i)
            .map(|sep| (glyph(sep), separator_class(separators, i))),
        Cut::Hard => Some(("✂".into(), "cut-hard".into())),
        Cut::Window => Some(("│".into(), "cut-window".into())),
        Cut::Structure(level) => Some(structure_marker(level)),
        Cut::Breakpoint => Some(("◆".into(), "cut-breakpoint".into())),
        Cut::End => None,
    }
}

/// A cut in words, for tooltips and the chunk details.
pub fn cut_words(cut: Cut, separators: &[Separator]) -> String {
    match cut {
        Cut::Separator(i) => match separators.get(i) {
            Some(sep) => format!("{} (separator {})", named(sep), i + 1),
            None => format!("separator {}", i + 1),
        },
        Cut::Hard => "a hard cut: no separator was left, so the text was cut at the size".into(),
        Cut::Window => "the window was full (fixed windows ignore the text)".into(),
        Cut::Breakpoint => {
            "a semantic breakpoint: the next sentences were far from these (distance above the threshold)".into()
        }
        Cut::End => "the end of the text".into(),
        Cut::Structure(Level::Heading(n)) => {
            format!("a heading of level {n} starts the next section (sections are never packed together)")
        }
        Cut::Structure(Level::Block) => {
            "a block ended (paragraph, list item, table, code, …)".into()
        }
        Cut::Structure(Level::TableRow) => {
            "a table row ended (the table alone was over the size)".into()
        }
        Cut::Structure(Level::FenceLine) => {
            "a line of a code block ended (the block alone was over the size)".into()
        }
    }
}

/// The glyph and CSS class of a structure cut: one colour per level.
pub fn structure_marker(level: Level) -> (String, String) {
    match level {
        Level::Heading(n) => ("§".into(), format!("cut-heading cut-heading-{n}")),
        Level::Block => ("¶".into(), "cut-block".into()),
        Level::TableRow => ("▤".into(), "cut-row".into()),
        Level::FenceLine => ("↵".into(), "cut-line".into()),
    }
}

/// A separator by name and label, e.g. `blank line "\n\n"`; a separator
/// without a name of its own is just its label.
pub fn named(sep: &Separator) -> String {
    match own_name(sep) {
        Some(name) => format!("{name} {}", quoted(sep)),
        None => sep.describe(),
    }
}

/// A separator's name ("blank line", "space", …), or `None` when it has no name
/// of its own and would only repeat its label.
pub fn own_name(sep: &Separator) -> Option<String> {
    let name = sep.describe();
    (!name.starts_with('"') && !sep.regex).then_some(name)
}

/// A separator's label in quotes, unless it already has its own delimiters.
pub fn quoted(sep: &Separator) -> String {
    if sep.regex || sep.is_hard_cut() || sep.level.is_some() {
        sep.label()
    } else {
        format!("\"{}\"", sep.label())
    }
}

/// A one-line preview of some text: newlines shown as ↵, long text cut with …
pub fn preview(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == max {
            out.push('…');
            break;
        }
        match c {
            '\n' => out.push('↵'),
            '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// One piece of the document view, in source order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Segment {
    /// Text in no chunk: trimmed whitespace or a dropped separator (drawn faded).
    Gap(Span),
    /// The chunk at this index (its whole span, overlap included).
    Chunk(usize),
    /// The marker after the chunk at this index, for the cut that ended it.
    Cut(usize),
}

/// The document view's pieces for the chunks in `range` (a long document is
/// drawn a window at a time): each chunk with the gap before it and the cut
/// after it, and the gap at the end of the text when the range reaches it.
/// Every chunk is drawn whole, so the text a chunk repeats from the one before
/// it appears twice, the second time hatched: what is drawn is exactly what
/// gets embedded.
pub fn segments_in(output: &Output, text_len: usize, range: Range<usize>) -> Vec<Segment> {
    let chunks = &output.chunks;
    let range = range.start.min(chunks.len())..range.end.min(chunks.len());
    let mut out = Vec::with_capacity(range.len() * 3 + 1);
    let mut at = range
        .start
        .checked_sub(1)
        .map_or(0, |before| chunks[before].span.end);
    // Positions, not the chunks' own `index` fields: a faulty engine variant
    // may number its chunks wrongly, and the view must still draw them.
    for (i, chunk) in chunks.iter().enumerate().take(range.end).skip(range.start) {
        if chunk.span.start > at {
            out.push(Segment::Gap(Span::new(at, chunk.span.start)));
        }
        out.push(Segment::Chunk(i));
        if chunk.cut != Cut::End {
            out.push(Segment::Cut(i));
        }
        at = at.max(chunk.span.end);
    }
    if range.end == chunks.len() && text_len > at {
        out.push(Segment::Gap(Span::new(at, text_len)));
    }
    out
}

/// What the engine did with a tree node, in three parts: words before the
/// separator, the separator's quoted label (drawn unbroken), and words after.
/// Whether the node was too big is said once, by the length column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// "split by blank line", "fits → chunk 0", …
    pub lead: String,
    /// The separator's quoted label, e.g. `"\n\n"`, when one did the cutting.
    pub separator: Option<String>,
    /// " into 3 parts, packed into 2 pieces", …
    pub tail: String,
}

/// What the engine did with a tree node.
pub fn node_step(node: &Node, separators: &[Separator], unit: Unit) -> Step {
    let words = |lead: String| Step {
        lead,
        separator: None,
        tail: String::new(),
    };
    match node.action {
        // Only LangChain keeps a piece that is over the size: nothing was left
        // to split it with, so it passes through whole.
        Action::Fits if node.too_big => words(match node.chunk {
            Some(c) => format!("kept whole → chunk {c}, over the size"),
            None => "kept whole, over the size".into(),
        }),
        Action::Fits => words(match node.chunk {
            Some(c) => format!("fits → chunk {c}"),
            None => "fits".into(),
        }),
        Action::Empty => words("only whitespace → no chunk".into()),
        Action::Split { separator, parts } => {
            let sep = separators.get(separator);
            Step {
                lead: match sep.and_then(own_name) {
                    Some(name) => format!("split by {name} "),
                    None => "split by ".into(),
                },
                separator: sep.map(|s| quoted(s).replace(' ', "␣")),
                tail: format!(
                    " into {parts} {}, packed into {} {}",
                    plural(parts, "part", "parts"),
                    node.children.len(),
                    plural(node.children.len(), "piece", "pieces")
                ),
            }
        }
        Action::HardCut { separator, windows } => {
            let why = match separator {
                Some(_) => "the list says \"\" here",
                None => "no separator was left",
            };
            words(format!(
                "hard cut into {windows} {} ({why})",
                plural(windows, "window", "windows")
            ))
        }
        Action::Windows { stride } => words(format!(
            "fixed windows, each starting {stride} {unit} after the last"
        )),
        Action::ChonkieLevel { level, parts } => words(format!(
            "split at Chonkie's level {}, {}, into {parts} {}, packed into {} {}",
            level + 1,
            chunkscope::chonkie::LEVEL_NAMES[level],
            plural(parts, "part", "parts"),
            node.children.len(),
            plural(node.children.len(), "piece", "pieces")
        )),
        Action::Sentences { parts } => words(format!(
            "split at sentence ends into {parts} {}, packed whole up to the size",
            plural(parts, "sentence", "sentences")
        )),
        Action::Structure { level, parts } => words(format!(
            "split at each {} into {parts} {}, {} {}",
            match level {
                Level::Heading(n) => format!("heading of level {n} or deeper"),
                other => other.name(),
            },
            plural(parts, "part", "parts"),
            if matches!(level, Level::Heading(_)) {
                "each split alone into"
            } else {
                "packed into"
            },
            format_args!(
                "{} {}",
                node.children.len(),
                plural(node.children.len(), "piece", "pieces")
            )
        )),
    }
}

/// How a part of a packing sum is measured: as cut, before trimming, so where
/// its length is not the trimmed piece's, what it carries is said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carried {
    /// Its length is the piece's as trimmed (or the trimmed length is not
    /// known).
    Nothing,
    /// The separator it keeps (placement `end` or `start`).
    Separator,
    /// Whitespace that trimming takes off, no separator kept.
    Untrimmed,
}

/// The packing sum that closed a node's group, as the packer computed it:
/// every number from the trace ([`Close::NextWouldExceed`]); the view model
/// of [`Packing::words`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packing {
    /// The group as packed, and what it carries.
    pub group: (usize, Carried),
    /// The count between the group and the next part (a dropped or joining
    /// separator), 0 when there is none.
    pub gap: usize,
    /// The part that did not fit, and what it carries.
    pub next: (usize, Carried),
    /// What the group and the next part came to.
    pub would_be: usize,
    /// The label of the separator between the parts (the parent's), if one
    /// split them.
    pub separator: Option<String>,
    /// The room the group had: the size, less a Markdown heading prefix's
    /// count (the second number) when there is one.
    pub room: (usize, Option<usize>),
    /// Whether `would_be` is the sum of the three (chars and bytes; tokens
    /// are counted on the joined text, where a token may span the join).
    pub adds_up: bool,
}

/// The packing sum that closed a node's group; `None` unless the next part
/// did not fit.
pub fn packing(split: &Split, id: usize) -> Option<Packing> {
    let nodes = &split.output.trace.nodes;
    let node = nodes.get(id)?;
    let Some(Close::NextWouldExceed {
        group_len,
        gap_len,
        next_len,
        would_be,
    }) = node.close
    else {
        return None;
    };
    let config = &split.config;
    let separator = node
        .parent
        .and_then(|p| match nodes[p].action {
            Action::Split { separator, .. } => split.separators.get(separator),
            _ => None,
        })
        .map(visible_label);
    // The sibling after this node is the part that did not fit (as trimmed).
    let next_trimmed = node.parent.and_then(|p| {
        let siblings = &nodes[p].children;
        let at = siblings.iter().position(|&c| c == id)?;
        let next = &nodes[*siblings.get(at + 1)?];
        // Only a sibling made of that one part has the part's trimmed length.
        matches!(next.parts, Some((a, b)) if b == a + 1).then_some(next.len)
    });
    // Under placement `end` a part keeps the separator that ends it, under
    // `start` the one that starts it: that is the difference a learner sees
    // between a part as packed and the piece as trimmed.
    let keeps = config.placement != Placement::None && split.output.langchain.is_none();
    let carried = |raw: usize, trimmed: Option<usize>| match trimmed {
        Some(t) if t == raw => Carried::Nothing,
        Some(_) if keeps && separator.is_some() => Carried::Separator,
        Some(_) => Carried::Untrimmed,
        None => Carried::Nothing,
    };
    let room =
        prefix_room(split, id).map_or((config.size, None), |(room, prefix)| (room, Some(prefix)));
    Some(Packing {
        group: (group_len, carried(group_len, Some(node.len))),
        gap: gap_len,
        next: (next_len, carried(next_len, next_trimmed)),
        would_be,
        separator,
        room,
        adds_up: config.unit.is_additive() && group_len + gap_len + next_len == would_be,
    })
}

impl Packing {
    /// The sum in words: `21 with “.␣” + 31 = 52 > 40`, or for tokens
    /// `… and … make 52 cl100k tokens counted together > 40`.
    pub fn words(&self, unit: Unit, size: usize) -> String {
        let sep = self.separator.as_ref().map(|s| format!("“{s}”"));
        let part = |(len, carried): (usize, Carried)| match (carried, &sep) {
            (Carried::Separator, Some(sep)) => format!("{len} with {sep}"),
            (Carried::Untrimmed, _) => format!("{len} untrimmed"),
            _ => len.to_string(),
        };
        let limit = match self.room {
            (room, Some(prefix)) => format!("{room} (the size {size} less the prefix's {prefix})"),
            (room, None) => room.to_string(),
        };
        let gap = match (&sep, self.gap) {
            (_, 0) => String::new(),
            (Some(sep), g) => format!(" + {g} for {sep}"),
            (None, g) => format!(" + {g}"),
        };
        let (group, next, would_be) = (part(self.group), part(self.next), self.would_be);
        if self.adds_up {
            format!("{group}{gap} + {next} = {would_be} > {limit}")
        } else {
            format!("{group}{gap} and {next} make {would_be} {unit} counted together > {limit}")
        }
    }
}

/// The packing sum that closed a node's group, in words ([`Packing::words`]).
pub fn packing_sum(split: &Split, id: usize) -> Option<String> {
    packing(split, id).map(|p| p.words(split.config.unit, split.config.size))
}

/// The room a node's group had under the Markdown heading prefix, and the
/// prefix's count: read from the prefix of the first chunk made from the
/// node (every chunk of a section has its section's prefix). `None` without
/// a prefix, or when the page does not hold the unit's tokenizer.
fn prefix_room(split: &Split, id: usize) -> Option<(usize, usize)> {
    let md = split.output.markdown.as_ref()?;
    let nodes = &split.output.trace.nodes;
    let mut at = id;
    let chunk = loop {
        let node = nodes.get(at)?;
        if let Some(c) = node.chunk {
            break c;
        }
        at = *node.children.first()?;
    };
    let prefix = md.chunks.get(chunk)?.prefix.as_deref()?;
    let n = chunkscope_wasm::loaded::counter(split.config.unit)
        .ok()?
        .len(prefix);
    Some((split.config.size.checked_sub(n)?, n))
}

/// Why the packer closed a node's group, in words; `None` unless the next part
/// did not fit, and for a piece that is over the size anyway (a part too big
/// on its own stands alone whatever comes next: saying packing stopped it
/// would be noise).
pub fn close_words(split: &Split, id: usize) -> Option<String> {
    let node = split.output.trace.nodes.get(id)?;
    if node.too_big {
        return None;
    }
    packing_sum(split, id).map(|sum| format!("packed while it fit: {sum}"))
}

/// The separator that split a node, as `data-separator` wants it: the escaped
/// label, `""` for a hard cut the list asked for, and empty otherwise.
pub fn node_separator(node: &Node, separators: &[Separator]) -> String {
    let index = match node.action {
        Action::Split { separator, .. } => Some(separator),
        Action::HardCut { separator, .. } => separator,
        _ => None,
    };
    index
        .and_then(|i| separators.get(i))
        .map(Separator::label)
        .unwrap_or_default()
}

/// A length with its unit: "1 char", "20 chars", "1 byte".
pub fn amount(n: usize, unit: Unit) -> String {
    match (n, unit) {
        (1, Unit::Chars) => "1 char".into(),
        (1, Unit::Bytes) => "1 byte".into(),
        _ => format!("{n} {unit}"),
    }
}

/// A count with its noun: "1 piece", "3 pieces".
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", plural(n, one, many))
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The details of one chunk: where it is and why it starts and ends there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Story {
    /// "chars 14–34".
    pub span: String,
    /// "20 chars of 40".
    pub length: String,
    /// The cut before it.
    pub before: String,
    /// The cut after it.
    pub after: String,
    /// How the engine came to make it.
    pub why: String,
    /// The text it repeats from the chunk before, if any.
    pub overlap: Option<String>,
}

/// The story of chunk `index` of `split`.
pub fn story(split: &Split, index: usize) -> Option<Story> {
    let output = &split.output;
    let chunk = output.chunks.get(index)?;
    let config = &split.config;
    let seps = &split.separators;
    let unit = config.unit;
    let (start, end) = split.chunk_chars[index];
    let before = match index.checked_sub(1).and_then(|i| output.chunks.get(i)) {
        Some(prev) => cut_words(prev.cut, seps),
        None => "the start of the text".into(),
    };
    // The page counts the overlap with the tokenizer it installed for the
    // worker; should it not have one, the story says less rather than a 0.
    let overlap = chunk
        .overlap
        .map(|o| match chunkscope_wasm::loaded::counter(unit) {
            Ok(counter) => format!(
                "its first {} {unit} repeat the end of chunk {} (hatched)",
                counter.len(o.text(&split.text)),
                index - 1
            ),
            Err(_) => format!("its start repeats the end of chunk {} (hatched)", index - 1),
        });
    Some(Story {
        span: format!("chars {start}–{end}"),
        length: format!("{} {unit} of {}", chunk.len, config.size),
        before,
        after: cut_words(chunk.cut, seps),
        why: why(split, chunk),
        overlap,
    })
}

fn why(split: &Split, chunk: &Chunk) -> String {
    let nodes = &split.output.trace.nodes;
    let config = &split.config;
    let unit = config.unit;
    let Some(node) = chunk.node.and_then(|id| nodes.get(id)) else {
        return String::new();
    };
    match node.action {
        Action::Windows { stride } => format!(
            "a fixed window: windows start every {stride} {unit} (size {} − overlap {})",
            config.size, config.overlap
        ),
        Action::HardCut { windows, .. } => format!(
            "a piece of {} {unit} that no separator could split was cut into {windows} windows of at most {}",
            node.len, config.size
        ),
        Action::Sentences { parts } => format!(
            "whole sentences, packed while their counts sum to at most {}: Chonkie's SentenceChunker cut the text into {parts} sentences (at \". \", \"! \", \"? \" and line breaks, ones under 12 bytes joined to the next); with an overlap, the next chunk starts back at the last sentences that fit in it, each counted one more",
            config.size
        ),
        _ => {
            let origin = node.parent.and_then(|p| nodes.get(p)).map(|parent| {
                let (first, last) = node.parts.unwrap_or((0, 0));
                let by = match parent.action {
                    Action::Split { separator, parts } => split
                        .separators
                        .get(separator)
                        .map(|s| {
                            format!(
                                " of the {parts} made by cutting a piece of {} {unit} at {}",
                                parent.len,
                                quoted(s)
                            )
                        })
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                let which = if last == first + 1 {
                    format!("part {}", first + 1)
                } else {
                    format!("parts {}–{} (packed together)", first + 1, last)
                };
                format!("{which}{by}")
            });
            let close = chunk.node.and_then(|id| close_words(split, id));
            let story = match (origin, close) {
                (Some(o), Some(c)) => format!("{o}; {c}"),
                (Some(o), None) => o,
                _ => format!("the whole text fits in {} {unit}", config.size),
            };
            if node.too_big {
                format!("{story}; no separator was left to split it, so LangChain passed it through whole, over the size")
            } else {
                story
            }
        }
    }
}

/// What a library (LangChain, or Chonkie where its text is not a slice)
/// returned for one chunk beyond its span, with a sentence on each place
/// where its answer and the source disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryChunk {
    /// The library's name, as the sentences about its answer call it.
    pub library: &'static str,
    /// The library's chunk text when it is not the source between the
    /// chunk's offsets.
    pub text: Option<String>,
    /// Why it is not, when it is not.
    pub not_slice_why: Option<String>,
    /// `start_index` as the library computes it: a char offset, or -1 (from
    /// LangChain's `str.find`); `None` for a class that has no
    /// `add_start_index`.
    pub start_index: Option<i64>,
    /// The `Document`'s metadata (`MarkdownHeaderTextSplitter`: the
    /// enclosing headers), in LangChain's order.
    pub metadata: Option<Vec<(String, String)>>,
    /// Where the chunk really starts, in chars.
    pub start: usize,
    /// Why `start_index` is not `start`, when it is not.
    pub start_why: Option<String>,
}

impl LibraryChunk {
    /// The metadata as a reader scans it: `Header 1: Refunds › Header 2: UPI`
    /// (`{}` when the chunk comes before any header).
    pub fn metadata_line(&self) -> Option<String> {
        let metadata = self.metadata.as_ref()?;
        Some(if metadata.is_empty() {
            "{} (before any header)".to_string()
        } else {
            metadata
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join(" › ")
        })
    }

    /// Whether the library's `start_index` points somewhere else than the
    /// chunk.
    pub fn start_differs(&self) -> bool {
        self.start_why.is_some()
    }
}

/// The library's facts about chunk `index` of `split` (LangChain's and
/// LlamaIndex's Markdown parser's, or Chonkie's where its text is not a
/// slice); `None` where the span says everything.
pub fn library_chunk(split: &Split, index: usize) -> Option<LibraryChunk> {
    let fact = split.output.library.as_ref()?.get(index)?;
    let (start, _) = *split.chunk_chars.get(index)?;
    // Whose facts these are: only the LangChain, Chonkie and LlamaIndex
    // Markdown engines record a library's own text or start.
    let library = match split.config.kind() {
        Strategy::ChonkieRecursive | Strategy::ChonkieToken | Strategy::ChonkieSentence => {
            "Chonkie"
        }
        Strategy::LlamaIndexMarkdown => "LlamaIndex",
        _ => "LangChain",
    };
    // A start that is not found is -1 (LangChain's `find`, LlamaIndex's None).
    let found = fact.start_index.map(|i| usize::try_from(i).ok());
    let start_why = match found {
        None => None,
        Some(Some(at)) if at == start => None,
        Some(found) => Some(match library {
            "Chonkie" => "Chonkie adds up the lengths of the texts it returned before this one to give start_index, and a text decoded with U+FFFD is not as long as the source it came from, so its start_index is off by the difference.".into(),
            "LlamaIndex" => llamaindex_start_why(found, start),
            _ => langchain_start_why(found, start, fact.text().is_some()),
        }),
    };
    Some(LibraryChunk {
        library,
        not_slice_why: fact.not_slice().map(|why| not_slice_why(split, why)),
        text: fact.text().map(str::to_string),
        start_index: fact.start_index,
        metadata: fact.metadata().map(<[_]>::to_vec),
        start,
        start_why,
    })
}

/// Why LangChain's `start_index` (`found`, `None` for -1) is not where the
/// chunk starts: `add_start_index` looks the chunk's text up with `str.find`
/// from a guessed offset.
fn langchain_start_why(found: Option<usize>, start: usize, own_text: bool) -> String {
    match found {
        Some(found) if found < start => format!(
            "LangChain finds start_index by searching the source for the chunk's text with str.find from a guessed offset, and the same text also appears at {found}, earlier, where find stops."
        ),
        Some(found) => format!(
            "LangChain finds start_index by searching the source for the chunk's text with str.find from a guessed offset, which is past this chunk's start, so find lands on a later copy at {found}."
        ),
        None if own_text => "LangChain's text for this chunk is not in the source, so str.find, which LangChain uses to find start_index, returns -1.".into(),
        None => "str.find, which LangChain uses to find start_index, did not find the chunk's text after the offset it guessed, so it returns -1.".into(),
    }
}

/// Why LlamaIndex's `start_char_idx` (`found`, `None` for -1) is not where
/// the chunk starts: `get_nodes_from_documents` looks the node's text up in
/// the document with `str.find`, from one character past the last start it
/// found, and leaves `None` (reported as -1) where it finds nothing.
fn llamaindex_start_why(found: Option<usize>, start: usize) -> String {
    match found {
        Some(found) if found < start => format!(
            "LlamaIndex finds start_char_idx by searching the document for the node's text with str.find, from one character past the start it found for the node before, and the same text also appears at {found}, earlier, where find stops."
        ),
        Some(found) => format!(
            "LlamaIndex finds start_char_idx by searching the document for the node's text with str.find, from one character past the start it found for the node before, which is past this chunk's start, so find lands on a later copy at {found}."
        ),
        None => "LlamaIndex finds start_char_idx by searching the document for the node's text with str.find; it did not find it (a header line it rebuilt is not in the source), so it left start_char_idx and end_char_idx None, shown as -1.".into(),
    }
}

/// Why LangChain's text for a chunk is not a slice of the source, in words,
/// from the reason the engine recorded.
fn not_slice_why(split: &Split, why: NotSlice) -> String {
    let pattern = |i: usize| split.separators.get(i).map_or("", |s| s.pattern.as_str());
    match why {
        NotSlice::JoinedWithNothing { separator } => format!(
            "With keep_separator=False LangChain drops what /{}/ matched, and because the pattern starts with a lookaround it joins the pieces back with \"\" (nothing), so the matched text is missing here.",
            pattern(separator)
        ),
        NotSlice::PatternJoined { separator } => format!(
            "With keep_separator=False LangChain drops what /{0}/ matched and joins the pieces back with the pattern text itself, {0}, which is not what the source had there.",
            pattern(separator)
        ),
        NotSlice::TokensDecodedApart => "Chonkie decodes each run of tokens on its own, and this run starts or ends inside a character made of several tokens, so that character's bytes come back as U+FFFD (the replacement character) instead of the character.".into(),
        NotSlice::HeaderRebuilt => "MarkdownNodeParser rebuilds a header line as its #s, one space and the header's text, and the source has another whitespace character (a tab, a no-break space) after the #s, so the text is not the source between the offsets.".into(),
        NotSlice::LinesRejoined => "MarkdownHeaderTextSplitter strips every line, drops blank lines and characters that are not printable (tabs among them), and joins the paragraphs of a section with \"  \\n\" (two spaces and a line break), so the text is not the source between the offsets.".into(),
        _ => "LangChain drops empty pieces (two separators in a row leave one between them) and joins the rest with a single separator, so part of the source between them is missing here.".into(),
    }
}

/// What a LangChain split says beyond its spans, counted over every chunk:
/// where `start_index` points elsewhere, and how many chunks are not slices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LangChainSummary {
    /// `(chunk, its start in chars, LangChain's start_index)` for every chunk
    /// whose start_index is not its start.
    pub mismatches: Vec<(usize, usize, i64)>,
    /// How many chunks' LangChain text is not the source between the offsets.
    pub not_slices: usize,
    /// LangChain's warnings, in order.
    pub warnings: Vec<String>,
}

/// The summary of a LangChain split; `None` for the other engines.
pub fn langchain_summary(split: &Split) -> Option<LangChainSummary> {
    let langchain = split.output.langchain.as_ref()?;
    let facts = split.output.library.as_deref().unwrap_or_default();
    let mismatches = facts
        .iter()
        .zip(&split.chunk_chars)
        .enumerate()
        .filter_map(|(i, (fact, &(start, _)))| Some((i, start, fact.start_index?)))
        .filter(|&(_, start, found)| i64::try_from(start).ok() != Some(found))
        .collect();
    Some(LangChainSummary {
        mismatches,
        not_slices: split.output.not_slices(),
        warnings: langchain.warnings.clone(),
    })
}

/// `x` with one decimal ("21.6"), from integers: formatting a float with `{:.1}`
/// would pull the float printing machinery into the wasm bundle.
pub fn tenths(x: f64) -> String {
    let t = (x * 10.0).round();
    let sign = if t < 0.0 { "-" } else { "" };
    let t = t.abs() as u64;
    format!("{sign}{}.{}", t / 10, t % 10)
}

/// Summary numbers of one split.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// How many chunks.
    pub count: usize,
    /// Shortest chunk length.
    pub min: usize,
    /// Median chunk length (the lower middle for an even count).
    pub median: usize,
    /// Mean chunk length.
    pub mean: f64,
    /// Longest chunk length.
    pub max: usize,
    /// Chunk counts per length bin, bins of `bin_width` from 1 up to the
    /// size; chunks over the size are in `over` instead.
    pub histogram: Vec<usize>,
    /// The width of a histogram bin.
    pub bin_width: usize,
    /// How many cuts each separator made, by index in the list.
    pub fired: Vec<usize>,
    /// Hard cuts.
    pub hard: usize,
    /// Fixed-window cuts.
    pub windows: usize,
    /// Cuts with a letter or digit on both sides (a word cut in two).
    pub mid_word: usize,
    /// Cuts inside a sentence (a line end ends one), as
    /// [`chunkscope::stats::Place`] places them.
    pub mid_sentence: usize,
    /// Chunks that hold only markup or a separator (see [`only_markup`]).
    pub only_markup: usize,
    /// All cuts between chunks.
    pub cuts: usize,
    /// Chunks longer than the size (only LangChain makes them).
    pub over: usize,
    /// Text lost and repeated, and chunks that are not slices, in chars.
    pub tiling: chunkscope::stats::Tiling,
}

impl Stats {
    /// Every hard cut: the engine's own, and those of a list's `""` (a
    /// library's last level, such as Chonkie's, is a separator of its list).
    pub fn hard_cuts(&self, separators: &[Separator]) -> usize {
        self.hard
            + (separators.iter().zip(&self.fired))
                .filter(|(sep, _)| sep.is_hard_cut())
                .map(|(_, n)| n)
                .sum::<usize>()
    }
}

/// Whether a chunk's text is only markup or a separator: it has no letter or
/// digit (`##`, a fence, a table rule), or it is, trimmed, one of the list's
/// literal separators (`def`, `class`). Such a chunk carries no content to
/// retrieve; it is what a separator kept on the wrong side leaves behind.
pub fn only_markup(chunk: &str, separators: &[Separator]) -> bool {
    let t = chunk.trim();
    !t.is_empty()
        && (!t.chars().any(char::is_alphanumeric)
            || separators
                .iter()
                .any(|s| !s.regex && !s.is_hard_cut() && s.pattern.trim() == t))
}

/// The statistics of `split`: lengths and cuts as [`chunkscope::stats`]
/// defines them, with what only the page draws (the histogram, the markup
/// chunks).
pub fn stats(split: &Split) -> Stats {
    let chunks = &split.output.chunks;
    let config = &split.config;
    let text = &*split.text;
    let lengths = Lengths::of(chunks.iter().map(|c| c.len));
    let cut = Cuts::of(text, chunks, split.separators.len());
    // At most 12 bins of equal width, and none past the size.
    let bin_width = config.size.div_ceil(config.size.clamp(1, 12)).max(1);
    let bins = config.size.div_ceil(bin_width).max(1);
    let mut histogram = vec![0; bins];
    // Chunks over the size (only LangChain makes them) are counted in `over`,
    // not in the last bin, which would pass them off as fitting.
    for len in chunks
        .iter()
        .map(|c| c.len)
        .filter(|&len| len <= config.size)
    {
        let bin = (len.saturating_sub(1) / bin_width).min(bins - 1);
        histogram[bin] += 1;
    }
    let only_markup = chunks
        .iter()
        .filter(|c| only_markup(c.text(text), &split.separators))
        .count();
    Stats {
        count: lengths.count,
        min: lengths.min,
        median: lengths.median,
        mean: lengths.mean(),
        max: lengths.max,
        histogram,
        bin_width,
        hard: cut.hard,
        windows: cut.windows,
        mid_word: cut.mid_word,
        mid_sentence: Places::new(text).mid_sentence(chunks),
        only_markup,
        cuts: cut.total(),
        over: chunks.iter().filter(|c| c.len > config.size).count(),
        fired: cut.by_separator,
        tiling: chunkscope::stats::Tiling::of(text, &split.output),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::testing::start;
    use crate::state::State;
    use chunkscope::{Placement, Separator};

    #[test]
    fn with_the_heading_prefix_a_group_closes_at_the_room_the_prefix_leaves() {
        use crate::state::testing::act;
        use crate::state::{Action, View};
        let state = act(&start(), Action::LoadDocument("markdown".into()));
        let state = act(&state, Action::SetView(View::Markdown));
        let state = act(&state, Action::SetSize("240".into()));
        let state = act(&state, Action::SetHeadingPrefix(true));
        let split = state.primary().expect("a markdown split");
        // "Returns and refunds > Who can return an item\n\n" is 46 chars.
        let why = story(split, 1).unwrap().why;
        assert!(
            why.ends_with("= 296 > 194 (the size 240 less the prefix's 46)"),
            "{why}"
        );
    }

    #[test]
    fn glyphs_and_labels() {
        let seps = chunkscope::presets::separators("seed").unwrap();
        let glyphs: Vec<String> = seps.iter().map(glyph).collect();
        assert_eq!(glyphs, ["¶", "↵", "·", "␣", "✂"]);
        assert_eq!(glyph(&Separator::literal("\ndef ")), "↵def");
        assert_eq!(glyph(&Separator::literal("。")), "。");
        assert_eq!(cut_attr(Cut::Separator(0), &seps), "\\n\\n");
        assert_eq!(cut_attr(Cut::Separator(2), &seps), ". ");
        assert_eq!(cut_attr(Cut::End, &seps), "end");
        assert_eq!(separator_class(&seps, 4), "cut-hard");
        assert_eq!(separator_class(&seps, 1), "sep-1");
        assert_eq!(visible_label(&seps[3]), "␣");
        assert_eq!(cut_label(Cut::Separator(2), &seps), ".␣");
        assert_eq!(cut_label(Cut::Hard, &seps), "hard");
    }

    #[test]
    fn refund_page_segments_and_stories() {
        let state = start();
        let split = state.primary().unwrap();
        let segs = segments_in(&split.output, split.text.len(), 0..5);
        // 5 chunks, 4 cut markers, 4 gaps of whitespace.
        assert_eq!(segs.len(), 13);
        assert_eq!(segs[0], Segment::Chunk(0));
        assert_eq!(segs[1], Segment::Cut(0));
        // A window in the middle starts with the gap before its first chunk.
        let middle = segments_in(&split.output, split.text.len(), 2..3);
        assert_eq!(
            middle,
            [
                Segment::Gap(Span::new(35, 36)),
                Segment::Chunk(2),
                Segment::Cut(2)
            ]
        );
        let s = story(split, 1).unwrap();
        assert_eq!(s.span, "chars 15–35");
        assert_eq!(s.length, "20 chars of 40");
        assert!(s.before.contains("blank line"), "{}", s.before);
        assert!(s.after.contains("sentence end"), "{}", s.after);
        assert!(
            s.why.contains("cutting a piece of 52 chars at \". \""),
            "{}",
            s.why
        );
    }

    #[test]
    fn refund_tree_reads_like_the_lesson() {
        let state = start();
        let split = state.primary().unwrap();
        let seps = &split.separators;
        let nodes = &split.output.trace.nodes;
        assert_eq!(node_separator(&nodes[0], seps), "\\n\\n");
        let middle = &nodes[nodes[0].children[1]];
        assert_eq!(middle.len, 81);
        assert_eq!(node_separator(middle, seps), "\\n");
        let step = node_step(middle, seps, Unit::Chars);
        assert_eq!(step.lead, "split by newline ");
        assert_eq!(step.separator.as_deref(), Some("\"\\n\""));
        assert_eq!(step.tail, " into 2 parts, packed into 2 pieces");
        let by_sentence = node_step(&nodes[middle.children[0]], seps, Unit::Chars);
        assert_eq!(by_sentence.separator.as_deref(), Some("\".␣\""));
        let leaf = &nodes[nodes[0].children[0]];
        assert_eq!(node_separator(leaf, seps), "");
        assert_eq!(node_step(leaf, seps, Unit::Chars).lead, "fits → chunk 0");
    }

    #[test]
    fn stats_of_the_refund_page() {
        let state = start();
        let s = stats(state.primary().unwrap());
        assert_eq!((s.count, s.min, s.median, s.max), (5, 13, 20, 31));
        assert_eq!(s.fired, [2, 1, 1, 0, 0]);
        assert_eq!((s.hard, s.mid_word, s.cuts), (0, 0, 4));
        assert_eq!(s.histogram.iter().sum::<usize>(), 5);
        // Bins of 4 up to the size of 40: none starts past it.
        assert_eq!((s.bin_width, s.histogram.len()), (4, 10));
    }

    fn langchain_state(
        text: &str,
        size: &str,
        overlap: &str,
        actions: Vec<crate::state::Action>,
    ) -> State {
        use crate::state::testing::{act, start};
        use crate::state::{Action as Do, View};
        let first = [
            Do::SetText(text.into()),
            Do::SetView(View::LangChain),
            Do::SetSize(size.into()),
            Do::SetOverlap(overlap.into()),
        ];
        first
            .into_iter()
            .chain(actions)
            .fold(start(), |s, a| act(&s, a))
    }

    #[test]
    fn a_repeated_sentence_moves_langchains_start_index() {
        let state = langchain_state(
            "Sale today.\n\nSale today.\n\nSale ends soon, so hurry.",
            "12",
            "11",
            vec![],
        );
        let split = state.primary().unwrap();
        let second = library_chunk(split, 1).unwrap();
        assert_eq!((second.start, second.start_index), (13, Some(0)));
        assert!(second.start_why.as_deref().unwrap().contains("earlier"));
        assert!(second.text.is_none(), "the chunk is a slice");
        let first = library_chunk(split, 0).unwrap();
        assert!(!first.start_differs());
        let summary = langchain_summary(split).unwrap();
        assert_eq!(summary.mismatches, [(1, 13, 0)]);
        assert_eq!(summary.not_slices, 0);
        // Our engines have no LangChain facts.
        assert!(library_chunk(start().primary().unwrap(), 0).is_none());
    }

    /// LlamaIndex's node texts, `start_char_idx` and `header_path`, as
    /// `MarkdownNodeParser` gives them for this text (recorded from
    /// llama-index-core 0.14.25): the header after a tab rebuilt and not
    /// found, the last header's text found early, inside the section before.
    #[test]
    fn llamaindex_markdown_offsets_are_explained_in_its_words() {
        use crate::state::testing::{act, start};
        use crate::state::{Action as Do, View};
        let text = "# Refunds\nsee # UPI\n##\tCards\nx\n# UPI";
        let state = [
            Do::SetText(text.into()),
            Do::SetView(View::One(Strategy::LlamaIndexMarkdown)),
        ]
        .into_iter()
        .fold(start(), |s, a| act(&s, a));
        assert_eq!(state.error, None);
        let split = state.primary().unwrap();
        let chunks: Vec<LibraryChunk> = (0..3).map(|i| library_chunk(split, i).unwrap()).collect();
        assert_eq!(chunks[0].library, "LlamaIndex");
        assert!(!chunks[0].start_differs());
        let path = |c: &LibraryChunk| c.metadata.as_ref().unwrap()[0].1.clone();
        assert_eq!(path(&chunks[1]), "/Refunds/");
        assert_eq!(chunks[1].text.as_deref(), Some("## Cards\nx"));
        assert!(chunks[1]
            .not_slice_why
            .as_deref()
            .unwrap()
            .contains("one space"));
        assert_eq!(chunks[1].start_index, Some(-1));
        assert!(chunks[1]
            .start_why
            .as_deref()
            .unwrap()
            .contains("left start_char_idx"));
        assert_eq!((chunks[2].start, chunks[2].start_index), (31, Some(14)));
        assert!(chunks[2].start_why.as_deref().unwrap().contains("earlier"));
    }

    #[test]
    fn a_regex_put_back_as_its_pattern_is_explained() {
        use crate::state::Action as Do;
        let mut actions: Vec<Do> = (0..5).map(|_| Do::RemoveSeparator(0)).collect();
        actions.push(Do::AddSeparator(Separator::regex(r"\s+")));
        actions.push(Do::SetPlacement(Placement::None));
        let state = langchain_state("one  two   three four", "12", "0", actions);
        assert_eq!(state.error, None);
        let split = state.primary().unwrap();
        let first = library_chunk(split, 0).unwrap();
        assert_eq!(first.text.as_deref(), Some(r"one\s+two"));
        let why = first.not_slice_why.unwrap();
        assert!(why.contains(r"pattern text itself, \s+"), "{why}");
        assert_eq!(first.start_index, Some(-1));
        assert!(first.start_why.unwrap().contains("not in the source"));
        assert_eq!(langchain_summary(split).unwrap().not_slices, 2);
    }

    #[test]
    fn an_oversized_piece_is_counted_and_told() {
        use crate::state::testing::{act, start};
        use crate::state::{Action as Do, View};
        let state = act(&start(), Do::SetView(View::LangChainCharacter));
        let split = state.primary().unwrap();
        let s = stats(split);
        assert_eq!(s.over, 1, "the 81-char middle paragraph passes through");
        assert_eq!(
            s.histogram.iter().sum::<usize>(),
            2,
            "and is not drawn as fitting"
        );
        let summary = langchain_summary(split).unwrap();
        assert_eq!(
            summary.warnings,
            ["Created a chunk of size 81, which is longer than the specified 40"]
        );
        let node = split.output.chunks[1].node.unwrap();
        let step = node_step(
            &split.output.trace.nodes[node],
            &split.separators,
            Unit::Chars,
        );
        assert_eq!(step.lead, "kept whole → chunk 1, over the size");
        assert!(story(split, 1)
            .unwrap()
            .why
            .contains("passed it through whole"));
    }

    #[test]
    fn packing_sums_add_up_as_shown() {
        let state = start();
        let split = state.primary().unwrap();
        let nodes = &split.output.trace.nodes;
        let sums: Vec<(usize, Packing)> = (0..nodes.len())
            .filter_map(|id| packing(split, id).map(|p| (id, p)))
            .collect();
        // "Refund policy\n\n" is 15 and the next paragraph, with its blank
        // line, 83; the 81-char paragraph and its 52-char line closed too,
        // but only the pieces that fit are said to be closed by packing.
        let sum = |group, next, would_be, separator: &str| Packing {
            group,
            gap: 0,
            next,
            would_be,
            separator: Some(separator.to_string()),
            room: (40, None),
            adds_up: true,
        };
        let (kept, plain) = (Carried::Separator, Carried::Nothing);
        assert_eq!(
            sums,
            [
                (1, sum((15, kept), (83, kept), 98, "\\n\\n")),
                (2, sum((83, kept), (16, plain), 99, "\\n\\n")),
                (3, sum((53, kept), (28, plain), 81, "\\n")),
                (4, sum((21, kept), (31, plain), 52, ".␣")),
            ]
        );
        let told: Vec<usize> = (0..nodes.len())
            .filter(|&id| close_words(split, id).is_some())
            .collect();
        assert_eq!(told, [1, 4]);
        // The words say the same numbers.
        assert_eq!(
            close_words(split, 4).unwrap(),
            "packed while it fit: 21 with “.␣” + 31 = 52 > 40"
        );
    }

    #[test]
    fn a_dropped_separator_is_counted_between_the_parts() {
        use crate::state::testing::act;
        use crate::state::Action as Do;
        let state = act(&start(), Do::SetPlacement(Placement::None));
        let split = state.primary().unwrap();
        let sums: Vec<Packing> = (0..split.output.trace.nodes.len())
            .filter_map(|id| packing(split, id))
            .collect();
        // Placement `none` drops ". ": 19 + 2 + 31, the parts carrying nothing.
        let dropped = Packing {
            group: (19, Carried::Nothing),
            gap: 2,
            next: (31, Carried::Nothing),
            would_be: 52,
            separator: Some(".␣".into()),
            room: (40, None),
            adds_up: true,
        };
        assert!(sums.contains(&dropped), "{sums:?}");
        assert_eq!(
            dropped.words(Unit::Chars, 40),
            "19 + 2 for “.␣” + 31 = 52 > 40"
        );
    }

    #[test]
    fn markup_only_chunks() {
        let md = chunkscope::presets::separators("markdown").unwrap();
        assert!(only_markup("###", &md));
        assert!(only_markup("  ```\n", &md));
        assert!(!only_markup("## Install", &md));
        let py = chunkscope::presets::separators("python").unwrap();
        assert!(only_markup("def", &py), "a bare separator");
        assert!(!only_markup("def f():", &py));
    }

    #[test]
    fn tenths_rounds_to_one_decimal() {
        assert_eq!(tenths(21.6), "21.6");
        assert_eq!(tenths(2.0 / 3.0), "0.7");
        assert_eq!(tenths(0.0), "0.0");
        assert_eq!(tenths(-1.25), "-1.3");
        assert_eq!(tenths(300.0), "300.0");
    }

    #[test]
    fn preview_escapes_newlines() {
        assert_eq!(preview("a\nb", 10), "a↵b");
        assert_eq!(preview("abcdef", 3), "abc…");
    }

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(1, "piece", "pieces"), "1 piece");
        assert_eq!(count(0, "piece", "pieces"), "0 pieces");
        assert_eq!(amount(1, Unit::Chars), "1 char");
        assert_eq!(amount(2, Unit::Chars), "2 chars");
        assert_eq!(amount(1, Unit::Bytes), "1 byte");
    }
}
