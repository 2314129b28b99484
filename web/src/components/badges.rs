//! The five invariant badges, checked live by `chunkscope::check`, and what
//! each property is called and means.

use crate::state::{Action, Badge, Checked};
use yew::prelude::*;

/// What the badges say: the words belong to the page, the properties to the
/// engine.
impl Badge {
    /// The badge's `data-testid`.
    pub const fn test_id(self) -> &'static str {
        match self {
            Badge::Coverage => "badge-coverage",
            Badge::MaxSize => "badge-max-size",
            Badge::Order => "badge-order",
            Badge::Overlap => "badge-overlap",
            Badge::Determinism => "badge-determinism",
        }
    }

    /// Its short title.
    pub const fn title(self) -> &'static str {
        match self {
            Badge::Coverage => "no text lost",
            Badge::MaxSize => "size cap held",
            Badge::Order => "in order",
            Badge::Overlap => "overlap as set",
            Badge::Determinism => "repeatable",
        }
    }

    /// What the property promises, and what breaking it would do to retrieval.
    pub const fn meaning(self) -> &'static str {
        match self {
            Badge::Coverage => {
                "Every character that is not whitespace ends up in some chunk. If this failed, \
                 part of the document would never be embedded, so no question could ever find it \
                 (dropping a separator such as \". \" loses the full stops, for example)."
            }
            Badge::MaxSize => {
                "No chunk is longer than the size, counted in the chosen unit. If this failed, a \
                 chunk could overflow the embedding model's input and be silently truncated, or \
                 blow the prompt budget when it is retrieved."
            }
            Badge::Order => {
                "Chunks follow the text from start to end, numbered 0, 1, 2… without gaps, each one \
                 ending after the one before, and each chunk's text is exactly the source between \
                 its offsets. If this failed, neighbours and positions stored next to the vectors \
                 would point at the wrong text."
            }
            Badge::Overlap => {
                "Neighbouring chunks repeat text only when overlap is set, and never more than the \
                 overlap. If this failed, the index would hold duplicated text you did not ask for, \
                 and searches would return the same passage twice."
            }
            Badge::Determinism => {
                "Splitting the same text with the same settings a second time gave the same chunks. \
                 If this failed, re-indexing would change chunk ids and invalidate every stored \
                 vector and cached answer."
            }
        }
    }

    /// What a LangChain strategy does differently here, for a badge that can
    /// go red because LangChain works that way.
    pub const fn langchain_note(self) -> Option<&'static str> {
        match self {
            Badge::MaxSize => Some(
                "LangChain passes a piece that it cannot split any further through whole, even \
                 when it is longer than chunk_size, and only logs a warning (listed under the \
                 chunks). Our splitter cuts such a piece at the size instead.",
            ),
            Badge::Coverage => Some(
                "With keep_separator=False LangChain drops every separator, so one that is more \
                 than whitespace (a full stop, a comma) is lost from the chunks.",
            ),
            Badge::Order | Badge::Overlap | Badge::Determinism => None,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct BadgesProps {
    /// Every split on screen; a badge is green only if it holds for all.
    pub splits: Vec<Checked>,
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
    // A check still awaited (a long text's second run) is left out here and
    // shown as pending below.
    let results = |badge: Badge| {
        props
            .splits
            .iter()
            .filter_map(move |s| Some((s.split.strategy(), s.check(badge)?)))
    };
    let langchain = props
        .splits
        .iter()
        .any(|s| s.split.output.langchain.is_some());
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
                    // Only the determinism check is ever left for later.
                    let pending = props.splits.iter().any(|s| s.check(badge).is_none());
                    let ok = !pending && results(badge).all(|(_, c)| c.ok);
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
