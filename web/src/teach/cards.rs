//! Interview cards: the follow-up questions the lessons raise, each answered in a
//! few sentences and paired with a playground setup that shows the answer. The
//! cards are one compact table of text so they cost little in the wasm bundle.

use super::facts::{self, Finding};
use crate::presets;
use crate::share::Snapshot;
use crate::state::{Action, Choice, Libraries, Settings, Split, State, View};
use crate::text::Text;
use chunkscope::tokens::Encoding;
use chunkscope::{Placement, Separator, Strategy, Unit};
use yew::prelude::*;

/// Where a card's document comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doc {
    /// A document preset, by its option value.
    Preset(&'static str),
    /// A text of the card's own.
    Own(&'static str),
    /// One of the structure cards' Markdown documents (`structure.rs`).
    Structure(&'static str),
}

/// Which lesson a card comes from, for the headings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Seed 000's follow-up questions.
    FollowUp,
    /// Seed 000's "what you need to know": how big a chunk should be.
    Sizing,
    /// Seed 002's headline question and what costs you it.
    Headline,
    /// Where separators miss (seeds 002 and 004).
    Failure,
}

impl Group {
    const ALL: [Group; 4] = [
        Group::FollowUp,
        Group::Sizing,
        Group::Headline,
        Group::Failure,
    ];

    fn title(self) -> &'static str {
        match self {
            Group::FollowUp => "Interview follow-ups",
            Group::Sizing => "How big should a chunk be?",
            Group::Headline => "How does recursive chunking choose cut points, and how is that different from fixed? What costs you the question:",
            Group::Failure => "When the separators miss",
        }
    }
}

/// One card: a question, its answer, the playground setup that shows it, and
/// what that setup really shows ([`facts`]), computed from the split on screen.
pub struct Card {
    /// The `data-card` value.
    pub id: &'static str,
    pub group: Group,
    pub question: &'static str,
    pub answer: &'static str,
    pub doc: Doc,
    pub view: View,
    pub size: usize,
    pub overlap: usize,
    /// A separator preset's name, or the list itself.
    pub separators: Seps,
    pub unit: Unit,
    pub placement: Placement,
    /// What the split shows about the card's point.
    pub fact: fn(&[&Split]) -> Finding,
}

/// A card's separators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seps {
    /// A separator preset, by name.
    Preset(&'static str),
    /// Literal separators, strongest first.
    List(&'static [&'static str]),
}

const SEED: Seps = Seps::Preset("seed");

/// Sizing: four short paragraphs, two of whose sentences lean on the one before.
pub const SIZING_TEXT: &str = "Refund policy\n\nRefunds for UPI payments go back to the original UPI id. It takes 5 days.\n\nCOD orders get store credit instead. It never expires.\n\nShipping\n\nOrders ship from Pune. Delivery takes 3 to 7 days.";
/// PDF-extracted text: the line breaks are gone, a long link is left.
pub const PDF_TEXT: &str = "Refund policy Refunds take 5 days. They go to the original UPI id. COD orders get store credit. Track it at https://shop.example.com/orders/track?id=10231&ref=sms then Contact us 24x7.";
/// Machine-written JSON: one line, no spaces.
pub const JSON_TEXT: &str = r#"{"orders":[{"id":10231,"status":"shipped","total":149.0},{"id":10238,"status":"refunded","total":286.29},{"id":10245,"status":"delivered","total":423.58}]}"#;
/// The refund page's kind of text with Windows line ends.
pub const CRLF_TEXT: &str = "Refund policy\r\n\r\nRefunds take 5 days.\r\nThey go to the original UPI id.\r\n\r\nCOD orders get store credit.\r\nIt never expires.\r\n\r\nContact us 24x7.";
/// The same line in NFC, then in NFD (each accent a letter plus a combining mark).
pub const NFD_TEXT: &str = "Caf\u{e9} cr\u{e8}me br\u{fb}l\u{e9}e, d\u{e9}j\u{e0} vu.\nCafe\u{301} cre\u{300}me bru\u{302}le\u{301}e, de\u{301}ja\u{300} vu.";
/// Full stops that do not end sentences: a title, a price, a domain, "e.g.".
pub const ABBREVIATION_TEXT: &str = "Dr. Rao paid $3.50 at shop.example.com today. The refund takes 2.5 days, e.g. by Friday. See www.shop.example.com/faq for more.";
/// Chinese quotations: the full stop comes before the closing quote.
pub const CJK_QUOTE_TEXT: &str =
    "他说：“今天下雨了。”我们就在家看书。她问：“明天去公园吗？”我说好。";
/// Thai: no spaces between words; zero-width spaces mark where words end.
pub const THAI_TEXT: &str = "การคืนเงิน\u{200b}ใช้เวลา\u{200b}ห้า\u{200b}วัน\u{200b}เงิน\u{200b}จะ\u{200b}กลับ\u{200b}ไป\u{200b}ที่\u{200b}บัญชี\u{200b}เดิม";
/// One paragraph that changes topic half way.
pub const MEANING_TEXT: &str = "Refunds take 5 days and go to the original UPI id. Shipping is free over 500 rupees and takes 3 to 7 days. Returns are picked up from your door.";

/// A card with no overlap, counted in chars, the separator kept at the end of
/// the piece before: most cards differ from it only there. The table reads
/// best with every field in a row, hence the long argument list.
#[allow(clippy::too_many_arguments)]
const fn card(
    id: &'static str,
    group: Group,
    question: &'static str,
    answer: &'static str,
    doc: Doc,
    view: View,
    size: usize,
    separators: Seps,
    fact: fn(&[&Split]) -> Finding,
) -> Card {
    Card {
        id,
        group,
        question,
        answer,
        doc,
        view,
        size,
        overlap: 0,
        separators,
        unit: Unit::Chars,
        placement: Placement::End,
        fact,
    }
}

/// The cards, in the order an interviewer tends to ask.
pub const CARDS: [Card; 28] = [
    Card {
        unit: Unit::Tokens(Encoding::Cl100k),
        ..card("tokens", Group::FollowUp, "Characters or tokens?",
            "Models and their context windows count tokens, so a production splitter measures pieces with the model's tokenizer (LangChain's length_function). The algorithm is unchanged: only the length function differs. Here the Chinese text is measured in cl100k tokens; switch the unit to o200k or chars and watch the cuts move. How many characters a token holds depends on the text and the tokenizer: count it on your corpus.",
            Doc::Preset("chinese"), View::Recursive, 60, Seps::Preset("cjk"), facts::tokens)
    },
    Card {
        overlap: 12,
        ..card("overlap", Group::FollowUp, "How do you add overlap to the recursive splitter?",
            "Let each chunk start a little before the previous one ended, ideally on a word or sentence boundary, and count that repeat inside the size cap so no chunk grows past it. The overlap is context for the reader, not new text.",
            Doc::Preset("refund"), View::Recursive, 40, SEED, facts::overlap)
    },
    card("markdown", Group::FollowUp, "What about Markdown or HTML?",
        "Split on the document's own structure first: headings, then sections, then paragraphs. Each chunk can then be prefixed with its heading path, such as \"Returns and refunds > Refund timelines\", which is cheap context that helps retrieval find it. Point at a chunk: its heading path and prefix are in the details, and the size counted them.",
        Doc::Preset("markdown"), View::Markdown, 240, SEED, facts::markdown),
    card("too-small", Group::Sizing, "What goes wrong when chunks are too small?",
        "A chunk lacks the context to be understood on its own: \"It takes 5 days.\" — what does? Retrieval may find it and the model still cannot answer.",
        Doc::Own(SIZING_TEXT), View::Recursive, 40, SEED, facts::too_small),
    card("too-big", Group::Sizing, "And when they are too big?",
        "One vector has to represent several topics, so it matches none of them well, and every retrieved chunk fills the prompt with text that does not answer the question. The same text at size 400:",
        Doc::Own(SIZING_TEXT), View::Recursive, 400, SEED, facts::too_big),
    Card {
        overlap: 150,
        ..card("typical", Group::Sizing, "So what size is typical?",
            "A few hundred tokens, roughly 1,000 to 2,000 characters, with 10–15 % overlap; then measure retrieval on your own questions. An overlap as large as the size is refused, and the message suggests about an eighth of the size.",
            Doc::Preset("article"), View::Recursive, 1200, SEED, facts::typical)
    },
    card("headline", Group::Headline, "How does recursive chunking choose cut points, and how is that different from fixed?",
        "Fixed windows count to the size and cut wherever that lands. Recursive splitting tries an ordered list of separators, strongest first, recurses with the next one only into pieces still too big, ends with a hard cut so the size is a guarantee, and packs small pieces back up toward the size.",
        Doc::Preset("refund"), View::Compare, 40, SEED, facts::headline),
    card("libraries", Group::Headline, "What does “recursive” mean in LangChain, text-splitter, Chonkie, semchunk and LlamaIndex?",
        "A different rule in each. LangChain tries one list of separators, strongest first, and splits again only a piece still too big. semchunk picks a splitter for each piece from what the piece holds (its longest run of newlines, else whitespace, else a sentence end). Chonkie walks fixed levels (paragraphs, sentence ends, pauses, words, tokens) and first joins splits under 24 bytes, so a chunk can cross a blank line. text-splitter takes the largest semantic level whose pieces fit, and LlamaIndex's SentenceSplitter packs Punkt sentences counted in tokens. The libraries reproduced here, side by side with their defaults on the same page and size:",
        Doc::Preset("refund"), View::Libraries(Libraries::DEFAULT), 40, SEED, facts::libraries),
    card("equal-sized", Group::Headline, "\"The chunks come out equal-sized.\"",
        "They do not: each chunk ends at the strongest boundary that keeps it within the size, so lengths vary, and the size is a cap, not a target.",
        Doc::Preset("refund"), View::Recursive, 40, SEED, facts::equal_sized),
    card("all-at-once", Group::Headline, "\"It splits on all the separators at once.\"",
        "It splits on one at a time: the first separator present cuts the text, and only a piece that is still too big is cut with the next one. Open the recursion tree to see which separator each piece needed.",
        Doc::Preset("refund"), View::Recursive, 40, SEED, facts::one_at_a_time),
    card("empty", Group::Headline, "Why does the list end with the empty string? (forgetting the fallback)",
        "It is the fallback that always succeeds. A base64 blob or a long URL has no paragraph, line or space to cut at, so without \"\" it would come out oversized and the embedding model would silently truncate it. With it, the size cap is a guarantee.",
        Doc::Preset("base64"), View::Recursive, 40, SEED, facts::fallback),
    card("meaning", Group::Headline, "\"It keeps each topic in its own chunk.\"",
        "It knows only separators and lengths, not meaning: a paragraph that changes topic half way is cut where the size runs out. Semantic chunking compares sentence embeddings to find topic shifts.",
        Doc::Own(MEANING_TEXT), View::Recursive, 120, SEED, facts::meaning),
    card("merge", Group::Headline, "Why merge small pieces back together? (skipping the merge)",
        "Splitting alone leaves a piece per sentence or heading, and tiny chunks embed poorly and answer nothing on their own. Packing neighbours greedily until the next would exceed the cap gives chunks near the target size that still end on natural boundaries.",
        Doc::Preset("refund"), View::Recursive, 100, SEED, facts::merge),
    card("md-heading", Group::Failure, "Why can a heading end up without its body?",
        "Separators know nothing of headings: \"# Refunds\" and \"## UPI\" are short pieces, so they pack with each other and the paragraph under UPI starts the next chunk. Splitting by sections first keeps each heading with its text.",
        Doc::Structure("md-heading"), View::CompareMarkdown, 70, Seps::Preset("default"), facts::md_heading),
    card("md-table", Group::Failure, "What happens to a table that is too long?",
        "Cut at line ends, a table's later rows lose the header that says what their columns are. The Markdown strategy cuts a table only between whole rows and records the header row with every later part; point at the last chunk on the right to see it.",
        Doc::Structure("md-table"), View::CompareMarkdown, 80, Seps::Preset("default"), facts::md_table),
    card("md-fence", Group::Failure, "Can a blank line break a code block?",
        "A blank line inside a fenced block is still a paragraph separator to the recursive splitter, so it cuts the code in two. Parsed Markdown knows the fence is one block and keeps it whole while it fits; one that alone is too big is cut by lines.",
        Doc::Structure("md-fence"), View::CompareMarkdown, 100, Seps::Preset("default"), facts::md_fence),
    card("slack", Group::Failure, "What happens with a Slack export?",
        "Messages sit one per line with no blank lines, so the first separator never fires and the newline does all the work. That is fine, but worth knowing: the chunk shape is set by a separator you did not plan on. Look at which separator made each cut.",
        Doc::Preset("slack"), View::Recursive, 120, Seps::Preset("default"), facts::slack),
    card("pdf", Group::Failure, "And PDF text that lost its newlines?",
        "With no blank lines or newlines left, the chain falls through to sentence ends and spaces, and a run with neither, such as a long link, ends in hard cuts: recursive splitting quietly becomes fixed-size splitting. Count how often each separator fires to catch it.",
        Doc::Own(PDF_TEXT), View::Recursive, 40, SEED, facts::pdf),
    card("doing-work", Group::Failure, "How would you tell the separator hierarchy is doing any work?",
        "Count which separator made each cut. When the named separators make nearly every cut, the hierarchy is working; when hard cuts and cuts inside words dominate, you have deployed fixed-size splitting without knowing it. The counts are under the chunks for one document, and in the corpus panel summed over every file you open. Here, the article at 400 chars:",
        Doc::Preset("article"), View::Recursive, 400, Seps::Preset("default"), facts::doing_work),
    card("csv", Group::Failure, "A CSV dump with no line breaks?",
        "No row boundary is left, so cuts fall at spaces inside values and at hard cuts, and a chunk starts in the middle of one record and ends in another. Restore the rows (or parse the CSV) before splitting, and keep the header with each group of rows.",
        Doc::Preset("csv"), View::Recursive, 60, Seps::Preset("default"), facts::csv),
    card("json", Group::Failure, "Machine-written JSON on one line?",
        "No newline and no space: every cut is a hard cut, in the middle of keys and numbers. Split the parsed objects instead, or add \",\" or \"},{\" to the list so cuts fall between records.",
        Doc::Own(JSON_TEXT), View::Recursive, 40, SEED, facts::json),
    card("crlf", Group::Failure, "A document with Windows line ends?",
        "Its blank line is \"\\r\\n\\r\\n\", which never matches \"\\n\\n\": the paragraph separator silently never fires, the newline does the work, and paragraphs are packed together. Normalise line ends first, and cut offsets from the normalised text.",
        Doc::Own(CRLF_TEXT), View::Recursive, 40, SEED, facts::crlf),
    card("nfd", Group::Failure, "Does Unicode normalisation matter?",
        "Yes: \"é\" is one character in NFC and two (e and a combining accent) in NFD. The same words then have other lengths, other offsets and other cuts, and a window can start with an accent torn from its letter. Normalise (NFC) before splitting and before storing offsets.",
        Doc::Own(NFD_TEXT), View::Fixed, 8, SEED, facts::nfd),
    card("abbreviations", Group::Failure, "Is \". \" a good sentence separator?",
        "It also matches after abbreviations (\"Dr.\", \"e.g.\"), and a bare \".\" rule would cut decimals (\"3.50\") and domains too. Here \". \" leaves \"Dr.\" as a chunk of its own and ends one after \"e.g.\".",
        Doc::Own(ABBREVIATION_TEXT), View::Recursive, 40, SEED, facts::abbreviations),
    card("sentences", Group::Failure, "What does a sentence segmenter do instead?",
        "The sentence strategy uses Unicode's sentence boundaries with rules for abbreviations, initials, numbers and addresses: it records every full stop it doubted and why. Compare its chunks with the ones \". \" gave.",
        Doc::Own(ABBREVIATION_TEXT), View::One(Strategy::Sentence), 40, Seps::List(&[" ", ""]), facts::sentences),
    card("cjk-quote", Group::Failure, "A Chinese full stop inside quotes?",
        "In “今天下雨了。” the full stop comes before the closing quote, so cutting after 。 leaves ” at the start of the next chunk. The sentence strategy keeps the quote with its sentence.",
        Doc::Own(CJK_QUOTE_TEXT), View::Recursive, 12, Seps::Preset("cjk"), facts::cjk_quote),
    card("thai", Group::Failure, "Thai, with no spaces between words?",
        "Thai writes words without spaces, so the list falls through to hard cuts, which can tear a vowel or tone mark from its consonant. A zero-width space (U+200B), where the text has one, marks a word end: add \"\\u{200B}\" to the separators.",
        Doc::Own(THAI_TEXT), View::Recursive, 12, Seps::Preset("default"), facts::thai),
    card("zwsp", Group::Failure, "And with the zero-width space as a separator?",
        "Cuts fall between words now, and no mark is torn from its letter.",
        Doc::Own(THAI_TEXT), View::Recursive, 12, Seps::List(&["\n\n", "\n", "\u{200b}", " ", ""]), facts::zwsp),
];

impl Card {
    /// The card with this `data-card` value.
    #[cfg(test)]
    pub fn find(id: &str) -> Option<&'static Card> {
        CARDS.iter().find(|c| c.id == id)
    }

    /// What the split on screen shows about this card's point, if every split
    /// of its view is there.
    pub fn fact(&self, state: &State) -> Option<Finding> {
        let splits: Option<Vec<&Split>> = state
            .view
            .strategies()
            .into_iter()
            .map(|s| state.split(s).map(|s| &*s.0))
            .collect();
        splits.filter(|s| !s.is_empty()).map(|s| (self.fact)(&s))
    }
}

/// The question of the card with this hook id.
pub fn question(card: &str) -> Option<&'static str> {
    CARDS.iter().find(|c| c.id == card).map(|c| c.question)
}

/// The playground setup for a card.
pub fn snapshot(card: &Card) -> Snapshot {
    let text: Text = match card.doc {
        Doc::Preset(name) => presets::text(name).unwrap_or_else(presets::refund),
        Doc::Own(text) => text.into(),
        Doc::Structure(name) => super::structure::text(name).unwrap_or_else(presets::refund),
    };
    let separators = match card.separators {
        Seps::Preset(name) => chunkscope::presets::separators(name).unwrap_or_default(),
        Seps::List(list) => list.iter().map(|&s| Separator::literal(s)).collect(),
    };
    Snapshot {
        text,
        view: card.view,
        settings: Settings {
            size: card.size.to_string(),
            overlap: card.overlap.to_string(),
            unit: card.unit,
            separators,
            placement: card.placement,
            trim: true,
            each_line: false,
            then_recursive: None,
            // The Markdown strategy alone shows its prefix; the compare
            // views keep the size for the text.
            heading_prefix: card.view == View::Markdown,
            table_header: chunkscope::TableHeader::Once,
        },
        semantic: crate::state::SemanticSettings::default(),
    }
}

#[derive(Properties, PartialEq)]
pub struct CardsProps {
    pub state: State,
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

/// The cards, grouped by the lesson they come from, each with a button that
/// loads its setup. The answer stays folded so a learner can try answering
/// aloud before reading it; once a card's setup is loaded, the card says what
/// the split on screen really shows (`card-fact`), and keeps saying it as the
/// learner changes the settings.
#[function_component]
pub fn Cards(props: &CardsProps) -> Html {
    let open = use_state(|| None::<&'static str>);
    let state = &props.state;
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
    let card_html = |c: &'static Card| {
        let show = {
            let (open, dispatch) = (open.clone(), props.dispatch.clone());
            Callback::from(move |_: MouseEvent| {
                open.set(Some(c.id));
                dispatch.emit(Action::ShowCard {
                    card: c.id,
                    snapshot: snapshot(c),
                });
            })
        };
        let fact = (*open == Some(c.id)).then(|| {
            let waiting = state
                .view
                .strategies()
                .iter()
                .any(|&s| state.slots.get(s).pending.is_some());
            match c.fact(state).filter(|_| state.error.is_none()) {
                Some(f) => html! {
                    <p class={classes!("card-fact", if f.holds() { "ok" } else { "bad" })} data-testid="card-fact"
                        data-holds={(f.holds() && !waiting).to_string()} data-pending={waiting.then_some("true")}
                        aria-live="polite">
                        <strong>{"On screen now: "}</strong>{f.to_string()}
                    </p>
                },
                None => html! {
                    <p class="card-fact" data-testid="card-fact" data-holds="false"
                        data-pending={waiting.then_some("true")}>{"The settings cannot split: nothing to read."}</p>
                },
            }
        });
        html! {
            <div class={classes!("icard", (*open == Some(c.id)).then_some("open"))} data-testid="card" data-card={c.id}>
                <h4>{c.question}</h4>
                <details><summary aria-label={format!("answer: {}", c.question)}>{"answer"}</summary><p>{c.answer}</p></details>
                <button type="button" data-testid="card-show" onclick={show}
                    aria-label={format!("Show me: {}", c.question)}>{"Show me"}</button>
                if props.offer == Some(c.id) {
                    {confirm(&props.dispatch)}
                }
                {fact.unwrap_or_default()}
                if c.id == "tokens" && *open == Some(c.id) {
                    <facts::TokenCounts text={state.text.clone()}
                        loaded={(
                            chunkscope_wasm::loaded::tokenizer_of(Encoding::Cl100k).is_some(),
                            chunkscope_wasm::loaded::tokenizer_of(Encoding::O200k).is_some(),
                        )} />
                }
            </div>
        }
    };
    // Each group folds; on a narrow screen all start folded, so the page is
    // not one long column of cards. A group that has held the card on screen
    // is drawn open from then on (the learner may still fold it).
    let wide = *use_state(|| {
        web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|w| w.as_f64())
            .is_none_or(|w| w > 700.0)
    });
    let held = use_mut_ref(|| 0u8);
    let shown = (*open).or(state.shown.as_ref().map(|s| s.card));
    if let Some(c) = CARDS.iter().find(|c| Some(c.id) == shown) {
        *held.borrow_mut() |= 1 << c.group as u8;
    }
    let held = *held.borrow();
    html! {
        <section class="card" aria-label="Interview follow-ups">
            { for Group::ALL.into_iter().map(|g| {
                let cards: Vec<&'static Card> = CARDS.iter().filter(|c| c.group == g).collect();
                html! {
                    <details class="card-fold" data-testid="card-group" data-count={cards.len().to_string()}
                        open={wide || held & (1 << g as u8) != 0}>
                        <summary data-testid="card-group-toggle">
                            <h2 class="card-group">{g.title()}<span class="fold-count">{format!("{} cards", cards.len())}</span></h2>
                        </summary>
                        <div class="cards">
                            { for cards.into_iter().map(card_html) }
                        </div>
                    </details>
                }
            })}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::testing::{act, start};

    /// The card's setup loaded and answered through the worker's contract, as
    /// the page would get it.
    fn loaded(card: &Card) -> State {
        act(&start(), Action::Restore(snapshot(card)))
    }

    #[test]
    fn every_card_sets_up_a_valid_split() {
        for c in &CARDS {
            if matches!(c.unit, Unit::Tokens(_)) {
                continue; // needs the tables; see `the_tokens_card_counts_tokens`
            }
            let s = loaded(c);
            assert!(s.error.is_none(), "{}: {:?}", c.id, s.error);
            assert!(s.primary().is_some(), "{}", c.id);
        }
    }

    /// What every card says its setup shows, word for word, and that the point
    /// of the card holds in it. Each sentence is computed from the engine's
    /// output and trace (`facts.rs`), so a change to the engine that moves a
    /// cut shows up here.
    #[test]
    fn every_card_shows_what_it_says() {
        let mut compared = 0;
        let mut wrong = Vec::new();
        for c in &CARDS {
            if matches!(c.unit, Unit::Tokens(_)) {
                continue;
            }
            let fact = c
                .fact(&loaded(c))
                .unwrap_or_else(|| panic!("{}: no split", c.id));
            let pinned = PINNED.iter().find(|(id, _)| *id == c.id);
            let text = fact.to_string();
            if pinned.map(|p| p.1) != Some(text.as_str()) || !fact.holds() {
                wrong.push(format!(
                    "({:?}, {:?}), // holds: {}",
                    c.id,
                    text,
                    fact.holds()
                ));
            }
            compared += 1;
        }
        assert!(wrong.is_empty(), "differ:\n{}", wrong.join("\n"));
        assert_eq!(compared, CARDS.len() - 1);
    }

    /// The tokens card in cl100k on the Chinese preset, and the text's counts
    /// the worker gives for the ratio line, with both encodings' tables
    /// installed (natively from tiktoken-rs): the counts are the tokenizer's,
    /// which `core/tests/tokens.rs` compares with tiktoken.
    #[test]
    fn the_tokens_card_counts_tokens() {
        use crate::state::TokenizerStatus;
        for enc in [Encoding::Cl100k, Encoding::O200k] {
            let tokenizer = chunkscope::tokens::Tokenizer::shared(enc).unwrap();
            chunkscope_wasm::loaded::hold_tokenizer(tokenizer);
        }
        let c = Card::find("tokens").unwrap();
        let s = act(
            &loaded(c),
            Action::Tokenizer(TokenizerStatus::Loaded {
                encoding: Encoding::Cl100k,
                bytes: 1,
                millis: 1,
            }),
        );
        assert!(s.error.is_none(), "{:?}", s.error);
        let fact = c.fact(&s).unwrap();
        assert!(fact.holds());
        assert_eq!(
            fact.to_string(),
            "In cl100k, 15 chunks of at most 60 tokens; the longest is 61 chars."
        );
        let text = presets::text("chinese").unwrap();
        let counts: Vec<(Encoding, usize)> = [Encoding::Cl100k, Encoding::O200k]
            .into_iter()
            .map(|enc| {
                let whole =
                    Split::now(text.clone(), facts::token_counts::whole_in(enc, &text)).unwrap();
                assert_eq!(whole.output.chunks.len(), 1);
                let n = facts::token_counts::whole_count(&whole);
                let tokenizer = chunkscope_wasm::loaded::tokenizer_of(enc).unwrap();
                assert_eq!(n, tokenizer.count(&text));
                (enc, n)
            })
            .collect();
        assert_eq!(
            facts::TokenRatio {
                chars: text.chars().count(),
                counts
            }
            .to_string(),
            "This text is 541 chars: 564 cl100k tokens (1.0 chars a token), 400 o200k tokens (1.4 chars a token)."
        );
        assert_eq!(
            facts::TokenRatio {
                chars: 4,
                counts: vec![]
            }
            .to_string(),
            "This text is 4 chars; choose cl100k or o200k to count its tokens."
        );
    }

    /// What the answers promise beyond their own setups: the sentence
    /// strategy keeps a Chinese closing quote with its sentence, and the
    /// zero-width space as a separator tears no Thai mark from its letter.
    #[test]
    fn the_answers_promises_hold() {
        let mut c = Card::find("cjk-quote").unwrap();
        let mut snap = snapshot(c);
        snap.view = View::One(Strategy::Sentence);
        let s = act(&start(), Action::Restore(snap));
        let split = s.primary().unwrap();
        let texts: Vec<&str> = split
            .output
            .chunks
            .iter()
            .map(|k| k.text(&split.text))
            .collect();
        assert_eq!(
            texts,
            [
                "他说：“今天下雨了。”",
                "我们就在家看书。",
                "她问：“明天去公园吗？”",
                "我说好。"
            ]
        );
        c = Card::find("zwsp").unwrap();
        let fact = c.fact(&loaded(c)).unwrap();
        assert!(fact.holds(), "{fact}");
    }

    const PINNED: &[(&str, &str)] = &[
        ("overlap", "4 of 5 chunks start by repeating the end of the one before (at most 7 chars, the overlap is 12); the longest chunk is 39, within the size 40."),
        ("markdown", "17 of 17 chunks carry a heading path; the last one's is “Returns and refunds > Frequently asked questions > Who do I contact if something goes wrong?”, put before it as its prefix and counted in its size."),
        ("md-heading", "Recursive: 1 chunk ends in a heading whose body starts the next chunk; Markdown: 0."),
        ("md-table", "Recursive: 2 chunks of rows with no header row; Markdown: 2 with the header row recorded as context."),
        ("md-fence", "Chunks holding half a code fence: recursive 2, Markdown 0."),
        ("too-small", "At size 40: 9 chunks; 2 open with a pronoun whose subject is in another chunk: chunk 3 “It takes 5 days.”, chunk 5 “It never expires.”."),
        ("too-big", "At size 400: 1 chunk; chunk 0 is 206 chars and holds 5 paragraphs on different topics, so one vector has to stand for all of them."),
        ("typical", "Size 1200 chars with overlap 150 (13 % of the size): 204 chunks, median 1172 chars, shortest 767, longest 1200."),
        ("headline", "Fixed: 3 windows, 1 of them cut inside a word (“g|et”). Recursive: 5 chunks, cut 2 by “\\n\\n”, 1 by “\\n”, 1 by “. ”."),
        ("libraries", "Same page, same size: LangChain 5 chunks, text-splitter 5, semchunk 5, Chonkie 4; the same chunks from text-splitter and semchunk, and no chunk is the same in all of them."),
        ("equal-sized", "Chunk lengths at size 40: 13, 20, 31, 28, 16: from 13 to 31, and none has to reach the size."),
        ("all-at-once", "“\\n\\n” split 1 piece of 114 chars; “\\n” split 1 piece of 81 chars; “. ” split 1 piece of 52 chars; “ ” and the hard cut never ran. Each finer separator was tried only on a piece still too big."),
        ("empty", "89 chunks, cut 2 by “\\n\\n”, 1 by “. ”, 5 by “ ”, 80 by a hard cut. The longest is 40, within the size 40: without the hard cut the blob would stay one oversized piece."),
        ("meaning", "Chunk 0 “Refunds take 5 days and go to the origin…” is about refunds and about shipping: the cut fell where the length ran out, not where the topic changed."),
        ("merge", "With the merge: 2 chunks. Without it (the lesson's eleven lines): 3 pieces, the shortest 13 chars."),
        ("slack", "“\\n\\n” never occurs; 29 chunks, cut 24 by “\\n”, 4 by “ ”."),
        ("pdf", "“\\n\\n” and “\\n” never occur; 7 chunks, cut 3 by “. ”, 2 by “ ”, 1 by a hard cut. Hard-cut: “https://shop.example.com/orders/track?id”."),
        ("doing-work", "675 chunks, cut 608 by “\\n\\n”, 66 by “ ”: 674 of 674 cuts by a named separator, 0 inside a word."),
        ("csv", "“\\n\\n” and “\\n” never occur; 62 chunks, cut 60 by “ ”, 1 by a hard cut; 0 of the 61 chunks after the first start where a row starts."),
        ("json", "“\\n\\n” and “\\n” and “. ” and “ ” never occur; 4 chunks, cut 3 by a hard cut. Chunks starting inside a key or a value: “efunded\",\"to…”, “atus\":\"deliv…”."),
        ("crlf", "The text has 3 “\\r\\n\\r\\n” and 0 “\\n\\n”, so “\\n\\n” never occurs. 2 chunks hold a paragraph break inside them: “Refund policy\\r↵\\r↵Refunds take 5 days.”, “It never expires.\\r↵\\r↵Contact us 24x7.”."),
        ("nfd", "The two lines look the same but are 27 and 33 chars long (one é is one char in NFC, two in NFD). Chunks starting with an accent cut from its letter: chunk 4 (U+0301), chunk 7 (U+0300)."),
        ("abbreviations", "“. ” cut after “Dr.”, “today.”, “e.g.”, “Friday.”. The shortest chunk is “Dr.”."),
        ("sentences", "3 sentences. Not sentence ends: “Dr.” (abbreviation), “$3.50” (number), “shop.example.com” (no space), “2.5” (number), “e.g.” (abbreviation), “www.shop.example.com/faq” (address)."),
        ("cjk-quote", "4 chunks, cut 2 by “。”, 1 by “？”. Chunks that start with the closing quote of the sentence before: chunk 1: ”我们就在家看书。, chunk 3: ”我说好。."),
        ("thai", "No space to cut at: 5 chunks, cut 4 by a hard cut. 2 chunks start with a vowel or tone mark torn from its consonant (U+0E31, U+0E31). The text has 10 zero-width spaces (U+200B) between words; the list does not use them."),
        ("zwsp", "5 chunks, cut 4 by “\\u{200B}”; 0 chunks start with a mark torn from its letter."),
    ];
}
