//! The recipe of LangChain's docs under `langchain-markdown`: after the
//! header splitter, each section is split again by
//! `RecursiveCharacterTextSplitter`. The page offers the two lists a reader
//! of those docs would use; the CLI and the JS API take any list.

use chunkscope::Separator;

/// The separators of the recursive splitter that follows the header splitter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecipeList {
    /// LangChain's default (`separators` left out): blank line, newline,
    /// space, hard cut.
    Default,
    /// `RecursiveCharacterTextSplitter.from_language(Language.MARKDOWN)`'s
    /// list: headings, fences, rules, then paragraphs, lines, words.
    Markdown,
}

impl RecipeList {
    /// Every list, in the order the select shows them.
    pub const ALL: [RecipeList; 2] = [RecipeList::Default, RecipeList::Markdown];

    /// The select's value and the share link's spelling.
    pub const fn name(self) -> &'static str {
        match self {
            RecipeList::Default => "default",
            RecipeList::Markdown => "markdown",
        }
    }

    /// The list a [`name`](Self::name) names.
    pub fn parse(name: &str) -> Option<RecipeList> {
        RecipeList::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The separators for `HeaderSplitConfig::then_recursive`. LangChain has one
    /// `is_separator_regex` for a whole list, so in the Markdown list (whose
    /// plain entries are literal here, for their labels) every entry but the
    /// hard cut is written as a regex, its literal ones escaped.
    pub fn separators(self) -> Vec<Separator> {
        match self {
            RecipeList::Default => Vec::new(),
            RecipeList::Markdown => chunkscope::presets::separators("markdown")
                .unwrap_or_default()
                .into_iter()
                .map(|s| match s.is_hard_cut() || s.regex {
                    true => s,
                    false => Separator::regex(escape(&s.pattern)),
                })
                .collect(),
        }
    }
}

/// `pattern` as a Python regex that matches exactly it (`re.escape`'s
/// effect on the characters that are special).
fn escape(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    for c in pattern.chars() {
        if "\\.^$*+?{}[]|()".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_markdown_list_is_langchains_all_regex() {
        let list = RecipeList::Markdown.separators();
        let (want, regex) = chunkscope::langchain::language_separators("markdown").unwrap();
        assert!(regex);
        let got: Vec<&str> = list.iter().map(|s| s.pattern.as_str()).collect();
        assert_eq!(got, want);
        assert!(list.iter().all(|s| s.regex || s.is_hard_cut()));
        assert_eq!(escape("a.b"), "a\\.b");
        assert_eq!(RecipeList::parse("markdown"), Some(RecipeList::Markdown));
    }
}
