//! The binary form of a report: the same fields as the report object, packed
//! into one buffer that a worker hands over without copying (a transferable
//! `ArrayBuffer`).
//!
//! A report of a 10 MB document is about 36 000 chunks and 49 000 tree nodes.
//! As a JS object (or JSON text) reading it back into Rust on the page takes
//! far longer than a frame; as this buffer it is one pass over a few
//! megabytes. The chunks' text is left out (it is the source between the
//! offsets, which the caller sent), except where a library's chunk is not a
//! slice of the source.
//!
//! Layout, every number an unsigned LEB128 varint, every string its byte
//! length then its UTF-8 bytes, every optional value `0` or `1` then the
//! value (an optional index is `0` or `index + 1`). A span is its start, as
//! the (zigzag) distance from the start of the span before it in the same
//! list, then its length: small numbers, one or two bytes each, where byte
//! offsets into 10 MB would take four.
//!
//! ```text
//! "CSA8"
//! config    strategy, size, overlap, unit, [pattern, regex, level]*, placement, trim,
//!           then what only the strategy reads:
//!           langchain-markdown: each_line, then_recursive? [pattern, regex, level]*
//!           markdown: heading_prefix, table_header (repeat?)
//!           semantic: breakpoint name, amount? (float), buffer,
//!           number_of_chunks?, min_chunk_size?, embedder: its name,
//!           `lexical` or `model:N` for the worker's loaded model
//!           chonkie-recursive: min_characters_per_chunk
//!           level: a named level's name (`sentence`), or empty
//! chunks    n, then n × (bytes, chars, len, cut, overlap?, node?)
//!           overlap: its bytes, from the chunk's own start
//!           cut: 0 end, 1 window, 2 hard, 3 structure (level), 4 breakpoint,
//!           5 + i the separator at index i
//! nodes     n, then n × (bytes, chars, len, depth, parent?,
//!           [absent]*, action, too_big, parts?, close, chunk?)
//!           action: 0 fits, 1 empty, 2 split (separator, parts),
//!                   3 hard cut (separator?, windows), 4 windows (stride),
//!                   5 structure (level, parts), 6 chonkie level (level, parts),
//!                   7 sentences (parts)
//!           close: 0 none, 1 next part would exceed (group_len, gap_len,
//!                   next_len, would_be), 2 parent ended
//!           level: 1 to 6 heading N, 7 block, 8 table row, 9 fence line
//! library?  n × (text?, start_index? zigzag, not_slice, metadata? [key, value]*)
//!           not_slice: 0 none, 1 pattern joined (separator), 2 joined with nothing
//!           (separator), 3 empty pieces dropped, 4 lines rejoined,
//!           5 tokens decoded apart
//! langchain?  [warning]*, [separator]*, regex
//! markdown? [level, bytes, text bytes (from the heading's start)]*,
//!           n × ([heading]*, prefix?, table header bytes?)
//! checks?   coverage, max_size, order, overlap, determinism: each (ok, detail)
//! tokens?   per chunk: n, then n token ends (each from the one before)
//! sentences?  [span]*, then n × (stop span, next − stop start, end, reason name)
//! semantic? embedder, embedding calls, vectors, dims, [sentence span]*,
//!           [distance]*, gradient? [value]*, threshold?, [breakpoint]*,
//!           n × (first sentence, last, span, text?, chars, start_index,
//!           first chunk, last, fallback); each float its 8 bytes, little-endian
//! chosen?   [pattern, regex, level]*: the separators the engine chose as it
//!           went (semchunk), which the cuts and the nodes index
//! ```
//!
//! A node's children are not stored: nodes are in visit order, so they are
//! the later nodes naming it as parent, in order.

use crate::contract::Analysis;
use chunkscope::langchain::NotSlice;
use chunkscope::semantic::{EmbedderChoice, SemanticChunk, SemanticConfig, SemanticTrace};
use chunkscope::sentence::{Decision, Reason, Sentences};
use chunkscope::{
    Action, Check, Checks, Chunk, Close, Config, Cut, Heading, LangChainFacts, Level, LibraryFact,
    MarkdownChunk, MarkdownFacts, Node, Output, Property, Separator, SeparatorLevel, Span,
    Strategy, StrategyConfig, Trace,
};

const MAGIC: &[u8; 4] = b"CSA8";

/// Packs `analysis` into a buffer that [`decode`] reads back.
pub fn encode(analysis: &Analysis) -> Vec<u8> {
    let output = &analysis.output;
    let mut w = Writer(Vec::with_capacity(
        64 + output.chunks.len() * 16 + output.trace.nodes.len() * 24,
    ));
    w.0.extend_from_slice(MAGIC);
    write_config(&mut w, &analysis.config);
    let asked = analysis.asked;
    for flag in [asked.trace, asked.checks, asked.determinism, asked.tokens] {
        w.flag(flag);
    }
    w.num(output.chunks.len());
    let (mut bytes, mut chars) = (0, 0);
    for (chunk, &(start, end)) in output.chunks.iter().zip(&analysis.chunk_chars) {
        w.span(bytes, chunk.span);
        w.span(chars, Span::new(start, end));
        (bytes, chars) = (chunk.span.start, start);
        w.num(chunk.len);
        match chunk.cut {
            Cut::End => w.num(0),
            Cut::Window => w.num(1),
            Cut::Hard => w.num(2),
            Cut::Structure(level) => {
                w.num(3);
                w.num(level_code(level));
            }
            Cut::Breakpoint => w.num(4),
            Cut::Separator(i) => w.num(i + 5),
        }
        w.flag(chunk.overlap.is_some());
        if let Some(o) = chunk.overlap {
            w.span(chunk.span.start, o);
        }
        w.index(chunk.node);
    }
    w.num(output.trace.nodes.len());
    let (mut bytes, mut chars) = (0, 0);
    for (node, &(start, end)) in output.trace.nodes.iter().zip(&analysis.node_chars) {
        w.span(bytes, node.span);
        w.span(chars, Span::new(start, end));
        (bytes, chars) = (node.span.start, start);
        write_node(&mut w, node);
    }
    w.flag(output.library.is_some());
    for fact in output.library.iter().flatten() {
        w.flag(fact.text().is_some());
        if let Some(text) = fact.text() {
            w.str(text);
        }
        // Zigzag: -1 (not found) is the common negative value.
        w.flag(fact.start_index.is_some());
        if let Some(start_index) = fact.start_index {
            w.num(zig(start_index));
        }
        write_not_slice(&mut w, fact.not_slice());
        w.flag(fact.metadata().is_some());
        if let Some(metadata) = fact.metadata() {
            w.num(metadata.len());
            for (key, value) in metadata {
                w.str(key);
                w.str(value);
            }
        }
    }
    w.flag(output.langchain.is_some());
    if let Some(facts) = &output.langchain {
        w.num(facts.warnings.len());
        facts.warnings.iter().for_each(|s| w.str(s));
        w.num(facts.separators.len());
        facts.separators.iter().for_each(|s| w.str(s));
        w.flag(facts.regex);
    }
    w.flag(output.markdown.is_some());
    if let Some(facts) = &output.markdown {
        w.num(facts.headings.len());
        let mut at = 0;
        for h in &facts.headings {
            w.num(usize::from(h.level));
            w.span(at, h.span);
            w.span(h.span.start, h.text);
            at = h.span.start;
        }
        for chunk in &facts.chunks {
            w.num(chunk.path.len());
            chunk.path.iter().for_each(|&h| w.num(h));
            w.flag(chunk.prefix.is_some());
            if let Some(prefix) = &chunk.prefix {
                w.str(prefix);
            }
            w.flag(chunk.table_header.is_some());
            if let Some(header) = chunk.table_header {
                w.span(0, header);
            }
        }
    }
    w.flag(analysis.checks.is_some());
    if let Some(checks) = &analysis.checks {
        for property in Property::ALL {
            let check = checks.get(property);
            w.flag(check.is_some());
            if let Some(check) = check {
                w.flag(check.ok);
                w.str(&check.detail);
            }
        }
    }
    w.flag(analysis.token_ends.is_some());
    for ends in analysis.token_ends.iter().flatten() {
        w.num(ends.len());
        let mut at = 0;
        for &end in ends {
            w.num(end - at);
            at = end;
        }
    }
    w.flag(output.sentences.is_some());
    if let Some(found) = &output.sentences {
        w.num(found.spans.len());
        let mut at = 0;
        for s in &found.spans {
            w.span(at, *s);
            at = s.start;
        }
        w.num(found.decisions.len());
        let mut at = 0;
        for d in &found.decisions {
            w.span(at, d.stop);
            at = d.stop.start;
            w.num(d.at - d.stop.start);
            w.flag(d.end);
            w.str(d.reason.name());
        }
    }
    w.flag(output.trace.semantic.is_some());
    if let Some(t) = output.trace.semantic.as_deref() {
        write_semantic(&mut w, t);
    }
    w.flag(output.separators.is_some());
    if let Some(chosen) = &output.separators {
        write_separators(&mut w, chosen);
    }
    w.0
}

fn write_semantic(w: &mut Writer, t: &SemanticTrace) {
    w.str(&t.embedder);
    w.num(t.embedding_calls);
    w.num(t.vectors);
    w.num(t.dims);
    w.num(t.sentences.len());
    let mut at = 0;
    for &s in &t.sentences {
        w.span(at, s);
        at = s.start;
    }
    w.floats(&t.distances);
    w.flag(t.gradient.is_some());
    if let Some(g) = &t.gradient {
        w.floats(g);
    }
    w.flag(t.threshold.is_some());
    if let Some(x) = t.threshold {
        w.float(x);
    }
    w.num(t.breakpoints.len());
    t.breakpoints.iter().for_each(|&b| w.num(b));
    w.num(t.chunks.len());
    let mut at = 0;
    for c in &t.chunks {
        w.num(c.sentences.0);
        w.num(c.sentences.1);
        w.span(at, c.span);
        at = c.span.start;
        w.flag(c.text.is_some());
        if let Some(text) = &c.text {
            w.str(text);
        }
        w.num(c.chars);
        w.num(c.start_index);
        w.num(c.chunks.0);
        w.num(c.chunks.1);
        w.flag(c.fallback);
    }
}

fn read_semantic(r: &mut Reader) -> Result<SemanticTrace, String> {
    let embedder = r.string()?;
    let (embedding_calls, vectors, dims) = (r.num()?, r.num()?, r.num()?);
    let n = r.count()?;
    let mut sentences = Vec::with_capacity(n);
    let mut at = 0;
    for _ in 0..n {
        let s = r.span(at)?;
        at = s.start;
        sentences.push(s);
    }
    let distances = r.floats()?;
    let gradient = if r.flag()? { Some(r.floats()?) } else { None };
    let threshold = if r.flag()? { Some(r.float()?) } else { None };
    let n = r.count()?;
    let breakpoints = (0..n).map(|_| r.num()).collect::<Result<Vec<_>, _>>()?;
    let n = r.count()?;
    let mut chunks = Vec::with_capacity(n);
    let mut at = 0;
    for _ in 0..n {
        let sentences = (r.num()?, r.num()?);
        let span = r.span(at)?;
        at = span.start;
        let text = if r.flag()? { Some(r.string()?) } else { None };
        chunks.push(SemanticChunk {
            sentences,
            span,
            text,
            chars: r.num()?,
            start_index: r.num()?,
            chunks: (r.num()?, r.num()?),
            fallback: r.flag()?,
        });
    }
    Ok(SemanticTrace {
        embedder,
        sentences,
        embedding_calls,
        vectors,
        dims,
        distances,
        gradient,
        threshold,
        breakpoints,
        chunks,
    })
}

/// Reads a buffer made by [`encode`] for `text`. Anything that is not such a
/// buffer (cut short, another format, offsets outside `text` or off its char
/// boundaries, indices that point nowhere) is an error, never a panic, so the
/// page can draw whatever decodes without checking it again.
pub fn decode(bytes: &[u8], text: &str) -> Result<Analysis, String> {
    let mut r = Reader {
        bytes,
        at: 0,
        text,
        ascii: text.is_ascii(),
    };
    if r.take(MAGIC.len())? != MAGIC {
        return Err("not a chunkscope report (the buffer does not start with CSA8)".into());
    }
    let config = read_config(&mut r)?;
    let (trace, checked) = (r.flag()?, r.flag()?);
    let (determinism, tokens) = (r.flag()?, r.flag()?);
    let asked = match (trace, checked) {
        (true, true) => chunkscope::Detail::FULL,
        (false, false) => chunkscope::Detail::CHUNKS,
        _ => {
            return Err(
                "a report asks for a trace without checks, or checks without a trace".into(),
            )
        }
    }
    .with_determinism(determinism)
    .with_tokens(tokens);
    let n = r.count()?;
    let mut chunks = Vec::with_capacity(n);
    let mut chunk_chars = Vec::with_capacity(n);
    let (mut bytes_at, mut chars_at) = (0, 0);
    for index in 0..n {
        let span = r.span(bytes_at)?;
        let chars = r.char_span(chars_at)?;
        (bytes_at, chars_at) = (span.start, chars.0);
        chunk_chars.push(chars);
        let len = r.num()?;
        let cut = match r.num()? {
            0 => Cut::End,
            1 => Cut::Window,
            2 => Cut::Hard,
            3 => Cut::Structure(read_level(&mut r)?),
            4 => Cut::Breakpoint,
            i => Cut::Separator(i - 5),
        };
        let overlap = if r.flag()? {
            Some(r.span(span.start)?)
        } else {
            None
        };
        let node = r.index()?;
        chunks.push(Chunk {
            index,
            span,
            len,
            cut,
            overlap,
            node,
        });
    }
    let m = r.count()?;
    let mut nodes: Vec<Node> = Vec::with_capacity(m);
    let mut node_chars = Vec::with_capacity(m);
    let (mut bytes_at, mut chars_at) = (0, 0);
    for id in 0..m {
        let span = r.span(bytes_at)?;
        let chars = r.char_span(chars_at)?;
        (bytes_at, chars_at) = (span.start, chars.0);
        let node = read_node(&mut r, span)?;
        if let Some(parent) = node.parent {
            let Some(p) = nodes.get_mut(parent).filter(|_| parent < id) else {
                return Err(format!(
                    "node {id} names node {parent} as its parent, which comes after it"
                ));
            };
            p.children.push(id);
        }
        nodes.push(node);
        node_chars.push(chars);
    }
    let library = if r.flag()? {
        let mut facts = Vec::with_capacity(n);
        for _ in 0..n {
            let text = if r.flag()? { Some(r.string()?) } else { None };
            let start_index = if r.flag()? {
                Some(unzig(r.num()?))
            } else {
                None
            };
            let not_slice = read_not_slice(&mut r)?;
            let metadata = if r.flag()? {
                let pairs = r.count()?;
                let mut metadata = Vec::with_capacity(pairs);
                for _ in 0..pairs {
                    metadata.push((r.string()?, r.string()?));
                }
                Some(metadata)
            } else {
                None
            };
            facts.push(LibraryFact::new(text, not_slice, start_index, metadata));
        }
        Some(facts)
    } else {
        None
    };
    let langchain = if r.flag()? {
        let warnings = r.strings()?;
        let separators = r.strings()?;
        Some(LangChainFacts {
            warnings,
            separators,
            regex: r.flag()?,
        })
    } else {
        None
    };
    let markdown = if r.flag()? {
        let count = r.count()?;
        let mut headings = Vec::with_capacity(count);
        let mut at = 0;
        for _ in 0..count {
            let level = r.num()?;
            let span = r.span(at)?;
            let text = r.span(span.start)?;
            at = span.start;
            headings.push(Heading {
                level: u8::try_from(level)
                    .ok()
                    .filter(|l| (1..=6).contains(l))
                    .ok_or_else(|| format!("a heading of level {level}"))?,
                span,
                text,
            });
        }
        let mut facts = Vec::with_capacity(n);
        for _ in 0..n {
            let count = r.count()?;
            let path = (0..count)
                .map(|_| {
                    let h = r.num()?;
                    if h < headings.len() {
                        Ok(h)
                    } else {
                        Err(format!(
                            "a heading path names heading {h}, which does not exist"
                        ))
                    }
                })
                .collect::<Result<Vec<usize>, String>>()?;
            let prefix = if r.flag()? { Some(r.string()?) } else { None };
            let table_header = if r.flag()? { Some(r.span(0)?) } else { None };
            facts.push(MarkdownChunk {
                path,
                prefix,
                table_header,
            });
        }
        Some(MarkdownFacts {
            headings,
            chunks: facts,
        })
    } else {
        None
    };
    let checks = if r.flag()? {
        let mut read = || -> Result<Option<Check>, String> {
            if !r.flag()? {
                return Ok(None);
            }
            Ok(Some(Check {
                ok: r.flag()?,
                detail: r.string()?,
            }))
        };
        let mut judged = Vec::with_capacity(Property::ALL.len());
        for property in Property::ALL {
            judged.push((property, read()?));
        }
        let required = |i: usize| {
            judged[i]
                .1
                .clone()
                .ok_or_else(|| format!("the report leaves out the {} check", judged[i].0.name()))
        };
        let mut checks = Checks::new(required(0)?, required(1)?, required(2)?, required(3)?);
        for (property, check) in judged.into_iter().skip(4) {
            if let Some(check) = check {
                checks.set(property, check);
            }
        }
        Some(checks)
    } else {
        None
    };
    let token_ends = if r.flag()? {
        let mut all = Vec::with_capacity(n);
        for chunk in &chunks {
            let count = r.count()?;
            let mut ends = Vec::with_capacity(count);
            let mut at = 0usize;
            for _ in 0..count {
                at = at.saturating_add(r.num()?);
                ends.push(at);
            }
            if ends.last().is_some_and(|&end| end != chunk.span.len()) {
                return Err(format!(
                    "chunk {}'s tokens do not end where the chunk does",
                    chunk.index
                ));
            }
            all.push(ends);
        }
        Some(all)
    } else {
        None
    };
    let sentences = if r.flag()? {
        let n = r.count()?;
        let mut spans = Vec::with_capacity(n);
        let mut at = 0;
        for _ in 0..n {
            let s = r.span(at)?;
            at = s.start;
            spans.push(s);
        }
        let n = r.count()?;
        let mut decisions = Vec::with_capacity(n);
        let mut at = 0;
        for _ in 0..n {
            let stop = r.span(at)?;
            at = stop.start;
            let next = stop.start.saturating_add(r.num()?);
            if !r.text.is_char_boundary(next) {
                return Err(format!(
                    "a sentence decision points at {next}, not a char boundary"
                ));
            }
            let end = r.flag()?;
            let name = r.string()?;
            let reason = Reason::from_name(&name)
                .ok_or_else(|| format!("unknown sentence reason {name:?}"))?;
            decisions.push(Decision {
                at: next,
                stop,
                end,
                reason,
            });
        }
        Some(Sentences { spans, decisions })
    } else {
        None
    };
    let semantic = if r.flag()? {
        Some(Box::new(read_semantic(&mut r)?))
    } else {
        None
    };
    let chosen = if r.flag()? {
        Some(read_separators(&mut r)?)
    } else {
        None
    };
    if r.at != bytes.len() {
        return Err(format!(
            "{} bytes left over after the report",
            bytes.len() - r.at
        ));
    }
    let output = Output {
        chunks,
        trace: Trace { nodes, semantic },
        library,
        langchain,
        markdown,
        sentences,
        separators: chosen,
    };
    let separators = output.cut_separators(&config.separators);
    let analysis = Analysis {
        config,
        asked,
        engine: chunkscope::Analysis::from_parts(
            output,
            checks,
            chunk_chars,
            node_chars,
            separators,
            token_ends,
        ),
    };
    check_indices(&analysis)?;
    Ok(analysis)
}

/// Every index in the analysis points at something that exists.
fn check_indices(a: &Analysis) -> Result<(), String> {
    let (chunks, nodes) = (&a.output.chunks, &a.output.trace.nodes);
    let separators = a.separators().len();
    let separator_ok = |i: usize| i < separators;
    for c in chunks {
        if c.node.is_some_and(|id| id >= nodes.len()) {
            return Err(format!(
                "chunk {} names a node that does not exist",
                c.index
            ));
        }
        if matches!(c.cut, Cut::Separator(i) if !separator_ok(i)) {
            return Err(format!(
                "chunk {} was cut by a separator that does not exist",
                c.index
            ));
        }
    }
    for (id, n) in nodes.iter().enumerate() {
        let action_ok = match n.action {
            Action::Split { separator, .. } => separator_ok(separator),
            Action::HardCut { separator, .. } => separator.is_none_or(separator_ok),
            Action::Fits
            | Action::Empty
            | Action::Windows { .. }
            | Action::Structure { .. }
            | Action::ChonkieLevel { .. }
            | Action::Sentences { .. } => true,
        };
        if n.chunk.is_some_and(|c| c >= chunks.len())
            || !action_ok
            || !n.absent.iter().all(|&i| separator_ok(i))
        {
            return Err(format!(
                "node {id} points at a chunk or separator that does not exist"
            ));
        }
    }
    if a.output
        .library
        .as_ref()
        .is_some_and(|l| l.len() != chunks.len())
    {
        return Err("the library's facts do not match the chunks".into());
    }
    Ok(())
}

/// Why a library's text is not the slice: 0 for a slice, then one code per
/// reason, the separator's index after it where the reason has one.
fn write_not_slice(w: &mut Writer, not_slice: Option<NotSlice>) {
    match not_slice {
        None => w.num(0),
        Some(NotSlice::PatternJoined { separator }) => {
            w.num(1);
            w.num(separator);
        }
        Some(NotSlice::JoinedWithNothing { separator }) => {
            w.num(2);
            w.num(separator);
        }
        Some(NotSlice::EmptyPiecesDropped) => w.num(3),
        Some(NotSlice::LinesRejoined) => w.num(4),
        Some(NotSlice::TokensDecodedApart) => w.num(5),
        Some(NotSlice::HeaderRebuilt) => w.num(6),
        // A reason the engine gains gets its code here; until then it is sent
        // as the most general one rather than lost.
        Some(_) => w.num(3),
    }
}

fn read_not_slice(r: &mut Reader) -> Result<Option<NotSlice>, String> {
    Ok(match r.num()? {
        0 => None,
        1 => Some(NotSlice::PatternJoined {
            separator: r.num()?,
        }),
        2 => Some(NotSlice::JoinedWithNothing {
            separator: r.num()?,
        }),
        3 => Some(NotSlice::EmptyPiecesDropped),
        4 => Some(NotSlice::LinesRejoined),
        5 => Some(NotSlice::TokensDecodedApart),
        6 => Some(NotSlice::HeaderRebuilt),
        code => {
            return Err(format!(
                "unknown reason {code} for a chunk that is not a slice"
            ))
        }
    })
}

/// The common settings, then only what the strategy itself reads.
fn write_config(w: &mut Writer, c: &Config) {
    w.str(c.kind().name());
    w.num(c.size);
    w.num(c.overlap);
    w.str(c.unit.name());
    write_separators(w, &c.separators);
    w.str(c.placement.name());
    w.flag(c.trim);
    match &c.strategy {
        StrategyConfig::LangChainMarkdown(own) => {
            w.flag(own.each_line);
            w.flag(own.then_recursive.is_some());
            if let Some(list) = &own.then_recursive {
                write_separators(w, list);
            }
        }
        StrategyConfig::Markdown(own) => {
            w.flag(own.heading_prefix);
            w.flag(own.table_header == chunkscope::TableHeader::Repeat);
        }
        StrategyConfig::Semantic(s) => {
            w.str(s.breakpoint.name());
            w.flag(s.amount.is_some());
            if let Some(x) = s.amount {
                w.float(x);
            }
            w.num(s.buffer);
            for n in [s.number_of_chunks, s.min_chunk_size] {
                w.flag(n.is_some());
                if let Some(n) = n {
                    w.num(n);
                }
            }
            w.str(s.embedder.name());
        }
        StrategyConfig::ChonkieRecursive(own) => w.num(own.min_characters_per_chunk),
        _ => {}
    }
}

/// The semantic settings [`write_config`] wrote; the embedder by its name.
fn read_semantic_config(r: &mut Reader) -> Result<SemanticConfig, String> {
    let breakpoint = r.string()?.parse()?;
    let amount = if r.flag()? { Some(r.float()?) } else { None };
    let buffer = r.num()?;
    let mut optional =
        || -> Result<Option<usize>, String> { Ok(if r.flag()? { Some(r.num()?) } else { None }) };
    let number_of_chunks = optional()?;
    let min_chunk_size = optional()?;
    let embedder = EmbedderChoice::named(r.string()?);
    Ok(SemanticConfig {
        breakpoint,
        amount,
        buffer,
        number_of_chunks,
        min_chunk_size,
        embedder,
    })
}

fn write_separators(w: &mut Writer, list: &[Separator]) {
    w.num(list.len());
    for s in list {
        w.str(&s.pattern);
        w.flag(s.regex);
        w.str(s.level.map_or("", |l| l.name()));
    }
}

fn read_config(r: &mut Reader) -> Result<Config, String> {
    let strategy: Strategy = r.string()?.parse()?;
    let size = r.num()?;
    let overlap = r.num()?;
    let unit = r.string()?.parse()?;
    let separators = read_separators(r)?;
    let placement = r.string()?.parse()?;
    let trim = r.flag()?;
    let strategy = match strategy.into() {
        StrategyConfig::LangChainMarkdown(_) => {
            StrategyConfig::LangChainMarkdown(chunkscope::HeaderSplitConfig {
                each_line: r.flag()?,
                then_recursive: if r.flag()? {
                    Some(read_separators(r)?)
                } else {
                    None
                },
            })
        }
        StrategyConfig::Markdown(_) => StrategyConfig::Markdown(chunkscope::MarkdownConfig {
            heading_prefix: r.flag()?,
            table_header: if r.flag()? {
                chunkscope::TableHeader::Repeat
            } else {
                chunkscope::TableHeader::Once
            },
        }),
        StrategyConfig::Semantic(_) => StrategyConfig::Semantic(read_semantic_config(r)?),
        StrategyConfig::ChonkieRecursive(_) => {
            StrategyConfig::ChonkieRecursive(chunkscope::ChonkieConfig {
                min_characters_per_chunk: r.num()?,
            })
        }
        other => other,
    };
    Ok(Config {
        strategy,
        size,
        overlap,
        unit,
        separators,
        placement,
        trim,
    })
}

fn read_separators(r: &mut Reader) -> Result<Vec<Separator>, String> {
    let count = r.count()?;
    let mut separators = Vec::with_capacity(count);
    for _ in 0..count {
        let (pattern, regex) = (r.string()?, r.flag()?);
        let level = match r.string()?.as_str() {
            "" => None,
            name => Some(
                SeparatorLevel::named(name)
                    .ok_or_else(|| format!("unknown separator level {name:?}"))?,
            ),
        };
        separators.push(Separator {
            pattern,
            regex,
            level,
        });
    }
    Ok(separators)
}

fn level_code(level: Level) -> usize {
    match level {
        Level::Heading(n) => usize::from(n),
        Level::Block => 7,
        Level::TableRow => 8,
        Level::FenceLine => 9,
    }
}

fn read_level(r: &mut Reader) -> Result<Level, String> {
    Ok(match r.num()? {
        n @ 1..=6 => Level::Heading(n as u8),
        7 => Level::Block,
        8 => Level::TableRow,
        9 => Level::FenceLine,
        other => return Err(format!("unknown structure level {other}")),
    })
}

fn write_node(w: &mut Writer, n: &Node) {
    w.num(n.len);
    w.num(n.depth);
    w.index(n.parent);
    w.num(n.absent.len());
    n.absent.iter().for_each(|&i| w.num(i));
    match n.action {
        Action::Fits => w.num(0),
        Action::Empty => w.num(1),
        Action::Split { separator, parts } => {
            w.num(2);
            w.num(separator);
            w.num(parts);
        }
        Action::HardCut { separator, windows } => {
            w.num(3);
            w.index(separator);
            w.num(windows);
        }
        Action::Windows { stride } => {
            w.num(4);
            w.num(stride);
        }
        Action::Structure { level, parts } => {
            w.num(5);
            w.num(level_code(level));
            w.num(parts);
        }
        Action::ChonkieLevel { level, parts } => {
            w.num(6);
            w.num(level);
            w.num(parts);
        }
        Action::Sentences { parts } => {
            w.num(7);
            w.num(parts);
        }
    }
    w.flag(n.too_big);
    w.flag(n.parts.is_some());
    if let Some((first, last)) = n.parts {
        w.num(first);
        w.num(last);
    }
    match n.close {
        None => w.num(0),
        Some(Close::NextWouldExceed {
            group_len,
            gap_len,
            next_len,
            would_be,
        }) => {
            w.num(1);
            w.num(group_len);
            w.num(gap_len);
            w.num(next_len);
            w.num(would_be);
        }
        Some(Close::ParentEnded) => w.num(2),
    }
    w.index(n.chunk);
}

fn read_node(r: &mut Reader, span: Span) -> Result<Node, String> {
    let len = r.num()?;
    let depth = r.num()?;
    let parent = r.index()?;
    let count = r.count()?;
    let absent = (0..count).map(|_| r.num()).collect::<Result<_, _>>()?;
    let action = match r.num()? {
        0 => Action::Fits,
        1 => Action::Empty,
        2 => Action::Split {
            separator: r.num()?,
            parts: r.num()?,
        },
        3 => Action::HardCut {
            separator: r.index()?,
            windows: r.num()?,
        },
        4 => Action::Windows { stride: r.num()? },
        5 => Action::Structure {
            level: read_level(r)?,
            parts: r.num()?,
        },
        6 => match r.num()? {
            level if level < chunkscope::chonkie::LEVELS.len() => Action::ChonkieLevel {
                level,
                parts: r.num()?,
            },
            level => return Err(format!("unknown level {level} of Chonkie's rules")),
        },
        7 => Action::Sentences { parts: r.num()? },
        other => return Err(format!("unknown node action {other}")),
    };
    let too_big = r.flag()?;
    let parts = if r.flag()? {
        Some((r.num()?, r.num()?))
    } else {
        None
    };
    let close = match r.num()? {
        0 => None,
        1 => Some(Close::NextWouldExceed {
            group_len: r.num()?,
            gap_len: r.num()?,
            next_len: r.num()?,
            would_be: r.num()?,
        }),
        2 => Some(Close::ParentEnded),
        other => return Err(format!("unknown reason {other} for closing a node")),
    };
    let chunk = r.index()?;
    Ok(Node {
        span,
        len,
        depth,
        parent,
        children: Vec::new(),
        absent,
        action,
        too_big,
        parts,
        close,
        chunk,
    })
}

/// Zigzag: small negative numbers as small unsigned ones.
fn zig(v: i64) -> usize {
    ((v << 1) ^ (v >> 63)) as usize
}

fn unzig(z: usize) -> i64 {
    let z = z as i64;
    (z >> 1) ^ -(z & 1)
}

struct Writer(Vec<u8>);

impl Writer {
    fn num(&mut self, mut v: usize) {
        while v >= 0x80 {
            self.0.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    fn flag(&mut self, b: bool) {
        self.0.push(u8::from(b));
    }

    fn index(&mut self, i: Option<usize>) {
        self.num(i.map_or(0, |i| i + 1));
    }

    /// `s`, its start as the distance from `base`.
    fn span(&mut self, base: usize, s: Span) {
        self.num(zig(s.start as i64 - base as i64));
        self.num(s.len());
    }

    fn str(&mut self, s: &str) {
        self.num(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }

    /// Its 8 bytes, little-endian: exact, as the distances must be.
    fn float(&mut self, x: f64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }

    fn floats(&mut self, xs: &[f64]) {
        self.num(xs.len());
        xs.iter().for_each(|&x| self.float(x));
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The source the offsets point into.
    text: &'a str,
    /// Whether every offset into `text` is a char boundary (an ASCII text):
    /// then spans need no look at the text, which for a long one is most of
    /// the time reading takes.
    ascii: bool,
}

impl<'a> Reader<'a> {
    fn short() -> String {
        "the report is cut short".into()
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(Reader::short)?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    #[inline]
    fn num(&mut self) -> Result<usize, String> {
        // Most numbers are small: one or two bytes, no loop.
        match self.bytes.get(self.at..self.at + 2) {
            Some(&[b, _]) if b < 0x80 => {
                self.at += 1;
                Ok(usize::from(b))
            }
            Some(&[b, c]) if c < 0x80 => {
                self.at += 2;
                Ok(usize::from(b & 0x7f) | usize::from(c) << 7)
            }
            _ => self.long_num(),
        }
    }

    fn long_num(&mut self) -> Result<usize, String> {
        let mut v: u64 = 0;
        let mut shift = 0;
        while shift < 64 {
            let b = *self.bytes.get(self.at).ok_or_else(Reader::short)?;
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return usize::try_from(v)
                    .map_err(|_| "a number too large for this machine".into());
            }
            shift += 7;
        }
        Err("a number longer than 64 bits".into())
    }

    /// A count of items that each take at least one byte: never more than
    /// the bytes left, so a bad count cannot ask for a huge allocation.
    fn count(&mut self) -> Result<usize, String> {
        let n = self.num()?;
        if n > self.bytes.len() - self.at {
            return Err(Reader::short());
        }
        Ok(n)
    }

    #[inline]
    fn flag(&mut self) -> Result<bool, String> {
        match self.num()? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(format!("expected 0 or 1, found {other}")),
        }
    }

    #[inline]
    fn index(&mut self) -> Result<Option<usize>, String> {
        Ok(self.num()?.checked_sub(1))
    }

    /// A start (as its distance from `base`) and a length.
    #[inline]
    fn start_len(&mut self, base: usize) -> Result<(usize, usize), String> {
        let delta = unzig(self.num()?);
        let len = self.num()?;
        let start = i64::try_from(base)
            .ok()
            .and_then(|b| b.checked_add(delta))
            .and_then(|s| usize::try_from(s).ok());
        match start.and_then(|s| Some((s, s.checked_add(len)?))) {
            Some((start, end)) if end <= self.text.len() => Ok((start, end)),
            _ => Err(format!(
                "a span that is not a stretch of the {}-byte text",
                self.text.len()
            )),
        }
    }

    /// A byte span of the source, on its char boundaries.
    #[inline]
    fn span(&mut self, base: usize) -> Result<Span, String> {
        let (start, end) = self.start_len(base)?;
        let on_boundaries =
            self.ascii || self.text.is_char_boundary(start) && self.text.is_char_boundary(end);
        if !on_boundaries {
            return Err(format!(
                "the span {start}..{end} cuts a character of the text"
            ));
        }
        Ok(Span::new(start, end))
    }

    /// A span in chars (never past the text's length in bytes).
    #[inline]
    fn char_span(&mut self, base: usize) -> Result<(usize, usize), String> {
        self.start_len(base)
    }

    fn string(&mut self) -> Result<String, String> {
        let n = self.count()?;
        let bytes = self.take(n)?;
        std::str::from_utf8(bytes)
            .map(str::to_string)
            .map_err(|_| "a string that is not UTF-8".into())
    }

    fn strings(&mut self) -> Result<Vec<String>, String> {
        let n = self.count()?;
        (0..n).map(|_| self.string()).collect()
    }

    fn float(&mut self) -> Result<f64, String> {
        let bytes: [u8; 8] = self.take(8)?.try_into().map_err(|_| Reader::short())?;
        Ok(f64::from_le_bytes(bytes))
    }

    fn floats(&mut self) -> Result<Vec<f64>, String> {
        let n = self.count()?;
        (0..n).map(|_| self.float()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{analyze, Detail};
    use chunkscope::{Placement, Strategy, Unit};

    const PAGE: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                        COD orders get store credit.\n\nContact us 24x7.";

    fn round_trip(text: &str, config: Config, detail: Detail) -> Analysis {
        let a = analyze(text, config, detail).unwrap();
        let bytes = encode(&a);
        let back = decode(&bytes, text).unwrap();
        assert_eq!(back, a, "the round trip changed the analysis");
        back
    }

    #[test]
    fn semantic_settings_survive_the_round_trip() {
        use chunkscope::semantic::{Breakpoint, SemanticConfig};
        let settings = [
            SemanticConfig::new(),
            SemanticConfig::new().with_breakpoint(Breakpoint::Gradient, Some(80.5)),
            SemanticConfig {
                buffer: 0,
                number_of_chunks: Some(3),
                min_chunk_size: Some(12),
                ..SemanticConfig::new().with_breakpoint(Breakpoint::Interquartile, Some(0.25))
            },
        ];
        for semantic in settings {
            let config = Config {
                strategy: StrategyConfig::Semantic(semantic.clone()),
                ..Config::for_strategy(Strategy::Semantic)
            };
            let a = round_trip(PAGE, config, Detail::Full);
            assert_eq!(a.config.semantic_config(), Some(&semantic));
        }
    }

    /// The minimum reaches the page with its split, so an answer is
    /// matched to the request that asked for it.
    #[test]
    fn chonkies_minimum_survives_the_round_trip() {
        for min in [1, 24, 500] {
            let config = Config {
                size: 30,
                ..Config::for_strategy(Strategy::ChonkieRecursive)
            }
            .with_min_characters_per_chunk(min);
            let a = round_trip(PAGE, config.clone(), Detail::Full);
            assert_eq!(a.config, config);
        }
    }

    #[test]
    fn the_markdown_recipe_survives_the_round_trip() {
        let doc = "# Refunds\nWithin 5 days of approval, to the original method.\n\n\
                   ## UPI\nInstant.\n\nTo the same UPI id.";
        let config = Config {
            size: 30,
            strategy: StrategyConfig::LangChainMarkdown(chunkscope::HeaderSplitConfig {
                each_line: false,
                then_recursive: Some(vec![Separator::literal(", "), Separator::hard_cut()]),
            }),
            ..Config::for_strategy(Strategy::LangChainMarkdown)
        };
        let a = round_trip(doc, config.clone(), Detail::Full);
        assert_eq!(a.config, config);
        let facts = a.output.langchain.as_ref().unwrap();
        assert_eq!(facts.separators, ["#", "##", "###", "\n\n", ", ", ""]);
        assert_eq!(a.output.chunks[0].text(doc), "Within 5 days of approval");
        let library = a.output.library.as_ref().unwrap();
        assert!(library.iter().all(|f| f.metadata().is_some()));
        // The tree: sections under the root, the recursive levels inside.
        assert_eq!(a.output.trace.depth(), 3);
        round_trip(doc, config, Detail::Chunks);
    }

    #[test]
    fn markdown_heading_paths_prefixes_and_table_headers_survive_the_round_trip() {
        let doc = "# Fees\r\n\r\n## By card\r\n\r\n| a | b |\r\n|---|---|\r\n| 1 | 2 |\r\n\
                   | 3 | 4 |\r\n| 5 | 6 |\r\n\r\nÉtoile text here.\r\n";
        let config = Config::markdown(40).with_heading_prefix(true);
        let a = round_trip(doc, config, Detail::Full);
        let md = a.output.markdown.as_ref().unwrap();
        assert_eq!(md.headings.len(), 2);
        let last = a.output.chunks.len() - 1;
        assert_eq!(md.path_texts(doc, last), ["Fees", "By card"]);
        assert_eq!(
            md.chunks[last].prefix.as_deref(),
            Some("Fees > By card\n\n")
        );
        assert!(md.chunks.iter().any(|c| c.table_header.is_some()));
        assert!(a
            .output
            .chunks
            .iter()
            .any(|c| matches!(c.cut, Cut::Structure(Level::TableRow))));
        round_trip(doc, Config::markdown(40), Detail::Chunks);
        // A repeated table header: the configuration and each row chunk's
        // prefix (the heading path, then the header rows) come back.
        let repeat = Config::markdown(50)
            .with_heading_prefix(true)
            .with_table_header(chunkscope::TableHeader::Repeat);
        let a = round_trip(doc, repeat, Detail::Full);
        let md = a.output.markdown.as_ref().unwrap();
        assert!(md
            .chunks
            .iter()
            .any(|c| c.prefix.as_deref() == Some("Fees > By card\n\n| a | b |\r\n|---|---|\n")));
    }

    #[test]
    fn every_engine_and_detail_survives_the_round_trip() {
        let seed = Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]);
        let mut cases = 0;
        for detail in Detail::ALL {
            for strategy in Strategy::ALL {
                let mut config = seed.clone().with_strategy(strategy);
                if strategy.separators_are_header_markers() {
                    config.separators = Config::for_strategy(strategy).separators;
                    config.placement = strategy.default_placement();
                }
                if strategy == Strategy::Sentence {
                    config.separators.insert(0, Separator::sentence());
                }
                round_trip(PAGE, config, detail);
                cases += 1;
            }
        }
        assert_eq!(cases, 4 * Strategy::ALL.len());
        // The sentences and every doubtful stop come back.
        let text = "Dr. Rao paid 3.14 euros. He left… Then 「はい。」";
        let a = round_trip(text, Config::for_strategy(Strategy::Sentence), Detail::Full);
        let found = a.output.sentences.as_ref().unwrap();
        assert_eq!(found.spans.len(), 3);
        assert_eq!(found.decisions.len(), 3);
        let a = round_trip(PAGE, seed.clone(), Detail::Full);
        assert_eq!(a.output.trace.nodes[0].children, [1, 2, 7]);
        assert_eq!(a.output.chunks.len(), 5);
        // Overlap, a hard cut that ran out of separators, and multi-byte text.
        let wide = "Crème brûlée, très bon. ".repeat(6);
        let a = round_trip(
            &wide,
            Config::recursive(20)
                .with_separators([". "])
                .with_overlap(5),
            Detail::Full,
        );
        assert!(a.output.chunks.iter().any(|c| c.overlap.is_some()));
        assert!(a.output.chunks.iter().any(|c| c.cut == Cut::Hard));
        round_trip(
            &wide,
            Config::fixed(7, 2).with_unit(Unit::Bytes),
            Detail::Full,
        );
    }

    #[test]
    fn langchain_texts_and_start_indices_survive() {
        let mut config = Config::for_strategy(Strategy::LangChainCharacter)
            .with_separators([Separator::regex("(?<=\\.) ")]);
        config.size = 12;
        config.overlap = 0;
        config.placement = Placement::None;
        let a = round_trip("One. Two. Three.", config, Detail::Full);
        let facts = a.output.langchain.as_ref().unwrap();
        let first = &a.output.library.as_ref().unwrap()[0];
        assert_eq!(first.text(), Some("One.Two."));
        assert_eq!(
            first.not_slice(),
            Some(NotSlice::JoinedWithNothing { separator: 0 })
        );
        assert_eq!(first.start_index, Some(-1));
        assert!(facts.regex);
    }

    #[test]
    fn llamaindex_markdown_rebuilt_headers_and_paths_survive() {
        let text = "# A\n##\tB\nx";
        let a = round_trip(
            text,
            Config::for_strategy(Strategy::LlamaIndexMarkdown),
            Detail::Full,
        );
        let facts = a.output.library.as_ref().unwrap();
        assert_eq!(facts[1].text(), Some("## B\nx"));
        assert_eq!(facts[1].not_slice(), Some(NotSlice::HeaderRebuilt));
        assert_eq!(facts[1].start_index, Some(-1));
        let path = [("header_path".to_string(), "/A/".to_string())];
        assert_eq!(facts[1].metadata(), Some(&path[..]));
    }

    #[test]
    fn what_is_not_a_report_is_an_error() {
        let a = analyze(PAGE, Config::recursive(40), Detail::Full).unwrap();
        let bytes = encode(&a);
        assert!(decode(b"CSA7", PAGE).unwrap_err().contains("CSA8"));
        // Every cut-short prefix is refused, none panics.
        for end in 0..bytes.len() {
            assert!(
                decode(&bytes[..end], PAGE).is_err(),
                "prefix of {end} bytes"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer, PAGE).unwrap_err().contains("left over"));
        // The same buffer against a shorter text points outside it.
        assert!(decode(&bytes, &PAGE[..50])
            .unwrap_err()
            .contains("not a stretch of the 50-byte text"));
        // Offsets inside a character are refused.
        let e = analyze(
            "ééé",
            Config::fixed(1, 0).with_unit(Unit::Chars),
            Detail::Full,
        )
        .unwrap();
        assert!(decode(&encode(&e), "aéé éé")
            .unwrap_err()
            .contains("cuts a character"));
    }

    #[test]
    fn a_ten_thousand_chunk_report_is_a_few_bytes_per_field() {
        let text = "Some words here. ".repeat(10_000);
        let a = analyze(&text, Config::recursive(40), Detail::Full).unwrap();
        let bytes = encode(&a);
        assert_eq!(a.output.chunks.len(), 4286);
        assert!(bytes.len() < 40 * (a.output.chunks.len() + a.output.trace.nodes.len()));
        assert_eq!(decode(&bytes, &text).unwrap(), a);
    }
}
