//! The worked examples of the lessons, reproduced exactly: chunk texts, spans,
//! cuts, and the recursion tree; and what no lesson pins but the page shows:
//! fixed windows in bytes and tokens, the other placements and trimming off
//! on the refund page, and char offsets of text outside the basic plane.

use chunkscope::tokens::Encoding;
use chunkscope::{
    split, Action, Close, Config, Cut, Detail, Error, Placement, Property, Separator, Splitter,
    Unit,
};

mod tokenizer;

const REFUND: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                      COD orders get store credit.\n\nContact us 24x7.";

fn seed_config(size: usize) -> Config {
    Config::recursive(size).with_separators(["\n\n", "\n", ". ", " ", ""])
}

fn texts<'a>(text: &'a str, config: &Config) -> Vec<&'a str> {
    split(text, config, &tokenizer::resources())
        .unwrap()
        .chunks
        .iter()
        .map(|c| c.text(text))
        .collect()
}

#[test]
fn refund_page_chunks_lengths_and_spans() {
    let out = split(REFUND, &seed_config(40), &tokenizer::resources()).unwrap();
    let got: Vec<(usize, &str, usize, usize)> = out
        .chunks
        .iter()
        .map(|c| (c.len, c.text(REFUND), c.span.start, c.span.end))
        .collect();
    assert_eq!(
        got,
        [
            (13, "Refund policy", 0, 13),
            (20, "Refunds take 5 days.", 15, 35),
            (31, "They go to the original UPI id.", 36, 67),
            (28, "COD orders get store credit.", 68, 96),
            (16, "Contact us 24x7.", 98, 114),
        ]
    );
    let cuts: Vec<Cut> = out.chunks.iter().map(|c| c.cut).collect();
    assert_eq!(
        cuts,
        [
            Cut::Separator(0),
            Cut::Separator(2),
            Cut::Separator(1),
            Cut::Separator(0),
            Cut::End
        ]
    );
    assert!(out.chunks.iter().all(|c| c.overlap.is_none()));
}

#[test]
fn refund_page_tree_matches_the_lessons_table() {
    let out = split(REFUND, &seed_config(40), &tokenizer::resources()).unwrap();
    let nodes = &out.trace.nodes;
    // Level 1: the blank line cuts the page into 3 pieces; the middle one is 81 chars.
    let root = &nodes[0];
    assert_eq!((root.depth, root.too_big), (1, true));
    assert_eq!(
        root.action,
        Action::Split {
            separator: 0,
            parts: 3
        }
    );
    assert!(root.absent.is_empty());
    let lens: Vec<usize> = root.children.iter().map(|&c| nodes[c].len).collect();
    assert_eq!(lens, [13, 81, 16]);
    let middle = &nodes[root.children[1]];
    assert!(middle.too_big && middle.depth == 2);
    // Level 2: the newline; its 52-char first line is too long.
    assert_eq!(
        middle.action,
        Action::Split {
            separator: 1,
            parts: 2
        }
    );
    let line = &nodes[middle.children[0]];
    assert_eq!((line.len, line.too_big, line.depth), (52, true, 3));
    assert_eq!(nodes[middle.children[1]].action, Action::Fits);
    // Level 3: the sentence end; both sentences fit alone, not together.
    assert_eq!(
        line.action,
        Action::Split {
            separator: 2,
            parts: 2
        }
    );
    let leaves: Vec<(usize, bool, Action)> = line
        .children
        .iter()
        .map(|&c| (nodes[c].len, nodes[c].too_big, nodes[c].action))
        .collect();
    assert_eq!(
        leaves,
        [(20, false, Action::Fits), (31, false, Action::Fits)]
    );
    assert_eq!(
        nodes[line.children[0]].close,
        Some(Close::NextWouldExceed {
            group_len: 21,
            gap_len: 0,
            next_len: 31,
            would_be: 52
        })
    );
    // Space and the hard cut were never needed.
    assert!(nodes.iter().all(|n| !matches!(
        n.action,
        Action::Split { separator: 3.., .. } | Action::HardCut { .. }
    )));
    // Every chunk points at the leaf it came from, and back.
    for c in &out.chunks {
        let node = &nodes[c.node.unwrap()];
        assert_eq!((node.span, node.chunk), (c.span, Some(c.index)));
    }
}

#[test]
fn refund_page_without_trace_gives_the_same_chunks() {
    let splitter = chunkscope::Splitter::new(seed_config(40), &tokenizer::resources()).unwrap();
    let traced = splitter.split(REFUND).unwrap().chunks;
    let plain = splitter.chunks(REFUND).unwrap();
    assert_eq!(plain.len(), traced.len());
    for (a, b) in plain.iter().zip(&traced) {
        assert_eq!((a.span, a.cut, a.len), (b.span, b.cut, b.len));
        assert!(a.node.is_none());
    }
}

#[test]
fn fixed_abcdefghij_has_no_tail() {
    let out = split("abcdefghij", &Config::fixed(4, 1), &tokenizer::resources()).unwrap();
    let got: Vec<(&str, Cut)> = out
        .chunks
        .iter()
        .map(|c| (c.text("abcdefghij"), c.cut))
        .collect();
    assert_eq!(
        got,
        [
            ("abcd", Cut::Window),
            ("defg", Cut::Window),
            ("ghij", Cut::End)
        ]
    );
    assert_eq!(out.chunks[1].overlap.map(|s| s.range()), Some(3..4));
}

#[test]
fn fixed_250_100_20_windows() {
    let text = "x".repeat(250);
    let out = split(&text, &Config::fixed(100, 20), &tokenizer::resources()).unwrap();
    let spans: Vec<_> = out.chunks.iter().map(|c| c.span.range()).collect();
    assert_eq!(spans, [0..100, 80..180, 160..250]);
    assert_eq!(out.trace.nodes[0].action, Action::Windows { stride: 80 });
}

#[test]
fn seed_002_example_is_packed_into_ccc_ccc() {
    let config = Config::recursive(3).with_separators(["\n\n", "\n", ""]);
    assert_eq!(
        texts("aa\n\nbbb\ncccccc", &config),
        ["aa", "bbb", "ccc", "ccc"]
    );
    let out = split("aa\n\nbbb\ncccccc", &config, &tokenizer::resources()).unwrap();
    let cuts: Vec<Cut> = out.chunks.iter().map(|c| c.cut).collect();
    assert_eq!(
        cuts,
        [Cut::Separator(0), Cut::Separator(1), Cut::Hard, Cut::End]
    );
}

#[test]
fn absent_separators_are_recorded_and_the_list_falls_through() {
    // No blank line, no newline, no sentence end, no space: straight to the hard cut.
    let blob = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=";
    let out = split(blob, &seed_config(10), &tokenizer::resources()).unwrap();
    let root = &out.trace.nodes[0];
    assert_eq!(root.absent, [0, 1, 2, 3]);
    assert_eq!(
        root.action,
        Action::HardCut {
            separator: Some(4),
            windows: 4
        }
    );
    assert!(out.chunks.iter().all(|c| c.len <= 10));
}

#[test]
fn without_a_hard_cut_in_the_list_the_size_limit_still_holds() {
    let text = "tiny enormousword";
    let config = Config::recursive(5).with_separators([" "]);
    assert_eq!(texts(text, &config), ["tiny", "enorm", "ouswo", "rd"]);
    let out = split(text, &config, &tokenizer::resources()).unwrap();
    let fallback = out
        .trace
        .nodes
        .iter()
        .find(|n| matches!(n.action, Action::HardCut { .. }))
        .unwrap();
    assert_eq!(
        fallback.action,
        Action::HardCut {
            separator: None,
            windows: 3
        }
    );
}

#[test]
fn placement_end_start_and_none() {
    let text = "One. Two. Three.";
    let end = seed_config(8);
    assert_eq!(texts(text, &end), ["One.", "Two.", "Three."]);
    let start = seed_config(8).with_placement(Placement::Start);
    assert_eq!(texts(text, &start), ["One. Two", ". Three."]);
    // Left out at the cut, but whole inside the chunk: the ". " between Two and
    // Three is in neither chunk.
    let none = seed_config(8).with_placement(Placement::None);
    assert_eq!(texts(text, &none), ["One. Two", "Three."]);
}

#[test]
fn packing_in_placement_none_counts_the_separator_between_parts() {
    // "a, b" is 4 chars with the ", " kept inside the chunk.
    let config = Config::recursive(4)
        .with_separators([", ", ""])
        .with_placement(Placement::None);
    assert_eq!(texts("a, b, c", &config), ["a, b", "c"]);
}

#[test]
fn regex_separators_cut_at_their_matches() {
    let config = Config::recursive(8).with_separators([Separator::regex(r"[.!?]\s+"), "".into()]);
    assert_eq!(
        texts("Stop! Go now. Wait?", &config),
        ["Stop!", "Go now.", "Wait?"]
    );
}

#[test]
fn recursive_overlap_never_breaks_the_size_limit() {
    let text = "The cat sat. The dog ran far away. A bird sang.";
    let config = seed_config(20).with_overlap(8);
    let out = split(text, &config, &tokenizer::resources()).unwrap();
    for c in &out.chunks {
        assert!(c.len <= 20, "{:?}", c.text(text));
    }
    // Overlap starts on a word, and is reported as the shared text.
    let shared: Vec<&str> = out
        .chunks
        .iter()
        .filter_map(|c| c.overlap.map(|o| o.text(text)))
        .collect();
    assert!(!shared.is_empty());
    for s in shared {
        assert!(!s.starts_with(' ') && s.chars().count() <= 8, "{s:?}");
    }
}

#[test]
fn cjk_text_splits_on_full_width_stops() {
    let text = "今天天气很好。我们去公园散步吧！你觉得怎么样？";
    let cjk = chunkscope::presets::separators("cjk").unwrap();
    let config = Config::recursive(9).with_separators(cjk);
    assert_eq!(
        texts(text, &config),
        ["今天天气很好。", "我们去公园散步吧！", "你觉得怎么样？"]
    );
}

#[test]
fn bytes_unit_never_cuts_inside_a_character() {
    let text = "héllo wörld";
    let out = split(
        text,
        &Config::fixed(3, 0).with_unit(Unit::Bytes),
        &tokenizer::resources(),
    )
    .unwrap();
    let joined: String = out.chunks.iter().map(|c| c.text(text)).collect();
    assert_eq!(joined, text);
    assert!(out.chunks.iter().all(|c| c.len <= 3));
    let err = split(
        "a😀",
        &Config::fixed(3, 0).with_unit(Unit::Bytes),
        &tokenizer::resources(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            Error::CharTooBig {
                bytes: 4,
                at: 1,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn empty_and_whitespace_only_texts_give_no_chunks() {
    for text in ["", "   ", "\n\n\t"] {
        assert!(split(text, &seed_config(5), &tokenizer::resources())
            .unwrap()
            .chunks
            .is_empty());
        assert!(split(text, &Config::fixed(2, 0), &tokenizer::resources())
            .unwrap()
            .chunks
            .is_empty());
    }
}

/// The chunks' texts, byte spans and lengths, and their char spans.
type Pinned<'a> = (Vec<(&'a str, (usize, usize), usize)>, Vec<(usize, usize)>);

fn pinned<'a>(text: &'a str, splitter: &Splitter) -> Pinned<'a> {
    let analysis = splitter.analyze(text, Detail::CHUNKS).unwrap();
    let chunks = analysis
        .output
        .chunks
        .iter()
        .map(|c| (c.text(text), (c.span.start, c.span.end), c.len))
        .collect();
    (chunks, analysis.chunk_chars)
}

#[test]
fn fixed_windows_in_bytes_never_start_inside_a_character() {
    // Windows of 6 bytes every 4: a window stops before a character that
    // would not fit, and the next one starts at the first character
    // boundary 4 bytes on (so after the emoji, 5 bytes on).
    let text = "naïve café 😀 ok";
    let config = Config::fixed(6, 2).with_unit(Unit::Bytes);
    let (chunks, chars) = pinned(
        text,
        &Splitter::new(config, &tokenizer::resources()).unwrap(),
    );
    assert_eq!(
        chunks,
        [
            ("naïve", (0, 6), 6),
            ("ve caf", (4, 10), 6),
            ("afé ", (8, 13), 5),
            (" 😀 ", (12, 18), 6),
            (" ok", (17, 20), 3),
        ]
    );
    assert_eq!(chars, [(0, 5), (3, 9), (7, 11), (10, 13), (12, 15)]);
}

#[test]
fn fixed_windows_in_tokens_step_by_whole_tokens() {
    // cl100k: The| cat| sat| on| the| mat|. — windows of 3 tokens sharing 1.
    let cl100k = Unit::Tokens(Encoding::Cl100k);
    let splitter = |size, overlap| {
        let config = Config::fixed(size, overlap).with_unit(cl100k);
        Splitter::with_counter(config, tokenizer::counter(cl100k), &tokenizer::resources()).unwrap()
    };
    let text = "The cat sat on the mat.";
    assert_eq!(
        pinned(text, &splitter(3, 1)).0,
        [
            ("The cat sat", (0, 11), 3),
            (" sat on the", (7, 18), 3),
            (" the mat.", (14, 23), 3),
        ]
    );
    // na|ï|ve| café| 😀| ok — 2 tokens a window, none shared; a window
    // counts its own text's tokens.
    let text = "naïve café 😀 ok";
    let (chunks, chars) = pinned(text, &splitter(2, 0));
    assert_eq!(
        chunks,
        [
            ("naï", (0, 4), 2),
            ("ve café", (4, 12), 2),
            (" 😀 ok", (12, 20), 2),
        ]
    );
    assert_eq!(chars, [(0, 3), (3, 10), (10, 15)]);
}

#[test]
fn refund_page_with_the_separator_at_the_start_of_the_next_chunk() {
    let out = split(
        REFUND,
        &seed_config(40).with_placement(Placement::Start),
        &tokenizer::resources(),
    )
    .unwrap();
    let got: Vec<(&str, usize, usize, Cut)> = out
        .chunks
        .iter()
        .map(|c| (c.text(REFUND), c.span.start, c.span.end, c.cut))
        .collect();
    assert_eq!(
        got,
        [
            ("Refund policy", 0, 13, Cut::Separator(0)),
            ("Refunds take 5 days", 15, 34, Cut::Separator(2)),
            (
                ". They go to the original UPI id.",
                34,
                67,
                Cut::Separator(1)
            ),
            ("COD orders get store credit.", 68, 96, Cut::Separator(0)),
            ("Contact us 24x7.", 98, 114, Cut::End),
        ]
    );
}

#[test]
fn refund_page_without_the_separators_loses_the_sentence_end() {
    let config = seed_config(40).with_placement(Placement::None);
    let analysis = Splitter::new(config, &tokenizer::resources())
        .unwrap()
        .analyze(REFUND, Detail::FULL)
        .unwrap();
    let got: Vec<(&str, usize, usize, Cut)> = analysis
        .output
        .chunks
        .iter()
        .map(|c| (c.text(REFUND), c.span.start, c.span.end, c.cut))
        .collect();
    assert_eq!(
        got,
        [
            ("Refund policy", 0, 13, Cut::Separator(0)),
            ("Refunds take 5 days", 15, 34, Cut::Separator(2)),
            ("They go to the original UPI id.", 36, 67, Cut::Separator(1)),
            ("COD orders get store credit.", 68, 96, Cut::Separator(0)),
            ("Contact us 24x7.", 98, 114, Cut::End),
        ]
    );
    // The ". " was in neither chunk; the badge says what was lost.
    let coverage = &analysis.checks.unwrap()[Property::Coverage];
    assert!(!coverage.ok);
    assert_eq!(
        coverage.detail,
        "'.' at position 34 is in no chunk: text was lost"
    );
}

#[test]
fn refund_page_untrimmed_chunks_join_back_into_the_page() {
    let out = split(
        REFUND,
        &seed_config(40).with_trim(false),
        &tokenizer::resources(),
    )
    .unwrap();
    let got: Vec<(&str, usize, Cut)> = out
        .chunks
        .iter()
        .map(|c| (c.text(REFUND), c.len, c.cut))
        .collect();
    assert_eq!(
        got,
        [
            ("Refund policy\n\n", 15, Cut::Separator(0)),
            ("Refunds take 5 days. ", 21, Cut::Separator(2)),
            ("They go to the original UPI id.\n", 32, Cut::Separator(1)),
            ("COD orders get store credit.\n\n", 30, Cut::Separator(0)),
            ("Contact us 24x7.", 16, Cut::End),
        ]
    );
    let joined: String = out.chunks.iter().map(|c| c.text(REFUND)).collect();
    assert_eq!(joined, REFUND);
}

#[test]
fn char_offsets_count_characters_outside_the_basic_plane_once() {
    // Every other character is four bytes (and two UTF-16 units); offsets
    // count Unicode scalar values, as Python's len does.
    let text = "a😀b𝒳c";
    let chars = |config: Config| {
        pinned(
            text,
            &Splitter::new(config, &tokenizer::resources()).unwrap(),
        )
    };
    let (by_chars, offsets) = chars(Config::fixed(2, 0));
    assert_eq!(
        by_chars,
        [("a😀", (0, 5), 2), ("b𝒳", (5, 10), 2), ("c", (10, 11), 1)]
    );
    assert_eq!(offsets, [(0, 2), (2, 4), (4, 5)]);
    // In bytes, a 4-byte window holds one of them at most, so each
    // character is a window of its own.
    let (by_bytes, offsets) = chars(Config::fixed(4, 0).with_unit(Unit::Bytes));
    assert_eq!(
        by_bytes,
        [
            ("a", (0, 1), 1),
            ("😀", (1, 5), 4),
            ("b", (5, 6), 1),
            ("𝒳", (6, 10), 4),
            ("c", (10, 11), 1),
        ]
    );
    assert_eq!(offsets, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]);
    // The recursive engine's tree is in chars too.
    let config = Config::recursive(3).with_separators(["b", ""]);
    let analysis = Splitter::new(config, &tokenizer::resources())
        .unwrap()
        .analyze(text, Detail::FULL)
        .unwrap();
    assert_eq!(analysis.chunk_chars, [(0, 3), (3, 5)]);
    assert_eq!(analysis.node_chars, [(0, 5), (0, 3), (3, 5)]);
}
