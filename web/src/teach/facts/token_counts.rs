//! The tokens card's own line: the current text counted by the worker in
//! each installed encoding, so a learner sees how many chars a token holds in
//! this text.

use super::words::TOO_LONG_TO_COUNT;
use super::TokenRatio;
use crate::state::Split;
use chunkscope::tokens::Encoding;
use chunkscope::Unit;

/// The longest text the page counts tokens of on its own thread.
pub const COUNT_LIMIT: usize = 256 * 1024;

/// The configuration whose split of a text is one window holding all of it,
/// so its length is the text's count in `encoding` (a text of n bytes has at
/// most n tokens).
pub fn whole_in(encoding: Encoding, text: &str) -> chunkscope::Config {
    chunkscope::Config {
        strategy: chunkscope::StrategyConfig::Fixed,
        size: text.len().max(1),
        unit: Unit::Tokens(encoding),
        ..chunkscope::Config::default()
    }
}

/// The token count of a whole-text split (see [`whole_in`]).
pub fn whole_count(split: &Split) -> usize {
    split.output.chunks.iter().map(|c| c.len).sum()
}

#[derive(yew::Properties, PartialEq)]
pub struct TokenCountsProps {
    pub text: crate::text::Text,
    /// Which encodings' tables are installed (cl100k, o200k): a change asks
    /// for the newly loaded one's count.
    pub loaded: (bool, bool),
}

/// The current text counted by the worker in every encoding whose tables are
/// installed (`token-ratio`).
///
/// The tables are the ones the page holds (`chunkscope_wasm::loaded`); the caller reads
/// it when it draws, since installing them changes no property here.
#[yew::function_component]
pub fn TokenCounts(props: &TokenCountsProps) -> yew::Html {
    use yew::html;
    let text = props.text.clone();
    let small = text.len() <= COUNT_LIMIT;
    let (cl_in, o2_in) = props.loaded;
    let ask = |enc: Encoding, loaded: bool| (small && loaded).then(|| whole_in(enc, &text));
    let cl = crate::engine::use_split(text.clone(), ask(Encoding::Cl100k, cl_in));
    let o2 = crate::engine::use_split(text.clone(), ask(Encoding::O200k, o2_in));
    if !small {
        return html! { <p class="hint" data-testid="token-ratio">{TOO_LONG_TO_COUNT}</p> };
    }
    let n = text.chars().count();
    let mut counts = Vec::new();
    for (enc, answer) in [(Encoding::Cl100k, &cl), (Encoding::O200k, &o2)] {
        if let Some(Ok(s)) = answer {
            counts.push((enc, whole_count(s)));
        }
    }
    let of = |enc: Encoding| counts.iter().find(|c| c.0 == enc).map(|c| c.1.to_string());
    html! {
        <p class="hint" data-testid="token-ratio" data-chars={n.to_string()}
            data-cl100k={of(Encoding::Cl100k)} data-o200k={of(Encoding::O200k)}>
            {TokenRatio { chars: n, counts }.to_string()}
        </p>
    }
}
