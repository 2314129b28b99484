//! The code behind each mistake in the bug gallery, as Python, with the
//! lines that go wrong marked. A mistake of the lessons' own code (seed 001's
//! class, seed 002's split) is shown in code mode's listing of it, on the
//! lines code mode reveals (`chunkscope_teach::listings`); the classic
//! mistakes are written out as small functions in the same style. The
//! gallery's variants (`chunkscope_teach::bugs`) run exactly this logic.

use chunkscope_teach::bugs::Bug;
use chunkscope_teach::listings::LISTINGS;
use yew::prelude::*;

/// One line of a listing: its text, and what is wrong with it when it is
/// one of the faulty lines.
type Line = (&'static str, Option<&'static str>);

/// Where the listing comes from, and its lines.
pub fn listing(bug: Bug) -> (&'static str, Vec<Line>) {
    let own = |title, lines: &[Line]| (title, lines.to_vec());
    match bug {
        Bug::TailWindow => own(
            "A fixed-window splitter with a range() loop",
            &[
                ("def fixed_chunks(text, size, overlap):", None),
                ("    chunks = []", None),
                (
                    "    for start in range(0, len(text), size - overlap):",
                    Some("steps on after a window already reached the end"),
                ),
                ("        chunks.append(text[start:start + size])", None),
                ("    return chunks", None),
            ],
        ),
        Bug::MissingTail => own(
            "A fixed-window splitter that counts its windows first",
            &[
                ("def fixed_chunks(text, size, overlap):", None),
                ("    stride = size - overlap", None),
                (
                    "    count = (len(text) - size) // stride + 1",
                    Some("rounds down: the last window stops short of the end"),
                ),
                ("    return [text[k * stride:k * stride + size]", None),
                ("            for k in range(count)]", None),
            ],
        ),
        Bug::DroppedSeparator => own(
            "Packing pieces split on \". \"",
            &[
                ("def split(text, size, sep=\". \"):", None),
                ("    chunks, current = [], \"\"", None),
                ("    for part in text.split(sep):", None),
                ("        if current and len(current + part) > size:", None),
                ("            chunks.append(current)", None),
                ("            current = \"\"", None),
                (
                    "        current += part",
                    Some("the separator was text of the document: it is gone"),
                ),
                ("    chunks.append(current)", None),
                ("    return chunks", None),
            ],
        ),
        Bug::NoHardCut => own(
            "A recursive splitter whose list runs out",
            &[
                ("def split(text, size, seps):", None),
                ("    if len(text) <= size:", None),
                ("        return [text]", None),
                ("    for i, sep in enumerate(seps):", None),
                ("        if sep in text:", None),
                (
                    "            return [c for p in pack(text.split(sep), sep, size)",
                    None,
                ),
                (
                    "                      for c in split(p, size, seps[i + 1:])]",
                    None,
                ),
                (
                    "    return [text]",
                    Some("still too big, and given back whole: no hard cut"),
                ),
            ],
        ),
        Bug::NoProgress => own(
            "A recursive splitter that recurses with the same list",
            &[
                ("def split(text, size, seps):", None),
                ("    if len(text) <= size:", None),
                ("        return [text]", None),
                ("    for sep in seps:", None),
                ("        if sep in text:", None),
                (
                    "            return [c for p in pack(text.split(sep), sep, size)",
                    None,
                ),
                (
                    "                      for c in split(p, size, seps)]",
                    Some("the same list again: the piece has no sep left, so nothing changes"),
                ),
                (
                    "    return [text[j:j + size] for j in range(0, len(text), size)]",
                    None,
                ),
            ],
        ),
        Bug::StaleIndex => own(
            "Re-indexing when a file's size changes",
            &[
                ("def sync(index, path, text, splitter, embed):", None),
                ("    entry = index.get(path)", None),
                (
                    "    if entry and entry.size == len(text.encode()):",
                    Some("an edit that keeps the size keeps the old chunks, vectors and hashes"),
                ),
                ("        return entry.chunks", None),
                ("    chunks = splitter.split(text)", None),
                ("    index[path] = Entry(len(text.encode()),", None),
                ("                        [(c, sha256(c), embed(c)) for c in chunks])", None),
                ("    return chunks", None),
            ],
        ),
        Bug::SplitBeforeTokens => own(
            "Strings first, token spans guessed afterwards",
            &[
                ("def chunk(text, size_tokens, overlap_tokens, enc):", None),
                (
                    "    size, step = size_tokens * 4, (size_tokens - overlap_tokens) * 4",
                    None,
                ),
                ("    chunks, t = [], 0", None),
                ("    for start in range(0, len(text), step):", None),
                ("        piece = text[start:start + size]", None),
                (
                    "        n = len(enc.encode(piece))",
                    Some("counted alone: a cut inside a word makes tokens the document does not have"),
                ),
                ("        chunks.append((piece, (t, t + n)))", None),
                ("        if start + size >= len(text):", None),
                ("            break", None),
                ("        t += len(enc.encode(text[start:start + step]))", None),
                ("    return chunks", None),
            ],
        ),
        Bug::JoinedDocuments => own(
            "Joining a corpus before splitting it",
            &[
                ("def chunk_corpus(docs, splitter):", None),
                (
                    "    text = \"\\n\\n\".join(d.page_content for d in docs)",
                    Some("the documents' boundaries and labels are gone before the split"),
                ),
                ("    return splitter.split_text(text)", None),
            ],
        ),
        lesson => from_lesson(lesson),
    }
}

/// A mistake of the lessons' own code: the lesson's listing as code mode
/// shows it, with the lines its known bugs of this kind sit on marked, so
/// the gallery and code mode never disagree about where a bug is.
fn from_lesson(bug: Bug) -> (&'static str, Vec<Line>) {
    // Lesson 001's class is last: a mistake it shares with an earlier
    // listing is shown where the gallery's variant models it.
    let Some(listing) = lesson_listing(bug) else {
        return ("", Vec::new());
    };
    let lines = listing
        .lines()
        .enumerate()
        .map(|(i, text)| {
            let why = listing
                .bugs
                .iter()
                .find(|k| k.bug == bug && k.line == i + 1)
                .map(|k| k.title);
            (text, why)
        })
        .collect();
    (listing.title, lines)
}

/// The code-mode listing a lesson mistake is in, if it is one.
fn lesson_listing(bug: Bug) -> Option<&'static chunkscope_teach::listings::Listing> {
    LISTINGS
        .iter()
        .rev()
        .find(|l| l.bugs.iter().any(|k| k.bug == bug))
}

/// The listing of `bug`, folded: its faulty lines marked, each with why; a
/// lesson's mistake links to its listing in code mode, to find all of its
/// bugs there.
pub fn bug_code(bug: Bug, on_mode: &Callback<super::Mode>) -> Html {
    let (title, lines) = listing(bug);
    let review = lesson_listing(bug).map(|l| {
        let on_mode = on_mode.clone();
        let onclick = Callback::from(move |e: MouseEvent| {
            e.prevent_default();
            super::listing::request(l.name);
            on_mode.emit(super::Mode::Code);
        });
        html! {
            <p class="hint"><a href="#" data-testid="bug-code-review" data-listing={l.name} {onclick}>
                {format!("Find every bug of {} in code mode →", l.title)}</a></p>
        }
    });
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
            {review.unwrap_or_default()}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mistake_has_code_with_its_faulty_lines() {
        let marked: Vec<(Bug, usize)> = Bug::ALL
            .iter()
            .map(|&bug| {
                let (title, lines) = listing(bug);
                assert!(!title.is_empty(), "{bug:?} has no listing");
                (bug, lines.iter().filter(|(_, why)| why.is_some()).count())
            })
            .collect();
        assert_eq!(
            marked,
            [
                (Bug::TailWindow, 1),
                (Bug::MissingTail, 1),
                (Bug::DroppedSeparator, 1),
                (Bug::NoHardCut, 1),
                (Bug::NoProgress, 1),
                (Bug::Seed001, 6),
                (Bug::NoMerge, 1),
                (Bug::OverlapSkipped, 1),
                (Bug::MidWordOverlap, 1),
                (Bug::UncheckedOverlap, 1),
                (Bug::LostOffsets, 1),
                (Bug::StaleIndex, 1),
                (Bug::SplitBeforeTokens, 1),
                (Bug::JoinedDocuments, 1),
            ]
        );
    }

    #[test]
    fn a_lesson_mistake_is_marked_where_code_mode_reveals_it() {
        let (title, lines) = listing(Bug::LostOffsets);
        assert_eq!(title, "RecursiveTextChunker (lesson 001)");
        let at: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, (_, why))| why.is_some())
            .map(|(i, _)| i + 1)
            .collect();
        assert_eq!(at, [25]);
    }
}
