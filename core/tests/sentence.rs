//! Sentences: the pitfalls of a "cut at the full stop" rule as named worked
//! examples with their exact sentences and the reason recorded for every
//! doubtful stop; the `sentence` strategy and the sentence level of a
//! separator list on worked examples; hostile input.

use chunkscope::sentence::{segment, Reason};
use chunkscope::{
    check, split, Action, Config, Cut, Error, Separator, Splitter, Strategy, StrategyConfig,
};
use std::time::{Duration, Instant};

/// The sentences of `text`, as text.
fn sentences(text: &str) -> Vec<&str> {
    segment(text, true)
        .spans
        .iter()
        .map(|s| s.text(text))
        .collect()
}

/// Each doubtful stop as (the stop, its reason's name, whether it ends).
fn doubts(text: &str) -> Vec<(&str, &'static str, bool)> {
    segment(text, true)
        .decisions
        .iter()
        .map(|d| (d.stop.text(text), d.reason.name(), d.end))
        .collect()
}

/// A pitfall: the text, its exact sentences, and every doubt with its reason.
struct Pitfall {
    name: &'static str,
    text: &'static str,
    sentences: &'static [&'static str],
    doubts: &'static [(&'static str, &'static str, bool)],
}

const PITFALLS: &[Pitfall] = &[
    Pitfall {
        name: "Latin abbreviations before a capital and mid-sentence",
        text: "Use a list, e.g. Python's, i.e. a real one. Then stop.",
        sentences: &["Use a list, e.g. Python's, i.e. a real one. ", "Then stop."],
        doubts: &[
            (".", "abbreviation", false),
            (".", "abbreviation", false),
            (".", "abbreviation", false),
            (".", "abbreviation", false),
        ],
    },
    Pitfall {
        name: "titles before names",
        text: "Dr. Smith met Mr. Jones. They talked.",
        sentences: &["Dr. Smith met Mr. Jones. ", "They talked."],
        doubts: &[(".", "abbreviation", false), (".", "abbreviation", false)],
    },
    Pitfall {
        name: "p.m. mid-sentence, and p.m. and etc. ending one",
        text:
            "We meet at 3 p.m. on Friday. Bring pens, paper, etc. The room is at 4 p.m. Ask first.",
        sentences: &[
            "We meet at 3 p.m. on Friday. ",
            "Bring pens, paper, etc. ",
            "The room is at 4 p.m. ",
            "Ask first.",
        ],
        doubts: &[
            (".", "abbreviation", false),
            (".", "abbreviation", false),
            (".", "abbreviation_before_capital", true),
            (".", "abbreviation", false),
            (".", "abbreviation_before_capital", true),
        ],
    },
    Pitfall {
        name: "an initial",
        text: "J. R. Tolkien wrote it. Read it.",
        sentences: &["J. R. Tolkien wrote it. ", "Read it."],
        doubts: &[(".", "initial", false), (".", "initial", false)],
    },
    Pitfall {
        name: "decimals and versions",
        text: "Pi is 3.14 and v2.0.1 shipped. Done.",
        sentences: &["Pi is 3.14 and v2.0.1 shipped. ", "Done."],
        doubts: &[
            (".", "number", false),
            (".", "number", false),
            (".", "number", false),
        ],
    },
    Pitfall {
        name: "a URL with a query, and an e-mail address",
        text: "See https://example.com/A.B?x=1 or mail Ann.Lee@example.org now. Thanks.",
        sentences: &[
            "See https://example.com/A.B?x=1 or mail Ann.Lee@example.org now. ",
            "Thanks.",
        ],
        doubts: &[
            (".", "address", false),
            (".", "address", false),
            ("?", "address", false),
            (".", "address", false),
            (".", "address", false),
        ],
    },
    Pitfall {
        name: "ellipses inside and at the end of a sentence",
        text: "Wait... what? Well… So it ends... Then more.",
        sentences: &["Wait... what? ", "Well… ", "So it ends... ", "Then more."],
        doubts: &[
            ("...", "ellipsis", false),
            ("…", "ellipsis_before_capital", true),
        ],
    },
    Pitfall {
        name: "CJK stops with closing quotes and no space",
        text: "他说：「好。」然后走了。她问：“真的吗？”是的！",
        sentences: &["他说：「好。」", "然后走了。", "她问：“真的吗？”", "是的！"],
        doubts: &[],
    },
    Pitfall {
        name: "a Japanese quotation goes on with と",
        text: "『行く！』と言った。「はい。」次は？",
        sentences: &["『行く！』と言った。", "「はい。」", "次は？"],
        doubts: &[
            ("！", "quote_continues", false),
            ("。", "before_opening_quote", true),
        ],
    },
    Pitfall {
        name: "a quote after the full stop, then a lowercase word",
        text: "He said \"Stop.\" Then left. \"Go.\" she said.",
        sentences: &["He said \"Stop.\" ", "Then left. ", "\"Go.\" she said."],
        doubts: &[(".", "lowercase_follows", false)],
    },
    Pitfall {
        name: "a zero-width space as the space between sentences",
        text: "End.\u{200B}Next one.\u{200B}and this.",
        sentences: &["End.\u{200B}", "Next one.\u{200B}and this."],
        doubts: &[
            (".", "zero_width_space", true),
            (".", "lowercase_follows", false),
        ],
    },
    Pitfall {
        name: "file names and domains",
        text: "Open main.rs on example.com today. Now.",
        sentences: &["Open main.rs on example.com today. ", "Now."],
        doubts: &[(".", "no_space", false), (".", "no_space", false)],
    },
    Pitfall {
        name: "a quoted question or exclamation, then who said it",
        text: "\"Is it done?\" she asked. \"No!\" He left. 'Why?' asked Ann.",
        sentences: &["\"Is it done?\" she asked. ", "\"No!\" ", "He left. ", "'Why?' asked Ann."],
        doubts: &[("?", "attribution", false), ("?", "attribution", false)],
    },
    Pitfall {
        name: "French guillemets set off by spaces",
        text: "Il a dit « non ! » et il est parti. « Jamais ! » Puis\u{A0}: « Pourquoi\u{202F}? » dit-elle.",
        sentences: &[
            "Il a dit « non ! » et il est parti. ",
            "« Jamais ! » ",
            "Puis\u{A0}: « Pourquoi\u{202F}? » dit-elle.",
        ],
        doubts: &[("!", "attribution", false), ("?", "attribution", false)],
    },
    Pitfall {
        name: "paragraph breaks stay with the sentence before",
        text: "Title\n\n\nFirst line.\nSecond.",
        sentences: &["Title\n\n\n", "First line.\n", "Second."],
        doubts: &[],
    },
];

#[test]
fn the_pitfalls_as_worked_examples() {
    let mut compared = 0;
    for p in PITFALLS {
        assert_eq!(sentences(p.text), p.sentences, "{}", p.name);
        assert_eq!(doubts(p.text), p.doubts, "{}", p.name);
        assert_eq!(p.sentences.concat(), p.text, "{}: no text lost", p.name);
        compared += 1;
    }
    assert_eq!(compared, 15);
}

#[test]
fn refinements_are_told_apart_from_uax29() {
    assert!(Reason::Abbreviation.refinement() && Reason::ZeroWidthSpace.refinement());
    assert!(!Reason::Number.refinement() && !Reason::LowercaseFollows.refinement());
    assert_eq!(
        Reason::Abbreviation.describe(),
        "not a sentence end: abbreviation"
    );
}

fn texts<'a>(text: &'a str, config: &Config) -> Vec<&'a str> {
    split(text, config, &chunkscope::Resources::new())
        .unwrap()
        .chunks
        .iter()
        .map(|c| c.text(text))
        .collect()
}

#[test]
fn the_sentence_strategy_packs_whole_sentences() {
    let text = "Dr. Smith paid 3.14 euros. He left at 5 p.m. on Friday. It rained. Everyone stayed home for a long long long while.";
    let config = Config {
        size: 60,
        ..Config::for_strategy(Strategy::Sentence)
    };
    assert_eq!(
        texts(text, &config),
        [
            "Dr. Smith paid 3.14 euros. He left at 5 p.m. on Friday.",
            "It rained. Everyone stayed home for a long long long while.",
        ]
    );
    let out = split(text, &config, &chunkscope::Resources::new()).unwrap();
    // The cuts are the sentence level (separator 0).
    assert_eq!(out.chunks[0].cut, Cut::Separator(0));
    assert_eq!(out.chunks[1].cut, Cut::End);
    let root = &out.trace.nodes[0];
    assert_eq!(
        root.action,
        Action::Split {
            separator: 0,
            parts: 4
        }
    );
    let found = out.sentences.as_ref().unwrap();
    assert_eq!(found.spans.len(), 4);
    assert_eq!(found.decisions.len(), 4); // Dr., 3.14, and p.m.'s two stops
}

#[test]
fn only_a_sentence_longer_than_the_size_is_cut_inside() {
    let text = "Short one. This sentence is far too long to fit. End.";
    let config = Config {
        size: 20,
        ..Config::for_strategy(Strategy::Sentence)
    };
    let out = split(text, &config, &chunkscope::Resources::new()).unwrap();
    let got: Vec<&str> = out.chunks.iter().map(|c| c.text(text)).collect();
    assert_eq!(
        got,
        [
            "Short one.",
            "This sentence is",
            "far too long to fit.",
            "End."
        ]
    );
    // Sentence, space (inside the long one), sentence.
    let cuts: Vec<Cut> = out.chunks.iter().map(|c| c.cut).collect();
    assert_eq!(
        cuts,
        [
            Cut::Separator(0),
            Cut::Separator(1),
            Cut::Separator(0),
            Cut::End
        ]
    );
    // A word longer than the size falls through to the hard cut.
    let config = Config {
        size: 4,
        ..Config::for_strategy(Strategy::Sentence)
    };
    assert_eq!(
        texts("Abcdefghij. Ok.", &config),
        ["Abcd", "efgh", "ij.", "Ok."]
    );
}

#[test]
fn the_sentence_level_in_a_recursive_list() {
    let text =
        "Refund policy\n\nRefunds take 5 days, e.g. via UPI. Dr. Rao signs them.\n\nContact us.";
    let config = Config::recursive(40).with_separators([
        Separator::literal("\n\n"),
        Separator::sentence(),
        Separator::literal(" "),
        Separator::hard_cut(),
    ]);
    assert_eq!(
        texts(text, &config),
        [
            "Refund policy",
            "Refunds take 5 days, e.g. via UPI.",
            "Dr. Rao signs them.",
            "Contact us."
        ]
    );
    // The naive ". " would cut after "e.g." and after "Dr.".
    let naive = Config::recursive(40).with_separators(["\n\n", ". ", " ", ""]);
    assert_eq!(
        texts(text, &naive),
        [
            "Refund policy",
            "Refunds take 5 days, e.g. via UPI. Dr.",
            "Rao signs them.",
            "Contact us."
        ]
    );
    // Placement decides where the space between sentences goes, as for any separator.
    let start = config
        .clone()
        .with_trim(false)
        .with_placement(chunkscope::Placement::Start);
    let small = Config {
        size: 5,
        ..start.with_separators([Separator::sentence(), Separator::hard_cut()])
    };
    assert_eq!(texts("One. Two.", &small), ["One.", " Two."]);
}

#[test]
fn the_sentence_level_cannot_be_misplaced() {
    let no_level = Config::for_strategy(Strategy::Sentence).with_separators([" ", ""]);
    let e = no_level.validate().unwrap_err();
    assert_eq!(
        e,
        Error::SentenceLevel {
            index: 0,
            strategy: Strategy::Sentence
        }
    );
    assert!(e.to_string().contains("\\p{sentence}"), "{e}");
    let lc = Config {
        strategy: StrategyConfig::LangChain,
        ..Config::recursive(10).with_separators([Separator::literal("\n"), Separator::sentence()])
    };
    let e = lc.validate().unwrap_err();
    assert_eq!(e.setting(), chunkscope::Setting::Separator(1));
    assert!(e.to_string().contains("LangChain"), "{e}");
}

#[test]
fn the_spelling_reads_back_and_collides_with_nothing() {
    let level = Separator::parse("\\p{sentence}", false).unwrap();
    assert_eq!(level, Separator::sentence());
    assert_eq!(Separator::parse("\\p{sentence}", true).unwrap(), level);
    assert_eq!(Separator::parse(&level.label(), false).unwrap(), level);
    // The literal text `\p{sentence}` is written with an escaped backslash.
    assert_eq!(
        Separator::parse("\\\\p{sentence}", false).unwrap(),
        Separator::literal("\\p{sentence}")
    );
    assert!(!level.is_hard_cut());
    assert!("sentence".parse::<Strategy>().is_ok());
}

/// Runs `f` and fails if it took longer than `limit` (a hang shows as a slow
/// test, not a stuck one).
fn within<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = f();
    assert!(started.elapsed() < limit, "took {:?}", started.elapsed());
    out
}

/// Splits with the sentence strategy and checks every property.
fn sound(text: &str, size: usize) -> chunkscope::Output {
    let config = Config {
        size,
        ..Config::for_strategy(Strategy::Sentence)
    };
    let out = Splitter::new(config.clone(), &chunkscope::Resources::new())
        .unwrap()
        .split(text)
        .unwrap();
    let checks = check(text, &config, &out, &chunkscope::Resources::new());
    assert!(checks.all_ok(), "{checks:?}");
    out
}

const MB: usize = 1 << 20;

#[test]
fn a_hundred_thousand_sentences() {
    let text = "Dr. Who met Ms. Lee at 3.14 p.m. today. ".repeat(100_000);
    let out = within(Duration::from_secs(60), || sound(&text, 200));
    assert_eq!(out.sentences.as_ref().unwrap().spans.len(), 100_000);
    // Five sentences of 40 chars fit in 200 (the space between trimmed).
    assert_eq!(out.chunks.len(), 20_000);
}

#[test]
fn a_text_with_no_sentence_end() {
    let text = "word ".repeat(MB / 5);
    let out = within(Duration::from_secs(60), || sound(&text, 1000));
    assert_eq!(out.sentences.as_ref().unwrap().spans.len(), 1);
    assert!(out.chunks.iter().all(|c| c.len <= 1000));
}

#[test]
fn one_five_megabyte_sentence_without_spaces() {
    let text = "ab.cd".repeat(MB);
    let out = within(Duration::from_secs(60), || sound(&text, 4096));
    let found = out.sentences.as_ref().unwrap();
    assert_eq!(found.spans.len(), 1);
    // Every stop was doubted ("no space follows"), once.
    assert_eq!(found.decisions.len(), MB);
    // No sentence gap and no space: the hard cut (separator 2) takes it.
    let root = &out.trace.nodes[0];
    assert_eq!(root.absent, [0, 1]);
    assert!(matches!(
        root.action,
        Action::HardCut {
            separator: Some(2),
            ..
        }
    ));
}

#[test]
fn only_punctuation() {
    for text in [
        ".".repeat(MB),
        "?! ".repeat(MB / 3),
        "。」".repeat(MB / 6),
        "\u{200B}.".repeat(MB / 4),
        "… ".repeat(MB / 4),
    ] {
        within(Duration::from_secs(60), || sound(&text, 100));
    }
}
