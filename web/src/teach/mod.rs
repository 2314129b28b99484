//! Teaching and interview practice on top of the playground: the modes, the
//! bug gallery and the lessons' own examples. Everything here reads the engine's output
//! and trace; nothing here decides where text is cut.

pub mod bug_code;
pub mod bugs;
pub mod cards;
pub mod drills;
pub mod exercises;
pub mod facts;
pub mod lessons;
pub mod listing;
pub mod mastery;
pub mod practice;
pub mod stepper;
pub mod structure;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// What the page is for right now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The playground.
    Explore,
    /// Predict the cuts, then see the answer and a score.
    Practice,
    /// Classic mistakes next to the correct engine.
    Bugs,
    /// Spot the bugs in the lessons' code.
    Code,
    /// Which configuration retrieves best, measured.
    Evaluate,
}

impl Mode {
    /// Every mode, in menu order.
    pub const ALL: [Mode; 5] = [
        Mode::Explore,
        Mode::Practice,
        Mode::Bugs,
        Mode::Code,
        Mode::Evaluate,
    ];

    /// The option value in `mode-select`.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Explore => "explore",
            Mode::Practice => "practice",
            Mode::Bugs => "bugs",
            Mode::Code => "code",
            Mode::Evaluate => "evaluate",
        }
    }

    /// What the menu shows.
    pub const fn title(self) -> &'static str {
        match self {
            Mode::Explore => "Explore",
            Mode::Practice => "Practice: predict the cuts",
            Mode::Bugs => "Bug gallery",
            Mode::Code => "Code: spot the bugs",
            Mode::Evaluate => "Evaluate: which retrieves best",
        }
    }

    /// The mode with this option value.
    pub fn parse(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// The mode menu in the page header.
pub fn mode_select(mode: Mode, on_change: &Callback<Mode>) -> Html {
    let onchange = on_change.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        Mode::parse(&value).unwrap_or(Mode::Explore)
    });
    html! {
        <label class="mode-pick">
            <span>{"Mode"}</span>
            <select data-testid="mode-select" {onchange}>
                { for Mode::ALL.into_iter().map(|m| html! {
                    <option value={m.name()} selected={mode == m}>{m.title()}</option>
                })}
            </select>
        </label>
    }
}

/// The page body of the practice, bug-gallery and code modes. `on_mode`
/// lets a mode send the learner to another (code mode's links to the gallery).
pub fn teach_panel(mode: Mode, on_mode: &Callback<Mode>) -> Html {
    match mode {
        Mode::Explore => html! {},
        Mode::Practice => html! { <practice::Practice /> },
        Mode::Bugs => html! { <bugs::BugGallery on_mode={on_mode.clone()} /> },
        Mode::Code => html! { <listing::CodeMode on_mode={on_mode.clone()} /> },
        Mode::Evaluate => html! {},
    }
}

/// Badge-like pass/fail mark shared by the teaching views.
pub fn verdict(test_id: &'static str, ok: bool, title: &str, detail: &str) -> Html {
    html! {
        <span class={classes!("badge", if ok { "ok" } else { "bad" })}
            data-testid={test_id} data-ok={ok.to_string()} title={detail.to_string()}>
            <span class="mark" aria-hidden="true">{if ok { "✓" } else { "✗" }}</span>
            {title.to_string()}
        </span>
    }
}
