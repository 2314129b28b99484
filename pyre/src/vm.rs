//! Compiles a parsed pattern into a small program and runs it by backtracking,
//! with the semantics of CPython's `_sre` engine:
//!
//! - alternatives and repeats are tried in priority order, and the first path
//!   that reaches the end wins (leftmost, then first in priority);
//! - a repeat of something that can match the empty string stops iterating once
//!   an iteration made no progress (`_sre`'s "zero-width match protection");
//! - at the top level, a search that must advance (the previous match was
//!   empty and ended here) rejects an empty match *at its first position only*
//!   and backtracks into the other alternatives there, exactly as `_sre` does.
//!
//! Every instruction executed costs one step of a budget, and the backtracking
//! stack is bounded, so a pathological pattern ends in an error instead of a
//! hang or an out-of-memory.

use super::parse::{
    flag, width, Anchor, Category, ClassItem, Code, Greed, Node, ParseError, Parsed, MAXCODE,
};
use super::{is_alnum, is_decimal};
use crate::is_space;

/// "No position" in a capture slot or a repeat's last start.
const NONE: usize = usize::MAX;

/// The most backtracking frames one search may hold.
const MAX_STACK: usize = 1_000_000;

/// The step budget ran out, or the stack grew past its bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Exhausted;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CatKind {
    Digit,
    Space,
    Word,
}

/// A category test with the flags that were in force where it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CatTest {
    kind: CatKind,
    ascii: bool,
    negated: bool,
}

impl CatTest {
    fn new(cat: Category, ascii: bool) -> CatTest {
        let (kind, negated) = match cat {
            Category::Digit => (CatKind::Digit, false),
            Category::NotDigit => (CatKind::Digit, true),
            Category::Space => (CatKind::Space, false),
            Category::NotSpace => (CatKind::Space, true),
            Category::Word => (CatKind::Word, false),
            Category::NotWord => (CatKind::Word, true),
        };
        CatTest {
            kind,
            ascii,
            negated,
        }
    }

    fn test(self, c: char) -> bool {
        let hit = match (self.kind, self.ascii) {
            (CatKind::Digit, true) => c.is_ascii_digit(),
            (CatKind::Digit, false) => is_decimal(c),
            (CatKind::Space, true) => matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{b}' | '\u{c}'),
            (CatKind::Space, false) => is_space(c),
            (CatKind::Word, true) => c.is_ascii_alphanumeric() || c == '_',
            (CatKind::Word, false) => is_word(c),
        };
        hit != self.negated
    }
}

/// Python's `\w` for str patterns: `str.isalnum()` or `_`.
fn is_word(c: char) -> bool {
    c == '_' || is_alnum(c)
}

#[derive(Clone, Debug)]
enum SetItem {
    Literal(Code),
    Range(Code, Code),
    Cat(CatTest),
}

#[derive(Clone, Debug)]
struct CharSet {
    negate: bool,
    items: Vec<SetItem>,
}

impl CharSet {
    fn contains(&self, c: char) -> bool {
        let code = c as Code;
        let hit = self.items.iter().any(|item| match *item {
            SetItem::Literal(x) => code == x,
            SetItem::Range(lo, hi) => lo <= code && code <= hi,
            SetItem::Cat(t) => t.test(c),
        });
        hit != self.negate
    }
}

/// Something that matches exactly one character.
#[derive(Clone, Copy, Debug)]
enum Unit {
    Char(Code),
    NotChar(Code),
    Set(usize),
    /// Any character but `\n`.
    Any,
    AnyAll,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Assertion {
    Beginning,
    BeginningLine,
    End,
    EndLine,
    EndString,
    Boundary { ascii: bool },
    NonBoundary { ascii: bool },
}

#[derive(Clone, Copy, Debug)]
enum Inst {
    Unit(Unit),
    At(Assertion),
    /// Record the position in a capture slot.
    Save(usize),
    /// Try the first target, and on failure the second.
    Split(usize, usize),
    Jmp(usize),
    /// Enter a general repeat: its count and last start are reset.
    RepStart(usize),
    /// The head of a greedy general repeat (`_sre`'s `MAX_UNTIL`).
    RepGreedy {
        r: usize,
        min: u64,
        max: Option<u64>,
        body: usize,
        exit: usize,
    },
    /// The head of a lazy general repeat (`MIN_UNTIL`): try the exit first.
    RepLazy {
        r: usize,
        min: u64,
        body: usize,
        exit: usize,
        iter: usize,
    },
    /// Where a lazy repeat resumes when the exit failed: one more iteration.
    RepLazyIter {
        r: usize,
        max: Option<u64>,
        body: usize,
    },
    /// A repeat of a single character (`REPEAT_ONE` / `MIN_REPEAT_ONE`).
    RepOne {
        unit: Unit,
        min: u64,
        max: Option<u64>,
        greedy: bool,
    },
    /// A lookahead or lookbehind whose body starts at `body` and ends in
    /// `Succeed`; execution continues at `next`.
    Look {
        behind: bool,
        negate: bool,
        width: usize,
        body: usize,
        next: usize,
    },
    /// An atomic group (and a possessive repeat): first success only.
    Atomic {
        body: usize,
        next: usize,
    },
    GroupRef(usize),
    /// Continue if the group matched, else jump to `no`.
    CondRef {
        group: usize,
        no: usize,
    },
    /// The end of a lookaround or atomic body.
    Succeed,
    /// The end of the pattern.
    Match,
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    insts: Vec<Inst>,
    sets: Vec<CharSet>,
    /// Number of capturing groups.
    pub groups: usize,
    reps: usize,
    /// Where a match can start, to skip ahead quickly.
    start: StartHint,
}

/// What the first instruction says about where a match can start.
#[derive(Clone, Copy, Debug)]
enum StartHint {
    Anywhere,
    /// At this character.
    Char(char),
    /// At the very beginning (`^`, `\A`).
    Beginning,
    /// At the end, or before a final newline (`$`).
    End,
    /// At the very end (`\Z`).
    EndString,
    /// Before a newline, or at the end (`$` in multiline mode).
    EndLine,
}

fn combine(flags: u16, add: u16, del: u16) -> u16 {
    let base = if add & flag::TYPE != 0 {
        flags & !flag::TYPE
    } else {
        flags
    };
    (base | add) & !del
}

/// Whether case-insensitive matching could treat `code` differently: its
/// lowercase or uppercase form is another character.
fn cased(code: Code) -> bool {
    char::from_u32(code).is_some_and(|c| {
        let same = |m: &mut dyn Iterator<Item = char>| m.next() == Some(c) && m.next().is_none();
        !(same(&mut c.to_lowercase()) && same(&mut c.to_uppercase()))
    })
}

fn ignorecase_refused() -> ParseError {
    ParseError::Unsupported(
        "case-insensitive matching (the i flag) of letters: write both cases, e.g. [Hh]".into(),
    )
}

struct Compiler<'a> {
    insts: Vec<Inst>,
    sets: Vec<CharSet>,
    reps: usize,
    group_widths: &'a [(u128, u128)],
}

/// Compiles a parsed pattern, with the checks CPython's compiler makes.
pub(crate) fn compile(parsed: &Parsed) -> Result<Program, ParseError> {
    let mut c = Compiler {
        insts: Vec::new(),
        sets: Vec::new(),
        reps: 0,
        group_widths: &parsed.group_widths,
    };
    c.seq(&parsed.nodes, parsed.flags)?;
    c.insts.push(Inst::Match);
    let start = match c.insts.iter().find(|i| !matches!(i, Inst::Save(_))) {
        Some(Inst::Unit(Unit::Char(code))) => {
            char::from_u32(*code).map_or(StartHint::Anywhere, StartHint::Char)
        }
        Some(Inst::At(Assertion::Beginning)) => StartHint::Beginning,
        Some(Inst::At(Assertion::End)) => StartHint::End,
        Some(Inst::At(Assertion::EndString)) => StartHint::EndString,
        Some(Inst::At(Assertion::EndLine)) => StartHint::EndLine,
        _ => StartHint::Anywhere,
    };
    Ok(Program {
        insts: c.insts,
        sets: c.sets,
        groups: parsed.groups,
        reps: c.reps,
        start,
    })
}

impl Compiler<'_> {
    fn seq(&mut self, nodes: &[Node], flags: u16) -> Result<(), ParseError> {
        nodes.iter().try_for_each(|n| self.node(n, flags))
    }

    fn placeholder(&mut self) -> usize {
        self.insts.push(Inst::Jmp(usize::MAX));
        self.insts.len() - 1
    }

    fn unit(&mut self, node: &Node, flags: u16) -> Result<Option<Unit>, ParseError> {
        let ignorecase = flags & flag::IGNORECASE != 0;
        let ascii = flags & flag::UNICODE == 0;
        Ok(Some(match node {
            Node::Literal(c) | Node::NotLiteral(c) => {
                if ignorecase && cased(*c) {
                    return Err(ignorecase_refused());
                }
                if matches!(node, Node::Literal(_)) {
                    Unit::Char(*c)
                } else {
                    Unit::NotChar(*c)
                }
            }
            Node::Any if flags & flag::DOTALL != 0 => Unit::AnyAll,
            Node::Any => Unit::Any,
            Node::Class { negate, items } => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    out.push(match *item {
                        ClassItem::Literal(c) => {
                            if ignorecase && cased(c) {
                                return Err(ignorecase_refused());
                            }
                            SetItem::Literal(c)
                        }
                        ClassItem::Range(lo, hi) => {
                            if ignorecase && (hi - lo > 256 || (lo..=hi).any(cased)) {
                                return Err(ignorecase_refused());
                            }
                            SetItem::Range(lo, hi)
                        }
                        ClassItem::Category(cat) => SetItem::Cat(CatTest::new(cat, ascii)),
                    });
                }
                self.sets.push(CharSet {
                    negate: *negate,
                    items: out,
                });
                Unit::Set(self.sets.len() - 1)
            }
            _ => return Ok(None),
        }))
    }

    /// The single character a repeat body matches, if it is one (`_simple`).
    fn single_unit(&mut self, body: &[Node], flags: u16) -> Result<Option<Unit>, ParseError> {
        match body {
            [Node::Group {
                group: None,
                add,
                del,
                body,
            }] => self.single_unit(body, combine(flags, *add, *del)),
            [node] => self.unit(node, flags),
            _ => Ok(None),
        }
    }

    fn node(&mut self, node: &Node, flags: u16) -> Result<(), ParseError> {
        if let Some(u) = self.unit(node, flags)? {
            self.insts.push(Inst::Unit(u));
            return Ok(());
        }
        match node {
            Node::Literal(_) | Node::NotLiteral(_) | Node::Any | Node::Class { .. } => {}
            Node::Anchor(a) => {
                let multiline = flags & flag::MULTILINE != 0;
                let ascii = flags & flag::UNICODE == 0;
                let at = match a {
                    Anchor::Beginning if multiline => Assertion::BeginningLine,
                    Anchor::Beginning | Anchor::BeginningString => Assertion::Beginning,
                    Anchor::End if multiline => Assertion::EndLine,
                    Anchor::End => Assertion::End,
                    Anchor::EndString => Assertion::EndString,
                    Anchor::Boundary => Assertion::Boundary { ascii },
                    Anchor::NonBoundary => Assertion::NonBoundary { ascii },
                };
                self.insts.push(Inst::At(at));
            }
            Node::Group {
                group,
                add,
                del,
                body,
            } => {
                let inner = combine(flags, *add, *del);
                match group {
                    Some(g) => {
                        self.insts.push(Inst::Save(2 * (g - 1)));
                        self.seq(body, inner)?;
                        self.insts.push(Inst::Save(2 * (g - 1) + 1));
                    }
                    None => self.seq(body, inner)?,
                }
            }
            Node::Atomic(body) => self.atomic(|c| c.seq(body, flags))?,
            Node::Branch(alts) => {
                let mut ends = Vec::new();
                for (i, alt) in alts.iter().enumerate() {
                    if i + 1 == alts.len() {
                        self.seq(alt, flags)?;
                    } else {
                        let split = self.placeholder();
                        self.seq(alt, flags)?;
                        ends.push(self.placeholder());
                        self.insts[split] = Inst::Split(split + 1, self.insts.len());
                    }
                }
                let end = self.insts.len();
                for j in ends {
                    self.insts[j] = Inst::Jmp(end);
                }
            }
            Node::Repeat {
                min,
                max,
                greed,
                body,
            } => {
                if flags & flag::TEMPLATE != 0 {
                    return Err(ParseError::Invalid {
                        msg: "internal: unsupported template operator (a repeat under the t flag)"
                            .into(),
                        pos: None,
                    });
                }
                let (min, max) = (*min, *max);
                match greed {
                    Greed::Possessive => {
                        self.atomic(|c| c.repeat(min, max, true, body, flags))?;
                    }
                    Greed::Greedy => self.repeat(min, max, true, body, flags)?,
                    Greed::Lazy => self.repeat(min, max, false, body, flags)?,
                }
            }
            Node::Assert {
                behind,
                negate,
                body,
            } => {
                let mut w = 0;
                if *behind {
                    let (lo, hi) = width(body, self.group_widths);
                    if lo > MAXCODE {
                        return Err(ParseError::Invalid {
                            msg: "looks too much behind".into(),
                            pos: None,
                        });
                    }
                    if lo != hi {
                        return Err(ParseError::Invalid {
                            msg: "look-behind requires fixed-width pattern".into(),
                            pos: None,
                        });
                    }
                    w = lo as usize;
                }
                let at = self.placeholder();
                self.seq(body, flags)?;
                self.insts.push(Inst::Succeed);
                self.insts[at] = Inst::Look {
                    behind: *behind,
                    negate: *negate,
                    width: w,
                    body: at + 1,
                    next: self.insts.len(),
                };
            }
            Node::GroupRef(g) => {
                if flags & flag::IGNORECASE != 0 {
                    return Err(ignorecase_refused());
                }
                self.insts.push(Inst::GroupRef(*g));
            }
            Node::GroupRefExists { group, yes, no } => {
                let cond = self.placeholder();
                self.seq(yes, flags)?;
                match no {
                    Some(no) => {
                        let skip = self.placeholder();
                        self.insts[cond] = Inst::CondRef {
                            group: *group,
                            no: self.insts.len(),
                        };
                        self.seq(no, flags)?;
                        self.insts[skip] = Inst::Jmp(self.insts.len());
                    }
                    None => {
                        self.insts[cond] = Inst::CondRef {
                            group: *group,
                            no: self.insts.len(),
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn atomic(
        &mut self,
        body: impl FnOnce(&mut Self) -> Result<(), ParseError>,
    ) -> Result<(), ParseError> {
        let at = self.placeholder();
        body(self)?;
        self.insts.push(Inst::Succeed);
        self.insts[at] = Inst::Atomic {
            body: at + 1,
            next: self.insts.len(),
        };
        Ok(())
    }

    fn repeat(
        &mut self,
        min: u64,
        max: Option<u64>,
        greedy: bool,
        body: &[Node],
        flags: u16,
    ) -> Result<(), ParseError> {
        if let Some(unit) = self.single_unit(body, flags)? {
            self.insts.push(Inst::RepOne {
                unit,
                min,
                max,
                greedy,
            });
            return Ok(());
        }
        let r = self.reps;
        self.reps += 1;
        self.insts.push(Inst::RepStart(r));
        let head = self.placeholder();
        let iter = if greedy {
            None
        } else {
            Some(self.placeholder())
        };
        let body_start = self.insts.len();
        self.seq(body, flags)?;
        self.insts.push(Inst::Jmp(head));
        let exit = self.insts.len();
        self.insts[head] = match iter {
            None => Inst::RepGreedy {
                r,
                min,
                max,
                body: body_start,
                exit,
            },
            Some(iter) => {
                self.insts[iter] = Inst::RepLazyIter {
                    r,
                    max,
                    body: body_start,
                };
                Inst::RepLazy {
                    r,
                    min,
                    body: body_start,
                    exit,
                    iter,
                }
            }
        };
        Ok(())
    }
}

/// A backtracking frame.
#[derive(Clone, Copy, Debug)]
enum Frame {
    /// Resume here when what follows fails.
    Alt { pc: usize, pos: usize },
    /// Undo a capture.
    Slot { slot: usize, old: usize },
    /// Undo a repeat's bookkeeping.
    Rep { r: usize, count: u64, last: usize },
    /// A greedy single-character repeat that may give back one more character.
    Greedy {
        next: usize,
        pos: usize,
        count: u64,
        min: u64,
    },
    /// A lazy single-character repeat that may take one more character.
    Lazy { pc: usize, pos: usize, count: u64 },
}

/// One match: its span and each group's span (`None`: the group did not take
/// part), all byte offsets into the searched text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    pub start: usize,
    pub end: usize,
    pub groups: Vec<Option<(usize, usize)>>,
}

struct Machine<'p, 'h> {
    prog: &'p Program,
    hay: &'h str,
    slots: Vec<usize>,
    reps: Vec<(u64, usize)>,
    stack: Vec<Frame>,
    /// At the top level, a match that ends here (where the attempt began) is
    /// rejected: the previous match was empty and ended here too.
    forbid_empty_at: Option<usize>,
    budget: &'p mut u64,
}

impl Program {
    /// The leftmost match starting at or after `from`. With `must_advance`, an
    /// empty match at `from` itself does not count (`_sre`'s rule after an
    /// empty match).
    pub(crate) fn search(
        &self,
        hay: &str,
        from: usize,
        must_advance: bool,
        budget: &mut u64,
    ) -> Result<Option<Match>, Exhausted> {
        let mut m = Machine {
            prog: self,
            hay,
            slots: vec![NONE; 2 * self.groups],
            reps: vec![(0, NONE); self.reps],
            stack: Vec::new(),
            forbid_empty_at: None,
            budget,
        };
        let mut start = from;
        loop {
            // Skip positions where no match can start (as `_sre`'s prefix
            // and anchor shortcuts do); this never changes the result.
            let len = hay.len();
            let next = match self.start {
                StartHint::Anywhere => Some(start),
                StartHint::Char(c) => hay[start..].find(c).map(|i| start + i),
                StartHint::Beginning => (start == 0).then_some(0),
                StartHint::EndString => Some(len),
                StartHint::End if hay.ends_with('\n') => Some(start.max(len - 1)),
                StartHint::End => Some(len),
                StartHint::EndLine => Some(hay[start..].find('\n').map_or(len, |i| start + i)),
            };
            match next {
                Some(n) => start = n,
                None => return Ok(None),
            }
            m.slots.fill(NONE);
            m.reps.fill((0, NONE));
            m.stack.clear();
            m.forbid_empty_at = (must_advance && start == from).then_some(start);
            if let Some(end) = m.exec(0, start, true)? {
                let groups = (0..self.groups)
                    .map(|g| {
                        let (s, e) = (m.slots[2 * g], m.slots[2 * g + 1]);
                        (s != NONE && e != NONE && s <= e).then_some((s, e))
                    })
                    .collect();
                return Ok(Some(Match { start, end, groups }));
            }
            match hay[start..].chars().next() {
                Some(c) => start += c.len_utf8(),
                None => return Ok(None),
            }
        }
    }
}

impl Machine<'_, '_> {
    fn tick(&mut self) -> Result<(), Exhausted> {
        if *self.budget == 0 || self.stack.len() > MAX_STACK {
            return Err(Exhausted);
        }
        *self.budget -= 1;
        Ok(())
    }

    fn matches(&self, unit: Unit, c: char) -> bool {
        match unit {
            Unit::Char(x) => c as Code == x,
            Unit::NotChar(x) => c as Code != x,
            Unit::Any => c != '\n',
            Unit::AnyAll => true,
            Unit::Set(i) => self.prog.sets[i].contains(c),
        }
    }

    fn step(&self, unit: Unit, pos: usize) -> Option<usize> {
        let c = self.hay[pos..].chars().next()?;
        self.matches(unit, c).then(|| pos + c.len_utf8())
    }

    fn word_at(&self, pos: usize, ascii: bool) -> (bool, bool) {
        let word = |c: char| {
            if ascii {
                c.is_ascii_alphanumeric() || c == '_'
            } else {
                is_word(c)
            }
        };
        let before = self.hay[..pos].chars().next_back().is_some_and(word);
        let after = self.hay[pos..].chars().next().is_some_and(word);
        (before, after)
    }

    fn at(&self, a: Assertion, pos: usize) -> bool {
        let bytes = self.hay.as_bytes();
        let len = bytes.len();
        match a {
            Assertion::Beginning => pos == 0,
            Assertion::BeginningLine => pos == 0 || bytes[pos - 1] == b'\n',
            Assertion::End => pos == len || (pos + 1 == len && bytes[pos] == b'\n'),
            Assertion::EndLine => pos == len || bytes[pos] == b'\n',
            Assertion::EndString => pos == len,
            Assertion::Boundary { ascii } => {
                let (b, a) = self.word_at(pos, ascii);
                len > 0 && b != a
            }
            Assertion::NonBoundary { ascii } => {
                let (b, a) = self.word_at(pos, ascii);
                len > 0 && b == a
            }
        }
    }

    fn group_span(&self, g: usize) -> Option<(usize, usize)> {
        let (s, e) = (self.slots[2 * (g - 1)], self.slots[2 * (g - 1) + 1]);
        (s != NONE && e != NONE && s <= e).then_some((s, e))
    }

    /// `n` characters before `pos`, if there are that many.
    fn back(&self, pos: usize, n: usize) -> Option<usize> {
        if n == 0 {
            return Some(pos);
        }
        self.hay[..pos]
            .char_indices()
            .rev()
            .nth(n - 1)
            .map(|(i, _)| i)
    }

    /// Drops the choice points above `mark`, keeping what undoes captures and
    /// repeat state (so that backtracking past this point still undoes them).
    fn prune(&mut self, mark: usize) {
        let tail: Vec<Frame> = self
            .stack
            .drain(mark..)
            .filter(|f| matches!(f, Frame::Slot { .. } | Frame::Rep { .. }))
            .collect();
        self.stack.extend(tail);
    }

    /// Undoes everything above `mark`.
    fn unwind(&mut self, mark: usize) {
        while self.stack.len() > mark {
            match self.stack.pop() {
                Some(Frame::Slot { slot, old }) => self.slots[slot] = old,
                Some(Frame::Rep { r, count, last }) => self.reps[r] = (count, last),
                _ => {}
            }
        }
    }

    /// Pops frames down to `base` until one offers another way forward.
    fn backtrack(&mut self, base: usize) -> Option<(usize, usize)> {
        while self.stack.len() > base {
            match self.stack.pop()? {
                Frame::Alt { pc, pos } => return Some((pc, pos)),
                Frame::Slot { slot, old } => self.slots[slot] = old,
                Frame::Rep { r, count, last } => self.reps[r] = (count, last),
                Frame::Greedy {
                    next,
                    pos,
                    count,
                    min,
                } => {
                    let p = self.hay[..pos]
                        .char_indices()
                        .next_back()
                        .map_or(pos, |(i, _)| i);
                    if count - 1 > min {
                        self.stack.push(Frame::Greedy {
                            next,
                            pos: p,
                            count: count - 1,
                            min,
                        });
                    }
                    return Some((next, p));
                }
                Frame::Lazy { pc, pos, count } => {
                    if let Inst::RepOne { unit, max, .. } = self.prog.insts[pc] {
                        if max.is_none_or(|m| count < m) {
                            if let Some(q) = self.step(unit, pos) {
                                self.stack.push(Frame::Lazy {
                                    pc,
                                    pos: q,
                                    count: count + 1,
                                });
                                return Some((pc + 1, q));
                            }
                        }
                    }
                }
            }
        }
        None
    }

    /// Runs from `pc` at `pos` until `Match`/`Succeed` (the end position) or
    /// until every alternative failed (`None`, with all effects undone).
    fn exec(
        &mut self,
        mut pc: usize,
        mut pos: usize,
        toplevel: bool,
    ) -> Result<Option<usize>, Exhausted> {
        let base = self.stack.len();
        loop {
            self.tick()?;
            let ok = match self.prog.insts[pc] {
                Inst::Unit(u) => match self.step(u, pos) {
                    Some(p) => {
                        pos = p;
                        pc += 1;
                        true
                    }
                    None => false,
                },
                Inst::At(a) => {
                    pc += 1;
                    self.at(a, pos)
                }
                Inst::Save(slot) => {
                    self.stack.push(Frame::Slot {
                        slot,
                        old: self.slots[slot],
                    });
                    self.slots[slot] = pos;
                    pc += 1;
                    true
                }
                Inst::Split(a, b) => {
                    self.stack.push(Frame::Alt { pc: b, pos });
                    pc = a;
                    true
                }
                Inst::Jmp(t) => {
                    pc = t;
                    true
                }
                Inst::RepStart(r) => {
                    let (count, last) = self.reps[r];
                    self.stack.push(Frame::Rep { r, count, last });
                    self.reps[r] = (0, NONE);
                    pc += 1;
                    true
                }
                Inst::RepGreedy {
                    r,
                    min,
                    max,
                    body,
                    exit,
                } => {
                    let (count, last) = self.reps[r];
                    if count < min {
                        self.stack.push(Frame::Rep { r, count, last });
                        self.reps[r] = (count + 1, last);
                        pc = body;
                    } else if max.is_none_or(|m| count < m) && last != pos {
                        self.stack.push(Frame::Alt { pc: exit, pos });
                        self.stack.push(Frame::Rep { r, count, last });
                        self.reps[r] = (count + 1, pos);
                        pc = body;
                    } else {
                        pc = exit;
                    }
                    true
                }
                Inst::RepLazy {
                    r,
                    min,
                    body,
                    exit,
                    iter,
                } => {
                    let (count, last) = self.reps[r];
                    if count < min {
                        self.stack.push(Frame::Rep { r, count, last });
                        self.reps[r] = (count + 1, last);
                        pc = body;
                    } else {
                        self.stack.push(Frame::Alt { pc: iter, pos });
                        pc = exit;
                    }
                    true
                }
                Inst::RepLazyIter { r, max, body } => {
                    let (count, last) = self.reps[r];
                    if max.is_some_and(|m| count >= m) || last == pos {
                        false
                    } else {
                        self.stack.push(Frame::Rep { r, count, last });
                        self.reps[r] = (count + 1, pos);
                        pc = body;
                        true
                    }
                }
                Inst::RepOne {
                    unit,
                    min,
                    max,
                    greedy,
                } => {
                    let limit = if greedy { max.unwrap_or(u64::MAX) } else { min };
                    let mut p = pos;
                    let mut n = 0u64;
                    while n < limit {
                        match self.step(unit, p) {
                            Some(q) => {
                                p = q;
                                n += 1;
                                self.tick()?;
                            }
                            None => break,
                        }
                    }
                    if n < min {
                        false
                    } else {
                        if greedy {
                            if n > min {
                                self.stack.push(Frame::Greedy {
                                    next: pc + 1,
                                    pos: p,
                                    count: n,
                                    min,
                                });
                            }
                        } else {
                            self.stack.push(Frame::Lazy {
                                pc,
                                pos: p,
                                count: n,
                            });
                        }
                        pos = p;
                        pc += 1;
                        true
                    }
                }
                Inst::Look {
                    behind,
                    negate,
                    width,
                    body,
                    next,
                } => {
                    let start = if behind {
                        self.back(pos, width)
                    } else {
                        Some(pos)
                    };
                    let mark = self.stack.len();
                    let matched = match start {
                        Some(s) => self.exec(body, s, false)?.is_some(),
                        None => false,
                    };
                    if matched != negate {
                        if matched {
                            self.prune(mark);
                        }
                        pc = next;
                        true
                    } else {
                        if matched {
                            self.unwind(mark);
                        }
                        false
                    }
                }
                Inst::Atomic { body, next } => {
                    let mark = self.stack.len();
                    match self.exec(body, pos, false)? {
                        Some(end) => {
                            self.prune(mark);
                            pos = end;
                            pc = next;
                            true
                        }
                        None => false,
                    }
                }
                Inst::GroupRef(g) => match self.group_span(g) {
                    Some((s, e)) if self.hay[pos..].starts_with(&self.hay[s..e]) => {
                        pos += e - s;
                        pc += 1;
                        true
                    }
                    _ => false,
                },
                Inst::CondRef { group, no } => {
                    pc = if self.group_span(group).is_some() {
                        pc + 1
                    } else {
                        no
                    };
                    true
                }
                Inst::Succeed => return Ok(Some(pos)),
                Inst::Match => {
                    if toplevel && self.forbid_empty_at == Some(pos) {
                        false
                    } else {
                        return Ok(Some(pos));
                    }
                }
            };
            if !ok {
                match self.backtrack(base) {
                    Some((p, q)) => {
                        pc = p;
                        pos = q;
                    }
                    None => return Ok(None),
                }
            }
        }
    }
}
