//! The code behind each mistake in the bug gallery, as Python, with the
//! lines that go wrong marked. The lessons' own listings (seed 001's class,
//! seed 002's split) are quoted as the lessons print them; the classic
//! mistakes are written out as small functions in the same style. The
//! gallery's variants (`chunkscope_teach::bugs`) run exactly this logic.

use chunkscope_teach::bugs::Bug;
use yew::prelude::*;

/// One line of a listing: its text, and what is wrong with it when it is
/// one of the faulty lines.
type Line = (&'static str, Option<&'static str>);

/// Where the listing comes from, and its lines.
pub fn listing(bug: Bug) -> (&'static str, &'static [Line]) {
    match bug {
        Bug::TailWindow => ("A fixed-window splitter with a range() loop", &[
            ("def fixed_chunks(text, size, overlap):", None),
            ("    chunks = []", None),
            ("    for start in range(0, len(text), size - overlap):", Some("steps on after a window already reached the end")),
            ("        chunks.append(text[start:start + size])", None),
            ("    return chunks", None),
        ]),
        Bug::DroppedSeparator => ("Packing pieces split on \". \"", &[
            ("def split(text, size, sep=\". \"):", None),
            ("    chunks, current = [], \"\"", None),
            ("    for part in text.split(sep):", None),
            ("        if current and len(current + part) > size:", None),
            ("            chunks.append(current)", None),
            ("            current = \"\"", None),
            ("        current += part", Some("the separator was text of the document: it is gone")),
            ("    chunks.append(current)", None),
            ("    return chunks", None),
        ]),
        Bug::NoHardCut => ("A recursive splitter whose list runs out", &[
            ("def split(text, size, seps):", None),
            ("    if len(text) <= size:", None),
            ("        return [text]", None),
            ("    for i, sep in enumerate(seps):", None),
            ("        if sep in text:", None),
            ("            return [c for p in pack(text.split(sep), sep, size)", None),
            ("                      for c in split(p, size, seps[i + 1:])]", None),
            ("    return [text]", Some("still too big, and given back whole: no hard cut")),
        ]),
        Bug::NoProgress => ("A recursive splitter that recurses with the same list", &[
            ("def split(text, size, seps):", None),
            ("    if len(text) <= size:", None),
            ("        return [text]", None),
            ("    for sep in seps:", None),
            ("        if sep in text:", None),
            ("            return [c for p in pack(text.split(sep), sep, size)", None),
            ("                      for c in split(p, size, seps)]", Some("the same list again: the piece has no sep left, so nothing changes")),
            ("    return [text[j:j + size] for j in range(0, len(text), size)]", None),
        ]),
        Bug::Seed001 => ("The lesson's RecursiveTextChunker, as the lesson prints it", &[
            ("class RecursiveTextChunker:", None),
            ("    def __init__(self, chunk_size=500, chunk_overlap=50, separators=None):", Some("nothing checks that the overlap is smaller than the size")),
            ("        self.chunk_size = chunk_size", None),
            ("        self.chunk_overlap = chunk_overlap", None),
            ("        self.separators = separators or [\"\\n\\n\", \"\\n\", \". \", \" \"]", Some("no \"\" at the end of the list")),
            ("", None),
            ("    def split_text(self, text):", None),
            ("        final_chunks = []", None),
            ("        splits = self._split(text, self.separators)", None),
            ("        current_chunk = \"\"", None),
            ("        for s in splits:", None),
            ("            if len(current_chunk) + len(s) <= self.chunk_size:", None),
            ("                current_chunk += s", None),
            ("            else:", None),
            ("                if current_chunk:", None),
            ("                    final_chunks.append(current_chunk.strip())", Some("strip() loses the chunk's offsets")),
            ("                current_chunk = current_chunk[-self.chunk_overlap:] + s if self.chunk_overlap < len(current_chunk) else s",
                Some("the overlap is added without checking the size; with overlap 0, [-0:] is the whole chunk; a chunk shorter than the overlap gets none")),
            ("        if current_chunk:", None),
            ("            final_chunks.append(current_chunk.strip())", None),
            ("        return final_chunks", None),
            ("", None),
            ("    def _split(self, text, separators):", None),
            ("        if not separators:", None),
            ("            return list(text)", Some("unreachable: a piece is recursed into only while more than one separator is left")),
            ("        sep = separators[0]", None),
            ("        splits = text.split(sep)", None),
            ("        result = []", None),
            ("        for s in splits:", None),
            ("            if len(s) > self.chunk_size and len(separators) > 1:", None),
            ("                result.extend(self._split(s, separators[1:]))", Some("the separator after s is dropped")),
            ("            else:", None),
            ("                result.append(s + sep)", Some("adds the separator even after the last piece, where the text had none")),
            ("        return result", None),
        ]),
        Bug::NoMerge => ("The lesson's eleven-line split, as the lesson prints it", &[
            ("def split(text, size, seps):", None),
            ("    if len(text) <= size or not seps:", None),
            ("        return [text]", None),
            ("    sep, rest = seps[0], seps[1:]", None),
            ("    parts = text.split(sep) if sep else list(text)", None),
            ("    out = []", None),
            ("    for p in parts:", None),
            ("        out.extend(split(p, size, rest) if len(p) > size else [p])", Some("every piece stays a chunk: nothing packs the small ones back together")),
            ("    return out", None),
        ]),
    }
}

/// The listing of `bug`, folded: its faulty lines marked, each with why.
pub fn bug_code(bug: Bug) -> Html {
    let (title, lines) = listing(bug);
    let faults = lines.iter().filter(|(_, why)| why.is_some()).count();
    html! {
        <details class="bug-code" data-testid="bug-code" data-bug={bug.name()}>
            <summary>{format!("The code: {title} ({faults} faulty {})", if faults == 1 { "line" } else { "lines" })}</summary>
            <pre><code>
                { for lines.iter().map(|(text, why)| match why {
                    Some(why) => html! {
                        <span class="bug-line" data-testid="bug-code-line" title={*why}>{format!("{text}\n")}</span>
                    },
                    None => html! { {format!("{text}\n")} },
                })}
            </code></pre>
            <ul class="notes-list">
                { for lines.iter().filter_map(|(text, why)| why.map(|w| html! {
                    <li><code>{text.trim().trim_end_matches(':')}</code>{": "}{w}</li>
                }))}
            </ul>
        </details>
    }
}
