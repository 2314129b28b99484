//! Code mode: "spot the bugs" on the lessons' own listings. The learner marks
//! suspicious lines, then the reveal puts each known bug on its line, says
//! what it does, and links to the bug-gallery variant that reproduces it.

use super::{bugs, Mode};
use crate::state::listing::{CodeAction, CodeState};
use chunkscope_teach::listings::{Known, LISTINGS};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Code mode's properties.
#[derive(Properties, PartialEq)]
pub struct CodeModeProps {
    /// Switches the page's mode (a bug's link opens the gallery).
    pub on_mode: Callback<Mode>,
}

/// The known bug's entry under its line, once revealed.
fn bug_note(known: &Known, on_mode: &Callback<Mode>) -> Html {
    let run = {
        let known = *known;
        let on_mode = on_mode.clone();
        Callback::from(move |_: MouseEvent| {
            bugs::request(known.bug, known.demo());
            on_mode.emit(Mode::Bugs);
        })
    };
    html! {
        <div class="listing-bug" data-testid="listing-bug" data-line={known.line.to_string()}
            data-bug={known.bug.name()}>
            <strong>{format!("Line {}: {}. ", known.line, known.title)}</strong>
            {known.what}
            {" "}
            <button type="button" class="link" data-testid="listing-run" data-bug={known.bug.name()}
                onclick={run}>
                {"Run it in the bug gallery →"}
            </button>
        </div>
    }
}

thread_local! {
    /// A listing another view asked code mode to open on (the bug gallery's
    /// link to the code a mistake is in). Code mode is drawn anew when its
    /// mode is chosen, and takes it then.
    static REQUESTED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Makes code mode open on the listing called `name`, the next time it is shown.
pub fn request(name: &str) {
    REQUESTED.with(|r| *r.borrow_mut() = Some(name.to_string()));
}

/// Code mode's state when it opens: on the listing asked for, if any.
fn first_state() -> CodeState {
    match REQUESTED.with(|r| r.borrow_mut().take()) {
        Some(name) => CodeState::default().reduce(CodeAction::Choose(name)),
        None => CodeState::default(),
    }
}

/// Code mode.
#[function_component]
pub fn CodeMode(props: &CodeModeProps) -> Html {
    let state = use_reducer_eq(|| CodeStateCell(first_state()));
    let listing = state.0.listing;
    let revealed = state.0.revealed;
    let on_choose = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let name = e.target_unchecked_into::<HtmlSelectElement>().value();
            state.dispatch(CodeAction::Choose(name));
        })
    };
    let act = |action: CodeAction| {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(action.clone()))
    };
    let bug_lines = listing.bug_lines();
    let lines = listing.lines().enumerate().map(|(i, code)| {
        let n = i + 1;
        let marked = state.0.marks.contains(&n);
        let bug = bug_lines.contains(&n);
        let verdict = match (revealed, marked, bug) {
            (false, ..) => None,
            (true, true, true) => Some("hit"),
            (true, false, true) => Some("miss"),
            (true, true, false) => Some("false-mark"),
            (true, false, false) => None,
        };
        let label = match verdict {
            Some("hit") => "found",
            Some("miss") => "missed",
            Some(_) => "no known bug here",
            None => "",
        };
        html! {
            <li class={classes!("listing-row", verdict)}>
                <button type="button" class={classes!("listing-line", marked.then_some("marked"))}
                    data-testid="listing-line" data-line={n.to_string()} data-marked={marked.to_string()}
                    data-bug={revealed.then(|| bug.to_string())}
                    aria-pressed={marked.to_string()} disabled={revealed}
                    title={if revealed { "" } else { "Click to mark this line as suspicious" }}
                    onclick={act(CodeAction::Toggle(n))}>
                    <span class="ln" aria-hidden="true">{n}</span>
                    <span class="flag" aria-hidden="true">{if marked { "⚑" } else { " " }}</span>
                    <code>{if code.is_empty() { " " } else { code }}</code>
                </button>
                if !label.is_empty() {
                    <span class="verdict">{label}</span>
                }
                if revealed {
                    { for listing.bugs.iter().filter(|b| b.line == n).map(|b| bug_note(b, &props.on_mode)) }
                }
            </li>
        }
    });
    let score = state.0.score();
    html! {
        <section class="teach code-mode" data-testid="code-mode" aria-label="Spot the bugs">
            <div class="card">
                <div class="teach-head">
                    <label for="listing-select"><strong>{"Listing"}</strong></label>
                    <select id="listing-select" data-testid="listing-select" onchange={on_choose}>
                        { for LISTINGS.iter().map(|l| html! {
                            <option value={l.name} selected={l.name == listing.name}>{l.title}</option>
                        })}
                    </select>
                </div>
                <p>{listing.about}</p>
                <p class="hint">
                    {"Spot the bugs: click every line you think is wrong (click again to unmark), then reveal. \
                      Each known bug is shown on its line, with a run in the bug gallery that reproduces it."}
                </p>
                <div class="practice-row">
                    if revealed {
                        <button type="button" data-testid="listing-retry" onclick={act(CodeAction::Retry)}>{"Try again"}</button>
                    } else {
                        <button type="button" data-testid="listing-reveal" onclick={act(CodeAction::Reveal)}>
                            {"Reveal the bugs"}
                        </button>
                    }
                    <span class="muted" data-testid="listing-marked">
                        {format!("{} line{} marked", state.0.marks.len(), if state.0.marks.len() == 1 { "" } else { "s" })}
                    </span>
                </div>
                if let Some(s) = score {
                    <p class="practice-score" data-testid="listing-score" role="status"
                        data-hits={s.hits.to_string()} data-misses={s.misses.to_string()}
                        data-false-marks={s.false_marks.to_string()}>
                        {format!(
                            "{} of {} bug lines found · {} missed · {} false mark{}",
                            s.hits, s.hits + s.misses, s.misses, s.false_marks,
                            if s.false_marks == 1 { "" } else { "s" }
                        )}
                    </p>
                    if !listing.note.is_empty() {
                        <p data-testid="listing-note">{listing.note}</p>
                    }
                }
                <ol class="listing" aria-label="The listing, one button per line">
                    { for lines }
                </ol>
            </div>
        </section>
    }
}

/// [`CodeState`] as a Yew reducer.
#[derive(Clone, Default, PartialEq)]
struct CodeStateCell(CodeState);

impl Reducible for CodeStateCell {
    type Action = CodeAction;

    fn reduce(self: std::rc::Rc<Self>, action: CodeAction) -> std::rc::Rc<Self> {
        CodeStateCell(self.0.reduce(action)).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_mode_opens_on_the_listing_asked_for_once() {
        assert_eq!(first_state().listing.name, "RecursiveTextChunker");
        request("split");
        assert_eq!(first_state().listing.name, "split");
        assert_eq!(first_state().listing.name, "RecursiveTextChunker");
    }
}
