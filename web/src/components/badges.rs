//! The five invariant badges, checked live by `chunkscope::check`.

use crate::state::{Action, Badge, Shared};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct BadgesProps {
    /// Every split on screen; a badge is green only if it holds for all.
    pub splits: Vec<Shared>,
    pub open: Option<Badge>,
    pub dispatch: Callback<Action>,
    /// The settings cannot split right now, so these results are for the last
    /// good settings: drawn neutral, their `data-ok` still that result's.
    #[prop_or_default]
    pub stale: bool,
}

/// A row of pass/fail badges; clicking one explains the property.
#[function_component]
pub fn Badges(props: &BadgesProps) -> Html {
    let results = |badge: Badge| {
        props
            .splits
            .iter()
            .map(move |s| (s.strategy(), badge.of(&s.checks)))
    };
    let langchain = props.splits.iter().any(|s| s.output.langchain.is_some());
    let explanation = props.open.map(|badge| {
        let several = props.splits.len() > 1;
        html! {
            <div class="badge-explain" data-testid="badge-explanation" role="note">
                <p><strong>{badge.title()}</strong>{": "}{badge.meaning()}</p>
                if let Some(note) = badge.langchain_note().filter(|_| langchain) {
                    <p class="lc-note">{note}</p>
                }
                <ul>
                    { for results(badge).map(|(strategy, check)| html! {
                        <li class={if check.ok { "ok" } else { "bad" }}>
                            {if check.ok { "✓ " } else { "✗ " }}
                            if several { <strong>{format!("{strategy}: ")}</strong> }
                            {check.detail.clone()}
                        </li>
                    })}
                </ul>
            </div>
        }
    });
    html! {
        <section class="badges" aria-label="Checks on the result">
            <div class="badge-row">
                { for Badge::ALL.into_iter().map(|badge| {
                    let ok = results(badge).all(|(_, c)| c.ok);
                    // Only the determinism check is ever left for later.
                    let pending = badge == Badge::Determinism && props.splits.iter().any(|s| s.rechecking);
                    let (state, mark, note) = if props.stale {
                        ("stale", "—", Some("for the last settings that worked"))
                    } else if pending {
                        ("pending", "…", Some("checking…"))
                    } else if ok {
                        ("ok", "✓", None)
                    } else {
                        ("bad", "✗", None)
                    };
                    let onclick = props.dispatch.reform(move |_: MouseEvent| Action::ToggleBadge(badge));
                    html! {
                        <button type="button"
                            class={classes!("badge", state, (props.open == Some(badge)).then_some("open"))}
                            data-testid={badge.test_id()}
                            data-ok={ok.to_string()}
                            data-pending={pending.then_some("true")}
                            aria-expanded={(props.open == Some(badge)).to_string()}
                            title={note}
                            {onclick}>
                            <span class="mark" aria-hidden="true">{mark}</span>
                            {badge.title()}
                            if let Some(note) = note {
                                <span class="badge-note">{note}</span>
                            }
                        </button>
                    }
                })}
            </div>
            {explanation.unwrap_or_default()}
        </section>
    }
}
