//! The semantic strategy's own settings (`SemanticChunker`'s threshold kind,
//! amount and buffer), and the strategies the comparison table splits beside
//! it. Kept apart from [`super::settings::Settings`], which every strategy
//! reads: these only change the `semantic` engine's configuration.

use super::view::View;
use crate::invalid::Problem;
use chunkscope::semantic::Breakpoint;
use chunkscope::{Config, Strategy};

/// The strategies of seed 001's table that the page can run, in its order.
/// While the semantic strategy is shown, each is split on the same text and
/// settings for the comparison (late chunking needs a model the page does not
/// have, so it is described, never run).
pub const COMPARED: [Strategy; 4] = [
    Strategy::Fixed,
    Strategy::Recursive,
    Strategy::Sentence,
    Strategy::Semantic,
];

/// The strategies split for `view` besides its own: those of [`COMPARED`]
/// while the semantic strategy is shown alone (its comparison table needs
/// them), none otherwise.
pub fn compared_with(view: View) -> Vec<Strategy> {
    if view == View::One(Strategy::Semantic) {
        COMPARED
            .into_iter()
            .filter(|s| !view.strategies().contains(s))
            .collect()
    } else {
        Vec::new()
    }
}

/// `SemanticChunker`'s threshold and buffer, as the learner set them. Numbers
/// stay text until a split is asked for, as in `Settings`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemanticSettings {
    /// `breakpoint_threshold_type`.
    pub breakpoint: Breakpoint,
    /// `breakpoint_threshold_amount`, as typed or slid.
    pub amount: String,
    /// `buffer_size`, as typed.
    pub buffer: String,
}

impl Default for SemanticSettings {
    /// LangChain's defaults: percentile 95, a buffer of 1.
    fn default() -> SemanticSettings {
        SemanticSettings::of(Breakpoint::Percentile)
    }
}

/// The range and step the amount's slider offers for a kind: percentiles
/// run 0 to 100, deviations and interquartile ranges 0 to 5. The engine
/// checks the amount; the slider only makes the usual values easy to reach.
pub fn slider(kind: Breakpoint) -> (&'static str, &'static str, &'static str) {
    if kind.is_percentile() {
        ("0", "100", "1")
    } else {
        ("0", "5", "0.1")
    }
}

/// A kind's default amount as the learner would type it (LangChain's
/// `BREAKPOINT_DEFAULTS`), written out so that the page needs no float
/// printing.
fn default_text(kind: Breakpoint) -> &'static str {
    match kind {
        Breakpoint::Percentile | Breakpoint::Gradient => "95",
        Breakpoint::StandardDeviation => "3",
        Breakpoint::Interquartile => "1.5",
    }
}

/// Reads a decimal such as `95`, `-0.25` or `1.5` exactly as Rust's (and
/// the CLI's) float parsing does: its digits as a whole number divided by a
/// power of ten, both exact in a double, is one correctly rounded division.
/// Written out because float parsing would add kilobytes to the page's wasm.
/// Exponents and more than 15 digits are not read (`None`).
pub fn parse_decimal(typed: &str) -> Option<f64> {
    let (negative, digits) = match typed.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, typed),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all = || whole.bytes().chain(fraction.bytes());
    let count = all().count();
    if count == 0 || count > 15 || !all().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mantissa = all().fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
    let scale = 10u64.pow(fraction.len() as u32);
    let value = mantissa as f64 / scale as f64;
    Some(if negative { -value } else { value })
}

impl SemanticSettings {
    /// `kind` with its default amount (LangChain's `BREAKPOINT_DEFAULTS`) and
    /// a buffer of 1.
    pub fn of(kind: Breakpoint) -> SemanticSettings {
        SemanticSettings {
            breakpoint: kind,
            amount: default_text(kind).into(),
            buffer: "1".into(),
        }
    }

    /// `config` with these settings when it is the semantic strategy's (the
    /// other strategies ignore them, so their configuration, and the split
    /// kept for it, stays as it was), or which number to fix.
    pub fn apply(&self, mut config: Config) -> Result<Config, Problem> {
        let Some(own) = config.semantic_config_mut() else {
            return Ok(config);
        };
        let typed = self.amount.trim();
        let amount = parse_decimal(typed).ok_or_else(|| {
            problem(format!(
                "the threshold amount must be a number, such as {}, not {typed:?}",
                default_text(self.breakpoint)
            ))
        })?;
        let typed = self.buffer.trim();
        let buffer = typed.parse::<usize>().map_err(|_| {
            problem(format!(
                "the buffer must be a whole number of sentences, such as 1, not {typed:?}"
            ))
        })?;
        own.breakpoint = self.breakpoint;
        own.amount = Some(amount);
        own.buffer = buffer;
        Ok(config)
    }
}

/// A problem with a semantic setting. These controls are not in
/// `crate::invalid::Field`'s list, so none is marked; the message names it.
fn problem(message: String) -> Problem {
    Problem {
        message,
        field: None,
        separator: None,
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;

    #[test]
    fn settings_reach_only_the_semantic_configuration() {
        let s = SemanticSettings {
            breakpoint: Breakpoint::StandardDeviation,
            amount: " 1.5 ".into(),
            buffer: "2".into(),
        };
        let config = s
            .apply(Config::for_strategy(Strategy::Semantic))
            .expect("numbers");
        assert_eq!(
            config.semantic_config().unwrap().breakpoint,
            Breakpoint::StandardDeviation
        );
        assert_eq!(config.semantic_config().unwrap().amount, Some(1.5));
        assert_eq!(config.semantic_config().unwrap().buffer, 2);
        let fixed = Config::for_strategy(Strategy::Fixed);
        assert_eq!(s.apply(fixed.clone()).unwrap(), fixed);
        for bad in ["", "ninety", "NaN", "inf"] {
            let s = SemanticSettings {
                amount: bad.into(),
                ..SemanticSettings::default()
            };
            let e = s
                .apply(Config::for_strategy(Strategy::Semantic))
                .unwrap_err();
            assert!(e.message.contains("must be a number"), "{}", e.message);
        }
        let s = SemanticSettings {
            buffer: "-1".into(),
            ..SemanticSettings::default()
        };
        let e = s
            .apply(Config::for_strategy(Strategy::Semantic))
            .unwrap_err();
        assert!(
            e.message.contains("the buffer must be a whole number"),
            "{}",
            e.message
        );
    }

    #[test]
    fn decimals_read_as_the_cli_reads_them() {
        let cases = [
            "95",
            "1.5",
            "0.1",
            "0.3",
            "-0.25",
            "2.675",
            "99.99",
            "0",
            "100",
            "0.000001",
            "123456789.012345",
            "7.",
        ];
        for typed in cases {
            assert_eq!(
                parse_decimal(typed).map(f64::to_bits),
                Some(typed.parse::<f64>().unwrap().to_bits()),
                "{typed}"
            );
        }
        for bad in [
            "",
            ".",
            "-",
            "1e3",
            "1.2.3",
            "ninety",
            "1234567890123456",
            " 1",
        ] {
            assert_eq!(parse_decimal(bad), None, "{bad:?}");
        }
        for kind in Breakpoint::ALL {
            assert_eq!(
                parse_decimal(default_text(kind)),
                Some(kind.default_amount())
            );
        }
    }

    #[test]
    fn only_the_semantic_view_splits_the_others_for_its_table() {
        assert_eq!(
            compared_with(View::One(Strategy::Semantic)),
            [Strategy::Fixed, Strategy::Recursive, Strategy::Sentence]
        );
        assert!(compared_with(View::Recursive).is_empty());
        assert!(compared_with(View::Compare).is_empty());
        assert_eq!(SemanticSettings::default().amount, "95");
        assert_eq!(
            SemanticSettings::of(Breakpoint::Interquartile).amount,
            "1.5"
        );
    }

    /// A text with two topics: cats, then tax.
    pub const TOPICS: &str = "Cats purr. Cats nap all day. A cat naps in the sun. \
Tax forms are due in April. File the tax forms early. Tax offices close at noon.";

    #[test]
    fn the_semantic_view_splits_the_four_and_the_slider_resplits_only_it() {
        use crate::state::testing::{act, start};
        use crate::state::Action;
        let state = act(&start(), Action::SetText(TOPICS.into()));
        let state = act(&state, Action::SetSize("200".into()));
        let state = act(&state, Action::SetView(View::One(Strategy::Semantic)));
        assert_eq!(state.error, None);
        for s in COMPARED {
            assert!(state.split(s).is_some_and(|x| *x.text == *TOPICS), "{s:?}");
        }
        let semantic = state.split(Strategy::Semantic).unwrap().clone();
        let trace = semantic.output.trace.semantic.as_deref().unwrap();
        assert_eq!(trace.sentences.len(), 6);
        assert_eq!(trace.distances.len(), 5);
        // As `chunkscope --strategy semantic --size 200 --trace` gives: one
        // distance above the 95th percentile (0.2750077968023539), after the
        // first tax sentence (the groups hold a sentence either side).
        assert_eq!(trace.threshold, Some(0.2750077968023539));
        assert_eq!(trace.breakpoints, [3]);
        assert_eq!(semantic.output.chunks.len(), 2);
        let fixed = state.split(Strategy::Fixed).unwrap().clone();
        // A lower threshold asks again for the semantic split only.
        let lower = crate::state::reduce(&state, Action::SetAmount("50".into()));
        let asked: Vec<Strategy> = lower.requests().iter().map(|r| r.config.kind()).collect();
        assert_eq!(asked, [Strategy::Semantic]);
        assert_eq!(
            lower.requests()[0].config.semantic_config().unwrap().amount,
            Some(50.0)
        );
        let lower = act(&state, Action::SetAmount("50".into()));
        assert!(lower.split(Strategy::Fixed).unwrap() == &fixed);
        let more = lower.split(Strategy::Semantic).unwrap();
        assert!(
            more.output
                .trace
                .semantic
                .as_deref()
                .unwrap()
                .breakpoints
                .len()
                > 1
        );
        // Another kind starts at its own default amount, the buffer stays.
        let state = act(&lower, Action::SetBuffer("0".into()));
        let state = act(&state, Action::SetBreakpoint(Breakpoint::Interquartile));
        assert_eq!(state.semantic.amount, "1.5");
        assert_eq!(state.semantic.buffer, "0");
        let config = &state
            .split(Strategy::Semantic)
            .unwrap()
            .config
            .semantic_config()
            .unwrap();
        assert_eq!(
            (config.breakpoint, config.buffer),
            (Breakpoint::Interquartile, 0)
        );
        // A bad amount is reported, the last good split stays.
        let bad = act(&state, Action::SetAmount("x".into()));
        assert!(bad
            .error
            .as_ref()
            .unwrap()
            .message
            .contains("must be a number"));
        assert!(bad.split(Strategy::Semantic).is_some());
    }
}
