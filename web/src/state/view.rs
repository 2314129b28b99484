//! What the page shows: one engine, or two side by side, and the words for
//! each.

use chunkscope::Strategy;

/// What the page shows: one strategy, or two side by side.
///
/// Every strategy of the engine is a view of its own ([`View::all`]), so a
/// strategy added to `chunkscope::Strategy::ALL` is on the menu without a
/// change here; its menu title is [`View::title`]'s to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// One strategy alone.
    One(Strategy),
    /// Two strategies on the same text and settings, side by side.
    Two(Strategy, Strategy),
}

#[allow(non_upper_case_globals)]
impl View {
    /// Fixed windows only.
    pub const Fixed: View = View::One(Strategy::Fixed);
    /// Recursive splitting only.
    pub const Recursive: View = View::One(Strategy::Recursive);
    /// LangChain's `RecursiveCharacterTextSplitter`, exactly.
    pub const LangChain: View = View::One(Strategy::LangChain);
    /// LangChain's `CharacterTextSplitter`, exactly.
    pub const LangChainCharacter: View = View::One(Strategy::LangChainCharacter);
    /// Fixed and recursive on the same text and settings, side by side.
    pub const Compare: View = View::Two(Strategy::Fixed, Strategy::Recursive);
    /// Our recursive splitter and LangChain's on the same text and settings.
    pub const CompareLangChain: View = View::Two(Strategy::Recursive, Strategy::LangChain);
    /// The Markdown strategy alone.
    pub const Markdown: View = View::One(Strategy::Markdown);
    /// Recursive separators and the Markdown strategy on the same text and
    /// settings: where separators cut a heading from its body, a table from
    /// its header or a fence in two, and where structure does not.
    pub const CompareMarkdown: View = View::Two(Strategy::Recursive, Strategy::Markdown);

    /// The side-by-side views, in menu order.
    const PAIRS: [View; 3] = [View::Compare, View::CompareLangChain, View::CompareMarkdown];
}

impl View {
    /// Every view, in menu order: each strategy alone, then the pairs.
    pub fn all() -> impl Iterator<Item = View> {
        Strategy::ALL.into_iter().map(View::One).chain(View::PAIRS)
    }

    /// The option value in `strategy-select`: a strategy's own name for a
    /// single view.
    pub fn name(self) -> &'static str {
        match self {
            View::One(strategy) => strategy.name(),
            View::Compare => "compare",
            View::CompareLangChain => "compare-langchain",
            View::CompareMarkdown => "compare-markdown",
            View::Two(..) => "compare-other",
        }
    }

    /// What the learner reads in the menu: short enough to show whole in
    /// the closed menu on a phone (40 chars at most; a test checks).
    pub fn title(self) -> &'static str {
        match self {
            View::Fixed => "Fixed windows",
            View::Recursive => "Recursive separators",
            View::LangChain => "LangChain RecursiveCharacterTextSplitter",
            View::LangChainCharacter => "LangChain CharacterTextSplitter",
            View::Compare => "Fixed vs recursive, side by side",
            View::CompareLangChain => "Recursive vs LangChain, side by side",
            View::CompareMarkdown => "Recursive vs Markdown, side by side",
            View::One(Strategy::Markdown) => "Markdown by its structure",
            View::One(Strategy::LangChainMarkdown) => "LangChain MarkdownHeaderTextSplitter",
            View::One(Strategy::Sentence) => "Whole sentences, packed",
            View::One(Strategy::Semantic) => "Semantic: cut where the topic drifts",
            View::One(Strategy::Semchunk) => "semchunk (chunkerify), exactly",
            View::One(Strategy::ChonkieRecursive) => "Chonkie RecursiveChunker, exactly",
            View::One(Strategy::TextSplitter) => "text-splitter TextSplitter, exactly",
            View::One(Strategy::TextSplitterMarkdown) => "text-splitter MarkdownSplitter, exactly",
            // A strategy added to the engine shows its name until it has a title.
            View::One(strategy) => strategy.name(),
            View::Two(..) => "Compare side by side",
        }
    }

    /// What one engine is called on the page: the title of the view that
    /// shows it alone.
    pub fn title_of(strategy: Strategy) -> &'static str {
        View::One(strategy).title()
    }

    /// Why a strategy reads no separator list, as the separator editor
    /// says it (only asked of a strategy that reads none).
    pub fn separators_unread(strategy: Strategy) -> &'static str {
        match strategy {
            Strategy::Semchunk => "semchunk reads no list: for each piece it picks its own splitter (the longest run of newlines, then of tabs, then of spaces; a space after a sentence end; punctuation; every character), which labels each cut.",
            Strategy::ChonkieRecursive => "Chonkie's RecursiveChunker reads no list: its levels are fixed (paragraphs, sentence ends, pauses such as brackets and commas, words, then runs of tokens), and a split shorter than 24 bytes is joined to its neighbour.",
            Strategy::TextSplitter => "text-splitter reads no list: its levels are fixed (runs of line breaks, a longer run first, then sentences, words, graphemes and characters), and each chunk packs the largest units that fit; each cut is labelled with the level it lies on.",
            Strategy::TextSplitterMarkdown => "text-splitter's MarkdownSplitter reads no list: its levels are Markdown's (headings, shallower first, thematic breaks, blocks, inline elements, soft line breaks), then sentences, words, graphemes and characters; each cut is labelled with the level it lies on.",
            _ => "Fixed windows ignore separators; they are used by the recursive splitter.",
        }
    }

    /// Why a strategy has no overlap (only asked of one that has none).
    pub fn overlap_unread(strategy: Strategy) -> &'static str {
        match strategy {
            Strategy::ChonkieRecursive => "Chonkie's RecursiveChunker has no overlap, so the overlap is left out here and kept for the other strategies.",
            _ => "Semantic chunks never overlap (LangChain's SemanticChunker has no overlap), so the overlap is left out here and kept for the other strategies.",
        }
    }

    /// Why a split of a text that is not empty recorded no tree.
    pub fn no_tree(strategy: Strategy) -> &'static str {
        match strategy {
            Strategy::TextSplitter | Strategy::TextSplitterMarkdown => "text-splitter is not drawn as a tree: it reports only its chunks, so each cut's label names the level the cut lies on (a run of line breaks, a Markdown element, a sentence, a word, a grapheme) as its own segmenters find it in the text.",
            Strategy::ChonkieRecursive => "Chonkie's RecursiveChunker is not drawn as a tree: each cut's label names the delimiter that made it (a paragraph, a sentence end, a pause, a word), or shows a hard cut between two runs of tokens.",
            Strategy::Semantic => "No chunk was over the size, so nothing was split again: the semantic view shows where the topic breaks fell.",
            _ => "This split recorded no tree.",
        }
    }

    /// The view with this option value.
    pub fn parse(name: &str) -> Option<View> {
        View::all().find(|v| v.name() == name)
    }

    /// The engines this view needs, in the order their panes are drawn.
    pub fn strategies(self) -> Vec<Strategy> {
        match self {
            View::One(s) => vec![s],
            View::Two(a, b) => vec![a, b],
        }
    }

    /// The engine the single-result views (tree, table, stats, code) describe:
    /// the right-hand pane when two are shown, since that is the one the
    /// comparison is about (recursive against fixed, LangChain against ours).
    pub const fn primary(self) -> Strategy {
        match self {
            View::One(s) | View::Two(_, s) => s,
        }
    }

    /// Whether two engines are shown side by side.
    pub const fn is_compare(self) -> bool {
        matches!(self, View::Two(..))
    }

    /// Whether the Markdown strategy is on screen, so its heading prefix can
    /// be turned on.
    pub fn shows_markdown(self) -> bool {
        self.strategies().contains(&Strategy::Markdown)
    }

    /// Whether one of the engines shown is a LangChain class, so the controls
    /// speak LangChain's words (`keep_separator`, `strip_whitespace`).
    pub fn shows_langchain(self) -> bool {
        self.strategies().iter().any(|s| s.langchain().is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every strategy has a title of words, not its option value, and each
    /// fits the closed menu on a phone.
    #[test]
    fn every_view_has_a_short_title_of_its_own() {
        let titles: Vec<&str> = View::all().map(View::title).collect();
        for (view, title) in View::all().zip(&titles) {
            assert_ne!(*title, view.name(), "{view:?} shows its option value");
            assert!(
                title.chars().count() <= 40,
                "{title:?} is too long for a phone's menu"
            );
        }
        let mut unique = titles.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), titles.len(), "{titles:?}");
    }

    #[test]
    fn every_view_has_its_own_option_value() {
        for view in View::all() {
            assert_eq!(View::parse(view.name()), Some(view));
            assert!(view.strategies().contains(&view.primary()));
        }
        for strategy in Strategy::ALL {
            assert_eq!(
                View::parse(strategy.name()).map(View::primary),
                Some(strategy)
            );
        }
        assert_eq!(
            View::parse("compare-langchain"),
            Some(View::CompareLangChain)
        );
        assert_eq!(
            View::parse("compare-markdown").map(View::strategies),
            Some(vec![Strategy::Recursive, Strategy::Markdown])
        );
        assert_eq!(
            View::title_of(Strategy::LangChain),
            "LangChain RecursiveCharacterTextSplitter"
        );
    }
}
