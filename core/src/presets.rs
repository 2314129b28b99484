//! Named separator lists, strongest boundary first.
//!
//! Each list ends with the hard cut (`""`), so the size limit always holds with a
//! cut the learner can see in the list.

use crate::separator::Separator;

/// The names of the separator presets, in the order the UI lists them.
pub const SEPARATOR_PRESETS: [&str; 8] = [
    "default", "seed", "markdown", "python", "rust", "js", "html", "cjk",
];

/// A one-line description of a separator preset, for the UI.
pub fn describe(name: &str) -> Option<&'static str> {
    Some(match name {
        "default" => "blank line, newline, space, hard cut (LangChain's default list)",
        "seed" => "blank line, newline, sentence end, space, hard cut (the lesson's list)",
        "markdown" => "headings, code fences, rules, then paragraphs, lines, words",
        "python" => "classes and functions first, then blocks, lines, words",
        "rust" => "items (fn, struct, impl, …) first, then blocks, lines, words",
        "js" => "functions and declarations first, then blocks, lines, words",
        "html" => "block elements first, then lines, words",
        "cjk" => "paragraphs, lines, then 。！？ and full-width punctuation, then commas",
        _ => return None,
    })
}

/// The separators of a preset, or `None` for an unknown name.
pub fn separators(name: &str) -> Option<Vec<Separator>> {
    let list: &[&str] = match name {
        "default" => &["\n\n", "\n", " ", ""],
        "seed" => &["\n\n", "\n", ". ", " ", ""],
        "markdown" => &[
            "\n# ",
            "\n## ",
            "\n### ",
            "\n#### ",
            "\n##### ",
            "\n###### ",
            "```\n",
            "\n***\n",
            "\n---\n",
            "\n___\n",
            "\n\n",
            "\n",
            " ",
            "",
        ],
        "python" => &[
            "\nclass ",
            "\ndef ",
            "\n\tdef ",
            "\n    def ",
            "\n\n",
            "\n",
            " ",
            "",
        ],
        // LangChain lists "\nconst " twice; kept so the lists stay identical.
        "rust" => &[
            "\nfn ", "\nconst ", "\nlet ", "\nif ", "\nwhile ", "\nfor ", "\nloop ", "\nmatch ",
            "\nconst ", "\n\n", "\n", " ", "",
        ],
        "js" => &[
            "\nfunction ",
            "\nconst ",
            "\nlet ",
            "\nvar ",
            "\nclass ",
            "\nif ",
            "\nfor ",
            "\nwhile ",
            "\nswitch ",
            "\ncase ",
            "\ndefault ",
            "\n\n",
            "\n",
            " ",
            "",
        ],
        "html" => &[
            "<body", "<div", "<p", "<br", "<li", "<h1", "<h2", "<h3", "<h4", "<h5", "<h6", "<span",
            "<table", "<tr", "<td", "<th", "<ul", "<ol", "<header", "<footer", "<nav", "<head",
            "<style", "<script", "<meta", "<title", "",
        ],
        "cjk" => &[
            "\n\n", "\n", "。", "！", "？", "；", "…", ". ", "! ", "? ", "，", "、", " ", "",
        ],
        _ => return None,
    };
    Some(list.iter().map(|&s| Separator::literal(s)).collect())
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
    fn seed_preset_is_the_lessons_list() {
        let labels: Vec<String> = separators("seed")
            .unwrap()
            .iter()
            .map(|s| s.label())
            .collect();
        assert_eq!(labels, ["\\n\\n", "\\n", ". ", " ", "\"\""]);
    }
}
