//! Example documents a learner can load with one click. Each one stresses the
//! splitter in a different way (structure, no spaces, no newlines, other scripts,
//! sheer length), so switching between them shows why separators matter.

use crate::text::Text;
use std::cell::OnceCell;

/// One document preset.
pub struct DocumentPreset {
    /// The value of its option in `preset-select`.
    pub name: &'static str,
    /// What the learner sees in the menu.
    pub title: &'static str,
    /// What it is good for showing.
    pub lesson: &'static str,
}

/// Every document preset, in menu order.
pub const DOCUMENT_PRESETS: [DocumentPreset; 8] = [
    DocumentPreset {
        name: "refund",
        title: "Refund page (the lesson)",
        lesson: "the lesson's page: blank lines, lines, then sentences",
    },
    DocumentPreset {
        name: "slack",
        title: "Chat export",
        lesson: "one message per line and no blank lines",
    },
    DocumentPreset {
        name: "csv",
        title: "CSV without newlines",
        lesson: "rows that lost their line breaks: only commas and spaces are left",
    },
    DocumentPreset {
        name: "base64",
        title: "Base64 blob",
        lesson: "one huge word: only a hard cut can split it",
    },
    DocumentPreset {
        name: "markdown",
        title: "Markdown page",
        lesson: "headings, a table and a code fence",
    },
    DocumentPreset {
        name: "chinese",
        title: "Chinese prose",
        lesson: "no spaces between sentences: try the cjk separators",
    },
    DocumentPreset {
        name: "python",
        title: "Python file",
        lesson: "classes and functions: try the python separators",
    },
    DocumentPreset {
        name: "article",
        title: "Long article (200 KB+)",
        lesson: "a long document, to feel the speed",
    },
];

const REFUND: &str = include_str!("refund.txt");
const SLACK: &str = include_str!("slack.txt");
const CSV: &str = include_str!("csv.txt");

/// The fields of a row of the `csv` preset (its header's: `order_id` to
/// `status`). Its rows lost their line breaks, so this is the only way to
/// know where one starts: every `CSV_COLUMNS`-th field, the header's first
/// included.
pub const CSV_COLUMNS: usize = 7;
const BASE64: &str = include_str!("base64.txt");
const MARKDOWN: &str = include_str!("markdown.md");
const CHINESE: &str = include_str!("chinese.txt");
const PYTHON: &str = include_str!("python.py");
/// The long article's paragraphs, one per line. The article is assembled from
/// them at run time, which keeps the shipped wasm small.
const ARTICLE_PARAGRAPHS: &str = include_str!("article.txt");

/// The text of the document preset `name`, or `None` for an unknown name.
pub fn text(name: &str) -> Option<Text> {
    Some(match name {
        "refund" => REFUND.into(),
        "slack" => SLACK.into(),
        "csv" => CSV.into(),
        "base64" => base64_ticket().into(),
        "markdown" => MARKDOWN.into(),
        "chinese" => CHINESE.into(),
        "python" => PYTHON.into(),
        "article" => article(),
        _ => return None,
    })
}

/// The support ticket with an inlined image: `{BLOB}` in the text becomes
/// 3 200 characters of base64. They are made here rather than stored, since
/// random bytes do not compress and would cost the shipped wasm 2.6 KB.
fn base64_ticket() -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    // xorshift64: the same "image" every time.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let blob: String = (0..3200)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from(ALPHABET[(state >> 58) as usize])
        })
        .collect();
    BASE64.replace("{BLOB}", &blob)
}

/// The refund page of the lesson, the document shown on first load.
pub fn refund() -> Text {
    REFUND.into()
}

thread_local! {
    static ARTICLE: OnceCell<Text> = const { OnceCell::new() };
}

/// The long article, built once and shared.
fn article() -> Text {
    ARTICLE.with(|cell| cell.get_or_init(|| build_article().into()).clone())
}

const TOPICS: [&str; 14] = [
    "Why documents are cut",
    "Fixed windows",
    "Overlap and stride",
    "Separators, strongest first",
    "Packing small pieces",
    "Where the separator goes",
    "Offsets that never drift",
    "Units of length",
    "Text without spaces",
    "Code and Markdown",
    "Tables and exports",
    "Properties worth testing",
    "Choosing a size",
    "Reading the cuts",
];

/// At least this many bytes, so the article is a real load test.
const ARTICLE_MIN_BYTES: usize = 210_000;

/// Assembles the long article deterministically: numbered sections, each with a
/// heading, a few of the paragraphs in rotation, and a worked example whose
/// numbers are computed for that section (so no two sections are the same).
fn build_article() -> String {
    let paragraphs: Vec<&str> = ARTICLE_PARAGRAPHS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    let mut out = String::from(
        "# Chunking for retrieval: a field guide\n\n\
         This guide collects notes on how documents are cut into chunks before they \
         are embedded and searched. Each section is short and can be read on its own.\n",
    );
    let mut section = 0usize;
    while out.len() < ARTICLE_MIN_BYTES {
        section += 1;
        let topic = TOPICS[section % TOPICS.len()];
        out.push_str(&format!("\n## {section}. {topic}\n\n"));
        for k in 0..3 {
            let p = paragraphs[(section * 5 + k * 11) % paragraphs.len()];
            out.push_str(p);
            out.push_str("\n\n");
        }
        out.push_str(&worked_example(section));
        out.push('\n');
    }
    out
}

/// A fixed-window calculation with numbers that depend on the section.
fn worked_example(section: usize) -> String {
    let length = 1_000 + 37 * section;
    let size = 100 + 10 * (section % 9);
    let overlap = size / 10 * (section % 3);
    let stride = size - overlap;
    let windows = 1 + (length - size).div_ceil(stride);
    format!(
        "Worked example {section}: a text of {length} characters cut into windows of \
         {size} with an overlap of {overlap} steps forward {stride} characters at a time. \
         The starts are 0, {stride}, {}, and so on, so it takes {windows} windows to reach \
         the end; the last one starts at {} and ends exactly at {length}.\n",
        2 * stride,
        (windows - 1) * stride,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refund_is_the_lesson_page() {
        assert_eq!(
            &*refund(),
            "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
             COD orders get store credit.\n\nContact us 24x7."
        );
    }

    #[test]
    fn every_preset_has_text_and_the_article_is_long() {
        for p in DOCUMENT_PRESETS {
            assert!(!text(p.name).unwrap().is_empty(), "{}", p.name);
        }
        assert!(text("article").unwrap().len() >= 200_000);
        assert!(text("nope").is_none());
    }

    #[test]
    fn the_ticket_holds_one_long_base64_word() {
        let ticket = text("base64").unwrap();
        let word = ticket.split_whitespace().max_by_key(|w| w.len()).unwrap();
        assert!(word.starts_with("data:image/png;base64,") && word.len() > 3200);
        assert!(!ticket.contains("{BLOB}"));
        assert_eq!(text("base64"), Some(ticket));
    }

    #[test]
    fn worked_examples_reach_the_end() {
        for s in 1..200 {
            let e = worked_example(s);
            assert!(e.contains("ends exactly at"), "{e}");
        }
    }
}
