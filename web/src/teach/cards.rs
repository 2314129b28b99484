//! Interview cards: the follow-up questions the lessons raise, each answered in a
//! few sentences and paired with a playground setup that shows the answer. The
//! cards are one compact table of text so they cost little in the wasm bundle.

use crate::presets;
use crate::share::Snapshot;
use crate::state::{Action, Choice, Settings, View};
use crate::text::Text;
use chunkscope::{Placement, Unit};
use yew::prelude::*;

/// One card: hook id, question, answer, and the setup
/// (document preset, or `pdf` for the refund page with its newlines gone;
/// view; size; overlap; separator preset; unit).
type Card = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    View,
    usize,
    usize,
    &'static str,
    Unit,
);

/// The cards, in the order an interviewer tends to ask.
pub const CARDS: [Card; 10] = [
    ("tokens", "Characters or tokens?",
     "Models and their context windows count tokens, so a production splitter measures pieces with the model's tokenizer. The algorithm is unchanged: only the length function differs. Here the same Chinese text is measured in bytes, where each character costs three, so the cuts move.",
     "chinese", View::Recursive, 60, 0, "cjk", Unit::Bytes),
    ("overlap", "How do you add overlap to the recursive splitter?",
     "Let each chunk start a little before the previous one ended, ideally on a word or sentence boundary, and count that repeat inside the size cap so no chunk grows past it. The overlap is context for the reader, not new text.",
     "refund", View::Recursive, 40, 12, "seed", Unit::Chars),
    ("markdown", "What about Markdown or HTML?",
     "Split on the document's own structure first: headings, then sections, then paragraphs. Each chunk can then be prefixed with its heading path, such as \"Returns and refunds > Refund timelines\", which is cheap context that helps retrieval find it. Point at a chunk: its heading path and prefix are the engine's, and the size counts the prefix with the text, so nothing is over the size once it is added.",
     "markdown", View::Markdown, 240, 0, "seed", Unit::Chars),
    ("md-heading", "Why can a heading end up without its body?",
     "Separators know nothing of headings: \"# Refunds\" and \"## UPI\" are short pieces, so they pack with each other and the paragraph under UPI starts the next chunk. Splitting by sections first keeps each heading with its text.",
     "md-heading", View::CompareMarkdown, 70, 0, "default", Unit::Chars),
    ("md-table", "What happens to a table that is too long?",
     "Cut at line ends, a table's later rows lose the header that says what their columns are. The Markdown strategy cuts a table only between whole rows and records the header row with every later part; point at the last chunk on the right to see it.",
     "md-table", View::CompareMarkdown, 80, 0, "default", Unit::Chars),
    ("md-fence", "Can a blank line break a code block?",
     "A blank line inside a fenced block is still a paragraph separator to the recursive splitter, so it cuts the code in two. Parsed Markdown knows the fence is one block and keeps it whole while it fits; one that alone is too big is cut by lines.",
     "md-fence", View::CompareMarkdown, 100, 0, "default", Unit::Chars),
    ("empty", "Why does the list end with the empty string?",
     "It is the fallback that always succeeds. A base64 blob or a long URL has no paragraph, line or space to cut at, so without \"\" it would come out oversized and the embedding model would silently truncate it. With it, the size cap is a guarantee.",
     "base64", View::Recursive, 40, 0, "seed", Unit::Chars),
    ("merge", "Why merge small pieces back together?",
     "Splitting alone leaves a piece per sentence or heading, and tiny chunks embed poorly and answer nothing on their own. Packing neighbours greedily until the next would exceed the cap gives chunks near the target size that still end on natural boundaries.",
     "refund", View::Recursive, 100, 0, "seed", Unit::Chars),
    ("slack", "What happens with a Slack export?",
     "Messages sit one per line with no blank lines, so the first separator never fires and the newline does all the work. That is fine, but worth knowing: the chunk shape is set by a separator you did not plan on. Look at which separator made each cut.",
     "slack", View::Recursive, 120, 0, "default", Unit::Chars),
    ("pdf", "And PDF text that lost its newlines?",
     "With no blank lines or newlines left, the chain falls through to sentences and spaces, and a run with neither ends in hard cuts: recursive splitting quietly becomes fixed-size splitting. Count how often each separator fires to catch it.",
     "pdf", View::Compare, 40, 0, "default", Unit::Chars),
];

/// The question of the card with this hook id.
pub fn question(card: &str) -> Option<&'static str> {
    CARDS.iter().find(|c| c.0 == card).map(|c| c.1)
}

/// The playground setup for a card.
pub fn snapshot(card: &Card) -> Snapshot {
    let &(_, _, _, doc, view, size, overlap, seps, unit) = card;
    let text: Text = match doc {
        "pdf" => presets::refund().replace('\n', " ").into(),
        name => super::structure::text(name)
            .or_else(|| presets::text(name))
            .unwrap_or_else(presets::refund),
    };
    Snapshot {
        text,
        view,
        settings: Settings {
            size: size.to_string(),
            overlap: overlap.to_string(),
            unit,
            separators: chunkscope::presets::separators(seps).unwrap_or_default(),
            placement: Placement::End,
            trim: true,
            each_line: false,
            // The Markdown strategy alone shows its prefix; the compare
            // views keep the size for the text.
            heading_prefix: view == View::Markdown,
        },
    }
}

#[derive(Properties, PartialEq)]
pub struct CardsProps {
    pub dispatch: Callback<Action>,
    /// The card waiting for the learner to say whether it may replace their
    /// document.
    #[prop_or_default]
    pub offer: Option<&'static str>,
}

/// The question a card asks before it replaces the learner's own document.
fn confirm(dispatch: &Callback<Action>) -> Html {
    let answer = |choice: Choice| dispatch.reform(move |_: MouseEvent| Action::AnswerCard(choice));
    let escape = dispatch.clone();
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Escape" {
            e.prevent_default();
            escape.emit(Action::AnswerCard(Choice::Cancel));
        }
    });
    html! {
        <div class="card-confirm" data-testid="card-confirm" role="alertdialog" aria-label="Replace your text?"
            id="card-confirm" tabindex="-1" {onkeydown}>
            <p>{"This example uses its own text. Your document is not one of the examples, so replacing it would lose it."}</p>
            <div class="buttons">
                <button type="button" data-testid="card-confirm-replace" onclick={answer(Choice::Replace)}
                    title="You can undo it, or go Back">{"Replace my text"}</button>
                <button type="button" data-testid="card-confirm-keep" onclick={answer(Choice::KeepText)}>
                    {"Keep my text, use the settings"}</button>
                <button type="button" data-testid="card-confirm-cancel" onclick={answer(Choice::Cancel)}>{"Cancel"}</button>
            </div>
        </div>
    }
}

/// The cards, each with a button that loads its setup. The answer stays folded
/// so a learner can try answering aloud before reading it.
#[function_component]
pub fn Cards(props: &CardsProps) -> Html {
    // The question takes the keyboard focus when it appears, so it is read
    // out and answered from where the learner is.
    use_effect_with(props.offer, |offer| {
        if offer.is_some() {
            let dialog = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("card-confirm"))
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
            if let Some(dialog) = dialog {
                let _ = dialog.focus();
            }
        }
    });
    html! {
        <section class="card" aria-label="Interview follow-ups">
            <h2>{"Interview follow-ups"}</h2>
            <div class="cards">
                { for CARDS.iter().map(|c| {
                    let show = props.dispatch.reform(move |_: MouseEvent| Action::ShowCard { card: c.0, snapshot: snapshot(c) });
                    html! {
                        <div class="icard" data-testid="card" data-card={c.0}>
                            <h4>{c.1}</h4>
                            <details><summary aria-label={format!("answer: {}", c.1)}>{"answer"}</summary><p>{c.2}</p></details>
                            <button type="button" data-testid="card-show" onclick={show}
                                aria-label={format!("Show me: {}", c.1)}>{"Show me"}</button>
                            if props.offer == Some(c.0) {
                                {confirm(&props.dispatch)}
                            }
                        </div>
                    }
                })}
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::testing::{act, start};

    #[test]
    fn every_card_sets_up_a_valid_split() {
        for c in &CARDS {
            let s = act(&start(), Action::Restore(snapshot(c)));
            assert!(s.error.is_none(), "{}: {:?}", c.0, s.error);
            assert!(s.primary().is_some(), "{}", c.0);
        }
    }
}
