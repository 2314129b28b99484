//! The pieces random test texts are made of: multi-byte and combining
//! characters, CJK punctuation, every kind of whitespace, separators and a few
//! words, so that generated texts hit the engines' edge cases often. Shared by
//! the property tests and the trace-truth tests.

pub const ATOMS: &[&str] = &[
    "a",
    "b",
    "word",
    "Ünïcödé",
    "😀",
    "👩‍💻",
    "e\u{301}",
    "中文",
    "。",
    "！",
    "，",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\r\n",
    "\t",
    "\u{3000}",
    "\u{a0}",
    "\u{1f}",
    ". ",
    "! ",
    ",",
    "-",
    "\\",
    "x.y",
    "aa",
    "ab",
    "the ",
    "cat ",
    "sat.",
    "1234",
];
