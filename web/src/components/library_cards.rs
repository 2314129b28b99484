//! The interview question "what does *recursive* mean in each library?",
//! answered per library: the rule its cuts follow, then what it did to the
//! text on screen (the panes' own splits, so the answer is live).

use crate::model::{amount, visible_label, Stats};
use crate::state::{Shared, View};
use chunkscope::{Strategy, Unit};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LibraryCardsProps {
    /// Each library's split with its numbers, in pane order (one still
    /// waiting is `None`).
    pub splits: Vec<(Strategy, Option<(Shared, Stats)>)>,
}

/// What a split did, in one sentence: its chunks, its cuts by the
/// separator or delimiter that made them, and what went over or got lost.
fn evidence(split: &Shared, stats: &Stats) -> String {
    let unit: Unit = split.config.unit;
    let mut cuts: Vec<String> = split
        .separators
        .iter()
        .zip(&stats.fired)
        .filter(|&(sep, &n)| n > 0 && !sep.is_hard_cut())
        .map(|(sep, n)| format!("{n} at {}", visible_label(sep)))
        .collect();
    let hard = stats.hard_cuts(&split.separators);
    if hard > 0 {
        cuts.push(format!("{hard} hard"));
    }
    let mut said = format!(
        "{} {} of {} to {}",
        stats.count,
        if stats.count == 1 { "chunk" } else { "chunks" },
        stats.min,
        amount(stats.max, unit),
    );
    if !cuts.is_empty() {
        said += &format!("; cuts: {}", cuts.join(", "));
    }
    if stats.over > 0 {
        said += &format!("; {} over the size", stats.over);
    }
    if stats.mid_word > 0 {
        said += &format!("; {} inside a word", stats.mid_word);
    }
    if stats.tiling.lost > 0 {
        said += &format!("; {} chars lost", stats.tiling.lost);
    }
    said + "."
}

/// One card per library pane (`library-card`, `data-strategy`).
#[function_component]
pub fn LibraryCards(props: &LibraryCardsProps) -> Html {
    html! {
        <section class="card library-cards" data-testid="library-cards" aria-label="What recursive means in each library">
            <h2>{"Interview: what does “recursive” mean in each library?"}</h2>
            <p class="note">{"Every library above calls its splitter recursive; the rules differ. Each answer ends with what that rule did to this text, at this size."}</p>
            <div class="library-card-list">
                { for props.splits.iter().filter_map(|(strategy, split)| {
                    let means = View::recursive_means(*strategy)?;
                    let here = split.as_ref().map(|(split, stats)| evidence(split, stats));
                    Some(html! {
                        <article class="library-card" data-testid="library-card" data-strategy={strategy.name()}>
                            <h3>{View::title_of(*strategy)}</h3>
                            <p>{means}</p>
                            <p class="here" data-testid="library-card-here">
                                <strong>{"Here: "}</strong>{here.unwrap_or_else(|| "…".into())}
                            </p>
                        </article>
                    })
                })}
            </div>
        </section>
    }
}
