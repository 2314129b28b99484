//! The port of LangChain's splitting code, with provenance.
//!
//! LangChain works on Python strings: it splits, concatenates, joins and
//! strips them. Here every such string is a [`Piece`]: its text plus the
//! source spans it was made of, so that each chunk can say exactly where it
//! comes from while its text stays exactly LangChain's.
//!
//! The functions mirror LangChain's (1.1.3), in the same order of steps:
//! `_split_text` ([`Run::split_text`]), `CharacterTextSplitter.split_text`
//! ([`Run::character`]), `_split_text_with_regex` ([`Run::split_pieces`]),
//! `_merge_splits` ([`Run::merge`]), `_join_docs` ([`Run::join`]) and
//! `create_documents(add_start_index=True)` ([`StartIndex`]).

use super::{
    Keep, Kind, LangChainChunk, LangChainConfig, LangChainError, LangChainOutput, NotSlice,
};
use crate::engine::EngineOutput;
use crate::separator::{Matcher, Matches, Searcher};
use crate::span::{is_space, Span};
use crate::trace::{Action, Close, Cut, Node, NodeId, Recorder};
use crate::trace::{Chunk, LangChainFacts, LibraryFact, Output, Trace};
use crate::unit::{CharTable, Counter, Measure, Unit};
use chunkscope_pyre::{budget_for, PythonRegex, PythonRegexError};
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::VecDeque;
use std::ops::Range;

/// How deep `_split_text` may recurse (one level per separator used). Python
/// stops at its recursion limit, about 1000 frames, with a RecursionError;
/// long before that, a list of hundreds of separators is a mistake.
const MAX_DEPTH: usize = 500;

/// A Python string of LangChain's, and where it came from: most are slices
/// of the source, kept as their span alone (a split at a small size makes
/// hundreds of thousands, so a piece is three words).
#[derive(Clone, Debug)]
enum Piece {
    /// A slice of the source (possibly empty, then only marking a position).
    Slice(Span),
    /// Strings LangChain glued together that are not adjacent in the source.
    Glued(Box<Glued>),
}

/// A [`Piece::Glued`]'s text and its source spans.
///
/// # Invariant
///
/// `text` is the concatenation of `&source[seg]` over `segs`, and there are
/// at least two.
#[derive(Clone, Debug)]
struct Glued {
    text: String,
    segs: Vec<Span>,
}

impl Piece {
    fn whole(source: &str) -> Piece {
        Piece::Slice(Span::new(0, source.len()))
    }

    /// The piece's text; `source` is the text it was cut from.
    fn text<'s>(&'s self, source: &'s str) -> &'s str {
        match self {
            Piece::Slice(span) => span.text(source),
            Piece::Glued(g) => &g.text,
        }
    }

    /// The source spans its text is made of, in text order.
    fn segs(&self) -> &[Span] {
        match self {
            Piece::Slice(span) => std::slice::from_ref(span),
            Piece::Glued(g) => &g.segs,
        }
    }

    /// From the first source position to the last.
    fn cover(&self) -> Span {
        let segs = self.segs();
        let start = segs.iter().map(|s| s.start).min().unwrap_or(0);
        let end = segs.iter().map(|s| s.end).max().unwrap_or(start);
        Span::new(start, end.max(start))
    }

    fn first_pos(&self) -> usize {
        self.segs().first().map_or(0, |s| s.start)
    }

    fn last_pos(&self) -> usize {
        self.segs().last().map_or(0, |s| s.end)
    }

    fn from_segs(segs: Vec<Span>, text: impl FnOnce() -> String) -> Piece {
        match segs.as_slice() {
            [one] => Piece::Slice(*one),
            _ => Piece::Glued(Box::new(Glued { text: text(), segs })),
        }
    }

    /// The piece for `self.text(source)[r]` (`r` in bytes of the text).
    fn slice(&self, source: &str, r: Range<usize>) -> Piece {
        let glued = match self {
            Piece::Slice(span) => {
                return Piece::Slice(Span::new(span.start + r.start, span.start + r.end))
            }
            Piece::Glued(g) => g,
        };
        let mut out = Vec::new();
        let mut at = 0;
        let mut anchor = None;
        for seg in &glued.segs {
            let (a, b) = (at, at + seg.len());
            let (lo, hi) = (r.start.max(a), r.end.min(b));
            if lo < hi {
                out.push(Span::new(seg.start + lo - a, seg.start + hi - a));
            } else if anchor.is_none() && a <= r.start && r.start <= b {
                anchor = Some(seg.start + r.start - a);
            }
            at = b;
        }
        if out.is_empty() {
            let p = anchor.unwrap_or(0);
            out.push(Span::new(p, p));
        }
        let text = &self.text(source)[r];
        Piece::from_segs(out, || text.to_string())
    }

    /// Python's `a + b`.
    fn concat(source: &str, a: &Piece, b: &Piece) -> Piece {
        // Two adjacent slices (what a literal separator kept beside its
        // piece always is) make one slice, with nothing allocated.
        if let (Piece::Slice(x), Piece::Slice(y)) = (a, b) {
            let joined = match (x.is_empty(), y.is_empty()) {
                (true, true) => Some(Span::new(x.start, x.start)),
                (true, false) => Some(*y),
                (false, true) => Some(*x),
                (false, false) => (x.end == y.start).then(|| Span::new(x.start, y.end)),
            };
            if let Some(span) = joined {
                return Piece::Slice(span);
            }
        }
        let mut out: Vec<Span> = Vec::new();
        for seg in a.segs().iter().chain(b.segs()) {
            if seg.is_empty() {
                continue;
            }
            match out.last_mut() {
                Some(last) if last.end == seg.start => last.end = seg.end,
                _ => out.push(*seg),
            }
        }
        if out.is_empty() {
            let p = a.first_pos();
            out.push(Span::new(p, p));
        }
        Piece::from_segs(out, || format!("{}{}", a.text(source), b.text(source)))
    }
}

/// How a stretch of a joined chunk maps back to the source.
#[derive(Clone, Copy)]
enum Map {
    /// Byte for byte, from this source offset.
    Exact(usize),
    /// Separator text that is not in the source as such (a regex pattern, or
    /// a separator where LangChain had dropped empty pieces): it stands for
    /// the whole gap between the pieces.
    Gap(Span),
}

/// The pieces of one split, one at a time (see [`Run::pieces`]).
// One lives on the stack per level being split; boxing the large variant
// would allocate once per level instead.
#[allow(clippy::large_enum_variant)]
enum Pieces<'t> {
    /// Slices between a literal separator's matches (the match goes with
    /// the piece after it, before it, or neither), as `re.split` with
    /// LangChain's pairing gives them, empty ones dropped.
    Literal {
        matches: Matches<'t>,
        /// Where the next piece starts, and where the text ends.
        last: usize,
        end: usize,
        keep: Keep,
        found: bool,
    },
    /// A slice's chars (`list(text)`), from `at` up to `end`.
    Chars {
        source: &'t str,
        at: usize,
        end: usize,
    },
    /// Pieces listed first: a regex's, or a glued piece's.
    Listed {
        list: std::vec::IntoIter<Piece>,
        found: bool,
    },
}

impl Pieces<'_> {
    /// Whether the separator occurred (known once the pieces are all taken).
    fn found(&self) -> bool {
        match self {
            Pieces::Literal { found, .. } | Pieces::Listed { found, .. } => *found,
            Pieces::Chars { .. } => true,
        }
    }
}

impl Iterator for Pieces<'_> {
    type Item = Piece;

    // Inlined into the loop that takes the pieces, so a piece is passed in
    // registers rather than through memory (whose reload stalled).
    #[inline(always)]
    fn next(&mut self) -> Option<Piece> {
        match self {
            Pieces::Literal {
                matches,
                last,
                end,
                keep,
                found,
            } => {
                for m in matches.by_ref() {
                    *found = true;
                    let (piece_end, next) = match keep {
                        Keep::Start => (m.start, m.start),
                        Keep::End => (m.end, m.end),
                        Keep::None => (m.start, m.end),
                    };
                    let start = std::mem::replace(last, next);
                    if piece_end > start {
                        return Some(Piece::Slice(Span::new(start, piece_end)));
                    }
                }
                // The text after the last match, once.
                let start = std::mem::replace(last, *end);
                (*end > start).then(|| Piece::Slice(Span::new(start, *end)))
            }
            Pieces::Chars { source, at, end } => {
                let c = source[*at..*end].chars().next()?;
                let span = Span::new(*at, *at + c.len_utf8());
                *at = span.end;
                Some(Piece::Slice(span))
            }
            Pieces::Listed { list, .. } => list.next(),
        }
    }
}

/// A good piece in `_merge_splits`' window: its index among its level's
/// pieces, the piece, and its length.
struct Waiting {
    k: usize,
    piece: Piece,
    len: usize,
}

/// `_merge_splits` of one level, fed a good piece at a time
/// ([`Run::merge_push`]) and ended at the end of each run of good pieces
/// ([`Run::merge_run`]).
#[derive(Default)]
struct Merge {
    /// `current_doc`, and `total`, its length with separators.
    current: VecDeque<Waiting>,
    total: usize,
    /// `separator_len`.
    sep_len: usize,
    /// Whether the current run has a piece (LangChain merges only runs
    /// that have one).
    fed: bool,
}

/// Where a level's merged chunks go.
struct Level<'j> {
    /// What `_merge_splits` joins pieces with.
    joiner: &'j str,
    /// The level's node; the chunks are one deeper.
    parent: Option<NodeId>,
    depth: usize,
    /// The cut between two chunks of this level.
    cut: Cut,
    /// How many chunks there were when the level started.
    first_chunk: usize,
}

/// One split in progress.
struct Run<'a, 'c> {
    source: &'a str,
    config: &'c LangChainConfig,
    /// LangChain's `length_function`.
    counter: Counter,
    /// The same lengths for slices of the source: in tokens, the source is
    /// tokenized once and a slice counted from it (exactly its own count).
    lengths: Measure<'a>,
    seps: Vec<String>,
    /// Literal separators' searchers, built once per split (empty for
    /// regexes).
    searchers: &'c [Searcher<'c>],
    /// Compiled separators, lazily, as Python compiles them on first use:
    /// `[plain, wrapped in ( )]` per separator.
    regexes: Vec<[Option<Result<PythonRegex, PythonRegexError>>; 2]>,
    budget: u64,
    /// What is kept of each chunk.
    collect: Collect<'a>,
    tree: Recorder,
    warnings: Vec<String>,
    /// The first special token LangChain's length function met (tokens only).
    special: Cell<Option<&'static str>>,
    /// Emptied merges, kept for the next level: a split at a small size
    /// makes thousands of levels, and allocating their windows afresh was a
    /// sixth of its time.
    merges: Vec<Merge>,
    /// The cut the previous chunk gets when the next chunk is emitted; each
    /// level sets it before its own chunks, so the deepest split between two
    /// chunks names their cut.
    pending: Cut,
}

/// What a run keeps of each chunk: plain chunks (for the public API's
/// records and for [`Splitter`](crate::Splitter)'s [`Output`], both made
/// from them once the run is over), or `split_text`'s strings alone.
enum Collect<'a> {
    /// Plain [`Chunk`]s, and LangChain's own text for the few that are not
    /// slices of the source (by chunk index, in order): no per-chunk text
    /// or record, so a large text's split takes little more memory than
    /// its list of chunks.
    Plain {
        chunks: Vec<Chunk>,
        texts: Vec<(usize, String, NotSlice)>,
        /// Each chunk's `start_index`, found as it is made, while its text
        /// is still in the cache.
        starts: Vec<i64>,
        next_start: StartIndex,
    },
    /// Each chunk's string alone, borrowed from the source where it is a
    /// slice. Nothing else about a chunk is computed.
    Strings(Vec<Cow<'a, str>>),
}

/// A finished run's plain chunks and what LangChain says beyond them.
struct Plain {
    chunks: Vec<Chunk>,
    /// LangChain's text and why, for the chunks that are not slices of the
    /// source, by chunk index in order.
    texts: Vec<(usize, String, NotSlice)>,
    /// Each chunk's `start_index`.
    starts: Vec<i64>,
    trace: Trace,
    warnings: Vec<String>,
    separators: Vec<String>,
    /// The source's continuation bytes, when counting chars listed them.
    chars: Option<CharTable>,
}

/// Runs LangChain's algorithm on `source`, keeping plain chunks.
fn plain(
    source: &str,
    config: &LangChainConfig,
    counter: Counter,
    record: bool,
) -> Result<Plain, LangChainError> {
    let expected = expected_chunks(source, config);
    let collect = Collect::Plain {
        chunks: Vec::with_capacity(expected),
        texts: Vec::new(),
        starts: Vec::with_capacity(expected),
        next_start: StartIndex::new(config.chunk_overlap),
    };
    execute(source, config, counter, record, collect, |run| {
        let Collect::Plain {
            chunks,
            texts,
            starts,
            ..
        } = run.collect
        else {
            unreachable!("a plain run collects plain chunks")
        };
        Plain {
            chunks,
            texts,
            starts,
            trace: run.tree.finish(),
            warnings: run.warnings,
            separators: run.seps,
            chars: run.lengths.into_char_table(),
        }
    })
}

/// Each chunk's `start_index` and, when it is not a slice of the source,
/// LangChain's text and why, in chunk order (from [`Plain`]'s lists).
fn facts(
    starts: Vec<i64>,
    texts: Vec<(usize, String, NotSlice)>,
) -> impl Iterator<Item = (i64, Option<(String, NotSlice)>)> {
    let mut texts = texts.into_iter().peekable();
    starts.into_iter().enumerate().map(move |(i, start)| {
        let own = texts
            .next_if(|t| t.0 == i)
            .map(|(_, text, why)| (text, why));
        (start, own)
    })
}

/// Runs LangChain's algorithm on `source`, with every chunk's record.
pub(super) fn run(
    source: &str,
    config: &LangChainConfig,
    counter: Counter,
    record: bool,
) -> Result<LangChainOutput, LangChainError> {
    let plain = plain(source, config, counter, record)?;
    let chunks = plain
        .chunks
        .into_iter()
        .zip(facts(plain.starts, plain.texts))
        .map(|(c, (start, own))| {
            let is_slice = own.is_none();
            let (text, not_slice) = match own {
                Some((text, why)) => (text, Some(why)),
                None => (c.text(source).to_string(), None),
            };
            LangChainChunk {
                index: c.index,
                text,
                span: c.span,
                is_slice,
                not_slice,
                start_index: Some(start),
                metadata: None,
                len: c.len,
                cut: c.cut,
                overlap: c.overlap,
                node: c.node,
            }
        })
        .collect();
    Ok(LangChainOutput {
        chunks,
        trace: plain.trace,
        warnings: plain.warnings,
        separators: plain.separators,
        regex: config.is_separator_regex,
    })
}

/// The same run as [`run`], as the crate's [`Output`]: the plain chunks
/// and their [`LibraryFact`]s, never a [`LangChainChunk`], with the
/// source's continuation bytes when counting listed them.
pub(super) fn output(
    source: &str,
    config: &LangChainConfig,
    counter: Counter,
    record: bool,
) -> Result<EngineOutput, LangChainError> {
    let plain = plain(source, config, counter, record)?;
    // The chunks stay where the run put them: for a large text theirs is
    // the biggest list, and a copy would double it for a moment.
    let facts = facts(plain.starts, plain.texts)
        .map(|(start, own)| {
            let (text, why) = own.unzip();
            LibraryFact::new(text, why, Some(start), None)
        })
        .collect();
    let output = Output {
        sentences: None,
        separators: None,
        chunks: plain.chunks,
        trace: plain.trace,
        library: Some(facts),
        langchain: Some(LangChainFacts {
            warnings: plain.warnings,
            separators: plain.separators,
            regex: config.is_separator_regex,
        }),
        markdown: None,
    };
    Ok(EngineOutput {
        output,
        chars: plain.chars,
    })
}

/// `split_text`'s strings alone: the same run as [`run`], minus the
/// per-chunk records (and their start indices) that it would throw away.
pub(super) fn strings<'a>(
    source: &'a str,
    config: &LangChainConfig,
    counter: Counter,
) -> Result<(Vec<Cow<'a, str>>, Vec<String>), LangChainError> {
    let collect = Collect::Strings(Vec::with_capacity(expected_chunks(source, config)));
    execute(source, config, counter, false, collect, |run| {
        match run.collect {
            Collect::Strings(strings) => (strings, run.warnings),
            _ => unreachable!("a strings run collects strings"),
        }
    })
}

/// Splits `source`, keeping what `collect` keeps, and hands the finished
/// run to `finish`.
fn execute<'a, T>(
    source: &'a str,
    config: &LangChainConfig,
    counter: Counter,
    record: bool,
    collect: Collect<'a>,
    finish: impl FnOnce(Run<'a, '_>) -> T,
) -> Result<T, LangChainError> {
    config.validate()?;
    let matchers = matchers(config);
    let searchers: Vec<Searcher<'_>> = matchers.iter().map(|m| Searcher::new(m, &[])).collect();
    let mut run = Run::new(source, config, counter, &searchers, record, collect);
    run.go()?;
    Ok(finish(run))
}

/// The literal separators' matchers (none for regexes, which compile lazily).
fn matchers(config: &LangChainConfig) -> Vec<Matcher> {
    if config.is_separator_regex {
        Vec::new()
    } else {
        config
            .effective_separators()
            .into_iter()
            .map(Matcher::Literal)
            .collect()
    }
}

/// About how many chunks a split makes (one per `chunk_size` bytes, at most
/// one per 16 bytes of text): room reserved up front, so the list of chunks
/// is not copied as it grows. Only a guess; more or fewer are fine.
fn expected_chunks(source: &str, config: &LangChainConfig) -> usize {
    source.len() / config.chunk_size.max(16) + 1
}

impl<'a: 'c, 'c> Run<'a, 'c> {
    fn new(
        source: &'a str,
        config: &'c LangChainConfig,
        counter: Counter,
        searchers: &'c [Searcher<'c>],
        record: bool,
        collect: Collect<'a>,
    ) -> Run<'a, 'c> {
        let seps = config.effective_separators();
        Run {
            source,
            config,
            counter,
            lengths: Measure::new(counter, source),
            searchers,
            regexes: vec![[None, None]; seps.len()],
            seps,
            budget: budget_for(source),
            collect,
            tree: Recorder::new(record && !source.is_empty(), 0),
            warnings: Vec::new(),
            special: Cell::new(None),
            merges: Vec::new(),
            pending: Cut::End,
        }
    }

    /// Splits the whole source. A special token met on the way is the error,
    /// as LangChain's length function raises it there: the split goes on past
    /// it only to finish the trace, so an error it meets later (a regex
    /// separator LangChain would not have reached) gives way to it.
    fn go(&mut self) -> Result<(), LangChainError> {
        let whole = Piece::whole(self.source);
        let split = match self.config.kind {
            Kind::Recursive => self.split_text(&whole, 0, 1, None, None),
            Kind::Character => self.character(&whole),
        };
        match self.special.get() {
            Some(token) => Err(LangChainError::DisallowedSpecialToken { token }),
            None => split,
        }
    }

    /// How many chunks are made so far.
    fn made(&self) -> usize {
        match &self.collect {
            Collect::Plain { chunks, .. } => chunks.len(),
            Collect::Strings(strings) => strings.len(),
        }
    }
}

impl<'a: 'c, 'c> Run<'a, 'c> {
    /// A length the trace needs, which LangChain does not compute.
    fn len(&self, text: &str) -> usize {
        self.counter.len(text)
    }

    /// The length of a piece: a slice of the source is counted through
    /// [`Measure`], anything else on its own.
    fn piece_len(&self, piece: &Piece) -> usize {
        match piece {
            Piece::Slice(span) => self.lengths.len(*span),
            Piece::Glued(g) => self.len(&g.text),
        }
    }

    /// `self._length_function(text)`, where LangChain calls it. With token
    /// units that is tiktoken's `encode` with `disallowed_special="all"`,
    /// which raises on text holding a special token; the first one met is
    /// kept, and the split ends in that error.
    fn measure(&self, text: &str) -> usize {
        self.check_special(text);
        self.len(text)
    }

    /// [`measure`](Self::measure) of a piece's text.
    fn measure_piece(&self, piece: &Piece) -> usize {
        // Only tokens need the text itself: slicing it reads its last byte,
        // which a split of a long text left far behind in memory.
        if matches!(self.config.unit, Unit::Tokens(_)) {
            self.check_special(piece.text(self.source));
        }
        self.piece_len(piece)
    }

    fn check_special(&self, text: &str) {
        if let Unit::Tokens(encoding) = self.config.unit {
            if self.special.get().is_none() && text.contains("<|") {
                let found = encoding.special_tokens().iter().find(|t| text.contains(*t));
                self.special.set(found.copied());
            }
        }
    }

    fn node(&mut self, node: Node) -> Option<NodeId> {
        self.tree.node(node)
    }

    fn with_node(&mut self, id: Option<NodeId>, f: impl FnOnce(&mut Node)) {
        self.tree.with_node(id, f)
    }

    /// The compiled separator `index`, plain or wrapped in a group the way
    /// `_split_text_with_regex` does to keep it.
    fn regex(&mut self, index: usize, wrapped: bool) -> Result<&PythonRegex, LangChainError> {
        let sep = &self.seps[index];
        let compiled = self.regexes[index][usize::from(wrapped)].get_or_insert_with(|| {
            if wrapped {
                PythonRegex::new(&format!("({sep})"))
            } else {
                PythonRegex::new(sep)
            }
        });
        compiled
            .as_ref()
            .map_err(|e| regex_error(index, sep, e.clone(), wrapped))
    }

    /// `re.search(separator_, text)` for separator `index`.
    fn search(&mut self, index: usize, text: &str) -> Result<bool, LangChainError> {
        if !self.config.is_separator_regex {
            let whole = Span::new(0, text.len());
            return Ok(self.searchers[index]
                .find_iter(text, whole)
                .next()
                .is_some());
        }
        let mut budget = self.budget;
        let found = self
            .regex(index, false)?
            .search_with(text, &mut budget)
            .map_err(|e| regex_error(index, &self.seps[index], e, false))?;
        self.budget = budget;
        Ok(found)
    }

    /// `re.split` of `text` by separator `index` (a group around it when
    /// `wrapped`), as `Option` ranges of `text`.
    fn re_split(
        &mut self,
        index: usize,
        text: &str,
        wrapped: bool,
    ) -> Result<Vec<Option<Range<usize>>>, LangChainError> {
        if !self.config.is_separator_regex {
            // re.escape(separator): a literal, which never matches empty.
            let mut items = Vec::new();
            let mut last = 0;
            for m in self.searchers[index].find_iter(text, Span::new(0, text.len())) {
                items.push(Some(last..m.start));
                if wrapped {
                    items.push(Some(m.start..m.end));
                }
                last = m.end;
            }
            items.push(Some(last..text.len()));
            return Ok(items);
        }
        let mut budget = self.budget;
        let items = self
            .regex(index, wrapped)?
            .split_with(text, &mut budget)
            .map_err(|e| regex_error(index, &self.seps[index], e, wrapped))?;
        self.budget = budget;
        Ok(items)
    }

    /// The pieces of `piece` by separator `index`, as
    /// `_split_text_with_regex(text, separator, keep_separator)` makes them:
    /// one at a time from the source for a slice split by a literal
    /// separator or into chars (nearly every split), listed first
    /// otherwise.
    fn pieces(&mut self, index: usize, piece: &Piece) -> Result<Pieces<'c>, LangChainError> {
        let (source, searchers) = (self.source, self.searchers);
        match piece {
            Piece::Slice(span) if self.seps[index].is_empty() => Ok(Pieces::Chars {
                source,
                at: span.start,
                end: span.end,
            }),
            Piece::Slice(whole) if !self.config.is_separator_regex => Ok(Pieces::Literal {
                matches: searchers[index].find_iter(source, *whole),
                last: whole.start,
                end: whole.end,
                keep: self.config.keep_separator,
                found: false,
            }),
            _ => {
                let mut list = Vec::new();
                let found = self.split_pieces(index, piece, &mut list)?;
                Ok(Pieces::Listed {
                    list: list.into_iter(),
                    found,
                })
            }
        }
    }

    /// `_split_text_with_regex(text, separator, keep_separator)` for a
    /// regex, or a piece LangChain glued together, and whether the
    /// separator occurred at all. The pieces go into `splits` (empty on
    /// entry).
    fn split_pieces(
        &mut self,
        index: usize,
        piece: &Piece,
        splits: &mut Vec<Piece>,
    ) -> Result<bool, LangChainError> {
        let source = self.source;
        if self.seps[index].is_empty() {
            // list(text)
            splits.extend(
                piece
                    .text(source)
                    .char_indices()
                    .map(|(i, c)| piece.slice(source, i..i + c.len_utf8())),
            );
            return Ok(true);
        }
        let keep = self.config.keep_separator;
        let items = self.re_split(index, piece.text(source), keep != Keep::None)?;
        let found = items.len() > 1;
        let items: Vec<Option<Piece>> = items
            .into_iter()
            .map(|r| r.map(|r| piece.slice(source, r)))
            .collect();
        let paired = if keep == Keep::None {
            items
        } else {
            let n = items.len();
            let pair = |i: usize| -> Result<Option<Piece>, LangChainError> {
                let crash = |exception, message: &str| LangChainError::LangChainCrash {
                    index,
                    pattern: self.seps[index].clone(),
                    exception,
                    message: message.to_string(),
                };
                let Some(b) = items.get(i + 1) else {
                    return Err(crash("IndexError", "list index out of range"));
                };
                match (&items[i], b) {
                    (Some(a), Some(b)) => Ok(Some(Piece::concat(source, a, b))),
                    (None, _) => Err(crash(
                        "TypeError",
                        "unsupported operand type(s) for +: 'NoneType' and 'str'",
                    )),
                    (Some(_), None) => Err(crash(
                        "TypeError",
                        "can only concatenate str (not \"NoneType\") to str",
                    )),
                }
            };
            let mut paired = Vec::with_capacity(n / 2 + 2);
            if keep == Keep::End {
                for i in (0..n - 1).step_by(2) {
                    paired.push(pair(i)?);
                }
            } else {
                for i in (1..n).step_by(2) {
                    paired.push(pair(i)?);
                }
            }
            if n.is_multiple_of(2) {
                paired.push(items[n - 1].clone());
            }
            if keep == Keep::End {
                paired.push(items[n - 1].clone());
            } else {
                paired.insert(0, items[0].clone());
            }
            paired
        };
        splits.extend(
            paired
                .into_iter()
                .flatten()
                .filter(|p| !p.text(source).is_empty()),
        );
        Ok(found)
    }

    /// `RecursiveCharacterTextSplitter._split_text(text, separators[offset..])`.
    ///
    /// The pieces are taken one at a time and the good ones merged as they
    /// come, so a chunk is made while its text is still in the cache, and a
    /// level keeps only the window of pieces `_merge_splits` holds. What
    /// LangChain does in between is in the same order: it measures a run of
    /// good pieces and the piece after them before it merges the run.
    fn split_text(
        &mut self,
        piece: &Piece,
        offset: usize,
        depth: usize,
        parent: Option<NodeId>,
        parts: Option<(usize, usize)>,
    ) -> Result<(), LangChainError> {
        if depth > MAX_DEPTH {
            return Err(LangChainError::TooDeep { depth });
        }
        let n = self.seps.len();
        // LangChain does not measure the piece itself; only the trace does.
        let len = if self.tree.is_on() {
            self.piece_len(piece)
        } else {
            0
        };
        let size = self.config.chunk_size;
        let id = self.node(Node {
            span: piece.cover(),
            len,
            depth,
            parent,
            children: Vec::new(),
            absent: Vec::new(),
            action: Action::Split {
                separator: n - 1,
                parts: 0,
            },
            too_big: len >= size,
            parts,
            close: None,
            chunk: None,
        });
        // The first separator that is "" or occurs in the text; the last one
        // when none does. Only a found, non-empty one leaves separators after it.
        let mut chosen = n - 1;
        let mut rest = None;
        for i in offset..n {
            if self.seps[i].is_empty() {
                chosen = i;
                break;
            }
            if self.search(i, piece.text(self.source))? {
                chosen = i;
                rest = Some(i + 1).filter(|&j| j < n);
                break;
            }
            self.with_node(id, |node| node.absent.push(i));
        }
        let hard = self.seps[chosen].is_empty();
        let cut = if hard {
            Cut::Hard
        } else {
            Cut::Separator(chosen)
        };
        let joiner = if self.config.keep_separator == Keep::None {
            self.seps[chosen].clone()
        } else {
            String::new()
        };
        let level = Level {
            joiner: &joiner,
            parent: id,
            depth: depth + 1,
            cut,
            first_chunk: self.made(),
        };
        let mut merge = self.merges.pop().unwrap_or_default();
        merge.sep_len = self.len(&joiner);
        let pieces = self.pieces(chosen, piece)?;
        let mut count = 0;
        for s in pieces {
            let k = count;
            count += 1;
            let len = self.measure_piece(&s);
            if len < size {
                self.merge_push(&mut merge, &level, k, s, len);
                continue;
            }
            self.merge_run(&mut merge, &level);
            if self.made() > level.first_chunk {
                self.pending = cut;
            }
            match rest {
                None => self.pass_through(&s, k, id, depth + 1),
                Some(next) => self.split_text(&s, next, depth + 1, id, Some((k, k + 1)))?,
            }
        }
        self.merge_run(&mut merge, &level);
        self.merges.push(merge);
        let made = self.made() - level.first_chunk;
        self.with_node(id, |node| {
            node.action = if hard {
                Action::HardCut {
                    separator: Some(chosen),
                    windows: made,
                }
            } else {
                Action::Split {
                    separator: chosen,
                    parts: count,
                }
            }
        });
        Ok(())
    }

    /// `CharacterTextSplitter.split_text(text)`.
    fn character(&mut self, whole: &Piece) -> Result<(), LangChainError> {
        let len = if self.tree.is_on() {
            self.piece_len(whole)
        } else {
            0
        };
        let id = self.node(Node {
            span: whole.cover(),
            len,
            depth: 1,
            parent: None,
            children: Vec::new(),
            absent: Vec::new(),
            action: Action::Split {
                separator: 0,
                parts: 0,
            },
            too_big: len >= self.config.chunk_size,
            parts: None,
            close: None,
            chunk: None,
        });
        let sep = self.seps[0].clone();
        let lookaround = self.config.is_separator_regex && super::starts_with_lookaround(&sep);
        let joiner = if self.config.keep_separator != Keep::None || lookaround {
            String::new()
        } else {
            sep.clone()
        };
        let hard = sep.is_empty();
        let cut = if hard { Cut::Hard } else { Cut::Separator(0) };
        let level = Level {
            joiner: &joiner,
            parent: id,
            depth: 2,
            cut,
            first_chunk: 0,
        };
        // `_merge_splits` measures the separator first, then each piece.
        let mut merge = Merge {
            sep_len: self.measure(&joiner),
            ..Merge::default()
        };
        let mut pieces = self.pieces(0, whole)?;
        let mut count = 0;
        for s in pieces.by_ref() {
            let len = self.measure_piece(&s);
            self.merge_push(&mut merge, &level, count, s, len);
            count += 1;
        }
        self.merge_run(&mut merge, &level);
        let found = pieces.found();
        let made = self.made();
        self.with_node(id, |node| {
            node.action = if hard {
                Action::HardCut {
                    separator: Some(0),
                    windows: made,
                }
            } else {
                Action::Split {
                    separator: 0,
                    parts: count,
                }
            };
            if !found {
                node.absent.push(0);
            }
        });
        Ok(())
    }

    /// One step of `_merge_splits`: the good piece `k` comes to the window
    /// `current_doc`. When it would not fit, the window is joined into a
    /// chunk first, and pieces leave its front until at most
    /// `chunk_overlap` remain and the piece fits.
    fn merge_push(&mut self, m: &mut Merge, level: &Level<'_>, k: usize, piece: Piece, len: usize) {
        let (size, overlap) = (self.config.chunk_size, self.config.chunk_overlap);
        m.fed = true;
        let gap = |m: &Merge| if m.current.is_empty() { 0 } else { m.sep_len };
        if m.total + len + gap(m) > size {
            if m.total > size {
                self.warnings.push(format!(
                    "Created a chunk of size {}, which is longer than the specified {size}",
                    m.total
                ));
            }
            if !m.current.is_empty() {
                let close = Close::NextWouldExceed {
                    group_len: m.total,
                    gap_len: gap(m),
                    next_len: len,
                    would_be: m.total + len + gap(m),
                };
                self.join(&m.current, level, close);
                while m.total > overlap || (m.total + len + gap(m) > size && m.total > 0) {
                    let Some(front) = m.current.front() else {
                        break;
                    };
                    let sep = if m.current.len() > 1 { m.sep_len } else { 0 };
                    m.total = m.total.saturating_sub(front.len + sep);
                    m.current.pop_front();
                }
            }
        }
        m.current.push_back(Waiting { k, piece, len });
        m.total += len + if m.current.len() > 1 { m.sep_len } else { 0 };
    }

    /// The end of a run of good pieces (a piece too big came, or the
    /// level's pieces ended): `_merge_splits` of the run ends, joining what
    /// its window holds. LangChain measures the separator as it starts
    /// merging a run, after measuring the run's pieces and the piece after
    /// them; only that measuring can raise (on a special token), so it is
    /// done here, in its place in that order.
    fn merge_run(&mut self, m: &mut Merge, level: &Level<'_>) {
        if !m.fed {
            return;
        }
        self.measure(level.joiner);
        if !m.current.is_empty() {
            self.join(&m.current, level, Close::ParentEnded);
        }
        m.current.clear();
        m.total = 0;
        m.fed = false;
    }

    /// `_join_docs(docs, separator)`: join, strip, and keep it unless empty.
    fn join(&mut self, docs: &VecDeque<Waiting>, level: &Level<'_>, close: Close) {
        let (source, joiner) = (self.source, level.joiner);
        let first = docs.front().map_or(0, |w| w.k);
        let parts = Some((first, docs.back().map_or(first, |w| w.k + 1)));
        if let Some(span) = self.contiguous(docs, joiner) {
            // The joined text is this slice of the source: strip it in place.
            let text = span.text(source);
            let (lo, hi) = if self.config.strip_whitespace {
                let lead = text.len() - text.trim_start_matches(is_space).len();
                let end = text.trim_end_matches(is_space).len();
                (lead.min(end), end)
            } else {
                (0, text.len())
            };
            if lo < hi {
                if self.made() > level.first_chunk {
                    self.pending = level.cut;
                }
                let span = Span::new(span.start + lo, span.start + hi);
                let reason = NotSlice::EmptyPiecesDropped;
                self.emit(
                    None,
                    span,
                    level.parent,
                    level.depth,
                    parts,
                    Some(close),
                    reason,
                );
                return;
            }
        }
        let mut joined = String::new();
        let mut maps: Vec<(Range<usize>, Map)> = Vec::new();
        for (j, w) in docs.iter().enumerate() {
            if j > 0 && !joiner.is_empty() {
                let (a, b) = (docs[j - 1].piece.last_pos(), w.piece.first_pos());
                let gap = Span::new(a.min(b), a.max(b));
                let exact = a <= b && gap.text(source) == joiner;
                let start = joined.len();
                joined.push_str(joiner);
                let map = if exact {
                    Map::Exact(gap.start)
                } else {
                    Map::Gap(gap)
                };
                maps.push((start..joined.len(), map));
            }
            for seg in w.piece.segs() {
                let start = joined.len();
                joined.push_str(seg.text(source));
                maps.push((start..joined.len(), Map::Exact(seg.start)));
            }
        }
        let (lo, hi) = if self.config.strip_whitespace {
            let lead = joined.len() - joined.trim_start_matches(is_space).len();
            let end = joined.trim_end_matches(is_space).len();
            (lead.min(end), end)
        } else {
            (0, joined.len())
        };
        if lo >= hi {
            let covers = || docs.iter().map(|w| w.piece.cover());
            let span = Span::new(
                covers().map(|c| c.start).min().unwrap_or(0),
                covers().map(|c| c.end).max().unwrap_or(0),
            );
            let len = self.len(&joined);
            self.node(Node {
                span: Span::new(span.start, span.end.max(span.start)),
                len,
                depth: level.depth,
                parent: level.parent,
                children: Vec::new(),
                absent: Vec::new(),
                action: Action::Empty,
                too_big: false,
                parts,
                close: Some(close),
                chunk: None,
            });
            return;
        }
        let (mut start, mut end) = (usize::MAX, 0);
        for (r, map) in &maps {
            let (a, b) = (r.start.max(lo), r.end.min(hi));
            if a >= b {
                continue;
            }
            let (s, e) = match *map {
                Map::Exact(base) => (base + a - r.start, base + b - r.start),
                Map::Gap(g) => (g.start, g.end),
            };
            start = start.min(s);
            end = end.max(e);
        }
        let text = joined[lo..hi].to_string();
        let span = Span::new(start, end.max(start));
        if self.made() > level.first_chunk {
            self.pending = level.cut;
        }
        let reason = match level.cut {
            Cut::Separator(separator)
                if self.config.is_separator_regex && self.config.keep_separator == Keep::None =>
            {
                if joiner.is_empty() {
                    NotSlice::JoinedWithNothing { separator }
                } else {
                    NotSlice::PatternJoined { separator }
                }
            }
            _ => NotSlice::EmptyPiecesDropped,
        };
        let (parent, depth) = (level.parent, level.depth);
        self.emit(Some(text), span, parent, depth, parts, Some(close), reason);
    }

    /// The source slice that joining `docs` with `joiner` gives, when it is
    /// one: every piece a slice, each following the one before it directly or
    /// after exactly the joiner's text.
    fn contiguous(&self, docs: &VecDeque<Waiting>, joiner: &str) -> Option<Span> {
        let mut whole: Option<Span> = None;
        for w in docs {
            let Piece::Slice(span) = w.piece else {
                return None;
            };
            whole = Some(match whole {
                None => span,
                Some(w) if joiner.is_empty() && w.end == span.start => Span::new(w.start, span.end),
                Some(w)
                    if !joiner.is_empty()
                        && w.end + joiner.len() == span.start
                        && Span::new(w.end, span.start).text(self.source) == joiner =>
                {
                    Span::new(w.start, span.end)
                }
                Some(_) => return None,
            });
        }
        whole
    }

    /// An oversized piece with no separators left: LangChain appends it as it
    /// is (not stripped).
    fn pass_through(&mut self, piece: &Piece, k: usize, parent: Option<NodeId>, depth: usize) {
        let text = match piece {
            Piece::Slice(_) => None,
            Piece::Glued(g) => Some(g.text.clone()),
        };
        self.emit(
            text,
            piece.cover(),
            parent,
            depth,
            Some((k, k + 1)),
            None,
            NotSlice::EmptyPiecesDropped,
        );
    }

    /// Records a chunk whose text is `text`, or the span's own when `None`.
    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        text: Option<String>,
        span: Span,
        parent: Option<NodeId>,
        depth: usize,
        parts: Option<(usize, usize)>,
        close: Option<Close>,
        reason: NotSlice,
    ) {
        let slice = span.text(self.source);
        // `None` from here on: the chunk's text is the span's.
        let text = text.filter(|text| text != slice);
        if let Collect::Strings(strings) = &mut self.collect {
            strings.push(text.map_or(Cow::Borrowed(slice), Cow::Owned));
            return;
        }
        let len = match &text {
            None => self.lengths.len(span),
            Some(text) => self.len(text),
        };
        let index = self.made();
        let too_big = len > self.config.chunk_size;
        let node = self.node(Node {
            chunk: Some(index),
            ..Node::fits(span, len, depth, parent, too_big, parts, close)
        });
        match &mut self.collect {
            Collect::Plain {
                chunks,
                texts,
                starts,
                next_start,
            } => {
                starts.push(next_start.next(self.source, &self.lengths, span, text.as_deref()));
                Chunk::push_next(chunks, self.pending, span, len, node);
                if let Some(text) = text {
                    texts.push((index, text, reason));
                }
            }
            Collect::Strings(_) => unreachable!("strings returned above"),
        }
    }
}

/// `e`, raised by compiling separator `index` (`pattern`, wrapped in a group
/// when `wrapped`), as this engine's error.
fn regex_error(index: usize, pattern: &str, e: PythonRegexError, wrapped: bool) -> LangChainError {
    let compiled = if wrapped {
        format!("({pattern})")
    } else {
        pattern.to_string()
    };
    let pattern = pattern.to_string();
    // Both are there for every pattern Python rejects.
    let exception = e.python_exception().unwrap_or("re.error");
    let message = e.python_message(&compiled).unwrap_or_default();
    match e {
        PythonRegexError::Invalid { reason, position } => LangChainError::InvalidRegex {
            index,
            pattern,
            reason,
            position: position.map(|p| if wrapped { p.saturating_sub(1) } else { p }),
            wrapped,
            exception,
            message,
        },
        PythonRegexError::Unsupported { feature } => LangChainError::UnsupportedRegex {
            index,
            pattern,
            feature,
        },
        PythonRegexError::TooComplex => LangChainError::RegexTooComplex { index, pattern },
    }
}

/// `create_documents(..., add_start_index=True)`'s `start_index`, chunk by
/// chunk: `text.find(chunk, max(0, index + previous_chunk_len -
/// chunk_overlap))` in chars, -1 when not found. `previous_chunk_len` is
/// Python's `len` (chars) whatever the length function, and `chunk_overlap`
/// is in the length function's unit, as in LangChain.
struct StartIndex {
    overlap: usize,
    /// The source's chars, counted at the first chunk.
    total: Option<i64>,
    /// LangChain's `index` and `previous_chunk_len`.
    index: i64,
    previous_len: i64,
    /// A char offset and its byte offset, where the last search started:
    /// without a table of continuation bytes (a source over 4 GiB), the
    /// next start is counted on from there, since starts mostly move
    /// forward.
    cursor: (usize, usize),
    /// The char and byte offsets of the end of the last chunk, when it was
    /// found at its own span: without overlap, where the next search starts.
    last_end: Option<(usize, usize)>,
}

impl StartIndex {
    fn new(overlap: usize) -> StartIndex {
        StartIndex {
            overlap,
            total: None,
            index: 0,
            previous_len: 0,
            cursor: (0, 0),
            last_end: None,
        }
    }

    /// The `start_index` of the next chunk of `source`: `span`, whose text
    /// is `own` where LangChain's is not the span's.
    fn next(&mut self, source: &str, lengths: &Measure<'_>, span: Span, own: Option<&str>) -> i64 {
        let total = *self
            .total
            .get_or_insert_with(|| lengths.chars(Span::new(0, source.len())) as i64);
        let from = (self.index + self.previous_len - self.overlap as i64).max(0);
        // Where the chunk was found, in chars and bytes.
        let found = if from > total {
            None
        } else {
            let target = from as usize;
            let known = self.last_end.filter(|end| end.0 == target).map(|end| end.1);
            let b = known
                .or_else(|| lengths.char_start(target))
                .unwrap_or_else(|| {
                    let chars = Counter::CHARS;
                    if target < self.cursor.0 {
                        self.cursor = (0, 0);
                    }
                    chars.forward(source, self.cursor.1, target - self.cursor.0)
                });
            self.cursor = (target, b);
            // A slice of the source at or after `from` is found by the time
            // the search reaches it, so only the text up to its end is
            // searched (nothing at all when it starts at `from`, the usual
            // case without overlap).
            let bound = (own.is_none() && span.start >= b).then_some(span.end);
            find(source, b, own.unwrap_or_else(|| span.text(source)), bound)
                .map(|i| (target + lengths.chars(Span::new(b, i)), i))
        };
        self.index = found.map_or(-1, |(chars, _)| chars as i64);
        self.previous_len = match own {
            None => lengths.chars(span),
            Some(text) => text.chars().count(),
        } as i64;
        // Found at its own span, the chunk ends at `span.end`.
        self.last_end = found
            .filter(|&(_, at)| own.is_none() && at == span.start)
            .map(|(chars, _)| (chars + self.previous_len as usize, span.end));
        self.index
    }
}

/// The first occurrence of `needle` in `source` at or after byte `from`
/// (Python's `str.find`). A chunk that is not a slice of the source is
/// usually not found at all, and then the whole rest of the text is scanned
/// for it; past a first window, that scan goes through memchr's
/// SIMD substring search, many times faster than `str::find` on long texts.
///
/// `bound`, when given, is a point the needle is known to end at (after
/// `from`): the first occurrence ends there or before, so the search stops there.
fn find(source: &str, from: usize, needle: &str, bound: Option<usize>) -> Option<usize> {
    const WINDOW: usize = 1 << 16;
    if needle.is_empty() {
        return Some(from);
    }
    if let Some(end) = bound {
        // The needle is there at `start`; usually only a separator or some
        // whitespace lies between `from` and it: try the few places there
        // that start like the needle before building a substring searcher
        // (which costs as much as reading the needle), and never compare
        // the needle with itself.
        let (first, start) = (needle.as_bytes()[0], end - needle.len());
        let mut tries = 0;
        for (i, &b) in source.as_bytes()[from..start].iter().enumerate() {
            if b != first {
                continue;
            }
            if source.as_bytes()[from + i..].starts_with(needle.as_bytes()) {
                return Some(from + i);
            }
            tries += 1;
            if tries == 8 {
                break;
            }
        }
        if tries < 8 {
            // Every place before it was tried.
            return Some(start);
        }
        #[cfg(not(target_arch = "wasm32"))]
        let found = memchr::memmem::find(&source.as_bytes()[from..end], needle.as_bytes());
        #[cfg(target_arch = "wasm32")]
        let found = source[from..end].find(needle);
        return found.map(|i| from + i);
    }
    if source[from..].starts_with(needle) {
        return Some(from);
    }
    let mut end = (from + WINDOW + needle.len()).min(source.len());
    while !source.is_char_boundary(end) {
        end -= 1;
    }
    if let Some(i) = source[from..end].find(needle) {
        return Some(from + i);
    }
    if end == source.len() {
        return None;
    }
    #[cfg(not(target_arch = "wasm32"))]
    let found = memchr::memmem::find(&source.as_bytes()[from..], needle.as_bytes());
    #[cfg(target_arch = "wasm32")]
    let found = source[from..].find(needle);
    found.map(|i| from + i)
}
