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
            min_characters: crate::state::settings::default_min_characters(),
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
    use facts::written::{chunks, sep, strings};
    use facts::{Absent, CutBy, Sides};

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

    /// What every card's setup shows, in numbers and the texts it quotes,
    /// and that the point of the card holds in it. Each value is computed
    /// from the engine's output and trace (`facts`), so a change to the
    /// engine that moves a cut shows up here; how the values are said is
    /// checked apart, in `facts::words`.
    #[test]
    fn every_card_shows_what_it_says() {
        let pinned = pinned();
        let mut compared = 0;
        let mut wrong = Vec::new();
        for c in &CARDS {
            if matches!(c.unit, Unit::Tokens(_)) {
                continue;
            }
            let found = c
                .fact(&loaded(c))
                .unwrap_or_else(|| panic!("{}: no split", c.id));
            let want = pinned.iter().find(|(id, _)| *id == c.id).map(|p| &p.1);
            if want != Some(&found) || !found.holds() {
                wrong.push(format!("{}: {found:?} // holds: {}", c.id, found.holds()));
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
        let found = c.fact(&s).unwrap();
        assert!(found.holds());
        assert_eq!(
            found,
            Finding::Tokens {
                unit: Unit::Tokens(Encoding::Cl100k),
                chunks: 15,
                size: 60,
                longest_chars: 61
            }
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
        assert_eq!(text.chars().count(), 541);
        assert_eq!(counts, [(Encoding::Cl100k, 564), (Encoding::O200k, 400)]);
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

    /// What each card's setup shows, written out from the cards as the page
    /// drew them; a text is the chunk's or the word's, as the engine cut it.
    fn pinned() -> Vec<(&'static str, Finding)> {
        use chunkscope::sentence::Reason;
        use CutBy::Hard;
        vec![
            ("overlap", Finding::Overlap { chunks: 5, repeating: 4, most: 7, overlap: 12, longest: 39, size: 40 }),
            ("markdown", Finding::Markdown {
                chunks: 17,
                with_path: 17,
                last_path: strings(&["Returns and refunds", "Frequently asked questions", "Who do I contact if something goes wrong?"]),
                prefixed: true,
            }),
            ("md-heading", Finding::MdHeading(Sides { recursive: 1, markdown: 0 })),
            ("md-table", Finding::MdTable { rows_alone: 2, headed: 2 }),
            ("md-fence", Finding::MdFence(Sides { recursive: 2, markdown: 0 })),
            ("too-small", Finding::TooSmall {
                size: 40,
                chunks: 9,
                dangling: vec![(3, "It takes 5 days.".into()), (5, "It never expires.".into())],
            }),
            ("too-big", Finding::TooBig { size: 400, chunks: 1, biggest: 0, len: 206, paragraphs: 5 }),
            ("typical", Finding::Typical {
                size: 1200, overlap: 150, percent: 13, chunks: 204, median: 1172, shortest: 767, longest: 1200,
            }),
            ("headline", Finding::Headline {
                windows: 3,
                mid_word: 1,
                cut_words: vec![("g".into(), "et".into())],
                recursive: chunks(5, vec![sep("\\n\\n", 2), sep("\\n", 1), sep(". ", 1)]),
            }),
            ("libraries", Finding::Libraries {
                chunks: vec![
                    (Strategy::LangChain, 5),
                    (Strategy::TextSplitter, 5),
                    (Strategy::Semchunk, 5),
                    (Strategy::ChonkieRecursive, 4),
                ],
                alike: vec![(Strategy::TextSplitter, Strategy::Semchunk)],
                common: 0,
            }),
            ("equal-sized", Finding::EqualSized { size: 40, lengths: vec![13, 20, 31, 28, 16], shortest: 13, longest: 31 }),
            ("all-at-once", Finding::AllAtOnce {
                used: vec![
                    (CutBy::Separator("\\n\\n".into()), vec![114]),
                    (CutBy::Separator("\\n".into()), vec![81]),
                    (CutBy::Separator(". ".into()), vec![52]),
                ],
                unused: vec![CutBy::Separator(" ".into()), Hard],
                hard_cut: false,
                pieces: 8,
                split: 3,
            }),
            ("empty", Finding::Fallback {
                chunks: chunks(89, vec![sep("\\n\\n", 2), sep(". ", 1), sep(" ", 5), (Hard, 80)]),
                longest: 40,
                size: 40,
            }),
            ("meaning", Finding::Meaning {
                mixed: Some((0, "Refunds take 5 days and go to the original UPI id. Shipping is free over 500 rupees and takes 3 to 7 days.".into())),
            }),
            ("merge", Finding::Merge { merged: 2, unmerged: 3, shortest: 13 }),
            ("slack", Finding::Slack {
                absent: Absent(strings(&["\\n\\n"])),
                chunks: chunks(29, vec![sep("\\n", 24), sep(" ", 4)]),
            }),
            ("pdf", Finding::Pdf {
                absent: Absent(strings(&["\\n\\n", "\\n"])),
                chunks: chunks(7, vec![sep(". ", 3), sep(" ", 2), (Hard, 1)]),
                full_stop: 3,
                hard_cut: strings(&["https://shop.example.com/orders/track?id"]),
            }),
            ("doing-work", Finding::DoingWork {
                chunks: chunks(675, vec![sep("\\n\\n", 608), sep(" ", 66)]),
                total: 674,
                mid_word: 0,
            }),
            ("csv", Finding::Csv {
                absent: Absent(strings(&["\\n\\n", "\\n"])),
                chunks: chunks(62, vec![sep(" ", 60), (Hard, 1)]),
                after_first: 61,
                at_row: 0,
            }),
            ("json", Finding::Json {
                absent: Absent(strings(&["\\n\\n", "\\n", ". ", " "])),
                chunks: chunks(4, vec![(Hard, 3)]),
                mid_word_starts: strings(&[
                        "efunded\",\"total\":286.29},{\"id\":10245,\"st",
                        "atus\":\"delivered\",\"total\":423.58}]}",
                    ]),
            }),
            ("crlf", Finding::Crlf {
                crlf: 3,
                lf: 0,
                absent: Absent(strings(&["\\n\\n"])),
                with_break: strings(&["Refund policy\r\n\r\nRefunds take 5 days.", "It never expires.\r\n\r\nContact us 24x7."]),
            }),
            ("nfd", Finding::Nfd { lines: vec![27, 33], torn: vec![(4, '\u{301}'), (7, '\u{300}')] }),
            ("abbreviations", Finding::Abbreviations {
                after: strings(&["Dr.", "today.", "e.g.", "Friday."]),
                shortest: "Dr.".into(),
            }),
            ("sentences", Finding::Sentences {
                sentences: 3,
                kept: vec![
                    ("Dr.".into(), Reason::Abbreviation),
                    ("$3.50".into(), Reason::Number),
                    ("shop.example.com".into(), Reason::NoSpace),
                    ("2.5".into(), Reason::Number),
                    ("e.g.".into(), Reason::Abbreviation),
                    ("www.shop.example.com/faq".into(), Reason::Address),
                ],
            }),
            ("cjk-quote", Finding::CjkQuote {
                chunks: chunks(4, vec![sep("。", 2), sep("？", 1)]),
                opened: vec![(1, "”我们就在家看书。".into()), (3, "”我说好。".into())],
            }),
            ("thai", Finding::Thai {
                chunks: chunks(5, vec![(Hard, 4)]),
                torn: vec![(2, '\u{E31}'), (4, '\u{E31}')],
                zero_width: 10,
            }),
            ("zwsp", Finding::Zwsp { chunks: chunks(5, vec![sep("\u{200b}", 4)]), torn: 0 }),
        ]
    }
}
