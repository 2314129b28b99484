//! What only a LangChain split has to say: its warnings, the chunks whose
//! `start_index` points elsewhere or whose text is not a slice of the source,
//! and, once per page, how LangChain's splitter differs from ours.

use crate::model::langchain_summary;
use crate::state::{Shared, View};
use chunkscope::langchain::Kind;
use yew::prelude::*;

/// Items listed before "and N more": a long document can log thousands.
const FIRST_ITEMS: usize = 12;

#[derive(Properties, PartialEq)]
pub struct LangChainNotesProps {
    pub split: Shared,
}

/// Under a LangChain split's chunks: what LangChain logged and where its
/// answer differs from the source, or one line saying that nothing does.
#[function_component]
pub fn LangChainNotes(props: &LangChainNotesProps) -> Html {
    let Some(summary) = langchain_summary(&props.split) else {
        return html! {};
    };
    let size = props.split.config.size;
    let more = |n: usize| {
        (n > FIRST_ITEMS).then(
            || html! { <li class="more-items">{format!("… and {} more", n - FIRST_ITEMS)}</li> },
        )
    };
    let quiet =
        summary.warnings.is_empty() && summary.mismatches.is_empty() && summary.not_slices == 0;
    let starts = props
        .split
        .output
        .library
        .as_ref()
        .is_some_and(|f| f.iter().any(|c| c.start_index.is_some()));
    html! {
        <div class="lc-notes" data-testid="langchain-notes">
            if !summary.warnings.is_empty() {
                <div class="lc-block bad">
                    <p>
                        <strong>{format!("LangChain logged {} {}. ", summary.warnings.len(),
                            if summary.warnings.len() == 1 { "warning" } else { "warnings" })}</strong>
                        {format!("It passes a piece that it cannot split any further through whole, even when it is longer than chunk_size ({size}); only the log says so.")}
                    </p>
                    <ul class="lc-list" data-testid="langchain-warnings">
                        { for summary.warnings.iter().take(FIRST_ITEMS).map(|w| html! { <li><code>{w.clone()}</code></li> }) }
                        {more(summary.warnings.len())}
                    </ul>
                </div>
            }
            if !summary.mismatches.is_empty() {
                <div class="lc-block">
                    <p>
                        <strong>
                            <span class="start-flag" aria-hidden="true">{"⚑"}</span>
                            {format!(" start_index is off for {} {}. ", summary.mismatches.len(),
                                if summary.mismatches.len() == 1 { "chunk" } else { "chunks" })}
                        </strong>
                        {"LangChain searches the source for each chunk's text with str.find from a guessed offset, so on repeated text it can land on another copy (and it gives -1 for text that is not in the source)."}
                    </p>
                    <ul class="lc-list">
                        { for summary.mismatches.iter().take(FIRST_ITEMS).map(|&(i, start, found)| html! {
                            <li data-testid="start-index-note" data-index={i.to_string()}>
                                {format!("chunk {i} starts at {start}; start_index is {found}")}
                            </li>
                        })}
                        {more(summary.mismatches.len())}
                    </ul>
                </div>
            }
            if summary.not_slices > 0 {
                <div class="lc-block">
                    <p>
                        <strong><span class="ne-mark" aria-hidden="true">{"≠"}</span>
                            {format!(" {} {} not a slice of the source. ", summary.not_slices,
                                if summary.not_slices == 1 { "chunk is" } else { "chunks are" })}</strong>
                        {"LangChain glues pieces back together with strings; the page draws where each chunk came from. Point at a marked chunk to see LangChain's text beside it."}
                    </p>
                </div>
            }
            if quiet && starts {
                <p class="lc-quiet">{"✓ Every chunk is a slice of the source, every start_index is where its chunk starts, and LangChain logged no warnings."}</p>
            } else if quiet {
                <p class="lc-quiet">{"✓ Every chunk is a slice of the source."}</p>
            }
        </div>
    }
}

/// Each way LangChain's splitter differs from ours: whether it is only about
/// `CharacterTextSplitter`, the rule in a few words, and what it does.
const DIFFERENCES: [(bool, &str, &str); 8] = [
    (true, "One separator.", "CharacterTextSplitter splits on the first separator only and never tries a weaker one, so a long paragraph stays one long chunk."),
    (false, "Measured before stripping.", "A chunk's length counts the whitespace at its ends, which strip_whitespace then removes, so chunks come out shorter than the size allowed."),
    (false, "Exactly the size is too big.", "A piece is kept whole only when it is strictly shorter than chunk_size (<); a piece of exactly chunk_size is split again."),
    (false, "Oversized pieces pass through.", "When no separator is left (no \"\" at the end of the list), LangChain returns the piece whole, over the size, and only logs a warning. Ours always cuts at the size."),
    (false, "Overlap stays inside one merge.", "A chunk repeats the end of the one before only when both were merged from the same run of small pieces; after a piece that had to be split again, the next chunk starts fresh."),
    (false, "The separator goes to the next chunk.", "keep_separator starts at \"start\" for RecursiveCharacterTextSplitter (and False, dropped, for CharacterTextSplitter); ours puts it at the end of the chunk before."),
    (false, "Python regexes.", "Regex separators use Python's re syntax, such as lookbehind (?<=\\.), not Rust's."),
    (false, "start_index is searched for.", "LangChain finds where a chunk starts with str.find from a guessed offset, so on repeated text it can point at an earlier copy."),
];

#[derive(Properties, PartialEq)]
pub struct LangChainDifferencesProps {
    pub view: View,
}

/// How LangChain's splitter differs from our recursive one, in plain words:
/// the handful of rules behind every difference the page shows.
#[function_component]
pub fn LangChainDifferences(props: &LangChainDifferencesProps) -> Html {
    let character = props
        .view
        .strategies()
        .iter()
        .any(|s| s.langchain() == Some(Kind::Character));
    html! {
        <section class="card lc-differences" data-testid="langchain-differences"
            aria-label="How LangChain differs from our recursive splitter">
            <h2>{"How LangChain differs from our recursive splitter"}</h2>
            <ul>
                { for DIFFERENCES.iter().filter(|(only_character, _, _)| character || !only_character)
                    .map(|&(_, rule, words)| html! { <li><strong>{rule}</strong>{" "}{words}</li> }) }
            </ul>
        </section>
    }
}
