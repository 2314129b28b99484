//! The bug gallery: classic chunking mistakes as real, runnable engine variants.
//!
//! Each [`Bug`] is a small splitter written the wrong way — the way the lessons
//! warn about, or, for [`Bug::Seed001`], exactly as a published "production"
//! chunker is written. Running one next to the correct engine and checking both
//! with the same properties shows a learner *which* guarantee the mistake breaks.
//!
//! A buggy splitter does not always return slices of the source: it may drop a
//! separator between two joined pieces, or add one that was never there. So a
//! buggy chunk is a [`Rope`]: the pieces of source it is made of ([`Piece::Source`])
//! and any text the variant made up ([`Piece::Added`]). The checks then stay
//! honest: coverage counts only source pieces, the size check measures the text
//! the chunk really holds, and a chunk that is not one slice of the source fails
//! the order check with a detail that says what is wrong with it.
//!
//! The variants model Python code, so they cut and step in characters; lengths
//! are measured in the configured unit. Separators are matched as literal text.

use crate::documents::{bodies_only, documents, held_by, Document};
use chunkscope::export::sha256_hex;
use chunkscope::tokens::Encoding;
use chunkscope::{
    check, is_space, Action, CharIndex, Check, Checks, Chunk, Config, Counter, Cut, Output,
    Property, Resources, Separator, Span, Strategy, Unit,
};

/// One classic mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bug {
    /// `for i in range(0, len(text), size - overlap)`: the loop goes on after a
    /// window has reached the end, so the last chunk is made only of overlap.
    TailWindow,
    /// The number of windows is computed as `(len(text) - size) // stride + 1`,
    /// which rounds down where the lesson's formula rounds up: when the stride
    /// does not divide the rest, the last window stops short of the end and
    /// the last units are in no chunk.
    MissingTail,
    /// Pieces are split on a separator and joined back without it.
    DroppedSeparator,
    /// The separator list has no hard cut and nothing replaces it.
    NoHardCut,
    /// A piece that is still too big is split again with the *same* list.
    NoProgress,
    /// The "production" recursive chunker of seed 001, as written.
    Seed001,
    /// Seed 002's eleven-line recursion, which has no merge pass.
    NoMerge,
    /// Seed 001's overlap rule `… if overlap < len(current) else s`: after a
    /// chunk no longer than the overlap, the next chunk gets no overlap at all.
    OverlapSkipped,
    /// Seed 001's `current[-overlap:]`: the overlap is the last characters,
    /// wherever they start, so a chunk opens in the middle of a word.
    MidWordOverlap,
    /// Seed 001's constructor takes any overlap: one at least as big as the
    /// size is silently accepted, and no chunk gets any overlap.
    UncheckedOverlap,
    /// Seed 001 returns stripped strings, not positions: a caller that needs
    /// offsets must search the text for each chunk, and finds repeated text
    /// at its first occurrence.
    LostOffsets,
    /// The pipeline re-indexes a document only when its size changes: an
    /// edit that keeps the size keeps the old chunks, their text and their
    /// hashes, at positions whose text is now different.
    StaleIndex,
    /// The text is cut into strings first (four characters a token), and
    /// each string's token span is guessed afterwards by counting its tokens
    /// alone and adding the counts up.
    SplitBeforeTokens,
    /// The documents of a corpus are joined into one string and split once,
    /// so a chunk can run from one document into the next.
    JoinedDocuments,
}

/// What the gallery judges a run by: the engine's own properties, and one
/// hint of its own about quality (whether pieces that fit together were merged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Finding {
    /// One of the engine's properties (determinism is judged too, by running
    /// the variant twice).
    Property(Property),
    /// Neighbouring pieces of one split that fit together were merged.
    Packing,
    /// Every chunk is one slice of the text: nothing dropped from between
    /// its pieces, nothing made up.
    Slices,
    /// Each chunk got the overlap asked for where a whole word fits
    /// ([`overlap_delivered`]).
    OverlapDelivered,
    /// Every step of the loop moved on: each chunk ends after the one before
    /// (by the positions the run gives), and no piece was split into itself
    /// again and again. The lessons' "every loop iteration advances".
    Advances,
    /// Each chunk's content hash (SHA-256 of the text it holds, what an index
    /// stores beside its vector) is the hash of the text at its position now.
    /// The lessons' "the content hash matches the actual body".
    Hash,
    /// Each token span a run reports is the document's own tokens for that
    /// chunk: it starts and ends where document tokens do, and its count is
    /// theirs. Judged where a run works in tokens.
    TokenSpans,
    /// No chunk holds text of two documents. The lessons' "no source,
    /// revision or ACL boundary is crossed".
    Boundaries,
}

impl Finding {
    /// A short name for a learner.
    pub const fn title(self) -> &'static str {
        match self {
            Finding::Property(Property::Coverage) => "no text lost",
            Finding::Property(Property::MaxSize) => "size cap held",
            Finding::Property(Property::Order) => "in order",
            Finding::Property(Property::Overlap) => "overlap as set",
            Finding::Property(_) => "repeatable",
            Finding::Packing => "merged where it fits",
            Finding::Slices => "slices of the text",
            Finding::OverlapDelivered => "overlap delivered",
            Finding::Advances => "every step advances",
            Finding::Hash => "hash matches the body",
            Finding::TokenSpans => "token spans line up",
            Finding::Boundaries => "no boundary crossed",
        }
    }
}

/// A text and configuration chosen to expose a bug.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Demo {
    /// The text.
    pub text: &'static str,
    /// The configuration (the correct engine runs with it too).
    pub config: Config,
}

impl Bug {
    /// Every bug, in gallery order.
    pub const ALL: [Bug; 14] = [
        Bug::TailWindow,
        Bug::MissingTail,
        Bug::DroppedSeparator,
        Bug::NoHardCut,
        Bug::NoProgress,
        Bug::Seed001,
        Bug::NoMerge,
        Bug::OverlapSkipped,
        Bug::MidWordOverlap,
        Bug::UncheckedOverlap,
        Bug::LostOffsets,
        Bug::StaleIndex,
        Bug::SplitBeforeTokens,
        Bug::JoinedDocuments,
    ];

    /// The stable name (the option value of the gallery's menu).
    pub const fn name(self) -> &'static str {
        match self {
            Bug::TailWindow => "tail",
            Bug::MissingTail => "last-units-missing",
            Bug::DroppedSeparator => "dropped-separator",
            Bug::NoHardCut => "no-hard-cut",
            Bug::NoProgress => "no-progress",
            Bug::Seed001 => "seed-001",
            Bug::NoMerge => "no-merge",
            Bug::OverlapSkipped => "overlap-skipped",
            Bug::MidWordOverlap => "mid-word-overlap",
            Bug::UncheckedOverlap => "unchecked-overlap",
            Bug::LostOffsets => "lost-offsets",
            Bug::StaleIndex => "stale-index",
            Bug::SplitBeforeTokens => "split-before-tokens",
            Bug::JoinedDocuments => "joined-documents",
        }
    }

    /// The bug with this name.
    pub fn parse(name: &str) -> Option<Bug> {
        Bug::ALL.into_iter().find(|b| b.name() == name)
    }

    /// A short title.
    pub const fn title(self) -> &'static str {
        match self {
            Bug::TailWindow => "range() loop: a tail made only of overlap",
            Bug::MissingTail => "Window count rounded down: the last units are missing",
            Bug::DroppedSeparator => "Separator thrown away: the full stop disappears",
            Bug::NoHardCut => "No hard-cut fallback: a long URL comes out oversized",
            Bug::NoProgress => "Recursing with the same list: no progress",
            Bug::Seed001 => "The lesson's \"production\" chunker, as written",
            Bug::NoMerge => "The lesson's split without a merge pass",
            Bug::OverlapSkipped => "Seed 001: no overlap after a short chunk",
            Bug::MidWordOverlap => "Seed 001: the overlap starts mid-word",
            Bug::UncheckedOverlap => "Seed 001: an overlap as big as the size is accepted",
            Bug::LostOffsets => "Seed 001: positions lost after strip()",
            Bug::StaleIndex => "Edits found by file size: the index keeps stale text",
            Bug::SplitBeforeTokens => "Split into strings, token spans guessed afterwards",
            Bug::JoinedDocuments => {
                "Documents joined, then split: a chunk crosses a permission boundary"
            }
        }
    }

    /// What the buggy code does, and why it goes wrong.
    pub const fn mistake(self) -> &'static str {
        match self {
            Bug::TailWindow => {
                "The windows start at every multiple of the stride up to the length of the text. \
                 Once a window already reaches the last character the loop does not know it is \
                 done, so it starts one more window inside the previous one: a chunk that holds \
                 nothing new, only text the previous chunk already had."
            }
            Bug::MissingTail => {
                "The code first computes how many windows there will be, (len - size) // stride \
                 + 1, and then makes exactly that many. Floor division rounds down: unless the \
                 stride divides what is left after the first window, the last window ends before \
                 the text does, and the last few characters are in no chunk. Nothing fails; the \
                 end of every such document is silently never retrieved."
            }
            Bug::DroppedSeparator => {
                "The text is split on \". \" and the pieces are packed back together with \
                 nothing between them. The separator was text of the document: the full stops \
                 vanish and two sentences are glued into one word, so the chunk is no longer a \
                 piece of the source."
            }
            Bug::NoHardCut => {
                "When every separator has been tried and a piece is still too big, the code gives \
                 the piece back as it is. A base64 image or a long URL has no spaces, so it \
                 leaves the splitter longer than the size, and the embedding model will silently \
                 cut it."
            }
            Bug::NoProgress => {
                "A piece that is still too big is passed back to the same function with the same \
                 separator list. The piece came from splitting on the first separator, so it does \
                 not contain it: splitting again gives the same piece, for ever. Here the \
                 recursion is stopped by a budget; real code would loop or overflow the stack."
            }
            Bug::Seed001 => {
                "A class that looks finished: it splits on paragraphs, lines, sentences and \
                 spaces, packs greedily and adds overlap. Read it closely and it appends the \
                 separator even after the last piece, drops the separator of every piece it \
                 recurses into, has no reachable hard cut, adds overlap without re-checking the \
                 size, and with an overlap of 0 its slice current[-0:] repeats the whole previous \
                 chunk. It also checks that a chunk is non-empty before strip(), so a chunk of only \
                 whitespace comes out as an empty string."
            }
            Bug::OverlapSkipped => {
                "The overlap is taken only when the overlap is smaller than the chunk just \
                 closed. After a short chunk (a heading, a one-word answer) the rule switches the \
                 overlap off, so the next chunk starts with no context, while its neighbours get \
                 their full overlap."
            }
            Bug::MidWordOverlap => {
                "current_chunk[-overlap:] takes the last characters of the previous chunk \
                 wherever they start. The next chunk then opens with the tail of a word (\"ays.\"), \
                 which helps neither a reader nor an embedding."
            }
            Bug::UncheckedOverlap => {
                "The constructor stores any overlap. With an overlap as big as the size, the rule \
                 `overlap < len(current)` is false for every chunk that fits, so the overlap the \
                 caller asked for silently never happens (and a negative one would cut text off \
                 the front of chunks). Nothing says the setting makes no sense."
            }
            Bug::LostOffsets => {
                "split_text returns stripped strings. Where a chunk was in the text is gone, so \
                 a caller that needs it (to highlight a source, to cite a page) searches the text \
                 for the chunk, and text that occurs twice is found at its first place: here the \
                 last chunk is reported at the start of the document."
            }
            Bug::NoMerge => {
                "The recursion is right — every piece ends up small enough — but nothing packs \
                 the small pieces back together. Six single letters become six chunks, each too \
                 short to mean anything once it is embedded."
            }
            Bug::StaleIndex => {
                "The pipeline decides whether a document changed by its size (or its \
                 modification time) and splits it again only then. An edit that keeps the size, \
                 \"ten\" becoming \"six\", leaves the old chunks in the index: their text, their \
                 vectors and their hashes are of the old revision, while their positions now \
                 point at different text. A search still finds \"ten working days\" and cites a \
                 page that no longer says it."
            }
            Bug::SplitBeforeTokens => {
                "The budget is in tokens, but the code cuts strings first, at four characters a \
                 token, and only then counts each string's tokens on its own, adding the counts \
                 up to say where each chunk is in the document's tokens. A cut inside a word \
                 (\"g|et\") makes tokens the document does not have: the counts add up to more \
                 than the document's, every later token span points further off, and a string \
                 of four characters a token can hold more tokens than the size."
            }
            Bug::JoinedDocuments => {
                "The loader gives one document per file, each with its source and permission \
                 label; the code joins their texts (\"\\n\\n\".join) and splits the one string, to \
                 get fewer, fuller chunks. A chunk then runs from the end of one document into \
                 the next. It can carry only one set of labels: a reader allowed the public \
                 file is shown internal text, or a citation names the wrong file."
            }
        }
    }

    /// How to fix it.
    pub const fn fix(self) -> &'static str {
        match self {
            Bug::TailWindow => {
                "Stop as soon as a window reaches the end (start + size >= len), before stepping \
                 on. Every step then adds at least one new character."
            }
            Bug::MissingTail => {
                "Round up, as the lesson's formula does: N = 1 + ceil((len - size) / stride). \
                 Simpler still, loop until a window reaches the end instead of counting windows \
                 first, and test a length the stride does not divide."
            }
            Bug::DroppedSeparator => {
                "Keep the separator with one of the two pieces (p + sep, or sep + p), so the \
                 pieces put end to end are the text again. Better still, keep offsets and slice \
                 the source instead of joining strings."
            }
            Bug::NoHardCut => {
                "End the list with the empty separator, or fall back to windows of `size` \
                 characters when the list runs out. Then the size cap is a guarantee, not a hope."
            }
            Bug::NoProgress => {
                "Recurse with separators[i + 1:]: each level has strictly fewer separators, so the \
                 depth is bounded by the length of the list and the recursion must end."
            }
            Bug::Seed001 => {
                "Add the separator only where the text had one (better: slice the source by \
                 offsets), keep it when recursing, fall back to a hard cut, measure a chunk after \
                 its overlap is added and shrink the overlap to fit, and take the overlap only \
                 when it is greater than 0."
            }
            Bug::NoMerge => {
                "After splitting, walk the pieces in order and join neighbours (with the \
                 separator between them) while the result still fits the size. Here: aa, bbb, \
                 ccc, ccc."
            }
            Bug::OverlapSkipped => {
                "Take the overlap from every chunk, as much of it as there is (all of a short \
                 chunk), and count it in the size."
            }
            Bug::MidWordOverlap => {
                "Start the overlap at a word (or sentence) boundary inside the last `overlap` \
                 characters, and take less rather than half a word."
            }
            Bug::UncheckedOverlap => {
                "Check the settings in the constructor: size > 0 and 0 <= overlap < size, and \
                 raise with a message that says which to change."
            }
            Bug::LostOffsets => {
                "Keep each chunk's start and end offsets from the start (slice the source by \
                 positions and strip by moving the positions), instead of searching for the \
                 text afterwards."
            }
            Bug::StaleIndex => {
                "Decide by content, not by size: store each chunk's SHA-256 beside its vector; \
                 when a document comes in again, split it and compare hashes, embed the chunks \
                 whose hash is new and delete those whose hash is gone. On reading, check that \
                 the text at a chunk's position still has the stored hash."
            }
            Bug::SplitBeforeTokens => {
                "Tokenize the document once and cut at token positions (the fixed strategy in \
                 cl100k does), so a chunk is document tokens [a, b) and its count is b - a. \
                 Where the cut must be in characters, take each chunk's token span from the \
                 document's token offsets, never from counting the string alone."
            }
            Bug::JoinedDocuments => {
                "Split each document on its own and give every chunk its document's source and \
                 permission label. A short last chunk per document is the price; merging across \
                 documents never is."
            }
        }
    }

    /// The properties this bug breaks on its demo.
    pub const fn breaks(self) -> &'static [Finding] {
        match self {
            Bug::TailWindow => &[Finding::Property(Property::Order), Finding::Advances],
            Bug::MissingTail => &[Finding::Property(Property::Coverage)],
            Bug::DroppedSeparator => &[
                Finding::Property(Property::Coverage),
                Finding::Property(Property::Order),
                Finding::Slices,
                Finding::Hash,
            ],
            Bug::NoHardCut => &[Finding::Property(Property::MaxSize)],
            Bug::NoProgress => &[Finding::Property(Property::MaxSize), Finding::Advances],
            Bug::Seed001 => &[
                Finding::Property(Property::Coverage),
                Finding::Property(Property::MaxSize),
                Finding::Property(Property::Order),
                Finding::Property(Property::Overlap),
                Finding::Slices,
                Finding::Hash,
            ],
            Bug::NoMerge => &[Finding::Packing],
            // The chunks are slices within the size: only the overlap each
            // one got shows the bug. The correct engine refuses the third's
            // setting; the variant runs quietly and delivers none.
            Bug::OverlapSkipped | Bug::MidWordOverlap | Bug::UncheckedOverlap => {
                &[Finding::OverlapDelivered]
            }
            // The positions found by searching go back to the first place
            // the text occurs.
            Bug::LostOffsets => &[
                Finding::Property(Property::Coverage),
                Finding::Property(Property::Order),
                Finding::Advances,
            ],
            // The index holds the old revision's text where the new one has
            // other text: its hashes are of text the document no longer has.
            Bug::StaleIndex => &[
                Finding::Property(Property::Coverage),
                Finding::Property(Property::Order),
                Finding::Slices,
                Finding::Hash,
            ],
            Bug::SplitBeforeTokens => &[Finding::Property(Property::MaxSize), Finding::TokenSpans],
            // A joined chunk is not a slice of the corpus either: the header
            // between two documents is left out and the join put in.
            Bug::JoinedDocuments => &[
                Finding::Property(Property::Order),
                Finding::Slices,
                Finding::Hash,
                Finding::Boundaries,
            ],
        }
    }

    /// A text and configuration that expose the bug.
    pub fn demo(self) -> Demo {
        let recursive = |size: usize, seps: &[&str]| {
            Config::recursive(size).with_separators(seps.iter().copied())
        };
        let (text, config) = match self {
            Bug::TailWindow => ("abcdefghij", Config::fixed(4, 1)),
            // 37 characters, size 10, stride 8: (37 - 10) // 8 + 1 = 4 windows,
            // the last ending at 34, where five are needed.
            Bug::MissingTail => (
                "Refunds take 5 days. Cash is instant.",
                Config::fixed(10, 2),
            ),
            Bug::DroppedSeparator => (
                "It rains. Take a coat. The bus is late. Walk.",
                recursive(30, &[". ", " ", ""]),
            ),
            Bug::NoHardCut => (
                "Logo at https://cdn.example.com/assets/2024/brand/logo-final-final-v7.svg today.",
                recursive(30, &["\n\n", "\n", ". ", " ", ""]),
            ),
            Bug::NoProgress | Bug::NoMerge => {
                ("aa\n\nbbb\ncccccc", recursive(3, &["\n\n", "\n", ""]))
            }
            Bug::Seed001 => (
                "Card refunds can take up to ten working days. Cash refunds are instant.\n\n\
                 Status: https://pay.example.com/refunds/status?order=4411",
                recursive(40, &["\n\n", "\n", ". ", " "]),
            ),
            Bug::OverlapSkipped => (
                "Hi all.\n\nRefunds take five days.\n\nCash is instant.",
                recursive(30, &["\n\n", ". ", " "]).with_overlap(9),
            ),
            Bug::MidWordOverlap => (
                "Refunds take five days. Cash refunds are instant.",
                recursive(24, &[" "]).with_overlap(5),
            ),
            Bug::UncheckedOverlap => (
                "one two three four five six",
                recursive(10, &[" "]).with_overlap(10),
            ),
            Bug::LostOffsets => (
                "Status: open.\n\nNotes: none.\n\nStatus: open.",
                recursive(14, &["\n\n", " "]).with_overlap(2),
            ),
            // "ten" became "six": the size is the same.
            Bug::StaleIndex => (STALE_EDITED, recursive(40, &["\n\n", ". ", " ", ""])),
            // 10 tokens, cut as 40 characters: the refund page's fixed cut
            // inside "get".
            Bug::SplitBeforeTokens => (
                "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                 COD orders get store credit.\n\nContact us 24x7.",
                Config::fixed(10, 0).with_unit(Unit::Tokens(Encoding::Cl100k)),
            ),
            Bug::JoinedDocuments => (
                "---\nsource: refunds.md\npermission: public\n---\n\
                 Card refunds take ten working days.\n\
                 ---\nsource: fraud-rules.md\npermission: internal\n---\n\
                 Refunds over 50,000 go to a second approver.\n\
                 ---\nsource: cash.md\npermission: public\n---\n\
                 Cash refunds are instant.\n",
                recursive(90, &["\n\n", "\n", ". ", " ", ""]),
            ),
        };
        Demo { text, config }
    }
}

/// The revision of [`Bug::StaleIndex`]'s demo that was indexed; the demo's
/// text is the revision after an edit that kept the size.
pub const STALE_INDEXED: &str =
    "Card refunds take ten working days.\n\nCash refunds are instant.\n\nDisputes: help@pay.example";
const STALE_EDITED: &str =
    "Card refunds take six working days.\n\nCash refunds are instant.\n\nDisputes: help@pay.example";

/// A piece of a buggy chunk's text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// This slice of the source.
    Source(Span),
    /// Text the variant made up: it is not in the source at this place.
    Added(String),
}

/// Text built from pieces of the source and made-up text, the way buggy code
/// builds strings, but remembering where each piece came from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rope {
    /// The pieces, in order. Neighbouring source pieces that touch are merged.
    pub pieces: Vec<Piece>,
}

impl Rope {
    fn source(span: Span) -> Rope {
        let mut rope = Rope::default();
        rope.push(Piece::Source(span));
        rope
    }

    fn added(text: &str) -> Rope {
        let mut rope = Rope::default();
        rope.push(Piece::Added(text.to_string()));
        rope
    }

    fn push(&mut self, piece: Piece) {
        match (self.pieces.last_mut(), piece) {
            (_, Piece::Source(s)) if s.is_empty() => {}
            (_, Piece::Added(t)) if t.is_empty() => {}
            (Some(Piece::Source(last)), Piece::Source(s)) if last.end == s.start => {
                last.end = s.end
            }
            (Some(Piece::Added(last)), Piece::Added(t)) => last.push_str(&t),
            (_, piece) => self.pieces.push(piece),
        }
    }

    /// This rope followed by `other` (Python's `a + b`).
    fn concat(mut self, other: &Rope) -> Rope {
        for piece in &other.pieces {
            self.push(piece.clone());
        }
        self
    }

    /// The text the rope holds.
    pub fn text(&self, source: &str) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Source(s) => out.push_str(s.text(source)),
                Piece::Added(t) => out.push_str(t),
            }
        }
        out
    }

    /// Its length, counted by `counter` piece by piece (the variants model
    /// Python that adds up `len` of the strings it joins).
    pub fn len(&self, source: &str, counter: Counter) -> usize {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Source(s) => counter.len(s.text(source)),
                Piece::Added(t) => counter.len(t),
            })
            .sum()
    }

    /// True when the rope holds no text.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The span it is, when it is exactly one slice of the source.
    pub fn slice(&self) -> Option<Span> {
        match self.pieces.as_slice() {
            [Piece::Source(s)] => Some(*s),
            _ => None,
        }
    }

    /// Its source pieces, in order (the text it holds that the source has).
    pub fn sources(&self) -> impl Iterator<Item = Span> + '_ {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Source(s) => Some(*s),
            Piece::Added(_) => None,
        })
    }

    /// The smallest span holding all its source pieces (a best-effort position).
    pub fn hull(&self) -> Option<Span> {
        let mut spans = self.sources();
        let first = spans.next()?;
        Some(spans.fold(first, |h, s| {
            Span::new(h.start.min(s.start), h.end.max(s.end))
        }))
    }

    /// The rope between byte offsets `from` and `to` of its text (`text[from:to]`).
    fn sub(&self, from: usize, to: usize) -> Rope {
        let mut out = Rope::default();
        let mut at = 0;
        for piece in &self.pieces {
            let len = match piece {
                Piece::Source(s) => s.len(),
                Piece::Added(t) => t.len(),
            };
            let (a, b) = (from.max(at), to.min(at + len));
            if a < b {
                out.push(match piece {
                    Piece::Source(s) => {
                        Piece::Source(Span::new(s.start + a - at, s.start + b - at))
                    }
                    Piece::Added(t) => Piece::Added(t[a - at..b - at].to_string()),
                });
            }
            at += len;
        }
        out
    }

    /// Python's `text.strip()`.
    fn strip(&self, source: &str) -> Rope {
        let text = self.text(source);
        let start = text.len() - text.trim_start_matches(is_space).len();
        let end = text.trim_end_matches(is_space).len().max(start);
        self.sub(start, end)
    }

    /// `text.split(sep)` for a non-empty `sep`, each part with the separator
    /// that followed it in the text (`None` after the last part).
    fn split(&self, source: &str, sep: &str) -> Vec<(Rope, Option<Rope>)> {
        let text = self.text(source);
        let mut out = Vec::new();
        let mut from = 0;
        for (at, _) in text.match_indices(sep) {
            let end = at + sep.len();
            out.push((self.sub(from, at), Some(self.sub(at, end))));
            from = end;
        }
        out.push((self.sub(from, text.len()), None));
        out
    }

    /// Python's `list(text)`: one rope per character.
    fn chars(&self, source: &str) -> Vec<Rope> {
        let text = self.text(source);
        text.char_indices()
            .map(|(i, c)| self.sub(i, i + c.len_utf8()))
            .collect()
    }

    /// Python's `text[-n:]` for `n > 0`: the last `n` characters.
    fn last_chars(&self, source: &str, n: usize) -> Rope {
        let text = self.text(source);
        let from = text
            .char_indices()
            .rev()
            .nth(n.saturating_sub(1))
            .map_or(0, |(i, _)| i);
        self.sub(from, text.len())
    }

    /// Python's `text[a:b]` in characters.
    fn char_range(&self, source: &str, a: usize, b: usize) -> Rope {
        let text = self.text(source);
        let byte = |n: usize| text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
        self.sub(byte(a), byte(b))
    }

    fn chars_len(&self, source: &str) -> usize {
        self.text(source).chars().count()
    }
}

/// One chunk of a buggy run.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BugChunk {
    /// What the chunk holds.
    pub rope: Rope,
    /// Which split made it, when the variant should have packed the pieces of
    /// one split: neighbours with the same parent are candidates for merging.
    pub parent: Option<usize>,
    /// The document tokens `[start, end)` the variant says the chunk is, when
    /// it says (only [`Bug::SplitBeforeTokens`] does).
    pub tokens: Option<(usize, usize)>,
}

/// What a buggy variant produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BugRun {
    /// The chunks, in the order the variant returned them.
    pub chunks: Vec<BugChunk>,
    /// Why the variant was stopped early, when it was (a loop cut off by a
    /// budget, a crash the Python code would have had).
    pub note: Option<String>,
    /// The piece a recursion split into itself until [`STALL_BUDGET`]
    /// stopped it: the loop that never advances.
    pub stalled: Option<Span>,
}

/// How many levels without progress a variant may recurse before it is stopped.
/// It also bounds the recursion depth of the variants that could loop.
pub const STALL_BUDGET: usize = 12;
/// The most characters a buggy run may output (a variant that repeats text can
/// grow quadratically); past it the run is stopped with a note.
pub const OUTPUT_BUDGET: usize = 200_000;

/// Runs `bug`'s variant on `source`. `config` gives size, overlap and separators
/// (its strategy is ignored: each variant is one strategy).
///
/// A token unit whose tokenizer `resources` do not hold cannot be counted;
/// the run is then empty and its note says why.
pub fn run(bug: Bug, source: &str, config: &Config, resources: &Resources) -> BugRun {
    let counter = match resources.counter(config.unit) {
        Ok(counter) => counter,
        Err(e) => {
            return BugRun {
                note: Some(format!("cannot run: {e}")),
                ..BugRun::default()
            }
        }
    };
    let mut v = Variant {
        source,
        resources,
        size: config.size,
        overlap: config.overlap,
        counter,
        out: BugRun::default(),
        produced: 0,
        parents: 0,
    };
    let seps: Vec<&str> = config
        .separators
        .iter()
        .map(|s| s.pattern.as_str())
        .collect();
    let whole = Rope::source(Span::new(0, source.len()));
    match bug {
        Bug::TailWindow => v.range_loop(&whole),
        Bug::MissingTail => v.counted_windows(&whole),
        Bug::DroppedSeparator | Bug::NoHardCut => {
            let keep = bug != Bug::DroppedSeparator;
            let hard_cut = bug != Bug::NoHardCut;
            for c in v.textbook(&whole, &seps, keep, hard_cut) {
                v.emit(c, None);
            }
        }
        Bug::NoProgress => v.eleven_lines(&whole, &seps, false, 0),
        Bug::NoMerge => v.eleven_lines(&whole, &seps, true, 0),
        Bug::Seed001 | Bug::OverlapSkipped | Bug::MidWordOverlap | Bug::UncheckedOverlap => {
            v.seed001(&whole, &seps)
        }
        Bug::LostOffsets => {
            v.seed001(&whole, &seps);
            v.found_by_search();
        }
        Bug::StaleIndex => v.stale_index(config),
        Bug::SplitBeforeTokens => v.split_before_tokens(&whole),
        Bug::JoinedDocuments => v.joined_documents(config),
    }
    v.out
}

/// Where two texts of the same length differ: the byte range `[p, e)` outside
/// which they are the same, on a char boundary of both.
fn changed(old: &str, new: &str) -> (usize, usize) {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    let mut p = o.iter().zip(n).take_while(|(a, b)| a == b).count();
    while !(old.is_char_boundary(p) && new.is_char_boundary(p)) {
        p -= 1;
    }
    let same_end = o
        .iter()
        .rev()
        .zip(n.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let mut e = old.len() - same_end.min(old.len() - p);
    while !(old.is_char_boundary(e) && new.is_char_boundary(e)) {
        e += 1;
    }
    (p, e)
}

/// A variant at work.
struct Variant<'a> {
    source: &'a str,
    /// For the variants that split with the correct engine first.
    resources: &'a Resources,
    size: usize,
    overlap: usize,
    counter: Counter,
    out: BugRun,
    produced: usize,
    parents: usize,
}

impl Variant<'_> {
    fn len(&self, rope: &Rope) -> usize {
        rope.len(self.source, self.counter)
    }

    fn stopped(&self) -> bool {
        self.out.note.is_some()
    }

    fn emit(&mut self, rope: Rope, parent: Option<usize>) {
        if self.stopped() {
            return;
        }
        self.produced += rope.chars_len(self.source);
        self.out.chunks.push(BugChunk {
            rope,
            parent,
            tokens: None,
        });
        if self.produced > OUTPUT_BUDGET {
            self.out.note = Some(format!(
                "stopped after {} chunks: they already hold {} characters, for a text of {}",
                self.out.chunks.len(),
                self.produced,
                self.source.chars().count()
            ));
        }
    }

    /// `[text[i:i+size] for i in range(0, len(text), size - overlap)]`.
    fn range_loop(&mut self, text: &Rope) {
        let len = text.chars_len(self.source);
        let step = self.size.saturating_sub(self.overlap).max(1);
        for i in (0..len).step_by(step) {
            if self.stopped() {
                return;
            }
            self.emit(
                text.char_range(self.source, i, i.saturating_add(self.size)),
                None,
            );
        }
    }

    /// `[text[k * stride:k * stride + size] for k in range((len(text) - size) // stride + 1)]`
    /// with `stride = size - overlap`: `//` is Python's floor division.
    fn counted_windows(&mut self, text: &Rope) {
        if self.overlap >= self.size {
            self.out.note = Some(
                "size - overlap is not positive: the count divides by zero (Python raises \
                 ZeroDivisionError) or by a negative stride"
                    .into(),
            );
            return;
        }
        let len = text.chars_len(self.source) as i64;
        let stride = (self.size - self.overlap) as i64;
        let count = (len - self.size as i64).div_euclid(stride) + 1;
        for k in 0..count.max(0) as usize {
            let start = k * stride as usize;
            self.emit(
                text.char_range(self.source, start, start.saturating_add(self.size)),
                None,
            );
        }
    }

    /// Seed 000's `recursive_split`, with two switches: `keep` (the separator
    /// stays at the end of each piece, `p + sep`) and `hard_cut` (the windows at
    /// the bottom; without them a piece no separator can split comes back whole).
    fn textbook(&mut self, text: &Rope, seps: &[&str], keep: bool, hard_cut: bool) -> Vec<Rope> {
        let src = self.source;
        let text = text.strip(src);
        if self.len(&text) <= self.size {
            return if text.is_empty() { vec![] } else { vec![text] };
        }
        let whole = text.text(src);
        for (i, sep) in seps.iter().enumerate() {
            if sep.is_empty() {
                break; // "" in the list: the hard cut below
            }
            if !whole.contains(sep) {
                continue;
            }
            let parts = text
                .split(src, sep)
                .into_iter()
                .map(|(p, after)| match after {
                    Some(sep) if keep => p.concat(&sep),
                    _ => p,
                });
            let mut chunks = Vec::new();
            let mut current = Rope::default();
            for part in parts {
                if !current.is_empty() && self.len(&current) + self.len(&part) > self.size {
                    chunks.push(std::mem::take(&mut current));
                }
                current = current.concat(&part);
            }
            chunks.push(current);
            let mut out = Vec::new();
            for c in chunks {
                let stripped = c.strip(src);
                if self.len(&stripped) <= self.size {
                    if !stripped.is_empty() {
                        out.push(stripped);
                    }
                } else {
                    out.extend(self.textbook(&c, &seps[i + 1..], keep, hard_cut));
                }
            }
            return out;
        }
        if !hard_cut {
            return vec![text];
        }
        let len = text.chars_len(src);
        (0..len)
            .step_by(self.size.max(1))
            .map(|j| text.char_range(src, j, j.saturating_add(self.size)))
            .collect()
    }

    /// Seed 002's eleven lines: split on the first separator (`""` = every
    /// character), keep parts that fit, recurse into the others — with the rest
    /// of the list (`advance`) or, wrongly, the same list. Nothing is merged.
    /// Levels where splitting changed nothing are counted, and the recursion is
    /// stopped after [`STALL_BUDGET`] of them, so it cannot loop or overflow.
    fn eleven_lines(&mut self, text: &Rope, seps: &[&str], advance: bool, stalls: usize) {
        if self.stopped() {
            return;
        }
        if self.len(text) <= self.size || seps.is_empty() {
            self.emit(text.clone(), None);
            return;
        }
        if stalls >= STALL_BUDGET {
            let (a, b) = CharIndex::new(self.source).char_span(text.hull().unwrap_or_default());
            self.emit(text.clone(), None);
            self.out.stalled = text.hull();
            self.out.note = Some(format!(
                "stopped after {stalls} levels without progress: the piece at chars {a}–{b} \
                 was split into itself again and again"
            ));
            return;
        }
        let (sep, rest) = (seps[0], &seps[1..]);
        let parts: Vec<Rope> = if sep.is_empty() {
            text.chars(self.source)
        } else {
            let parts = text.split(self.source, sep);
            parts.into_iter().map(|(p, _)| p).collect()
        };
        let stalled = parts.len() == 1;
        let parent = self.parents;
        self.parents += 1;
        let next = if advance { rest } else { seps };
        for p in parts {
            if self.len(&p) > self.size {
                let stalls = if stalled { stalls + 1 } else { 0 };
                self.eleven_lines(&p, next, advance, stalls);
            } else {
                self.emit(p, Some(parent));
            }
        }
    }

    /// Seed 001's `RecursiveTextChunker.split_text`, line for line.
    fn seed001(&mut self, text: &Rope, seps: &[&str]) {
        let src = self.source;
        let Some(splits) = self.seed001_split(text, seps) else {
            self.out.note = Some(
                "the list contains \"\": Python's str.split(\"\") raises ValueError, so this \
                 chunker crashes before returning anything"
                    .into(),
            );
            return;
        };
        let mut current = Rope::default();
        for s in splits {
            if self.stopped() {
                return;
            }
            if current.chars_len(src) + s.chars_len(src) <= self.size {
                current = current.concat(&s);
            } else {
                if !current.is_empty() {
                    self.emit(current.strip(src), None);
                }
                // `current_chunk[-overlap:] + s if overlap < len(current_chunk) else s`;
                // for overlap 0, `[-0:]` is the whole string.
                current = if self.overlap < current.chars_len(src) {
                    let tail = if self.overlap == 0 {
                        current.clone()
                    } else {
                        current.last_chars(src, self.overlap)
                    };
                    tail.concat(&s)
                } else {
                    s
                };
            }
        }
        if !current.is_empty() {
            self.emit(current.strip(src), None);
        }
    }

    /// What a caller of seed 001 gets back as positions: each chunk's text
    /// searched for in the source (`text.find(chunk)`), so a chunk whose text
    /// also occurs earlier is placed there. A chunk the source does not hold
    /// as written keeps its pieces.
    fn found_by_search(&mut self) {
        let src = self.source;
        for chunk in &mut self.out.chunks {
            let text = chunk.rope.text(src);
            if text.is_empty() {
                continue;
            }
            if let Some(at) = src.find(&text) {
                chunk.rope = Rope::source(Span::new(at, at + text.len()));
            }
        }
    }

    /// An index kept while the size stays the same: the indexed revision's
    /// chunks (by the correct engine), placed in the text as it is now. Where
    /// the two revisions differ, a chunk holds the old text, made up here.
    fn stale_index(&mut self, config: &Config) {
        let src = self.source;
        let kept = src.len() == STALE_INDEXED.len();
        let indexed = if kept { STALE_INDEXED } else { src };
        let chunks = match chunkscope::split(indexed, config, self.resources) {
            Ok(out) => out.chunks,
            Err(e) => {
                self.out.note = Some(format!("cannot split: {e}"));
                return;
            }
        };
        // Where the revisions differ (nowhere when the text was split again).
        let (p, e) = if kept {
            changed(STALE_INDEXED, src)
        } else {
            (src.len(), src.len())
        };
        for c in chunks {
            let (a, b) = (c.span.start, c.span.end);
            let mut rope = Rope::default();
            rope.push(Piece::Source(Span::new(a, b.min(p).max(a))));
            let (x, y) = (a.max(p), b.min(e));
            if x < y {
                rope.push(Piece::Added(STALE_INDEXED[x..y].to_string()));
            }
            rope.push(Piece::Source(Span::new(a.max(e).min(b), b)));
            self.emit(rope, None);
        }
        self.out.note = Some(if !kept {
            format!(
                "the text is {} bytes where the indexed revision was {}: the size changed, so \
                 this pipeline split it again",
                src.len(),
                STALE_INDEXED.len()
            )
        } else if p == e {
            "the text is the revision that was indexed: its chunks are current".into()
        } else {
            format!(
                "the text is still {} bytes, as when it was indexed, so this pipeline kept the \
                 chunks it made then",
                src.len()
            )
        });
    }

    /// Windows of four characters a token, each given the token span its
    /// count alone says, counting on from the strings before it.
    fn split_before_tokens(&mut self, text: &Rope) {
        let src = self.source;
        let Some(tokenizer) = self.counter.tokenizer() else {
            self.out.note = Some(format!(
                "this code budgets tokens: in {} it has no token span to guess",
                self.counter.unit()
            ));
            return;
        };
        if self.overlap >= self.size {
            self.out.note = Some(
                "size - overlap is not positive: range() with a step of 0 or less raises \
                 ValueError"
                    .into(),
            );
            return;
        }
        let len = text.chars_len(src);
        let (size, step) = (
            self.size.saturating_mul(4),
            (self.size - self.overlap).saturating_mul(4),
        );
        let mut t = 0;
        for start in (0..len).step_by(step) {
            let end = start.saturating_add(size);
            let piece = text.char_range(src, start, end);
            let n = tokenizer.count(&piece.text(src));
            self.emit(piece, None);
            if let Some(last) = self.out.chunks.last_mut() {
                last.tokens = Some((t, t + n));
            }
            if end >= len || self.stopped() {
                break;
            }
            t += tokenizer.count(&text.char_range(src, start, start + step).text(src));
        }
    }

    /// `"\n\n".join(doc.text for doc in docs)`, split once by the correct
    /// engine; each chunk is then the documents' text it holds, with the
    /// joins between them made up.
    fn joined_documents(&mut self, config: &Config) {
        let src = self.source;
        let mut joined = String::new();
        let mut placed: Vec<(usize, Span)> = Vec::new();
        for (i, doc) in documents(src).iter().enumerate() {
            if i > 0 {
                joined.push_str("\n\n");
            }
            placed.push((joined.len(), doc.body));
            joined.push_str(doc.body.text(src));
        }
        let chunks = match chunkscope::split(&joined, config, self.resources) {
            Ok(out) => out.chunks,
            Err(e) => {
                self.out.note = Some(format!("cannot split: {e}"));
                return;
            }
        };
        for c in chunks {
            let (a, b) = (c.span.start, c.span.end);
            let mut rope = Rope::default();
            for (i, &(at, body)) in placed.iter().enumerate() {
                let end = at + body.len();
                let (x, y) = (a.max(at), b.min(end));
                if x < y {
                    rope.push(Piece::Source(Span::new(
                        body.start + x - at,
                        body.start + y - at,
                    )));
                }
                if let Some(&(next, _)) = placed.get(i + 1) {
                    let (x, y) = (a.max(end), b.min(next));
                    if x < y {
                        rope.push(Piece::Added(joined[x..y].to_string()));
                    }
                }
            }
            self.emit(rope, None);
        }
    }

    /// Seed 001's `_split`: `None` where Python would raise on `split("")`.
    /// Its depth is bounded by the separator list, which shrinks each level.
    fn seed001_split(&self, text: &Rope, seps: &[&str]) -> Option<Vec<Rope>> {
        let Some((&sep, rest)) = seps.split_first() else {
            return Some(text.chars(self.source));
        };
        if sep.is_empty() {
            return None;
        }
        let mut result = Vec::new();
        for (s, after) in text.split(self.source, sep) {
            if s.chars_len(self.source) > self.size && !rest.is_empty() {
                // The separator after `s` is not carried into the recursion.
                result.extend(self.seed001_split(&s, rest)?);
            } else {
                // `s + sep`: where no separator followed `s`, this one is made up.
                result.push(s.concat(&after.unwrap_or_else(|| Rope::added(sep))));
            }
        }
        Some(result)
    }
}

/// The gallery's checks of one run: the five properties, plus whether pieces
/// of one split that would fit together were merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Findings {
    /// Coverage, max size, order, overlap, determinism.
    pub checks: Checks,
    /// Neighbouring chunks from one split whose lengths add up to no more than
    /// `size` should have been packed into one. A hint about quality rather
    /// than a law: only pieces of one split are compared, by their lengths.
    pub packing: Check,
    /// Whether every chunk is one slice of the source (the order check asks
    /// it too; this says it on its own).
    pub slices: Check,
    /// Whether each chunk got the overlap asked for ([`overlap_delivered`]).
    pub overlap: Check,
    /// Whether every step moved on ([`Finding::Advances`]).
    pub advances: Check,
    /// Whether each chunk's hash is the hash of the text at its position
    /// ([`Finding::Hash`]).
    pub hash: Check,
    /// Whether the token spans reported are the document's ([`Finding::TokenSpans`]).
    pub tokens: Check,
    /// Whether every chunk stays inside one document ([`Finding::Boundaries`]).
    pub boundaries: Check,
}

impl Findings {
    /// The outcome of `finding`.
    pub fn of(&self, finding: Finding) -> &Check {
        match finding {
            Finding::Property(property) => self
                .checks
                .get(property)
                .expect("the gallery judges every property, determinism included"),
            Finding::Packing => &self.packing,
            Finding::Slices => &self.slices,
            Finding::OverlapDelivered => &self.overlap,
            Finding::Advances => &self.advances,
            Finding::Hash => &self.hash,
            Finding::TokenSpans => &self.tokens,
            Finding::Boundaries => &self.boundaries,
        }
    }
}

fn verdict(ok: bool, detail: String) -> Check {
    Check { ok, detail }
}

/// Checks the correct engine's `output` the same way as a buggy run, so the two
/// sides of the gallery are judged alike.
///
/// A text of several [`documents`] is judged by its bodies (the headers are
/// labels, not text), as split by [`split_documents`](crate::documents::split_documents).
pub fn findings_of(
    source: &str,
    config: &Config,
    output: &Output,
    again: &Output,
    resources: &Resources,
) -> Findings {
    let docs = documents(source);
    let judged = bodies_only(source, &docs);
    let nodes = &output.trace.nodes;
    let groups = output.chunks.iter().map(|c| {
        let parent = c.node.and_then(|id| match nodes[id].action {
            Action::Fits => nodes[id].parent,
            _ => Some(id),
        });
        (c.len, parent)
    });
    let spans: Vec<Span> = output.chunks.iter().map(|c| c.span).collect();
    let chars = CharIndex::new(source);
    let counter = resources.counter(config.unit);
    // Fixed windows in tokens are document tokens: the engine's count of
    // each is the tokens it spans. Other strategies count each chunk alone,
    // as an embedder will, and say nothing of token positions.
    let tokens = match &counter {
        Ok(counter) if counter.tokenizer().is_some() && config.kind() == Strategy::Fixed => {
            let claims: Vec<(Span, Option<Claim>)> = output
                .chunks
                .iter()
                .map(|c| (c.span, Some(Claim::Count(c.len))))
                .collect();
            token_spans(source, *counter, &claims, &chars)
        }
        Ok(counter) => verdict(
            true,
            format!(
                "each chunk is counted alone in {}, as an embedder counts it; no token span is \
                 reported",
                counter.unit()
            ),
        ),
        Err(e) => verdict(false, format!("cannot count: {e}")),
    };
    Findings {
        checks: check(&judged, config, output, resources).with_again(output, again),
        packing: packing(groups, config),
        slices: verdict(
            true,
            "every chunk is the text between its offsets, cut by span".into(),
        ),
        overlap: counter.map_or_else(
            |e| verdict(false, format!("cannot count: {e}")),
            |counter| overlap_delivered(&judged, config, counter, &spans),
        ),
        advances: advances(&spans, None, &chars),
        hash: hashes(
            source,
            output
                .chunks
                .iter()
                .map(|c| (output.chunk_text(c.index, source).to_string(), Some(c.span))),
            &chars,
        ),
        tokens,
        boundaries: boundaries(&docs, spans.iter().map(|&s| vec![s]), &chars),
    }
}

/// [`Finding::Hash`]: each chunk's text (what an index embeds and hashes:
/// for the engine, [`Output::chunk_text`], a library's own string where it is
/// not a slice) against the text at its position, by SHA-256 as an index
/// compares them.
/// A chunk without text or position is skipped (order reports it).
fn hashes(
    source: &str,
    chunks: impl Iterator<Item = (String, Option<Span>)>,
    chars: &CharIndex<'_>,
) -> Check {
    let short = |t: &str| {
        let flat = t.replace('\n', " ");
        match flat.char_indices().nth(40) {
            Some((i, _)) => format!("{}…", &flat[..i]),
            None => flat,
        }
    };
    let mut n = 0;
    for (i, (held, at)) in chunks.enumerate() {
        let Some(at) = at.filter(|_| !held.is_empty()) else {
            continue;
        };
        n += 1;
        let body = at.text(source);
        let (stored, now) = (sha256_hex(&held), sha256_hex(body));
        if stored != now {
            let (a, b) = chars.char_span(at);
            return verdict(
                false,
                format!(
                    "chunk {i} holds “{}” (SHA-256 {}…), but the text at its position, chars \
                     {a}–{b}, reads “{}” (SHA-256 {}…): its vector and its citation are of text \
                     the document does not have there",
                    short(&held),
                    &stored[..12],
                    short(body),
                    &now[..12],
                ),
            );
        }
    }
    verdict(
        true,
        format!("the SHA-256 of each of the {n} chunks is the hash of the text at its position"),
    )
}

/// What a run says of a chunk's tokens.
#[derive(Clone, Copy, Debug)]
enum Claim {
    /// It is document tokens `[t0, t1)` (a buggy variant's guess).
    Span(usize, usize),
    /// It is this many tokens from where it starts (the engine's count of a
    /// fixed window in tokens).
    Count(usize),
}

/// [`Finding::TokenSpans`]: where a chunk is claimed to be document tokens,
/// its position must start and end where document tokens end, and the claim
/// must be the tokens between. `chunks` are positions with the claim made
/// for each (`None`: nothing claimed).
fn token_spans(
    source: &str,
    counter: Counter,
    chunks: &[(Span, Option<Claim>)],
    chars: &CharIndex<'_>,
) -> Check {
    let Some(tokenizer) = counter.tokenizer() else {
        return verdict(true, "no token spans: the unit is not tokens".into());
    };
    if chunks.iter().all(|(_, r)| r.is_none()) {
        return verdict(true, "this code reports no token spans".into());
    }
    let ends = tokenizer.token_ends(source);
    let before = |at: usize| ends.partition_point(|&e| e <= at);
    let on_end = |at: usize| at == 0 || ends.binary_search(&at).is_ok();
    let token = |k: usize| {
        let start = if k == 0 { 0 } else { ends[k - 1] };
        String::from_utf8_lossy(&source.as_bytes()[start..ends[k]]).replace('\n', "\\n")
    };
    let claimed = |span: Span, claim: Claim| match claim {
        Claim::Span(t0, t1) => (t0, t1),
        Claim::Count(n) => (before(span.start), before(span.start) + n),
    };
    let alone: usize = chunks
        .iter()
        .filter_map(|&(span, c)| c.map(|c| claimed(span, c)))
        .map(|(t0, t1)| t1 - t0)
        .sum();
    let totals = format!(
        "counted alone, the chunks add up to {alone} tokens; the document is {}",
        ends.len()
    );
    for (i, &(span, claim)) in chunks.iter().enumerate() {
        let Some(claim) = claim else { continue };
        let (r0, r1) = claimed(span, claim);
        for (edge, at) in [("starts", span.start), ("ends", span.end)] {
            if !on_end(at) {
                let k = before(at);
                return verdict(
                    false,
                    format!(
                        "chunk {i} {edge} at char {} inside the document's token “{}” (token \
                         {k}): no span of document tokens is this chunk, and counting it alone \
                         makes tokens the document does not have ({totals})",
                        chars.char_offset(at),
                        token(k),
                    ),
                );
            }
        }
        let (t0, t1) = (before(span.start), before(span.end));
        if (r0, r1) != (t0, t1) {
            return verdict(
                false,
                format!(
                    "chunk {i} is said to be tokens {r0}–{r1}, but its text is the document's \
                     tokens {t0}–{t1}: a citation by token position points elsewhere ({totals})"
                ),
            );
        }
    }
    verdict(
        true,
        format!(
            "each chunk starts and ends where document tokens do, and its count is theirs \
             ({} tokens in all)",
            ends.len()
        ),
    )
}

/// [`Finding::Boundaries`]: each chunk's source pieces lie in one document.
fn boundaries(
    docs: &[Document],
    chunks: impl Iterator<Item = Vec<Span>>,
    chars: &CharIndex<'_>,
) -> Check {
    if docs.len() < 2 {
        return verdict(true, "one document: no boundary to cross".into());
    }
    for (i, pieces) in chunks.enumerate() {
        if let [first, other, ..] = held_by(docs, &pieces)[..] {
            let (from, to) = (&docs[first], &docs[other]);
            let why = match (&from.permission, &to.permission) {
                (a, b) if a == b => "its citation can name only one of them".to_string(),
                (Some(a), Some(b)) => format!("a reader allowed only {a} text is shown {b} text"),
                _ => "the chunk can keep the permission label of only one of them".to_string(),
            };
            return verdict(
                false,
                format!(
                    "chunk {i} runs from {} into {}, whose text starts at char {}: {why}",
                    from.label(),
                    to.label(),
                    chars.char_offset(to.body.start),
                ),
            );
        }
    }
    verdict(
        true,
        format!(
            "each chunk lies inside one of the {} documents and keeps its labels",
            docs.len()
        ),
    )
}

/// [`Finding::Advances`] over the chunks' positions, in order (a chunk
/// without text has none and is skipped: order reports it), and the piece a
/// recursion stalled on, if it did.
fn advances(spans: &[Span], stalled: Option<Span>, chars: &CharIndex<'_>) -> Check {
    if let Some(piece) = stalled {
        let (a, b) = chars.char_span(piece);
        return verdict(
            false,
            format!(
                "the piece at chars {a}–{b} was split into itself level after level: the \
                 recursion never advanced (stopped after {STALL_BUDGET} levels)"
            ),
        );
    }
    let mut prev: Option<(usize, Span)> = None;
    for (i, &span) in spans.iter().enumerate() {
        if span.is_empty() {
            continue;
        }
        if let Some((j, p)) = prev {
            if span.end <= p.end {
                return verdict(
                    false,
                    format!(
                        "chunk {i} ends at position {}, not after chunk {j}, which ends at {}: \
                         by the positions given, that step did not move on",
                        chars.char_offset(span.end),
                        chars.char_offset(p.end)
                    ),
                );
            }
        }
        prev = Some((i, span));
    }
    verdict(
        true,
        "each chunk ends after the one before: every step added new text".into(),
    )
}

/// Where the word (a run without whitespace) that ends at or runs through
/// byte `at` starts.
fn word_start(source: &str, at: usize) -> usize {
    at - source[..at]
        .chars()
        .rev()
        .take_while(|&c| !is_space(c))
        .map(char::len_utf8)
        .sum::<usize>()
}

/// Whether each chunk of a recursive split got the overlap asked for: the
/// property the three overlap bugs of seed 001 break, which the lessons'
/// table has no row for.
///
/// With an overlap `k` under the size, a chunk's room for it is
/// `min(k, size − its own length)`. Then:
///
/// - a chunk that repeats nothing of the one before must have had no room
///   for the last word of that one (with the space between them): a word
///   that fits is repeated;
/// - a chunk whose repeated part starts inside a word must have had no
///   room for the whole word: a word that fits is repeated from its start.
///
/// Both look only at the chunk before's own text (not what it repeats
/// itself), and only at words whole in it.
///
/// An overlap not under the size can never be delivered. Judged for the
/// recursive strategy in a unit that adds up (chars, bytes), where the
/// engine keeps it exactly (`the_correct_engine_delivers_the_overlap`
/// checks it on generated texts); fixed windows repeat exactly `k` units
/// wherever that starts, and token counts do not add up.
pub fn overlap_delivered(source: &str, config: &Config, counter: Counter, spans: &[Span]) -> Check {
    let (k, size) = (config.overlap, config.size);
    if k == 0 {
        return verdict(true, "no overlap asked for".into());
    }
    if config.kind() != Strategy::Recursive || !counter.is_additive() {
        return verdict(
            true,
            "judged for recursive splitting in chars or bytes only".into(),
        );
    }
    if k >= size {
        return verdict(
            false,
            format!(
                "an overlap of {k} leaves no room in a size of {size}: no chunk can repeat the one before and still hold anything new"
            ),
        );
    }
    let chars = CharIndex::new(source);
    for (i, pair) in spans.windows(2).enumerate() {
        let (prev, next) = (pair[0], pair[1]);
        let own = Span::new(next.start.max(prev.end).min(next.end), next.end);
        let room = k.min(size.saturating_sub(counter.len(&source[own.start..own.end])));
        // Only the chunk before's own text can be repeated (not what it
        // repeats itself), and only a whole word of it.
        let prev_own = match i.checked_sub(1) {
            Some(j) => prev.start.max(spans[j].end).min(prev.end),
            None => prev.start,
        };
        if next.start < prev.end {
            let start = next.start;
            let inside = source[..start]
                .chars()
                .next_back()
                .is_some_and(|c| !is_space(c))
                && source[start..].chars().next().is_some_and(|c| !is_space(c));
            let word = word_start(source, start);
            if inside && word >= prev_own && counter.len(&source[word..own.start]) <= room {
                let word_end = source[start..]
                    .find(is_space)
                    .map_or(source.len(), |w| start + w);
                return verdict(
                    false,
                    format!(
                        "chunk {} repeats “{}” of chunk {i}, from inside the word “{}” (position {}), though the whole word fits the room the chunk has left ({room})",
                        i + 1,
                        source[start..own.start].trim_end(),
                        &source[word..word_end],
                        chars.char_offset(start),
                    ),
                );
            }
            continue;
        }
        let before = source[prev_own..prev.end].trim_end_matches(is_space);
        let word = word_start(source, prev_own + before.len()).max(prev_own);
        let whole = source[..word].chars().next_back().is_none_or(is_space);
        if before.is_empty() || !whole {
            continue;
        }
        let need = counter.len(&source[word..own.start]);
        if need <= room {
            return verdict(
                false,
                format!(
                    "chunk {} repeats nothing of chunk {i}, though its last word “{}” and what follows it ({need} {}) fit the overlap of {k} and the room the chunk has left ({room})",
                    i + 1,
                    source[word..prev.end].trim_end(),
                    config.unit,
                ),
            );
        }
    }
    verdict(
        true,
        "every chunk repeats the end of the one before wherever a whole word fits, and starts it on a word".into(),
    )
}

/// Checks a buggy run. `again` is a second run of the same variant.
///
/// The engine's own [`check`] does the work where it can: coverage runs on the
/// source pieces alone (made-up text covers nothing), overlap on each chunk's
/// best-effort position. Size is measured on the text a chunk really holds, and
/// order first asks that each chunk be one non-empty slice of the source.
pub fn findings(
    source: &str,
    config: &Config,
    run: &BugRun,
    again: &BugRun,
    resources: &Resources,
) -> Findings {
    let unit = config.unit;
    let counter = match resources.counter(unit) {
        Ok(counter) => counter,
        Err(e) => {
            let cannot = verdict(false, format!("cannot count: {e}"));
            let mut checks = check(source, config, &Output::default(), resources);
            for property in Property::ALL {
                checks.set(property, cannot.clone());
            }
            return Findings {
                checks,
                packing: cannot.clone(),
                slices: cannot.clone(),
                overlap: cannot.clone(),
                advances: cannot.clone(),
                hash: cannot.clone(),
                tokens: cannot.clone(),
                boundaries: cannot,
            };
        }
    };
    let docs = documents(source);
    let judged = bodies_only(source, &docs);
    let chars = CharIndex::new(source);
    let hulls = as_output(run.chunks.iter().map(|c| c.rope.hull().unwrap_or_default()));
    let mut pieces: Vec<Span> = run.chunks.iter().flat_map(|c| c.rope.sources()).collect();
    pieces.sort_unstable();
    let pieces = as_output(pieces);
    // The fixed strategy: the checks need no separators compiled.
    let plain = Config {
        strategy: Strategy::Fixed.into(),
        ..config.clone()
    };
    let by_hull = check(&judged, &plain, &hulls, resources);
    let coverage = check(&judged, &plain, &pieces, resources);

    let lens: Vec<usize> = run
        .chunks
        .iter()
        .map(|c| c.rope.len(source, counter))
        .collect();
    let max_size = match lens.iter().position(|&l| l > config.size) {
        Some(i) => verdict(
            false,
            format!(
                "chunk {i} at position {} holds {} {unit}, over the size of {}",
                chars.char_offset(run.chunks[i].rope.hull().map_or(0, |h| h.start)),
                lens[i],
                config.size
            ),
        ),
        None => verdict(
            true,
            format!(
                "the longest chunk is {} {unit} (size {})",
                lens.iter().max().unwrap_or(&0),
                config.size
            ),
        ),
    };
    let determinism = verdict(
        run == again,
        if run == again {
            "a second run gave the same chunks".into()
        } else {
            "a second run gave different chunks".into()
        },
    );
    let order = order(
        source,
        run,
        by_hull.get(Property::Order).expect("always checked"),
        &chars,
    );
    let mut checks = coverage;
    checks.set(Property::MaxSize, max_size);
    checks.set(Property::Order, order);
    for property in [Property::Overlap] {
        if let Some(c) = by_hull.get(property) {
            checks.set(property, c.clone());
        }
    }
    checks.set(Property::Determinism, determinism);
    let groups = lens.iter().zip(&run.chunks).map(|(&l, c)| (l, c.parent));
    let slices = match run.chunks.iter().position(|c| c.rope.slice().is_none()) {
        Some(i) => verdict(false, not_a_slice(source, i, &run.chunks[i].rope, &chars)),
        None => verdict(true, "every chunk is one slice of the text".into()),
    };
    let positions: Vec<Span> = hulls.chunks.iter().map(|c| c.span).collect();
    let overlap = overlap_delivered(&judged, config, counter, &positions);
    let claims: Vec<(Span, Option<Claim>)> = run
        .chunks
        .iter()
        .zip(&positions)
        .map(|(c, &at)| (at, c.tokens.map(|(t0, t1)| Claim::Span(t0, t1))))
        .collect();
    Findings {
        checks,
        packing: packing(groups, config),
        slices,
        overlap,
        advances: advances(&positions, run.stalled, &chars),
        hash: hashes(
            source,
            run.chunks
                .iter()
                .map(|c| (c.rope.text(source), c.rope.hull())),
            &chars,
        ),
        tokens: token_spans(source, counter, &claims, &chars),
        boundaries: boundaries(
            &docs,
            run.chunks.iter().map(|c| c.rope.sources().collect()),
            &chars,
        ),
    }
}

/// Chunks at these spans (overlaps filled in), so the engine's own checks run.
fn as_output(spans: impl IntoIterator<Item = Span>) -> Output {
    let mut chunks: Vec<Chunk> = Vec::new();
    for (index, span) in spans.into_iter().enumerate() {
        let overlap = chunks.last().and_then(|p| p.span.intersect(span));
        chunks.push(Chunk {
            index,
            span,
            len: span.len(),
            cut: Cut::End,
            overlap,
            node: None,
        });
    }
    Output {
        chunks,
        ..Output::default()
    }
}

/// The order check of a buggy run: every chunk must be one non-empty slice of
/// the source, and the slices must move forward (the engine's own check on the
/// best-effort positions says the rest).
fn order(source: &str, run: &BugRun, by_hull: &Check, chars: &CharIndex<'_>) -> Check {
    let mut prev: Option<Span> = None;
    for (i, c) in run.chunks.iter().enumerate() {
        let Some(span) = c.rope.slice() else {
            return verdict(false, not_a_slice(source, i, &c.rope, chars));
        };
        if let Some(p) = prev {
            if span.start >= p.start && span.end <= p.end {
                return verdict(
                    false,
                    format!(
                        "chunk {i} at position {} lies inside chunk {}: it adds nothing new, \
                         it is only text the chunk before already had",
                        chars.char_offset(span.start),
                        i - 1
                    ),
                );
            }
        }
        prev = Some(span);
    }
    by_hull.clone()
}

/// Says why chunk `i` is not one slice of the source.
fn not_a_slice(source: &str, i: usize, rope: &Rope, chars: &CharIndex<'_>) -> String {
    if rope.is_empty() {
        return format!("chunk {i} is empty: a chunk with no text");
    }
    if let Some(added) = rope.pieces.iter().find_map(|p| match p {
        Piece::Added(t) => Some(t),
        Piece::Source(_) => None,
    }) {
        return format!(
            "chunk {i} is not a slice of the text: it holds \"{}\", which the text does not have there",
            Separator::literal(added.as_str()).label()
        );
    }
    let gap = rope.pieces.windows(2).find_map(|w| match (&w[0], &w[1]) {
        (Piece::Source(a), Piece::Source(b)) => Some((a.end, b.start)),
        _ => None,
    });
    match gap {
        Some((a, b)) if a < b => format!(
            "chunk {i} is not a slice of the text: it joins two pieces and leaves out \"{}\" \
             (position {}) between them",
            Separator::literal(&source[a..b]).label(),
            chars.char_offset(a)
        ),
        _ => format!("chunk {i} is not a slice of the text: its pieces are out of order"),
    }
}

/// Neighbours from one split (same parent) that fit together should be one chunk.
fn packing(groups: impl Iterator<Item = (usize, Option<usize>)>, config: &Config) -> Check {
    let unit = config.unit;
    let mut prev: Option<(usize, Option<usize>)> = None;
    let mut count = 0;
    let mut first = None;
    for (i, (len, parent)) in groups.enumerate() {
        if let Some((plen, pparent)) = prev {
            if parent.is_some() && parent == pparent && plen + len <= config.size {
                count += 1;
                first.get_or_insert((i - 1, plen, len));
            }
        }
        prev = Some((len, parent));
    }
    match first {
        Some((i, a, b)) => verdict(
            false,
            format!(
                "{count} pairs of neighbours could have been one chunk: chunks {i} and {} \
                 ({a} and {b} {unit}) fit together in {}, but nothing merged them",
                i + 1,
                config.size
            ),
        ),
        None => verdict(
            true,
            "no two neighbouring pieces of one split would fit together".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ropes_split_strip_and_slice_like_python() {
        let s = "  a. b. c  ";
        let r = Rope::source(Span::new(0, s.len()));
        let parts: Vec<Rope> = r.split(s, ". ").into_iter().map(|(p, _)| p).collect();
        let texts: Vec<String> = parts.iter().map(|p| p.text(s)).collect();
        assert_eq!(texts, ["  a", "b", "c  "]);
        assert_eq!(r.strip(s).text(s), "a. b. c");
        assert_eq!(r.strip(s).slice(), Some(Span::new(2, 9)));
        let joined = parts[0].clone().concat(&parts[1]);
        assert_eq!(joined.text(s), "  ab");
        assert_eq!(joined.slice(), None);
        assert_eq!(joined.last_chars(s, 2).text(s), "ab");
        assert_eq!(r.char_range(s, 2, 4).text(s), "a.");
        assert_eq!(
            Rope::source(Span::new(0, 1))
                .concat(&Rope::added(","))
                .text("x"),
            "x,"
        );
    }
}
