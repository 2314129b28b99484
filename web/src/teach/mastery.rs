//! The mastery checklist at the end of the lessons: what a learner should be
//! able to do after the four lessons, each skill linked to the card, view,
//! mode or exercise on this page that proves it. Ticks are the learner's own,
//! kept in this browser.

use super::cards::{snapshot, CARDS};
use super::Mode;
use crate::state::{Action, View};
use chunkscope::Strategy;
use yew::prelude::*;

/// Where a skill is proven on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// An interview card, loaded as its "Show me" loads it.
    Card(&'static str),
    /// A mode of the page.
    Mode(Mode),
    /// A view of the explore mode.
    View(View),
    /// An element of the explore mode, by its `data-testid`, scrolled to.
    Element(&'static str),
}

impl Proof {
    /// `data-proof`: `card:ID`, `mode:NAME`, `view:NAME`, `element:TESTID`.
    pub fn hook(self) -> String {
        match self {
            Proof::Card(id) => format!("card:{id}"),
            Proof::Mode(mode) => format!("mode:{}", mode.name()),
            Proof::View(view) => format!("view:{}", view.name()),
            Proof::Element(id) => format!("element:{id}"),
        }
    }
}

/// One skill of the checklist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// `data-item`, and the key of its tick.
    pub id: &'static str,
    /// The lesson it comes from (`000`, `001`, `002`, `004`).
    pub seed: &'static str,
    /// What the learner can do, in the first person.
    pub can: &'static str,
    /// Where the page proves it.
    pub proof: Proof,
    /// The button's words: what it opens.
    pub go: &'static str,
}

/// The checklist, in the lessons' order.
pub const SKILLS: [Skill; 15] = [
    Skill { id: "fixed-vs-recursive", seed: "000", can: "I can say where fixed windows cut the refund page (g|et, not inside \"Refunds\") and how recursive splitting avoids it.", proof: Proof::Card("headline"), go: "Show me" },
    Skill { id: "predict", seed: "000", can: "I can predict the chunks a splitter makes before it runs.", proof: Proof::Mode(Mode::Practice), go: "Practise" },
    Skill { id: "overlap", seed: "000", can: "I can add overlap without letting any chunk grow past the size.", proof: Proof::Card("overlap"), go: "Show me" },
    Skill { id: "size", seed: "000", can: "I can pick a starting size and overlap, and say how I would check them.", proof: Proof::Card("typical"), go: "Show me" },
    Skill { id: "choose", seed: "001", can: "I can say when to choose fixed, recursive, semantic or late chunking.", proof: Proof::View(View::One(Strategy::Semantic)), go: "Compare the strategies" },
    Skill { id: "code-bugs", seed: "001", can: "I can find the bugs in the lesson's splitter code.", proof: Proof::Mode(Mode::Code), go: "Spot the bugs" },
    Skill { id: "overlap-bugs", seed: "001", can: "I can say what each of the lesson's overlap bugs does to the chunks.", proof: Proof::Mode(Mode::Bugs), go: "Open the bug gallery" },
    Skill { id: "fallback", seed: "002", can: "I can explain why the separator list ends with the empty string.", proof: Proof::Card("empty"), go: "Show me" },
    Skill { id: "merge", seed: "002", can: "I can explain why small pieces are merged back up to the size.", proof: Proof::Card("merge"), go: "Show me" },
    Skill { id: "doing-work", seed: "002", can: "I can tell whether the separator hierarchy is doing any work on a corpus.", proof: Proof::Card("doing-work"), go: "Show me" },
    Skill { id: "failures", seed: "002", can: "I can name what defeats the hierarchy: chat exports, PDF text, CSV, Windows line ends.", proof: Proof::Card("slack"), go: "Show me" },
    Skill { id: "structure", seed: "002", can: "I can keep headings, tables and code blocks whole by splitting on the structure.", proof: Proof::Card("md-heading"), go: "Show me" },
    Skill { id: "properties", seed: "004", can: "I can state the properties every splitter keeps (coverage, order, the hard max, progress, overlap, document boundaries, determinism, content hashes), and show each one breaking.", proof: Proof::Mode(Mode::Bugs), go: "Open the bug gallery" },
    Skill { id: "windows", seed: "004", can: "I can write fixed windows with half-open spans and checked settings.", proof: Proof::Element("exercises"), go: "Go to the exercises" },
    Skill { id: "evaluate", seed: "004", can: "I can measure which configuration retrieves best, and whether the difference is noise.", proof: Proof::Mode(Mode::Evaluate), go: "Evaluate" },
];

const STORE: &str = "chunkscope-mastery";

/// The ids of the skills ticked in this browser.
fn load_ticks() -> Vec<String> {
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(STORE).ok().flatten())
        .unwrap_or_default()
        .split(',')
        .filter(|id| SKILLS.iter().any(|s| s.id == *id))
        .map(String::from)
        .collect()
}

fn save_ticks(ticks: &[String]) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(STORE, &ticks.join(","));
    }
}

#[derive(Properties, PartialEq)]
pub struct MasteryProps {
    /// The page's reducer: a card or a view is loaded through it.
    pub dispatch: Callback<Action>,
    /// Switches the page's mode.
    pub on_mode: Callback<Mode>,
}

/// The checklist, each skill with its tick and the way to its proof.
#[function_component]
pub fn Mastery(props: &MasteryProps) -> Html {
    let ticks = use_state(load_ticks);
    let skill_html = |skill: &'static Skill| {
        let ticked = ticks.contains(&skill.id.to_string());
        let on_tick = {
            let ticks = ticks.clone();
            Callback::from(move |e: Event| {
                let on = e
                    .target_unchecked_into::<web_sys::HtmlInputElement>()
                    .checked();
                let mut next: Vec<String> =
                    ticks.iter().filter(|t| *t != skill.id).cloned().collect();
                if on {
                    next.push(skill.id.to_string());
                }
                save_ticks(&next);
                ticks.set(next);
            })
        };
        let prove = {
            let (dispatch, on_mode) = (props.dispatch.clone(), props.on_mode.clone());
            Callback::from(move |_: MouseEvent| match skill.proof {
                Proof::Card(id) => {
                    if let Some(card) = CARDS.iter().find(|c| c.id == id) {
                        dispatch.emit(Action::ShowCard {
                            card: card.id,
                            snapshot: snapshot(card),
                        });
                    }
                }
                Proof::Mode(mode) => {
                    on_mode.emit(mode);
                    if let Some(w) = web_sys::window() {
                        w.scroll_to_with_x_and_y(0.0, 0.0);
                    }
                }
                Proof::View(view) => {
                    dispatch.emit(Action::SetView(view));
                    crate::components::jump::reveal("view-chunks");
                }
                Proof::Element(test_id) => scroll_to(test_id),
            })
        };
        html! {
            <li data-testid="mastery-item" data-item={skill.id} data-seed={skill.seed}
                data-proof={skill.proof.hook()} data-ticked={ticked.to_string()}>
                <label>
                    <input type="checkbox" data-testid="mastery-check" checked={ticked} onchange={on_tick} />
                    {" "}{skill.can}
                </label>
                <button type="button" class="link" data-testid="mastery-prove" onclick={prove}
                    aria-label={format!("{}: {}", skill.go, skill.can)}>
                    {skill.go}
                </button>
            </li>
        }
    };
    let done = SKILLS
        .iter()
        .filter(|s| ticks.contains(&s.id.to_string()))
        .count();
    html! {
        <section class="card mastery" data-testid="mastery" aria-label="Mastery checklist">
            <div class="card-head">
                <h2>{"Mastery checklist"}</h2>
                <span class="muted" data-testid="mastery-progress" data-done={done.to_string()}
                    data-total={SKILLS.len().to_string()}>{format!("{done} of {}", SKILLS.len())}</span>
            </div>
            <p class="hint">{"What the four lessons teach, each with the place on this page that shows it. Tick what you can do without looking; the ticks stay in this browser."}</p>
            <ol class="mastery-list">
                { for SKILLS.iter().map(skill_html) }
            </ol>
        </section>
    }
}

/// Scrolls the element with this `data-testid` into view.
fn scroll_to(test_id: &str) {
    let element = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector(&format!("[data-testid=\"{test_id}\"]"))
            .ok()
            .flatten()
    });
    if let Some(element) = element {
        element.scroll_into_view();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_skill_has_its_own_id_and_a_proof_that_exists() {
        for (i, skill) in SKILLS.iter().enumerate() {
            assert!(
                SKILLS[..i].iter().all(|s| s.id != skill.id),
                "{} twice",
                skill.id
            );
            if let Proof::Card(id) = skill.proof {
                assert!(CARDS.iter().any(|c| c.id == id), "no card {id}");
            }
            assert!(["000", "001", "002", "004"].contains(&skill.seed));
        }
        // Every lesson has its skills.
        for seed in ["000", "001", "002", "004"] {
            assert!(SKILLS.iter().any(|s| s.seed == seed), "seed {seed}");
        }
    }
}
