//! The sentences a sentence-level split found, drawn over the text, and every
//! doubtful stop with the segmenter's reason ("not a sentence end:
//! abbreviation"), all from the trace's `sentences`.

use crate::semantic_model::{sentences, Part, STOPS_LISTED};
use crate::state::Shared;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SentenceViewProps {
    pub split: Shared,
}

/// The sentences, alternately shaded, with each doubtful stop marked, and
/// the list of judgments under them. Nothing when the split's list has no
/// sentence level.
#[function_component]
pub fn SentenceView(props: &SentenceViewProps) -> Html {
    let s = use_memo(props.split.clone(), |split| sentences(split));
    let Some(s) = s.as_ref() else {
        return html! {};
    };
    let rest = s.total - s.drawn.len();
    html! {
        <section class="card sentence-card" data-testid="sentence-view" aria-label="Sentences and doubtful stops">
            <h2>{"Sentences, and every doubtful stop"}</h2>
            <p class="note">
                {format!("{} {}; {} doubtful {} judged. Unicode's sentence rules (UAX #29) find the candidates; abbreviations, initials, numbers, addresses, ellipses and quotes are then judged one by one. A marked stop is one that was doubted: hover it for the reason.",
                    s.total, if s.total == 1 { "sentence" } else { "sentences" },
                    s.all_stops, if s.all_stops == 1 { "stop" } else { "stops" })}
            </p>
            <div class="sentences">
                { for s.drawn.iter().enumerate().map(|(i, sentence)| html! {
                    <span data-testid="sentence" class={if i.is_multiple_of(2) { "sent sent-a" } else { "sent sent-b" }}
                        data-index={i.to_string()} data-start={sentence.start.to_string()} data-end={sentence.end.to_string()}>
                        { for sentence.parts.iter().map(|part| match part {
                            Part::Text(t) => html! { {t.clone()} },
                            Part::Stop(k, t) => {
                                let stop = &s.stops[*k];
                                html! {
                                    <mark data-testid="sentence-stop" class={if stop.ends { "stop stop-ends" } else { "stop" }}
                                        data-start={stop.start.to_string()} data-end={stop.end.to_string()}
                                        data-at={stop.at.to_string()} data-ends={stop.ends.to_string()}
                                        data-reason={stop.reason} title={stop.words}>{t.clone()}</mark>
                                }
                            }
                        })}
                    </span>
                })}
                if rest > 0 {
                    <span class="more-items">{format!(" … and {rest} more sentences")}</span>
                }
            </div>
            if !s.stops.is_empty() {
                <ol class="stop-list" data-testid="stop-reasons">
                    { for s.stops.iter().take(STOPS_LISTED).enumerate().map(|(k, stop)| html! {
                        <li data-testid="stop-reason" data-index={k.to_string()} data-reason={stop.reason}
                            data-ends={stop.ends.to_string()} class={if stop.ends { "ends" } else { "" }}>
                            <code>{stop.word.clone()}</code>{format!(" at char {}: {}", stop.start, stop.words)}
                        </li>
                    })}
                    if s.stops.len() > STOPS_LISTED {
                        <li class="more-items">{format!("… and {} more", s.stops.len() - STOPS_LISTED)}</li>
                    }
                </ol>
            }
        </section>
    }
}
