//! Python `re` pattern syntax, read the way CPython 3.11's parser reads it.
//!
//! The reader follows the structure of CPython's `re/_parser.py` closely (same
//! token rules, same order of checks), so that a pattern Python rejects is
//! rejected here too, and a pattern Python accepts gets the same meaning. The
//! tree it builds is small: literals, classes, anchors, groups, alternations,
//! repeats, lookarounds, backreferences and conditionals.

use super::{is_identifier, repr};

/// A code point as Python sees it. It may be a lone surrogate (`\ud800`), which
/// no Rust string contains, so such a literal simply never matches.
pub(crate) type Code = u32;

/// Python's flag bits (the values of `re.TEMPLATE`, `re.IGNORECASE`, …).
pub(crate) mod flag {
    pub const TEMPLATE: u16 = 1;
    pub const IGNORECASE: u16 = 2;
    pub const LOCALE: u16 = 4;
    pub const MULTILINE: u16 = 8;
    pub const DOTALL: u16 = 16;
    pub const UNICODE: u16 = 32;
    pub const VERBOSE: u16 = 64;
    pub const ASCII: u16 = 256;
    /// The flags that choose how `\w`, `\d`, `\s` and `\b` read characters.
    pub const TYPE: u16 = ASCII | LOCALE | UNICODE;
    /// Flags that may only be set for the whole pattern.
    pub const GLOBAL: u16 = TEMPLATE;
}

/// The largest repeat count plus one (`_sre.MAXREPEAT`): counts at or above it
/// are an `OverflowError` in Python.
pub(crate) const MAXREPEAT: u128 = u32::MAX as u128;
/// `getwidth()` saturates here.
pub(crate) const MAXWIDTH: u128 = 1 << 64;
/// How deep `parse_sub` may nest (two levels per group).
const MAX_NESTING: usize = 400;

/// Lookbehinds wider than this are refused by Python's compiler.
pub(crate) const MAXCODE: u128 = u32::MAX as u128;

/// `\d`, `\s`, `\w` and their negations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Category {
    Digit,
    NotDigit,
    Space,
    NotSpace,
    Word,
    NotWord,
}

/// One member of a character class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClassItem {
    Literal(Code),
    Range(Code, Code),
    Category(Category),
}

/// The zero-width anchors, before flags decide their exact meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Anchor {
    /// `^`
    Beginning,
    /// `\A`
    BeginningString,
    /// `$`
    End,
    /// `\Z`
    EndString,
    /// `\b`
    Boundary,
    /// `\B`
    NonBoundary,
}

/// Greedy (`*`), lazy (`*?`) or possessive (`*+`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Greed {
    Greedy,
    Lazy,
    Possessive,
}

/// The parsed pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    Literal(Code),
    NotLiteral(Code),
    Any,
    Class {
        negate: bool,
        items: Vec<ClassItem>,
    },
    Anchor(Anchor),
    /// A group: capturing when `group` is set; `add`/`del` are scoped flags.
    Group {
        group: Option<usize>,
        add: u16,
        del: u16,
        body: Vec<Node>,
    },
    Atomic(Vec<Node>),
    Branch(Vec<Vec<Node>>),
    Repeat {
        min: u64,
        /// `None` is unbounded.
        max: Option<u64>,
        greed: Greed,
        body: Vec<Node>,
    },
    Assert {
        behind: bool,
        negate: bool,
        body: Vec<Node>,
    },
    GroupRef(usize),
    GroupRefExists {
        group: usize,
        yes: Vec<Node>,
        no: Option<Vec<Node>>,
    },
}

/// A parsed pattern with what the compiler needs to know about it.
#[derive(Clone, Debug)]
pub(crate) struct Parsed {
    pub nodes: Vec<Node>,
    /// The pattern's global flags, after Python's `fix_flags`.
    pub flags: u16,
    /// How many capturing groups there are.
    pub groups: usize,
    /// `(min, max)` width of each group, indexed by group number (0 unused).
    pub group_widths: Vec<(u128, u128)>,
}

/// Why a pattern cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// Python rejects the pattern too (`re.error`, `OverflowError` or
    /// `ValueError` when it is compiled). `pos` is a char offset, as Python
    /// reports it.
    Invalid { msg: String, pos: Option<usize> },
    /// Python accepts the pattern, but this reading of it cannot promise the
    /// same result, so it refuses instead of guessing.
    Unsupported(String),
}

impl ParseError {
    fn at(msg: impl Into<String>, pos: usize) -> ParseError {
        ParseError::Invalid {
            msg: msg.into(),
            pos: Some(pos),
        }
    }
}

type PResult<T> = Result<T, ParseError>;

/// A token: a character, or a backslash and the character after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Ch(char),
    Esc(char),
}

impl Tok {
    fn width(self) -> usize {
        match self {
            Tok::Ch(_) => 1,
            Tok::Esc(_) => 2,
        }
    }
    fn text(self) -> String {
        match self {
            Tok::Ch(c) => c.to_string(),
            Tok::Esc(c) => format!("\\{c}"),
        }
    }
}

/// The token reader (CPython's `Tokenizer`).
struct Source {
    chars: Vec<char>,
    index: usize,
    next: Option<Tok>,
}

impl Source {
    fn new(pattern: &str) -> PResult<Source> {
        let mut s = Source {
            chars: pattern.chars().collect(),
            index: 0,
            next: None,
        };
        s.advance()?;
        Ok(s)
    }

    fn advance(&mut self) -> PResult<()> {
        let Some(&c) = self.chars.get(self.index) else {
            self.next = None;
            return Ok(());
        };
        if c == '\\' {
            let Some(&e) = self.chars.get(self.index + 1) else {
                return Err(ParseError::at(
                    "bad escape (end of pattern)",
                    self.chars.len() - 1,
                ));
            };
            self.index += 2;
            self.next = Some(Tok::Esc(e));
        } else {
            self.index += 1;
            self.next = Some(Tok::Ch(c));
        }
        Ok(())
    }

    fn matches(&mut self, c: char) -> PResult<bool> {
        if self.next == Some(Tok::Ch(c)) {
            self.advance()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    fn get(&mut self) -> PResult<Option<Tok>> {
        let this = self.next;
        self.advance()?;
        Ok(this)
    }

    /// Up to `n` plain characters from `set`.
    fn get_while(&mut self, n: usize, set: fn(char) -> bool) -> PResult<String> {
        let mut out = String::new();
        for _ in 0..n {
            match self.next {
                Some(Tok::Ch(c)) if set(c) => {
                    out.push(c);
                    self.advance()?;
                }
                _ => break,
            }
        }
        Ok(out)
    }

    fn get_until(&mut self, terminator: char, name: &str) -> PResult<String> {
        let mut out = String::new();
        loop {
            let c = self.next;
            self.advance()?;
            match c {
                None => {
                    return Err(if out.is_empty() {
                        self.error(format!("missing {name}"), 0)
                    } else {
                        self.error(
                            format!("missing {terminator}, unterminated name"),
                            out.chars().count(),
                        )
                    })
                }
                Some(Tok::Ch(t)) if t == terminator => {
                    if out.is_empty() {
                        return Err(self.error(format!("missing {name}"), 1));
                    }
                    return Ok(out);
                }
                Some(tok) => out.push_str(&tok.text()),
            }
        }
    }

    fn tell(&self) -> usize {
        self.index - self.next.map_or(0, Tok::width)
    }

    fn seek(&mut self, index: usize) -> PResult<()> {
        self.index = index;
        self.advance()
    }

    fn error(&self, msg: impl Into<String>, offset: usize) -> ParseError {
        ParseError::at(msg, self.tell().saturating_sub(offset))
    }
}

fn is_digit(c: char) -> bool {
    c.is_ascii_digit()
}
fn is_oct(c: char) -> bool {
    ('0'..='7').contains(&c)
}
fn is_hex(c: char) -> bool {
    c.is_ascii_hexdigit()
}

/// Python's `int(s)` for a group number: optional whitespace and sign, ASCII
/// digits with single underscores between them.
fn python_int(s: &str) -> Option<i128> {
    let t = s.trim_matches(crate::is_space);
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
        || !digits.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return None;
    }
    let mut value: i128 = 0;
    for c in digits.chars().filter(|&c| c != '_') {
        value = value
            .saturating_mul(10)
            .saturating_add(i128::from(c as u8 - b'0'));
    }
    Some(if neg { -value } else { value })
}

fn flag_bit(c: char) -> Option<u16> {
    Some(match c {
        'i' => flag::IGNORECASE,
        'L' => flag::LOCALE,
        'm' => flag::MULTILINE,
        's' => flag::DOTALL,
        'x' => flag::VERBOSE,
        'a' => flag::ASCII,
        't' => flag::TEMPLATE,
        'u' => flag::UNICODE,
        _ => return None,
    })
}

fn category(c: char) -> Option<Category> {
    Some(match c {
        'd' => Category::Digit,
        'D' => Category::NotDigit,
        's' => Category::Space,
        'S' => Category::NotSpace,
        'w' => Category::Word,
        'W' => Category::NotWord,
        _ => return None,
    })
}

fn simple_escape(c: char) -> Option<Code> {
    Some(match c {
        'a' => 7,
        'b' => 8,
        'f' => 12,
        'n' => 10,
        'r' => 13,
        't' => 9,
        'v' => 11,
        '\\' => 92,
        _ => return None,
    })
}

/// What an escape inside a class stands for.
enum ClassCode {
    Literal(Code),
    Category(Category),
}

/// Parser state (CPython's `State`).
struct Parser {
    src: Source,
    flags: u16,
    group_names: Vec<(String, usize)>,
    /// `None` while a group is open; its width once closed. Index 0 unused.
    group_widths: Vec<Option<(u128, u128)>>,
    lookbehind_groups: Option<usize>,
    /// Numeric conditional references, checked once all groups are known.
    groupref_pos: Vec<(usize, usize)>,
}

/// Parses `pattern` as Python 3.11's `re.compile` would.
pub(crate) fn parse(pattern: &str) -> PResult<Parsed> {
    let mut p = Parser {
        src: Source::new(pattern)?,
        flags: 0,
        group_names: Vec::new(),
        group_widths: vec![Some((0, 0))],
        lookbehind_groups: None,
        groupref_pos: Vec::new(),
    };
    let nodes = p.parse_sub(false, 0)?;
    // fix_flags
    if p.flags & flag::ASCII == 0 {
        p.flags |= flag::UNICODE;
    } else if p.flags & flag::UNICODE != 0 {
        return Err(ParseError::Invalid {
            msg: "ASCII and UNICODE flags are incompatible".into(),
            pos: None,
        });
    }
    if p.src.next.is_some() {
        return Err(p.src.error("unbalanced parenthesis", 0));
    }
    let groups = p.group_widths.len() - 1;
    if let Some(&(g, pos)) = p.groupref_pos.iter().find(|(g, _)| *g > groups) {
        return Err(ParseError::at(format!("invalid group reference {g}"), pos));
    }
    Ok(Parsed {
        nodes,
        flags: p.flags,
        groups,
        group_widths: p.group_widths.iter().map(|w| w.unwrap_or((0, 0))).collect(),
    })
}

impl Parser {
    fn groups(&self) -> usize {
        self.group_widths.len()
    }

    fn check_group(&self, gid: usize) -> bool {
        gid < self.groups() && self.group_widths[gid].is_some()
    }

    fn check_lookbehind_group(&self, gid: usize) -> PResult<()> {
        if let Some(lb) = self.lookbehind_groups {
            if !self.check_group(gid) {
                return Err(self.src.error("cannot refer to an open group", 0));
            }
            if gid >= lb {
                return Err(self.src.error(
                    "cannot refer to group defined in the same lookbehind subpattern",
                    0,
                ));
            }
        }
        Ok(())
    }

    fn check_group_name(&self, name: &str, offset: usize) -> PResult<()> {
        if is_identifier(name) {
            Ok(())
        } else {
            Err(self.src.error(
                format!("bad character in group name {}", repr(name)),
                name.chars().count() + offset,
            ))
        }
    }

    /// An alternation: `a|b|c`.
    fn parse_sub(&mut self, mut verbose: bool, nested: usize) -> PResult<Vec<Node>> {
        // Each group is two levels. CPython's own parser gives up with a
        // RecursionError a little past 400 groups; stop well before the
        // stack does.
        if nested > MAX_NESTING {
            return Err(ParseError::Unsupported(format!(
                "groups nested more than {} deep",
                MAX_NESTING / 2
            )));
        }
        let mut items: Vec<Vec<Node>> = Vec::new();
        loop {
            let first = nested == 0 && items.is_empty();
            items.push(self.parse(verbose, nested + 1, first)?);
            if !self.src.matches('|')? {
                break;
            }
            if nested == 0 {
                verbose = self.flags & flag::VERBOSE != 0;
            }
        }
        if items.len() == 1 {
            return Ok(items.pop().unwrap_or_default());
        }
        Ok(vec![Node::Branch(items)])
    }

    /// A sequence of items, up to `|`, `)` or the end.
    fn parse(&mut self, mut verbose: bool, nested: usize, first: bool) -> PResult<Vec<Node>> {
        let mut seq: Vec<Node> = Vec::new();
        loop {
            let this = match self.src.next {
                None | Some(Tok::Ch('|')) | Some(Tok::Ch(')')) => break,
                Some(t) => t,
            };
            self.src.get()?;
            if verbose {
                if let Tok::Ch(' ' | '\t' | '\n' | '\r' | '\u{b}' | '\u{c}') = this {
                    continue;
                }
                if this == Tok::Ch('#') {
                    loop {
                        match self.src.get()? {
                            None | Some(Tok::Ch('\n')) => break,
                            _ => {}
                        }
                    }
                    continue;
                }
            }
            let c = match this {
                Tok::Esc(e) => {
                    let node = self.escape(e)?;
                    seq.push(node);
                    continue;
                }
                Tok::Ch(c) => c,
            };
            match c {
                '[' => {
                    let node = self.class()?;
                    seq.push(node);
                }
                '*' | '+' | '?' | '{' => self.repeat(c, &mut seq)?,
                '.' => seq.push(Node::Any),
                '(' => self.group(&mut seq, &mut verbose, nested, first)?,
                '^' => seq.push(Node::Anchor(Anchor::Beginning)),
                '$' => seq.push(Node::Anchor(Anchor::End)),
                _ => seq.push(Node::Literal(c as Code)),
            }
        }
        Ok(seq)
    }

    fn repeat(&mut self, this: char, seq: &mut Vec<Node>) -> PResult<()> {
        let here = self.src.tell();
        let (min, max): (u128, Option<u128>) = match this {
            '?' => (0, Some(1)),
            '*' => (0, None),
            '+' => (1, None),
            _ => {
                if self.src.next == Some(Tok::Ch('}')) {
                    seq.push(Node::Literal('{' as Code));
                    return Ok(());
                }
                let lo = self.src.get_while(usize::MAX, is_digit)?;
                let hi = if self.src.matches(',')? {
                    self.src.get_while(usize::MAX, is_digit)?
                } else {
                    lo.clone()
                };
                if !self.src.matches('}')? {
                    seq.push(Node::Literal('{' as Code));
                    self.src.seek(here)?;
                    return Ok(());
                }
                let number = |s: &str| -> PResult<u128> {
                    let v = s.bytes().fold(0u128, |v, b| {
                        v.saturating_mul(10).saturating_add(u128::from(b - b'0'))
                    });
                    if v >= MAXREPEAT {
                        Err(ParseError::Invalid {
                            msg: "the repetition number is too large".into(),
                            pos: None,
                        })
                    } else {
                        Ok(v)
                    }
                };
                let min = if lo.is_empty() { 0 } else { number(&lo)? };
                let max = if hi.is_empty() {
                    None
                } else {
                    let m = number(&hi)?;
                    if m < min {
                        return Err(self
                            .src
                            .error("min repeat greater than max repeat", self.src.tell() - here));
                    }
                    Some(m)
                };
                (min, max)
            }
        };
        let offset = self.src.tell() - here + 1;
        let item = match seq.pop() {
            None | Some(Node::Anchor(_)) => {
                return Err(self.src.error("nothing to repeat", offset));
            }
            Some(Node::Repeat { .. }) => {
                return Err(self.src.error("multiple repeat", offset));
            }
            Some(Node::Group {
                group: None,
                add: 0,
                del: 0,
                body,
            }) => body,
            Some(other) => vec![other],
        };
        let greed = if self.src.matches('?')? {
            Greed::Lazy
        } else if self.src.matches('+')? {
            Greed::Possessive
        } else {
            Greed::Greedy
        };
        seq.push(Node::Repeat {
            min: min as u64,
            max: max.map(|m| m as u64),
            greed,
            body: item,
        });
        Ok(())
    }

    fn group(
        &mut self,
        seq: &mut Vec<Node>,
        verbose: &mut bool,
        nested: usize,
        first: bool,
    ) -> PResult<()> {
        let start = self.src.tell() - 1;
        let mut capture = true;
        let mut atomic = false;
        let mut name: Option<String> = None;
        let (mut add, mut del) = (0u16, 0u16);
        if self.src.matches('?')? {
            let Some(tok) = self.src.get()? else {
                return Err(self.src.error("unexpected end of pattern", 0));
            };
            match tok {
                Tok::Ch('P') => {
                    if self.src.matches('<')? {
                        let n = self.src.get_until('>', "group name")?;
                        self.check_group_name(&n, 1)?;
                        name = Some(n);
                    } else if self.src.matches('=')? {
                        let n = self.src.get_until(')', "group name")?;
                        self.check_group_name(&n, 1)?;
                        let len = n.chars().count() + 1;
                        let Some(gid) = self.lookup(&n) else {
                            return Err(self
                                .src
                                .error(format!("unknown group name {}", repr(&n)), len));
                        };
                        if !self.check_group(gid) {
                            return Err(self.src.error("cannot refer to an open group", len));
                        }
                        self.check_lookbehind_group(gid)?;
                        seq.push(Node::GroupRef(gid));
                        return Ok(());
                    } else {
                        let Some(t) = self.src.get()? else {
                            return Err(self.src.error("unexpected end of pattern", 0));
                        };
                        return Err(self
                            .src
                            .error(format!("unknown extension ?P{}", t.text()), t.width() + 2));
                    }
                }
                Tok::Ch(':') => capture = false,
                Tok::Ch('#') => {
                    loop {
                        if self.src.next.is_none() {
                            return Err(self.src.error(
                                "missing ), unterminated comment",
                                self.src.tell() - start,
                            ));
                        }
                        if self.src.get()? == Some(Tok::Ch(')')) {
                            break;
                        }
                    }
                    return Ok(());
                }
                Tok::Ch(c @ ('=' | '!' | '<')) => {
                    let mut kind = c;
                    let behind = c == '<';
                    let mut saved = None;
                    if behind {
                        let Some(t) = self.src.get()? else {
                            return Err(self.src.error("unexpected end of pattern", 0));
                        };
                        match t {
                            Tok::Ch(k @ ('=' | '!')) => kind = k,
                            other => {
                                return Err(self.src.error(
                                    format!("unknown extension ?<{}", other.text()),
                                    other.width() + 2,
                                ))
                            }
                        }
                        saved = Some(self.lookbehind_groups);
                        if self.lookbehind_groups.is_none() {
                            self.lookbehind_groups = Some(self.groups());
                        }
                    }
                    let body = self.parse_sub(*verbose, nested + 1)?;
                    if let Some(None) = saved {
                        self.lookbehind_groups = None;
                    }
                    if !self.src.matches(')')? {
                        return Err(self.src.error(
                            "missing ), unterminated subpattern",
                            self.src.tell() - start,
                        ));
                    }
                    seq.push(Node::Assert {
                        behind,
                        negate: kind == '!',
                        body,
                    });
                    return Ok(());
                }
                Tok::Ch('(') => return self.conditional(seq, *verbose, nested, start),
                Tok::Ch('>') => {
                    capture = false;
                    atomic = true;
                }
                Tok::Ch(c) if flag_bit(c).is_some() || c == '-' => match self.parse_flags(c)? {
                    None => {
                        if !first || !seq.is_empty() {
                            return Err(self.src.error(
                                "global flags not at the start of the expression",
                                self.src.tell() - start,
                            ));
                        }
                        *verbose = self.flags & flag::VERBOSE != 0;
                        return Ok(());
                    }
                    Some((a, d)) => {
                        add = a;
                        del = d;
                        capture = false;
                    }
                },
                other => {
                    return Err(self.src.error(
                        format!("unknown extension ?{}", other.text()),
                        other.width() + 1,
                    ))
                }
            }
        }
        let group = if capture {
            let gid = self.groups();
            if let Some(n) = &name {
                if let Some(old) = self.lookup(n) {
                    return Err(self.src.error(
                        format!(
                            "redefinition of group name {} as group {gid}; was group {old}",
                            repr(n)
                        ),
                        n.chars().count() + 1,
                    ));
                }
                self.group_names.push((n.clone(), gid));
            }
            self.group_widths.push(None);
            Some(gid)
        } else {
            None
        };
        let sub_verbose = (*verbose || add & flag::VERBOSE != 0) && del & flag::VERBOSE == 0;
        let body = self.parse_sub(sub_verbose, nested + 1)?;
        if !self.src.matches(')')? {
            return Err(self.src.error(
                "missing ), unterminated subpattern",
                self.src.tell() - start,
            ));
        }
        if let Some(gid) = group {
            self.group_widths[gid] = Some(width(&body, &self.closed_widths()));
        }
        if atomic {
            seq.push(Node::Atomic(body));
        } else {
            seq.push(Node::Group {
                group,
                add,
                del,
                body,
            });
        }
        Ok(())
    }

    fn closed_widths(&self) -> Vec<(u128, u128)> {
        self.group_widths
            .iter()
            .map(|w| w.unwrap_or((0, 0)))
            .collect()
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        self.group_names
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, g)| g)
    }

    fn conditional(
        &mut self,
        seq: &mut Vec<Node>,
        verbose: bool,
        nested: usize,
        start: usize,
    ) -> PResult<()> {
        let name = self.src.get_until(')', "group name")?;
        let len = name.chars().count() + 1;
        let group = if is_identifier(&name) {
            match self.lookup(&name) {
                Some(g) => g,
                None => {
                    return Err(self
                        .src
                        .error(format!("unknown group name {}", repr(&name)), len));
                }
            }
        } else {
            let n = match python_int(&name) {
                Some(n) if n >= 0 => n,
                _ => {
                    return Err(self
                        .src
                        .error(format!("bad character in group name {}", repr(&name)), len))
                }
            };
            if n == 0 {
                return Err(self.src.error("bad group number", len));
            }
            if n >= (1 << 30) - 1 {
                return Err(self.src.error(format!("invalid group reference {n}"), len));
            }
            let g = n as usize;
            if !self.groupref_pos.iter().any(|&(x, _)| x == g) {
                self.groupref_pos.push((g, self.src.tell() - len));
            }
            g
        };
        self.check_lookbehind_group(group)?;
        let yes = self.parse(verbose, nested + 1, false)?;
        let no = if self.src.matches('|')? {
            let no = self.parse(verbose, nested + 1, false)?;
            if self.src.next == Some(Tok::Ch('|')) {
                return Err(self
                    .src
                    .error("conditional backref with more than two branches", 0));
            }
            Some(no)
        } else {
            None
        };
        if !self.src.matches(')')? {
            return Err(self.src.error(
                "missing ), unterminated subpattern",
                self.src.tell() - start,
            ));
        }
        seq.push(Node::GroupRefExists { group, yes, no });
        Ok(())
    }

    /// Reads `(?aiLmsux)` or `(?aiLmsux-imsx:`; `None` means global flags.
    fn parse_flags(&mut self, first: char) -> PResult<Option<(u16, u16)>> {
        let mut add = 0u16;
        let mut del = 0u16;
        let mut c = first;
        if c != '-' {
            loop {
                let bit = flag_bit(c).unwrap_or(0);
                if c == 'L' {
                    return Err(self.src.error(
                        "bad inline flags: cannot use 'L' flag with a str pattern",
                        0,
                    ));
                }
                add |= bit;
                if bit & flag::TYPE != 0 && add & flag::TYPE != bit {
                    return Err(self.src.error(
                        "bad inline flags: flags 'a', 'u' and 'L' are incompatible",
                        0,
                    ));
                }
                match self.src.get()? {
                    None => return Err(self.src.error("missing -, : or )", 0)),
                    Some(Tok::Ch(n @ (')' | '-' | ':'))) => {
                        c = n;
                        break;
                    }
                    Some(Tok::Ch(n)) if flag_bit(n).is_some() => c = n,
                    Some(t) => {
                        let msg = match t {
                            Tok::Ch(n) if n.is_alphabetic() => "unknown flag",
                            _ => "missing -, : or )",
                        };
                        return Err(self.src.error(msg, t.width()));
                    }
                }
            }
        }
        if c == ')' {
            self.flags |= add;
            return Ok(None);
        }
        if add & flag::GLOBAL != 0 {
            return Err(self
                .src
                .error("bad inline flags: cannot turn on global flag", 1));
        }
        if c == '-' {
            c = match self.src.get()? {
                None => return Err(self.src.error("missing flag", 0)),
                Some(Tok::Ch(n)) if flag_bit(n).is_some() => n,
                Some(t) => {
                    let msg = match t {
                        Tok::Ch(n) if n.is_alphabetic() => "unknown flag",
                        _ => "missing flag",
                    };
                    return Err(self.src.error(msg, t.width()));
                }
            };
            loop {
                let bit = flag_bit(c).unwrap_or(0);
                if bit & flag::TYPE != 0 {
                    return Err(self.src.error(
                        "bad inline flags: cannot turn off flags 'a', 'u' and 'L'",
                        0,
                    ));
                }
                del |= bit;
                match self.src.get()? {
                    None => return Err(self.src.error("missing :", 0)),
                    Some(Tok::Ch(':')) => break,
                    Some(Tok::Ch(n)) if flag_bit(n).is_some() => c = n,
                    Some(t) => {
                        let msg = match t {
                            Tok::Ch(n) if n.is_alphabetic() => "unknown flag",
                            _ => "missing :",
                        };
                        return Err(self.src.error(msg, t.width()));
                    }
                }
            }
        }
        if del & flag::GLOBAL != 0 {
            return Err(self
                .src
                .error("bad inline flags: cannot turn off global flag", 1));
        }
        if add & del != 0 {
            return Err(self
                .src
                .error("bad inline flags: flag turned on and off", 1));
        }
        Ok(Some((add, del)))
    }

    /// An escape outside a class.
    fn escape(&mut self, c: char) -> PResult<Node> {
        match c {
            'A' => return Ok(Node::Anchor(Anchor::BeginningString)),
            'Z' => return Ok(Node::Anchor(Anchor::EndString)),
            'b' => return Ok(Node::Anchor(Anchor::Boundary)),
            'B' => return Ok(Node::Anchor(Anchor::NonBoundary)),
            _ => {}
        }
        if let Some(cat) = category(c) {
            return Ok(Node::Class {
                negate: false,
                items: vec![ClassItem::Category(cat)],
            });
        }
        if let Some(code) = simple_escape(c) {
            return Ok(Node::Literal(code));
        }
        let escape = format!("\\{c}");
        match c {
            'x' | 'u' | 'U' | 'N' => self.code_escape(c, escape).map(Node::Literal),
            '0' => {
                let digits = self.src.get_while(2, is_oct)?;
                Ok(Node::Literal(
                    u32::from_str_radix(&format!("0{digits}"), 8).unwrap_or(0),
                ))
            }
            '1'..='9' => {
                let mut escape = escape;
                if let Some(Tok::Ch(d)) = self.src.next {
                    if d.is_ascii_digit() {
                        escape.push(d);
                        self.src.get()?;
                        let b: Vec<char> = escape.chars().collect();
                        if let Some(Tok::Ch(e)) = self.src.next {
                            if is_oct(b[1]) && is_oct(b[2]) && is_oct(e) {
                                escape.push(e);
                                self.src.get()?;
                                let value = u32::from_str_radix(&escape[1..], 8).unwrap_or(0);
                                if value > 0o377 {
                                    return Err(self.src.error(
                                        format!(
                                            "octal escape value {escape} outside of range 0-0o377"
                                        ),
                                        escape.len(),
                                    ));
                                }
                                return Ok(Node::Literal(value));
                            }
                        }
                    }
                }
                let group: usize = escape[1..].parse().unwrap_or(usize::MAX);
                if group < self.groups() {
                    if !self.check_group(group) {
                        return Err(self
                            .src
                            .error("cannot refer to an open group", escape.len()));
                    }
                    self.check_lookbehind_group(group)?;
                    return Ok(Node::GroupRef(group));
                }
                Err(self
                    .src
                    .error(format!("invalid group reference {group}"), escape.len() - 1))
            }
            _ if c.is_ascii_alphabetic() => Err(self
                .src
                .error(format!("bad escape {escape}"), escape.chars().count())),
            _ => Ok(Node::Literal(c as Code)),
        }
    }

    /// `\x..`, `\u....`, `\U........` and `\N{…}`, in or outside a class.
    fn code_escape(&mut self, c: char, mut escape: String) -> PResult<Code> {
        let digits = match c {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            _ => {
                if !self.src.matches('{')? {
                    return Err(self.src.error("missing {", 0));
                }
                let name = self.src.get_until('}', "character name")?;
                // Unicode names (and their aliases) use only letters, digits,
                // spaces and hyphens: anything else is unknown to Python too.
                if !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-')
                {
                    return Err(self.src.error(
                        format!("undefined character name {name:?}"),
                        name.chars().count() + 4,
                    ));
                }
                return Err(ParseError::Unsupported(format!(
                    "named characters like \\N{{{name}}}: write the character itself"
                )));
            }
        };
        escape.push_str(&self.src.get_while(digits, is_hex)?);
        if escape.len() != digits + 2 {
            return Err(self.src.error(
                format!("incomplete escape {escape}"),
                escape.chars().count(),
            ));
        }
        let value = u32::from_str_radix(&escape[2..], 16).unwrap_or(u32::MAX);
        if c == 'U' && value > 0x10_FFFF {
            return Err(self
                .src
                .error(format!("bad escape {escape}"), escape.chars().count()));
        }
        Ok(value)
    }

    /// An escape inside a class.
    fn class_escape(&mut self, c: char) -> PResult<ClassCode> {
        if let Some(code) = simple_escape(c) {
            return Ok(ClassCode::Literal(code));
        }
        if let Some(cat) = category(c) {
            return Ok(ClassCode::Category(cat));
        }
        let escape = format!("\\{c}");
        match c {
            'x' | 'u' | 'U' | 'N' => self.code_escape(c, escape).map(ClassCode::Literal),
            '0'..='7' => {
                let mut escape = escape;
                escape.push_str(&self.src.get_while(2, is_oct)?);
                let value = u32::from_str_radix(&escape[1..], 8).unwrap_or(0);
                if value > 0o377 {
                    return Err(self.src.error(
                        format!("octal escape value {escape} outside of range 0-0o377"),
                        escape.len(),
                    ));
                }
                Ok(ClassCode::Literal(value))
            }
            '8' | '9' => Err(self.src.error(format!("bad escape {escape}"), 2)),
            _ if c.is_ascii_alphabetic() => Err(self.src.error(format!("bad escape {escape}"), 2)),
            _ => Ok(ClassCode::Literal(c as Code)),
        }
    }

    /// `[...]`, the opening bracket already read.
    fn class(&mut self) -> PResult<Node> {
        let here = self.src.tell() - 1;
        let negate = self.src.matches('^')?;
        let mut set: Vec<ClassItem> = Vec::new();
        loop {
            let Some(this) = self.src.get()? else {
                return Err(self
                    .src
                    .error("unterminated character set", self.src.tell() - here));
            };
            if this == Tok::Ch(']') && !set.is_empty() {
                break;
            }
            let code1 = match this {
                Tok::Esc(e) => self.class_escape(e)?,
                Tok::Ch(c) => ClassCode::Literal(c as Code),
            };
            if self.src.matches('-')? {
                let Some(that) = self.src.get()? else {
                    return Err(self
                        .src
                        .error("unterminated character set", self.src.tell() - here));
                };
                if that == Tok::Ch(']') {
                    set.push(item(code1));
                    set.push(ClassItem::Literal('-' as Code));
                    break;
                }
                let code2 = match that {
                    Tok::Esc(e) => self.class_escape(e)?,
                    Tok::Ch(c) => ClassCode::Literal(c as Code),
                };
                let bad = || {
                    let msg = format!("bad character range {}-{}", this.text(), that.text());
                    let len = this.width() + 1 + that.width();
                    (msg, len)
                };
                match (code1, code2) {
                    (ClassCode::Literal(lo), ClassCode::Literal(hi)) if lo <= hi => {
                        set.push(ClassItem::Range(lo, hi));
                    }
                    _ => {
                        let (msg, len) = bad();
                        return Err(self.src.error(msg, len));
                    }
                }
            } else {
                set.push(item(code1));
            }
        }
        Ok(match set.as_slice() {
            [ClassItem::Literal(c)] if !negate => Node::Literal(*c),
            [ClassItem::Literal(c)] => Node::NotLiteral(*c),
            _ => Node::Class { negate, items: set },
        })
    }
}

fn item(code: ClassCode) -> ClassItem {
    match code {
        ClassCode::Literal(c) => ClassItem::Literal(c),
        ClassCode::Category(c) => ClassItem::Category(c),
    }
}

/// `(min, max)` width of a sequence in characters (CPython's `getwidth`).
pub(crate) fn width(nodes: &[Node], groups: &[(u128, u128)]) -> (u128, u128) {
    let (mut lo, mut hi) = (0u128, 0u128);
    for node in nodes {
        let (l, h) = match node {
            Node::Literal(_) | Node::NotLiteral(_) | Node::Any | Node::Class { .. } => (1, 1),
            Node::Anchor(_) | Node::Assert { .. } => (0, 0),
            Node::Group { body, .. } | Node::Atomic(body) => width(body, groups),
            Node::Branch(alts) => {
                let mut i = MAXWIDTH;
                let mut j = 0;
                for alt in alts {
                    let (l, h) = width(alt, groups);
                    i = i.min(l);
                    j = j.max(h);
                }
                (i, j)
            }
            Node::Repeat { min, max, body, .. } => {
                let (l, h) = width(body, groups);
                let lo = l.saturating_mul(u128::from(*min));
                let hi = match max {
                    None if h > 0 => MAXWIDTH,
                    None => 0,
                    Some(m) => h.saturating_mul(u128::from(*m)),
                };
                (lo, hi)
            }
            Node::GroupRef(g) => groups.get(*g).copied().unwrap_or((0, 0)),
            Node::GroupRefExists { yes, no, .. } => {
                let (mut i, mut j) = width(yes, groups);
                match no {
                    Some(no) => {
                        let (l, h) = width(no, groups);
                        i = i.min(l);
                        j = j.max(h);
                    }
                    None => i = 0,
                }
                (i, j)
            }
        };
        lo = lo.saturating_add(l);
        hi = hi.saturating_add(h);
    }
    (lo.min(MAXWIDTH), hi.min(MAXWIDTH))
}
