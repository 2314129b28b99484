//! The separator list: a preset menu, the list in priority order (each entry in
//! its colour, with the glyph the document view uses for its cuts), and a small
//! form to add a literal or a regex.

use super::help::help;
use crate::invalid::Field;
use crate::model::{glyph, own_name, quoted, separator_class, visible_label};
use crate::state::{Action, Settings, View};
use chunkscope::langchain::{Kind, DEFAULT_SEPARATORS};
use chunkscope::presets::{describe, SEPARATOR_PRESETS};
use chunkscope::{escape, Separator};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SeparatorEditorProps {
    pub settings: Settings,
    /// The view: fixed windows ignore the list, and LangChain reads it its own
    /// way (an empty list is its default, CharacterTextSplitter takes the
    /// first entry only).
    pub view: View,
    pub dispatch: Callback<Action>,
    /// The control the current configuration error is about, if any.
    #[prop_or_default]
    pub invalid: Option<Field>,
    /// The separator the current configuration error blames, by index.
    #[prop_or_default]
    pub bad_separator: Option<usize>,
}

/// What a separator preset is called in the menu (its option value stays
/// its name, the test contract's).
pub fn preset_title(name: &str) -> &str {
    match name {
        "default" => "default (LangChain's)",
        "seed" => "the lesson's list",
        "markdown" => "Markdown",
        "python" => "Python",
        "rust" => "Rust",
        "js" => "JavaScript",
        "html" => "HTML",
        "cjk" => "Chinese and Japanese",
        other => other,
    }
}

/// The separator list and its editor.
#[function_component]
pub fn SeparatorEditor(props: &SeparatorEditorProps) -> Html {
    let draft = use_state(String::new);
    let regex = use_state(|| false);
    let problem = use_state(|| None::<String>);
    let separators = &props.settings.separators;
    let preset = props.settings.separator_preset();
    let used = props.view.reads_separators();
    let langchain: Vec<Kind> = props
        .view
        .strategies()
        .iter()
        .filter_map(|s| s.langchain())
        .collect();
    let ours_too = props
        .view
        .strategies()
        .iter()
        .any(|s| s.langchain().is_none() && !s.separators_are_header_markers());
    let regexes = separators.iter().filter(|s| s.regex).count();
    let literals = separators
        .iter()
        .filter(|s| !s.regex && !s.is_hard_cut())
        .count();
    let d = &props.dispatch;

    let on_preset = d.reform(|e: Event| {
        Action::LoadSeparators(e.target_unchecked_into::<HtmlSelectElement>().value())
    });
    let on_draft = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            draft.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_regex = {
        let regex = regex.clone();
        Callback::from(move |e: Event| {
            regex.set(e.target_unchecked_into::<HtmlInputElement>().checked())
        })
    };
    let on_add = {
        let (draft, regex, problem, dispatch) =
            (draft.clone(), regex.clone(), problem.clone(), d.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            // Regexes are passed as written: the regex engine reads its own escapes.
            // `\p{sentence}` is the sentence level either way.
            let parsed = Separator::parse(&draft, *regex);
            match parsed {
                Ok(sep) => {
                    problem.set(None);
                    draft.set(String::new());
                    dispatch.emit(Action::AddSeparator(sep));
                }
                Err(message) => problem.set(Some(message)),
            }
        })
    };

    html! {
        <section class={classes!("card", (!used).then_some("unused"))} aria-label="Separators">
            <div class="field">
                <label for="separator-preset-select">
                    {"Separators"}
                    {help("Where the recursive splitter may cut, strongest first. A piece that is too big is cut at the first separator it contains; a part that is still too big tries the next one down. The empty separator \"\" is the hard cut: cut anywhere, the last resort. \\p{sentence} is the sentence level: between two sentences, as Unicode finds them (abbreviations, decimals and URLs taken care of).")}
                </label>
                <select id="separator-preset-select" data-testid="separator-preset-select" onchange={on_preset}>
                    { for SEPARATOR_PRESETS.into_iter().map(|name| html! {
                        <option value={name} selected={preset == Some(name)} title={describe(name).unwrap_or_default()}>
                            {preset_title(name)}
                        </option>
                    })}
                    <option value="custom" disabled=true selected={preset.is_none()}>{"custom list"}</option>
                </select>
                if let Some(about) = preset.and_then(describe) {
                    <p class="hint">{about}</p>
                }
                if preset.and_then(chunkscope::presets::placement) == Some(chunkscope::Placement::Start) {
                    <p class="hint">{"These separators open a heading, a definition or a tag, so choosing the list also sets the separator to start the next piece: no chunk ends with the markup of what follows."}</p>
                }
                if !used {
                    <p class="hint">{props.view.separators_unread()}</p>
                }
                if langchain.contains(&Kind::Character) {
                    <p class="hint">{"CharacterTextSplitter uses only the first separator in the list (\\n\\n when the list is empty) and never tries another."}</p>
                }
            </div>
            <ol class="separator-list" data-testid="separator-list"
                aria-invalid={(props.invalid == Some(Field::Separators)).then_some("true")}>
                { for separators.iter().enumerate().map(|(i, sep)| {
                    let remove = d.reform(move |_: MouseEvent| Action::RemoveSeparator(i));
                    let raise = d.reform(move |_: MouseEvent| Action::RaiseSeparator(i));
                    let label = sep.label();
                    // Named for a screen reader: "remove space", not "remove  ".
                    let spoken = match own_name(sep) {
                        Some(name) => format!("{name} {}", quoted(sep)),
                        None => quoted(sep),
                    };
                    html! {
                        <li class="separator-item" data-testid="separator-item" data-label={label.clone()}
                            aria-invalid={(props.bad_separator == Some(i)).then_some("true")}>
                            <span class={classes!("chip", separator_class(separators, i))} aria-hidden="true">{glyph(sep)}</span>
                            <code class="label">{visible_label(sep)}</code>
                            <span class="about">{own_name(sep).unwrap_or_default()}</span>
                            <span class="actions">
                                <button type="button" class="icon" onclick={raise} disabled={i == 0}
                                    aria-label={format!("move {spoken} up")} title="Move up (try it earlier)">{"↑"}</button>
                                <button type="button" class="icon" onclick={remove}
                                    aria-label={format!("remove {spoken}")} title="Remove">{"✕"}</button>
                            </span>
                        </li>
                    }
                })}
            </ol>
            if regexes > 0 && literals > 0 && !langchain.is_empty() {
                <p class="warn">
                    {"LangChain has one is_separator_regex switch for the whole list: make every separator a regex (escape the literal ones) or none."}
                </p>
            }
            if separators.is_empty() && langchain.contains(&Kind::Recursive) {
                <p class="hint">
                    {format!("The list is empty, so LangChain uses its default: {}.",
                        DEFAULT_SEPARATORS.iter().map(|s| format!("\"{}\"", escape(s))).collect::<Vec<_>>().join(", "))}
                </p>
            }
            if separators.is_empty() && ours_too {
                <p class="warn">{"The list is empty: the recursive splitter needs at least one separator."}</p>
            } else if !separators.is_empty() && !separators.iter().any(Separator::is_hard_cut) {
                if ours_too {
                    <p class="warn">
                        {"No hard cut (\"\") at the end. A piece that no separator can split is still cut at the size, so chunks never exceed it, but you will see ✂ cuts you did not list."}
                    </p>
                }
                if langchain.contains(&Kind::Recursive) {
                    <p class="warn">
                        {"No \"\" at the end: LangChain returns a piece that no separator can split as one chunk over the size, with a warning."}
                    </p>
                }
            }
            <form class="add" onsubmit={on_add}>
                <input type="text" data-testid="separator-new" placeholder={if *regex { "e.g. \\n#+ " } else { "e.g. ; or \\n##" }}
                    aria-label="New separator" value={(*draft).clone()} oninput={on_draft} />
                <label class="inline">
                    <input type="checkbox" checked={*regex} onchange={on_regex} />{" regex"}
                </label>
                <button type="submit" data-testid="separator-add">{"Add"}</button>
            </form>
            <p class="hint">{"Write newlines as \\n and tabs as \\t. Leave the box empty and press Add for the hard cut."}</p>
            if let Some(message) = &*problem {
                <p class="warn" role="alert">{message.clone()}</p>
            }
        </section>
    }
}
