//! Markdown split by its structure.
//!
//! The document is parsed once (CommonMark and tables, with pulldown-cmark's
//! source offsets), and then split level by level, from the strongest:
//!
//! 1. **Sections by heading depth.** A heading of level `L` opens a section
//!    that runs to the next heading of level `L` or less. A section that fits
//!    is a chunk, subsections included; one that does not is cut into its
//!    *intro* (its heading and the blocks before its first subsection) and its
//!    subsections, each split on its own: sections are never packed together,
//!    so every chunk lies in one well-defined section. Headings inside fences,
//!    quotes, list items or HTML blocks are not section headings.
//! 2. **Blocks** of an intro (paragraph, list item, block quote, code block,
//!    table, HTML block, thematic break, the heading itself) are packed
//!    greedily with the recursive engine's [`Packer`]: a block that fits is
//!    never cut.
//! 3. A block alone over the size: a **table** is cut before its rows and
//!    the rows packed (every chunk after the first records the table's header
//!    as its context, [`MarkdownChunk::table_header`]; with
//!    [`TableHeader::Repeat`] its embedded text also starts with the header
//!    rows, and the size counts them); a **code block** is cut before its
//!    lines and the lines packed.
//! 4. Whatever is still too big (a paragraph, a list item, one table row, one
//!    code line) is split by the configuration's separators with the
//!    recursive engine itself (by default `". "`, `" "`, then the hard cut).
//!
//! Spans are byte ranges into the source as everywhere: parts are cut at the
//! parser's block starts, so consecutive parts are contiguous and the text
//! between two blocks (blank lines, link reference definitions) belongs to the
//! part before it.
//!
//! With [`MarkdownConfig::heading_prefix`](crate::MarkdownConfig::heading_prefix) on, every chunk of a section has room for
//! `size` less the length of the section's prefix (its heading path joined by
//! `" > "`, then a blank line), so no chunk with its prefix is over the size.
//! In tokens the two lengths are added where the tokenizer restarts after the
//! prefix's blank line; a chunk starting with whitespace or `/` may be
//! tokenized together with it, and is then sized by what it adds after the
//! prefix ([`Lead`]), so prefix and chunk are never over the size together.

use crate::config::Config;
use crate::engine::{run_ours, Engine, EngineOutput, Run};
use crate::error::Error;
use crate::recursive::{self, Group, Measured, Packer, Visit};
use crate::separator::{Matcher, Searcher};
use crate::span::{trim, CharIndex, Span};
use crate::strategy::TableHeader;
use crate::trace::{Action, Cut, Heading, Level, MarkdownChunk, MarkdownFacts, NodeId};
use crate::unit::{Counter, Lead};
use pulldown_cmark::{Event, Options, Parser, Tag};

/// The Markdown strategy compiled: the separators used inside a block that
/// alone is over the size.
#[derive(Clone, Debug)]
pub(crate) struct Markdown {
    pub matchers: Vec<Matcher>,
}

impl Engine for Markdown {
    fn split(
        &self,
        text: &str,
        config: &Config,
        counter: Counter,
        record: bool,
    ) -> Result<EngineOutput, Error> {
        run_ours(&self.matchers, text, config, counter, record, |run| {
            split(run).map(Some)
        })
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

/// The prefix put before a chunk whose heading path has these texts: the
/// texts joined by `" > "`, then a blank line; nothing for an empty path.
pub fn prefix(path: &[&str]) -> String {
    if path.is_empty() {
        return String::new();
    }
    let mut out = path.join(" > ");
    out.push_str("\n\n");
    out
}

/// The prefix a section's chunks are sized after: none when the prefix is
/// off or the section has no heading path.
/// The Markdown strategy's own settings; the defaults for a configuration
/// of another strategy whose text is split here (none is today).
fn own(config: &Config) -> crate::config::MarkdownConfig {
    config.markdown_config().copied().unwrap_or_default()
}

/// Whether each chunk's heading path goes before it.
fn heading_prefix(config: &Config) -> bool {
    own(config).heading_prefix
}

fn active<'l>(config: &Config, lead: &'l Lead) -> Option<&'l Lead> {
    (heading_prefix(config) && !lead.text.is_empty()).then_some(lead)
}

/// What a block is, for splitting it when it alone is over the size.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// A section heading: index into the headings.
    Heading(usize),
    /// A table: where its delimiter row and its body rows start.
    Table { rows: Vec<usize> },
    /// A fenced or indented code block: cut by lines.
    Code,
    /// Anything else: cut by the separators.
    Other,
}

/// A top-level block (a list contributes its items).
#[derive(Clone, Debug)]
struct Block {
    start: usize,
    kind: Kind,
}

/// A section: the root (the whole text) or a heading's.
#[derive(Clone, Debug)]
struct Section {
    span: Span,
    /// Level of the heading; 0 for the root.
    level: u8,
    children: Vec<usize>,
    /// Its intro's blocks (the heading first): `blocks[first..last]`.
    blocks: (usize, usize),
    /// Its heading path: indices into the headings, its own last.
    path: Vec<usize>,
}

/// The document's structure.
struct Doc {
    headings: Vec<Heading>,
    blocks: Vec<Block>,
    /// `sections[0]` is the root.
    sections: Vec<Section>,
}

impl Section {
    /// The section's intro: from its start to its first subsection.
    fn intro(&self, sections: &[Section]) -> Span {
        let end = self
            .children
            .first()
            .map_or(self.span.end, |&c| sections[c].span.start);
        Span::new(self.span.start, end)
    }
}

/// Parses the structure the strategy cuts at. Linear in the text; the
/// parser keeps nesting on the heap, so 10 000 nested lists are no deeper a
/// call stack than one.
fn parse(source: &str) -> Doc {
    let mut blocks: Vec<Block> = Vec::new();
    let mut headings: Vec<Heading> = Vec::new();
    let mut depth = 0usize;
    let mut in_list = false;
    // The heading being read: level, span, text so far.
    let mut heading: Option<(u8, Span, Option<Span>)> = None;
    let mut table: Option<(usize, Vec<usize>)> = None;
    let parser = Parser::new_ext(source, Options::ENABLE_TABLES).into_offset_iter();
    for (event, range) in parser {
        // Offsets are checked rather than trusted: a part boundary must be
        // a char boundary of the text, in order.
        if range.start > range.end
            || range.end > source.len()
            || !source.is_char_boundary(range.start)
            || !source.is_char_boundary(range.end)
        {
            continue;
        }
        let span = Span::new(range.start, range.end);
        if depth > 0 {
            if let Some((_, _, text)) = heading.as_mut() {
                if !matches!(event, Event::End(_)) || depth > 1 {
                    *text = Some(text.map_or(span, |t| {
                        Span::new(t.start.min(span.start), t.end.max(span.end))
                    }));
                }
            }
        }
        match event {
            Event::Start(tag) => {
                if depth == 0 {
                    match tag {
                        Tag::List(_) => in_list = true,
                        Tag::Heading { level, .. } => {
                            heading = Some((level as u8, span, None));
                        }
                        Tag::Table(_) => table = Some((span.start, Vec::new())),
                        Tag::CodeBlock(_) => blocks.push(Block {
                            start: span.start,
                            kind: Kind::Code,
                        }),
                        _ => blocks.push(Block {
                            start: span.start,
                            kind: Kind::Other,
                        }),
                    }
                } else if depth == 1 {
                    if in_list && matches!(tag, Tag::Item) {
                        blocks.push(Block {
                            start: span.start,
                            kind: Kind::Other,
                        });
                    }
                    // The header row's end (the delimiter row's start) is
                    // a cut too.
                    if let (Some((_, rows)), Tag::TableRow | Tag::TableHead) =
                        (table.as_mut(), &tag)
                    {
                        rows.push(if matches!(tag, Tag::TableHead) {
                            span.end
                        } else {
                            span.start
                        });
                    }
                }
                depth += 1;
            }
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    in_list = false;
                    if let Some((level, span, text)) = heading.take() {
                        let text = text.unwrap_or(Span::new(span.start, span.start));
                        blocks.push(Block {
                            start: span.start,
                            kind: Kind::Heading(headings.len()),
                        });
                        headings.push(Heading { level, span, text });
                    }
                    if let Some((start, rows)) = table.take() {
                        blocks.push(Block {
                            start,
                            kind: Kind::Table { rows },
                        });
                    }
                }
            }
            _ if depth == 0 => blocks.push(Block {
                start: span.start,
                kind: Kind::Other,
            }),
            _ => {}
        }
    }
    // Block starts must rise strictly: a part is never empty or backwards.
    let mut last = None;
    blocks.retain(|b| {
        let keep = last.is_none_or(|l| b.start > l);
        if keep {
            last = Some(b.start);
        }
        keep
    });
    let sections = sections(source, &headings, &blocks);
    Doc {
        headings,
        blocks,
        sections,
    }
}

/// The section tree: a heading's section runs to the next heading of the
/// same level or a shallower one.
fn sections(source: &str, headings: &[Heading], blocks: &[Block]) -> Vec<Section> {
    let mut sections = vec![Section {
        span: Span::new(0, source.len()),
        level: 0,
        children: Vec::new(),
        blocks: (0, blocks.len()),
        path: Vec::new(),
    }];
    let mut open: Vec<usize> = vec![0];
    for (b, block) in blocks.iter().enumerate() {
        let Kind::Heading(h) = block.kind else {
            continue;
        };
        let level = headings[h].level;
        while let Some(&top) = open.last() {
            if top == 0 || sections[top].level < level {
                break;
            }
            sections[top].span.end = block.start;
            open.pop();
        }
        let parent = *open.last().unwrap_or(&0);
        // The parent's intro ends at its first subsection.
        if sections[parent].children.is_empty() {
            sections[parent].blocks.1 = b;
        }
        let id = sections.len();
        sections[parent].children.push(id);
        let mut path = sections[parent].path.clone();
        path.push(h);
        sections.push(Section {
            span: Span::new(block.start, source.len()),
            level,
            children: Vec::new(),
            blocks: (b, blocks.len()),
            path,
        });
        open.push(id);
    }
    // A section's intro ends at its first subsection, or at its own end.
    for section in sections.iter_mut().skip(1) {
        if section.children.is_empty() {
            let end = section.span.end;
            section.blocks.1 = blocks.partition_point(|b| b.start < end);
        }
    }
    sections
}

/// One Markdown split in progress.
struct Splitting<'r, 'a> {
    run: &'r mut Run<'a>,
    searchers: &'r [Searcher<'a>],
    doc: Doc,
    /// Each section's room and prefix (with its length), once computed.
    rooms: Vec<Option<(usize, Lead)>>,
    /// The section of each chunk emitted so far.
    chunk_sections: Vec<usize>,
    /// The table header of each chunk that has one.
    headers: Vec<(usize, Span)>,
    /// With [`TableHeader::Repeat`], each chunk whose embedded text starts
    /// with its table's header: its room and its prefix (the heading path
    /// when that is on, then the header rows and a line break).
    repeated: Vec<(usize, usize, Lead)>,
}

/// Splits `run.source` and returns what the strategy adds to each chunk.
fn split(run: &mut Run<'_>) -> Result<MarkdownFacts, Error> {
    let source = run.source;
    let matchers = run.matchers;
    let gaps = run.gaps;
    let searchers: Vec<Searcher<'_>> = matchers.iter().map(|m| Searcher::new(m, gaps)).collect();
    let doc = parse(source);
    let sections = doc.sections.len();
    let mut s = Splitting {
        run,
        searchers: &searchers,
        doc,
        rooms: vec![None; sections],
        chunk_sections: Vec::new(),
        headers: Vec::new(),
        repeated: Vec::new(),
    };
    if !source.is_empty() {
        s.section(0, 1, None, None)?;
    }
    if s.run.config.overlap > 0 {
        let config = s.run.config;
        let rooms: Vec<(usize, Option<&Lead>)> = s
            .rooms
            .iter()
            .map(|r| {
                r.as_ref()
                    .map_or((0, None), |(room, lead)| (*room, active(config, lead)))
            })
            .collect();
        let of = &s.chunk_sections;
        let repeated = &s.repeated;
        recursive::add_overlap(s.run, |i| {
            (of[i] == of[i - 1]).then(|| match repeated.binary_search_by_key(&i, |r| r.0) {
                Ok(at) => (repeated[at].1, Some(&repeated[at].2)),
                Err(_) => rooms[of[i]],
            })
        });
    }
    let prefix_on = heading_prefix(s.run.config);
    let mut chunks: Vec<MarkdownChunk> = s
        .chunk_sections
        .iter()
        .map(|&sec| MarkdownChunk {
            path: s.doc.sections[sec].path.clone(),
            prefix: if prefix_on {
                s.rooms[sec].as_ref().map(|r| r.1.text.clone())
            } else {
                None
            },
            table_header: None,
        })
        .collect();
    for &(chunk, header) in &s.headers {
        if let Some(c) = chunks.get_mut(chunk) {
            c.table_header = Some(header);
        }
    }
    for (chunk, _, lead) in s.repeated {
        if let Some(c) = chunks.get_mut(chunk) {
            c.prefix = Some(lead.text);
        }
    }
    Ok(MarkdownFacts {
        headings: s.doc.headings,
        chunks,
    })
}

impl Splitting<'_, '_> {
    /// The room a chunk of section `s` has: `size` less the prefix's length
    /// when the prefix is on. The chunks made next are sized after that
    /// prefix ([`Run::lead`](crate::engine::Run)).
    fn room(&mut self, s: usize) -> Result<usize, Error> {
        if let Some((room, lead)) = &self.rooms[s] {
            self.run.lead = active(self.run.config, lead).cloned();
            return Ok(*room);
        }
        let source = self.run.source;
        let config = self.run.config;
        let texts: Vec<&str> = self.doc.sections[s]
            .path
            .iter()
            .map(|&h| self.doc.headings[h].text.text(source))
            .collect();
        let prefix = prefix(&texts);
        let mut len = 0;
        let room = if heading_prefix(config) && !prefix.is_empty() {
            len = self.run.counter.len(&prefix);
            if len >= config.size {
                let at = self.doc.sections[s].span.start;
                return Err(Error::PrefixTooLong {
                    prefix,
                    at: CharIndex::new(source).char_offset(at),
                    len,
                    unit: config.unit.words(),
                    size: config.size,
                });
            }
            config.size - len
        } else {
            config.size
        };
        let lead = Lead {
            text: prefix,
            len,
            table: false,
        };
        self.run.lead = active(config, &lead).cloned();
        self.rooms[s] = Some((room, lead));
        Ok(room)
    }

    /// Marks every chunk emitted since the last call as section `s`'s.
    fn assign(&mut self, s: usize) {
        let n = self.run.chunks.len();
        self.chunk_sections.resize(n, s);
    }

    /// Splits section `s`: a chunk if it fits, else its intro and its
    /// subsections one by one.
    fn section(
        &mut self,
        mut s: usize,
        depth: usize,
        parent: Option<NodeId>,
        parts: Option<(usize, usize)>,
    ) -> Result<(), Error> {
        // A section whose intro is empty (or blank, when trimming) and which
        // has one subsection is that subsection's text: the subsection is
        // the section of its chunks, and its prefix is what counts.
        while let [child] = self.doc.sections[s].children[..] {
            let intro = self.doc.sections[s].intro(&self.doc.sections);
            let text = intro.text(self.run.source);
            if !(text.is_empty() || self.run.config.trim && text.chars().all(crate::span::is_space))
            {
                break;
            }
            s = child;
        }
        let room = self.room(s)?;
        let span = self.doc.sections[s].span;
        let v = Visit {
            group: Measured::new(&self.run.measure, span, false),
            first_sep: 0,
            depth,
            parent,
            parts,
            close: None,
            limit: room,
        };
        let Some((id, this)) = recursive::open(self.run, v.clone()) else {
            self.assign(s);
            return Ok(());
        };
        let children = self.doc.sections[s].children.clone();
        if children.is_empty() {
            return self.intro(s, span, this.plain, id, depth);
        }
        let first_chunk = self.run.chunks.len();
        let intro = self.doc.sections[s].intro(&self.doc.sections);
        let mut part = 0;
        if !intro.is_empty() {
            let v = Visit {
                group: Measured::new(&self.run.measure, intro, this.plain),
                depth: depth + 1,
                parent: id,
                parts: Some((0, 1)),
                ..v
            };
            if let Some((intro_id, _)) = recursive::open(self.run, v) {
                self.intro(s, intro, this.plain, intro_id, depth + 1)?;
            }
            self.assign(s);
            part = 1;
        }
        let mut shallowest = 6;
        for child in children {
            let level = self.doc.sections[child].level;
            shallowest = shallowest.min(level);
            if self.run.chunks.len() > first_chunk {
                self.run.pending = Cut::Structure(Level::Heading(level));
            }
            self.section(child, depth + 1, id, Some((part, part + 1)))?;
            part += 1;
        }
        self.run.with_node(id, |n| {
            n.action = Action::Structure {
                level: Level::Heading(shallowest),
                parts: part,
            }
        });
        Ok(())
    }

    /// Splits the intro of section `s` (`span`, too big, recorded as `id`)
    /// into its blocks and packs them.
    fn intro(
        &mut self,
        s: usize,
        span: Span,
        plain: bool,
        id: Option<NodeId>,
        depth: usize,
    ) -> Result<(), Error> {
        let room = self.room(s)?;
        let (first, last) = self.doc.sections[s].blocks;
        // Part k is block `first + k`: the first part starts with the intro
        // (text before the first block belongs to it).
        let cuts: Vec<usize> = self.doc.blocks[first..last]
            .iter()
            .skip(1)
            .map(|b| b.start)
            .filter(|&b| b > span.start && b < span.end)
            .collect();
        let this = Measured {
            span,
            len: 0,
            plain,
        };
        let v = Visit {
            group: this,
            first_sep: 0,
            depth,
            parent: None,
            parts: None,
            close: None,
            limit: room,
        };
        self.pack(this, id, &v, &cuts, Level::Block, Some(first), None, None)?;
        self.assign(s);
        Ok(())
    }

    /// A table alone over the size: cut before the delimiter row and each
    /// body row. The header is the header and delimiter rows.
    fn table(
        &mut self,
        rows: &[usize],
        this: Measured,
        id: Option<NodeId>,
        v: &Visit,
    ) -> Result<(), Error> {
        let span = this.span;
        let header = rows
            .get(1)
            .or(rows.first())
            .filter(|&&r| r > span.start && r <= span.end)
            .map(|&r| trim(self.run.source, Span::new(span.start, r)));
        let cuts: Vec<usize> = rows
            .iter()
            .copied()
            .filter(|&r| r > span.start && r < span.end)
            .collect();
        let repeat = match (own(self.run.config).table_header, header) {
            (TableHeader::Repeat, Some(header)) => Some(self.header_lead(header)?),
            _ => None,
        };
        self.pack(this, id, v, &cuts, Level::TableRow, None, header, repeat)
    }

    /// The prefix of a chunk of a table's rows with [`TableHeader::Repeat`]:
    /// the section's heading prefix when it is on, the header rows, a line
    /// break; and the room it leaves. A header that leaves no room is an
    /// error, as a heading prefix that leaves none is.
    fn header_lead(&self, header: Span) -> Result<(usize, Lead), Error> {
        let (source, config) = (self.run.source, self.run.config);
        let mut text = self
            .run
            .lead
            .as_ref()
            .map_or(String::new(), |l| l.text.clone());
        text.push_str(header.text(source));
        text.push('\n');
        let len = self.run.counter.len(&text);
        if len >= config.size {
            return Err(Error::TableHeaderTooLong {
                at: CharIndex::new(source).char_offset(header.start),
                len,
                unit: config.unit.words(),
                size: config.size,
            });
        }
        Ok((
            config.size - len,
            Lead {
                text,
                len,
                table: true,
            },
        ))
    }

    /// A code block alone over the size: cut after each line.
    fn code(&mut self, this: Measured, id: Option<NodeId>, v: &Visit) -> Result<(), Error> {
        let span = this.span;
        let text = span.text(self.run.source);
        let cuts: Vec<usize> = text
            .match_indices('\n')
            .map(|(i, _)| span.start + i + 1)
            .filter(|&c| c < span.end)
            .collect();
        self.pack(this, id, v, &cuts, Level::FenceLine, None, None, None)
    }

    /// Cuts `this` (recorded as `id`) at `cuts` (rising, inside it) into
    /// parts, packs them, and splits a part that alone is too big: by its
    /// rows or lines when the parts are the blocks `blocks..` and it is a
    /// table or a code block, else with the separators. Chunks after the
    /// first group record `header` as their context, and with `repeat` (the
    /// room and prefix of [`Splitting::header_lead`]) are sized after it.
    #[allow(clippy::too_many_arguments)]
    fn pack(
        &mut self,
        this: Measured,
        id: Option<NodeId>,
        v: &Visit,
        cuts: &[usize],
        level: Level,
        blocks: Option<usize>,
        header: Option<Span>,
        repeat: Option<(usize, Lead)>,
    ) -> Result<(), Error> {
        let span = this.span;
        if cuts.is_empty() && blocks.is_none() {
            return recursive::split_open(self.run, self.searchers, this, id, v);
        }
        let first_chunk = self.run.chunks.len();
        let headers_from = self.headers.len();
        let mut packer = Packer::new(this.plain, v.limit);
        let mut groups = 0;
        let mut from = span.start;
        // The visit of the groups after the first, and the lead it replaced.
        let mut later = v.clone();
        let mut replaced = None;
        for to in cuts.iter().copied().chain([span.end]) {
            let closed = packer.push(self.run, Span::new(from, to));
            from = to;
            if let Some(group) = closed {
                let visit = if groups == 0 { v } else { &later };
                self.group(
                    group,
                    id,
                    visit,
                    level,
                    blocks,
                    header,
                    first_chunk,
                    &mut groups,
                )?;
                if let (1, Some((room, lead)), None) = (groups, &repeat, &replaced) {
                    // The first group holds the header itself; every later
                    // one carries it before its rows.
                    packer.limit = *room;
                    later.limit = *room;
                    replaced = Some(self.run.lead.replace(lead.clone()));
                }
            }
        }
        if let Some(group) = packer.finish() {
            let visit = if groups == 0 { v } else { &later };
            self.group(
                group,
                id,
                visit,
                level,
                blocks,
                header,
                first_chunk,
                &mut groups,
            )?;
        }
        if let Some(lead) = replaced {
            self.run.lead = lead;
        }
        if let Some((room, lead)) = &repeat {
            // The chunks this table's groups recorded its header for, in
            // order: the headers added since this packing began.
            self.repeated.extend(
                self.headers[headers_from..]
                    .iter()
                    .map(|&(c, _)| (c, *room, lead.clone())),
            );
        }
        let parts = cuts.len() + 1;
        self.run
            .with_node(id, |n| n.action = Action::Structure { level, parts });
        Ok(())
    }

    /// Visits one packed group of [`Splitting::pack`].
    #[allow(clippy::too_many_arguments)]
    fn group(
        &mut self,
        group: Group,
        id: Option<NodeId>,
        v: &Visit,
        level: Level,
        blocks: Option<usize>,
        header: Option<Span>,
        first_chunk: usize,
        groups: &mut usize,
    ) -> Result<(), Error> {
        if *groups > 0 && self.run.chunks.len() > first_chunk {
            self.run.pending = Cut::Structure(level);
        }
        let before = self.run.chunks.len();
        let kind = blocks
            .filter(|_| group.last - group.first == 1)
            .and_then(|b| self.doc.blocks.get(b + group.first))
            .map(|b| b.kind.clone());
        let child = Visit {
            group: group.group,
            first_sep: 0,
            depth: v.depth + 1,
            parent: id,
            parts: Some((group.first, group.last)),
            close: Some(group.close),
            limit: v.limit,
        };
        if let Some((gid, this)) = recursive::open(self.run, child.clone()) {
            match kind {
                Some(Kind::Table { rows }) => self.table(&rows, this, gid, &child)?,
                Some(Kind::Code) => self.code(this, gid, &child)?,
                _ => recursive::split_open(self.run, self.searchers, this, gid, &child)?,
            }
        }
        if *groups > 0 {
            if let Some(header) = header {
                let chunks = &self.run.chunks;
                self.headers.extend(
                    (before..chunks.len())
                        .filter(|&c| chunks[c].span.start >= header.end)
                        .map(|c| (c, header)),
                );
            }
        }
        *groups += 1;
        Ok(())
    }
}
