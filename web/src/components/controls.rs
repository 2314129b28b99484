//! Strategy, size, overlap, unit, placement and trimming, and the settings
//! of the strategy on screen.

use super::help::{count_field, help};
use super::tokenizer::{unit_title, TokenizerLine};
use crate::invalid::Field;
use crate::state::{Action, Settings, TokenizerStatus, View};
use chunkscope::{Placement, Unit};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub view: View,
    pub settings: Settings,
    pub dispatch: Callback<Action>,
    /// The control the current configuration error is about, if any.
    #[prop_or_default]
    pub invalid: Option<Field>,
    /// Where a token unit's tokenizer is.
    #[prop_or_default]
    pub tokenizer: Option<TokenizerStatus>,
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

/// The placement choices: the value, what it is called for our engines, and
/// LangChain's `keep_separator` value for it.
const PLACEMENTS: [(Placement, &str, &str); 3] = [
    (
        Placement::End,
        "end of piece before",
        "keep_separator: \"end\"",
    ),
    (
        Placement::Start,
        "start of piece after",
        "keep_separator: \"start\"",
    ),
    (Placement::None, "dropped", "keep_separator: False"),
];

/// The numbers and switches that decide how the text is cut. With a LangChain
/// strategy on screen, placement and trimming are named as LangChain names
/// them, so the page reads like the Python call.
#[function_component]
pub fn Controls(props: &ControlsProps) -> Html {
    let d = &props.dispatch;
    let on_view = d.reform(|e: Event| {
        Action::SetView(View::parse(&select_value(&e)).unwrap_or(View::Recursive))
    });
    let on_size = d.reform(|e: InputEvent| Action::SetSize(input_value(&e)));
    let on_overlap = d.reform(|e: InputEvent| Action::SetOverlap(input_value(&e)));
    let on_unit =
        d.reform(|e: Event| Action::SetUnit(select_value(&e).parse().unwrap_or_default()));
    let on_placement =
        d.reform(|e: Event| Action::SetPlacement(select_value(&e).parse().unwrap_or_default()));
    let on_trim = d.reform(|e: Event| {
        Action::SetTrim(e.target_unchecked_into::<HtmlInputElement>().checked())
    });
    let on_each_line = d.reform(|e: Event| {
        Action::SetEachLine(e.target_unchecked_into::<HtmlInputElement>().checked())
    });
    let on_table_header = d.reform(|e: Event| {
        let on = e.target_unchecked_into::<HtmlInputElement>().checked();
        Action::SetTableHeader(if on {
            chunkscope::TableHeader::Repeat
        } else {
            chunkscope::TableHeader::Once
        })
    });
    let on_heading_prefix = d.reform(|e: Event| {
        Action::SetHeadingPrefix(e.target_unchecked_into::<HtmlInputElement>().checked())
    });
    let on_min_characters = d.reform(|e: InputEvent| Action::SetMinCharacters(input_value(&e)));
    let markers = props.view.primary().separators_are_header_markers();
    let overlap_used = props.view.strategies().iter().any(|s| s.uses_overlap());
    // Placement is where a separator goes, so only a strategy that reads the
    // separator list reads it; semchunk decides both itself.
    let placement_used = props.view.reads_placement();
    let trim_used = props.view.reads_trim();
    let s = &props.settings;
    let unit = s.unit;
    let langchain = props.view.shows_langchain();
    let invalid = |field: Field| (props.invalid == Some(field)).then_some("true");
    html! {
        <section class="card controls" aria-label="Settings">
            <div class="field wide">
                <label for="strategy-select">
                    {"Strategy"}
                    {help("Fixed windows cut every `size` units and ignore the text. Recursive splitting cuts at the strongest separator it finds, and only tries a weaker one on pieces that are still too big. The LangChain strategies run LangChain's own splitters exactly, quirks included. The compare views show two on the same text.")}
                </label>
                <select id="strategy-select" data-testid="strategy-select" onchange={on_view}>
                    { for View::all().map(|v| html! {
                        <option value={v.name()} selected={props.view.name() == v.name()}>{v.title()}</option>
                    })}
                </select>
            </div>
            {count_field(
                "size-input",
                ("Size", "The most a chunk may hold, counted in the unit. A hard limit: no chunk is ever longer. Smaller chunks are more focused; larger ones keep more context."),
                "1", &s.size, on_size, invalid(Field::Size),
            )}
            <div class="field">
                <label for="overlap-input">
                    {"Overlap"}
                    {help("How much of the previous chunk the next one may repeat, so a sentence cut at a boundary still appears whole somewhere. Must be smaller than the size (LangChain allows equal). Repeated text is drawn hatched.")}
                </label>
                <input id="overlap-input" data-testid="overlap-input" type="number" min="0" inputmode="numeric"
                    value={s.overlap.clone()} oninput={on_overlap} aria-invalid={invalid(Field::Overlap)}
                    class={classes!((!overlap_used).then_some("unused"))}
                    aria-describedby={(!overlap_used).then_some("overlap-unused")} />
            </div>
            if !overlap_used {
                <p id="overlap-unused" class="hint wide" data-testid="overlap-unused">
                    {props.view.overlap_unread()}
                </p>
            }
            <div class="field wide">
                <label for="unit-select">
                    {"Unit"}
                    {help("What size and overlap count. Chars are what Python's len() counts. Bytes are UTF-8 bytes: an emoji is 4 and a Chinese character 3, and a chunk never ends inside a character. Tokens are what an OpenAI model counts (cl100k for GPT-4, o200k for GPT-4o), each chunk counted on its own text; their tables are downloaded when you choose them.")}
                </label>
                <select id="unit-select" data-testid="unit-select" onchange={on_unit} aria-invalid={invalid(Field::Unit)}>
                    { for Unit::ALL.into_iter().map(|u| html! {
                        <option value={u.name()} selected={unit == u}>{unit_title(u)}</option>
                    })}
                </select>
                <TokenizerLine {unit} status={props.tokenizer.clone()} />
            </div>
            <div class="field wide">
                <label for="placement-select">
                    {"Separator goes"}
                    if langchain {
                        {help("LangChain's name for where a separator goes when the text is cut at it: \"start\" (True) puts it at the start of the next piece, \"end\" at the end of the one before, False drops it and, when merging, puts the separator string back between pieces. RecursiveCharacterTextSplitter starts at \"start\", CharacterTextSplitter at False. In a comparison, our recursive splitter uses the same choice.")}
                    } else {
                        {help("When the text is cut at a separator, which chunk keeps it: the one before (end), the one after (start, as LangChain does), or neither (none; a full stop would then be lost).")}
                    }
                </label>
                <select id="placement-select" data-testid="placement-select" onchange={on_placement} disabled={!placement_used}>
                    { for PLACEMENTS.into_iter().map(|(p, ours, theirs)| html! {
                        <option value={p.name()} selected={s.placement == p}>{if langchain { theirs } else { ours }}</option>
                    })}
                </select>
            </div>
            <div class="field check">
                <label>
                    <input type="checkbox" data-testid="trim-checkbox" checked={s.trim} onchange={on_trim} disabled={!trim_used} />
                    {" Trim whitespace"}
                    if langchain {
                        <span>{"("}<code>{"strip_whitespace"}</code>{")"}</span>
                    }
                </label>
                if langchain {
                    {help("LangChain's strip_whitespace: each merged chunk is str.strip()ped. LangChain measures a chunk before stripping it, so a stripped chunk can be shorter than it was counted.")}
                } else {
                    {help("Moves each chunk's start and end past spaces and newlines. The text is never copied or changed: the chunk is still an exact slice of the document, just a shorter one.")}
                }
            </div>
            if markers {
                <div class="field check">
                    <label>
                        <input type="checkbox" data-testid="each-line-checkbox" checked={s.each_line} onchange={on_each_line} />
                        {" One chunk per paragraph "}
                        <span>{"("}<code>{"return_each_line"}</code>{")"}</span>
                    </label>
                    {help("MarkdownHeaderTextSplitter gives one chunk per section by default, joining its paragraphs with two spaces and a line break. return_each_line=True gives every paragraph (lines up to a blank line or a header) its own chunk, each with its section's headers as metadata.")}
                </div>
                {super::recipe::recipe_controls(s.then_recursive, d)}
            }
            if props.view.reads_min_characters() {
                {count_field(
                    "min-characters-input",
                    ("Shortest split", "Chonkie's min_characters_per_chunk. At each level, a split shorter than this many bytes (UTF-8: an emoji is 4) is joined to its neighbour before packing, so a short line or paragraph rides with the one next to it. 1 joins nothing; Chonkie's default is 24, and it refuses 0."),
                    "1", &s.min_characters, on_min_characters, invalid(Field::MinCharacters),
                )}
            }
            if props.view.shows_markdown() {
                <div class="field check">
                    <label>
                        <input type="checkbox" data-testid="heading-prefix-checkbox" checked={s.heading_prefix} onchange={on_heading_prefix} />
                        {" Heading path before each chunk"}
                    </label>
                    {help("Puts each chunk's heading path (\"Refunds > UPI\" and a blank line) before it for embedding. The size counts the prefix with the text, so no chunk with its prefix is over the size. The chunk is still the exact slice of the document; the prefix is shown apart from it.")}
                </div>
                <div class="field check">
                    <label>
                        <input type="checkbox" data-testid="table-header-checkbox" checked={s.table_header == chunkscope::TableHeader::Repeat} onchange={on_table_header} />
                        {" Table header in every chunk of its rows"}
                    </label>
                    {help("A table too big for one chunk is cut between its rows, and only its first chunk has the header row. With this on, every later chunk of the table gets the header and delimiter rows before it for embedding, so each row is read with its column names; the size counts them.")}
                </div>
            }
        </section>
    }
}
