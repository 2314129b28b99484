//! Named separator lists, strongest boundary first.
//!
//! Each list ends with the hard cut (`""`), so the size limit always holds with a
//! cut the learner can see in the list.

pub(crate) mod languages;

use crate::separator::{Placement, Separator};

/// The names of the separator presets, in the order the UI lists them.
pub const SEPARATOR_PRESETS: [&str; 8] = [
    "default", "seed", "markdown", "python", "rust", "js", "html", "cjk",
];

/// A one-line description of a separator preset, for the UI.
pub fn describe(name: &str) -> Option<&'static str> {
    Some(match name {
        "default" => "blank line, newline, space, hard cut (LangChain's default list)",
        "seed" => "blank line, newline, sentence end, space, hard cut (the lesson's list)",
        "markdown" => {
            "headings, code fences, rules, then paragraphs, lines, words (LangChain's list)"
        }
        "python" => "classes and functions first, then paragraphs, lines, words (LangChain's list)",
        "rust" => "fn, const, let and control flow first, then lines, words (LangChain's list)",
        "js" => "functions and declarations first, then lines, words (LangChain's list)",
        "html" => "block and heading tags first, then inline tags (LangChain's list)",
        "cjk" => "paragraphs, lines, then 。！？ and full-width punctuation, then commas",
        _ => return None,
    })
}

/// The separators of a preset, or `None` for an unknown name.
///
/// The code and markup presets (`markdown`, `python`, `rust`, `js`, `html`) are
/// LangChain's `from_language` lists, entry for entry, so that a learner who
/// picks one here sees what LangChain would cut at. LangChain treats every entry
/// as a regular expression; here an entry is a regex only where it uses regex
/// syntax, so that the label shows the text it matches.
pub fn separators(name: &str) -> Option<Vec<Separator>> {
    let list: &[&str] = match name {
        "default" => &["\n\n", "\n", " ", ""],
        "seed" => &["\n\n", "\n", ". ", " ", ""],
        "cjk" => &[
            "\n\n", "\n", "。", "！", "？", "；", "…", ". ", "! ", "? ", "，", "、", " ", "",
        ],
        "markdown" | "python" | "rust" | "js" | "html" => {
            let (list, regex) = languages::language_separators(name)?;
            return Some(
                list.into_iter()
                    .map(|p| {
                        if regex && uses_regex_syntax(&p) {
                            Separator::regex(p)
                        } else {
                            Separator::literal(p)
                        }
                    })
                    .collect(),
            );
        }
        _ => return None,
    };
    Some(list.iter().map(|&s| Separator::literal(s)).collect())
}

/// Where a preset's separators must go, or `None` when the engine's own
/// default serves (and for an unknown name).
///
/// The markup and code presets cut *before* a structure: `\n## ` starts a
/// heading, `\nclass ` a class. Kept at the end of the piece before, such a
/// separator leaves `## ` dangling at the end of a chunk and the heading's
/// text orphaned at the start of the next, so these presets put the separator
/// at the start of the next piece (as LangChain's `from_language` does with
/// `keep_separator="start"`). The prose presets cut *after* a boundary (a
/// sentence end, a blank line), where either side reads well.
pub fn placement(name: &str) -> Option<Placement> {
    match name {
        "markdown" | "python" | "rust" | "js" | "html" => Some(Placement::Start),
        _ => None,
    }
}

/// Whether `pattern` means something other than its own text as a regex.
fn uses_regex_syntax(pattern: &str) -> bool {
    pattern.contains([
        '\\', '.', '+', '*', '?', '(', ')', '[', ']', '{', '}', '|', '^', '$',
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_exists_ends_in_a_hard_cut_and_is_described() {
        for name in SEPARATOR_PRESETS {
            let list = separators(name).unwrap();
            assert!(list.last().unwrap().is_hard_cut(), "{name}");
            assert!(describe(name).is_some(), "{name}");
        }
        assert!(separators("nope").is_none());
    }

    #[test]
    fn code_presets_are_langchains_lists() {
        for name in ["markdown", "python", "rust", "js", "html"] {
            let (want, _) = languages::language_separators(name).unwrap();
            let got: Vec<String> = separators(name)
                .unwrap()
                .into_iter()
                .map(|s| s.pattern)
                .collect();
            assert_eq!(got, want, "{name}");
        }
        let md = separators("markdown").unwrap();
        assert!(md[0].regex && md[0].pattern == "\n#{1,6} ");
        assert!(!md[md.len() - 2].regex, "a plain space stays literal");
    }

    #[test]
    fn markup_and_code_presets_start_the_next_piece() {
        let starts: Vec<&str> = SEPARATOR_PRESETS
            .into_iter()
            .filter(|&name| placement(name) == Some(Placement::Start))
            .collect();
        assert_eq!(starts, ["markdown", "python", "rust", "js", "html"]);
        for name in ["default", "seed", "cjk", "nope"] {
            assert_eq!(placement(name), None, "{name}");
        }
    }

    #[test]
    fn seed_preset_is_the_lessons_list() {
        let labels: Vec<String> = separators("seed")
            .unwrap()
            .iter()
            .map(|s| s.label())
            .collect();
        assert_eq!(labels, ["\\n\\n", "\\n", ". ", " ", "\"\""]);
    }
}
