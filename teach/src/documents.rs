//! The gallery's small corpora: several documents in one text, each opened by
//! a header that gives its source and its permission label, the two things a
//! loader attaches to every document and every chunk must keep.
//!
//! ```text
//! ---
//! source: refunds.md
//! permission: public
//! ---
//! Card refunds take ten working days.
//! ```
//!
//! A header is a line `---`, then `key: value` lines, then a line `---`, at
//! the start of the text or of a line. Its body runs to the next header or
//! the end. Text before the first header is a document without labels, and a
//! text without headers is one such document: nothing to cross.
//!
//! ```
//! use chunkscope_teach::documents::documents;
//!
//! let text = "---\nsource: a.md\npermission: public\n---\nOne.\n---\nsource: b.md\n---\nTwo.\n";
//! let docs = documents(text);
//! assert_eq!(docs.len(), 2);
//! assert_eq!(docs[0].label(), "a.md (public)");
//! assert_eq!(docs[1].body.text(text), "Two.\n");
//! ```

use chunkscope::{Chunk, Config, Error, Output, Resources, Span, Splitter};
use std::borrow::Cow;

/// One document of a corpus text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// Where it comes from (`source:`), when its header says.
    pub source: Option<String>,
    /// Who may read it (`permission:`), when its header says.
    pub permission: Option<String>,
    /// Its header, empty for text before the first header.
    pub header: Span,
    /// Its text: what is split and embedded.
    pub body: Span,
}

impl Document {
    /// How a learner reads its labels: `refunds.md (public)`.
    pub fn label(&self) -> String {
        let source = self
            .source
            .as_deref()
            .unwrap_or("the text before the first header");
        match &self.permission {
            Some(p) => format!("{source} ({p})"),
            None => source.to_string(),
        }
    }

    /// The document's whole extent, header and body.
    pub fn extent(&self) -> Span {
        Span::new(self.header.start.min(self.body.start), self.body.end)
    }
}

/// The header that starts at byte `at`, if one does: its end, source and
/// permission.
fn header_at(text: &str, at: usize) -> Option<(usize, Option<String>, Option<String>)> {
    let mut lines = text[at..].split_inclusive('\n');
    let fence = lines.next()?;
    if fence.trim_end_matches(['\n', '\r']) != "---" {
        return None;
    }
    let mut end = at + fence.len();
    let (mut source, mut permission) = (None, None);
    for line in lines {
        end += line.len();
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare == "---" {
            return Some((end, source, permission));
        }
        let (key, value) = bare.split_once(':')?;
        let value = value.trim().to_string();
        match key.trim() {
            "source" => source = Some(value),
            "permission" => permission = Some(value),
            _ => {}
        }
    }
    None
}

/// The documents of `text`, in order. Their extents tile the text.
pub fn documents(text: &str) -> Vec<Document> {
    let starts = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i < text.len());
    let mut headers: Vec<(usize, usize, Option<String>, Option<String>)> = Vec::new();
    for start in starts {
        if headers.last().is_some_and(|h| start < h.1) {
            continue;
        }
        if let Some((end, source, permission)) = header_at(text, start) {
            headers.push((start, end, source, permission));
        }
    }
    let mut docs = Vec::new();
    let first = headers.first().map_or(text.len(), |h| h.0);
    if first > 0 || headers.is_empty() {
        docs.push(Document {
            source: None,
            permission: None,
            header: Span::new(0, 0),
            body: Span::new(0, first),
        });
    }
    for (i, (start, end, source, permission)) in headers.iter().enumerate() {
        let next = headers.get(i + 1).map_or(text.len(), |h| h.0);
        docs.push(Document {
            source: source.clone(),
            permission: permission.clone(),
            header: Span::new(*start, *end),
            body: Span::new(*end, next),
        });
    }
    docs
}

/// `text` with every header blanked out, byte for byte, so the checks judge
/// the bodies (a header is labels, not text to embed) at the same offsets.
/// Each character becomes whitespace of its own UTF-8 length; a four-byte
/// character, for which there is none, becomes two, so char positions after
/// one count it twice.
pub fn bodies_only<'a>(text: &'a str, docs: &[Document]) -> Cow<'a, str> {
    if docs.iter().all(|d| d.header.is_empty()) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for doc in docs {
        out.push_str(&text[at..doc.header.start]);
        for c in doc.header.text(text).chars() {
            match c.len_utf8() {
                1 if c == '\n' => out.push('\n'),
                1 => out.push(' '),
                2 => out.push('\u{85}'),
                3 => out.push('\u{2000}'),
                _ => out.push_str("\u{85}\u{85}"),
            }
        }
        at = doc.header.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// The right way: each document's body split on its own by the engine, its
/// chunks placed in the whole text and numbered on from the last document's.
/// The output keeps no trace (each document had its own).
pub fn split_documents(
    text: &str,
    config: &Config,
    resources: &Resources,
) -> Result<Output, Error> {
    let splitter = Splitter::new(config.clone(), resources)?;
    let mut chunks: Vec<Chunk> = Vec::new();
    for doc in documents(text) {
        let shift = |s: Span| Span::new(s.start + doc.body.start, s.end + doc.body.start);
        for c in splitter.split_untraced(doc.body.text(text))?.chunks {
            chunks.push(Chunk {
                index: chunks.len(),
                span: shift(c.span),
                overlap: c.overlap.map(shift),
                node: None,
                ..c
            });
        }
    }
    Ok(Output {
        chunks,
        ..Output::default()
    })
}

/// Which document holds byte `at`.
pub fn document_at(docs: &[Document], at: usize) -> usize {
    docs.iter()
        .rposition(|d| d.extent().start <= at)
        .unwrap_or_default()
}

/// The documents `pieces` hold text of, each once, in the order met.
pub fn held_by(docs: &[Document], pieces: &[Span]) -> Vec<usize> {
    let mut held = Vec::new();
    for s in pieces.iter().filter(|s| !s.is_empty()) {
        for d in [document_at(docs, s.start), document_at(docs, s.end - 1)] {
            if !held.contains(&d) {
                held.push(d);
            }
        }
    }
    held
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_need_both_fences_and_key_value_lines() {
        let text = "intro\n---\nsource: a.md\n---\nA\n---\nnot a header\n---\nB";
        let docs = documents(text);
        let bodies: Vec<&str> = docs.iter().map(|d| d.body.text(text)).collect();
        assert_eq!(bodies, ["intro\n", "A\n---\nnot a header\n---\nB"]);
        assert_eq!(docs[0].label(), "the text before the first header");
        assert_eq!(docs[1].label(), "a.md");
        assert_eq!(documents("---\nsource: x\nno end").len(), 1);
        // Windows line ends: the header is its five-byte fences and all.
        let crlf = "---\r\nsource: a.md\r\n---\r\nA";
        assert_eq!(documents(crlf)[0].body.text(crlf), "A");
        assert_eq!(documents("").len(), 1);
    }

    #[test]
    fn blanking_keeps_every_offset() {
        let text = "---\nsource: café✓😀\n---\nbody";
        let docs = documents(text);
        let blank = bodies_only(text, &docs);
        assert_eq!(blank.len(), text.len());
        assert!(blank.ends_with("body"));
        assert!(blank[..docs[0].body.start].chars().all(char::is_whitespace));
    }

    #[test]
    fn each_document_is_split_alone() {
        let text = "---\nsource: a\n---\nOne two.\n---\nsource: b\n---\nThree.";
        let out = split_documents(text, &Config::recursive(40), &Resources::new()).unwrap();
        let texts: Vec<&str> = out.chunks.iter().map(|c| c.text(text)).collect();
        assert_eq!(texts, ["One two.", "Three."]);
        assert_eq!(out.chunks[1].index, 1);
    }
}
