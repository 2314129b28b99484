//! What the page shows: one engine, or two side by side, and the words for
//! each.

use chunkscope::Strategy;

/// What the page shows: one strategy, two side by side, or the libraries'
/// splitters side by side.
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
    /// What "recursive splitting" means in the libraries chosen (up to four
    /// of [`View::LIBRARIES`]): the same text, size, unit and overlap, and
    /// every other setting at each library's own default
    /// ([`chunkscope::Config::for_strategy`]), so a pane shows what that
    /// library does when called with a size and nothing else.
    Libraries(Libraries),
}

/// Which of [`View::LIBRARIES`] the libraries view shows: one to
/// [`Libraries::MAX`] of them, in that list's order.
///
/// A set of bits, one per place in the list, so that a [`View`] stays a
/// small `Copy` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Libraries(u16);

impl Libraries {
    /// The most panes side by side that stay readable.
    pub const MAX: usize = 4;

    /// The first [`Libraries::MAX`] of the list.
    pub const DEFAULT: Libraries = Libraries(
        (1 << if View::LIBRARIES.len() < Libraries::MAX {
            View::LIBRARIES.len()
        } else {
            Libraries::MAX
        }) - 1,
    );

    /// The libraries shown, in the list's order.
    pub fn strategies(self) -> Vec<Strategy> {
        View::LIBRARIES
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, s)| s)
            .collect()
    }

    /// Whether `strategy` is shown.
    pub fn contains(self, strategy: Strategy) -> bool {
        self.strategies().contains(&strategy)
    }

    /// The set with `strategy` shown or not; `None` when that would leave
    /// no library, more than [`Libraries::MAX`], or `strategy` is not one
    /// of the list.
    pub fn with(self, strategy: Strategy, shown: bool) -> Option<Libraries> {
        let at = View::LIBRARIES.iter().position(|&s| s == strategy)?;
        let bits = if shown {
            self.0 | (1 << at)
        } else {
            self.0 & !(1 << at)
        };
        let count = bits.count_ones() as usize;
        (1..=Libraries::MAX)
            .contains(&count)
            .then_some(Libraries(bits))
    }

    /// The set of these strategy names, as a link writes it (`parse` of
    /// [`Libraries::names`]).
    pub fn parse(names: &str) -> Option<Libraries> {
        let mut set = Libraries(0);
        for name in names.split(',') {
            let strategy: Strategy = name.parse().ok()?;
            let at = View::LIBRARIES.iter().position(|&s| s == strategy)?;
            set.0 |= 1 << at;
        }
        (1..=Libraries::MAX)
            .contains(&(set.0.count_ones() as usize))
            .then_some(set)
    }

    /// The names of the libraries shown, comma-separated.
    pub fn names(self) -> String {
        let names: Vec<&str> = self.strategies().iter().map(|s| s.name()).collect();
        names.join(",")
    }
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
    const PAIRS: [View; 4] = [
        View::Compare,
        View::CompareLangChain,
        View::CompareMarkdown,
        View::Libraries(Libraries::DEFAULT),
    ];

    /// The libraries' recursive splitters, in the order the libraries view
    /// offers them ([`Libraries`] says which are shown). Chonkie's
    /// `TokenChunker` is not one (its windows read no structure), so it is
    /// not offered.
    pub const LIBRARIES: [Strategy; 5] = [
        Strategy::LangChain,
        Strategy::TextSplitter,
        Strategy::Semchunk,
        Strategy::ChonkieRecursive,
        Strategy::LlamaIndexSentence,
    ];
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
            View::Libraries(_) => "libraries",
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
            View::Libraries(_) => "Each library's splitter, side by side",
            View::One(Strategy::Markdown) => "Markdown by its structure",
            View::One(Strategy::LangChainMarkdown) => "LangChain MarkdownHeaderTextSplitter",
            View::One(Strategy::Sentence) => "Whole sentences, packed",
            View::One(Strategy::Semantic) => "Semantic: cut where the topic drifts",
            View::One(Strategy::Semchunk) => "semchunk (chunkerify), exactly",
            View::One(Strategy::ChonkieRecursive) => "Chonkie RecursiveChunker, exactly",
            View::One(Strategy::ChonkieToken) => "Chonkie TokenChunker, exactly",
            View::One(Strategy::ChonkieSentence) => "Chonkie SentenceChunker, exactly",
            View::One(Strategy::LlamaIndexSentence) => "LlamaIndex SentenceSplitter, exactly",
            View::One(Strategy::LlamaIndexToken) => "LlamaIndex TokenTextSplitter, exactly",
            View::One(Strategy::LlamaIndexMarkdown) => "LlamaIndex MarkdownNodeParser, exactly",
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

    /// A strategy's name in a narrow place (a table's column head): a few
    /// words, the full title being [`View::title_of`].
    pub fn short_title_of(strategy: Strategy) -> &'static str {
        match strategy {
            Strategy::Fixed => "Fixed",
            Strategy::Recursive => "Recursive",
            Strategy::Sentence => "Sentences",
            Strategy::Markdown => "Markdown",
            Strategy::LangChain => "LangChain",
            Strategy::LangChainCharacter => "LangChain character",
            Strategy::LangChainMarkdown => "LangChain headers",
            Strategy::Semantic => "Semantic",
            Strategy::Semchunk => "semchunk",
            Strategy::ChonkieRecursive => "Chonkie",
            Strategy::ChonkieToken => "Chonkie tokens",
            Strategy::ChonkieSentence => "Chonkie sentences",
            Strategy::LlamaIndexSentence => "LlamaIndex",
            Strategy::LlamaIndexToken => "LlamaIndex tokens",
            Strategy::LlamaIndexMarkdown => "LlamaIndex headers",
            Strategy::TextSplitter => "text-splitter",
            Strategy::TextSplitterMarkdown => "text-splitter md",
            // A strategy added to the engine shows its name until it has one.
            other => other.name(),
        }
    }

    /// Why the view reads no separator list, as the separator editor
    /// says it (only asked of a view that reads none).
    pub fn separators_unread(self) -> &'static str {
        if self.library_defaults() {
            return "Each library splits with its own defaults here (LangChain's separators are \\n\\n, \\n, space and \"\", kept at the start of the next piece), so this list is kept for the other views. Size, unit and overlap are shared.";
        }
        match self.primary() {
            Strategy::Semchunk => "semchunk reads no list: for each piece it picks its own splitter (the longest run of newlines, then of tabs, then of spaces; a space after a sentence end; punctuation; every character), which labels each cut.",
            Strategy::ChonkieRecursive => "Chonkie's RecursiveChunker reads no list: its levels are fixed (paragraphs, sentence ends, pauses such as brackets and commas, words, then runs of tokens), and a split shorter than min_characters_per_chunk (24 bytes unless you change it) is joined to its neighbour.",
            Strategy::ChonkieToken => "Chonkie's TokenChunker reads no list: it cuts the text's tokens (characters, with its character tokenizer) into windows of the size, one every size minus overlap, wherever they fall.",
            Strategy::ChonkieSentence => "Chonkie's SentenceChunker reads no list: it ends a sentence after \". \", \"! \", \"? \" and each line break, joins a sentence under 12 bytes to its neighbour, and packs whole sentences; its overlap is whole sentences too, each costing its count plus one, and each cut is labelled with the delimiter that ended the chunk.",
            Strategy::LlamaIndexSentence => "LlamaIndex's SentenceSplitter reads no list: it splits at three newlines, then between Punkt's sentences, then after , . ; 。 ？ ！, then at spaces, then between characters, and each cut is labelled with the one that made it.",
            Strategy::LlamaIndexToken => "LlamaIndex's TokenTextSplitter reads no list: it splits at spaces, then at line breaks, then between characters (a character over the size is kept whole), packs the pieces while their counts add up to the size with an overlap of whole pieces, and strips each chunk; each cut is labelled with the split that made it.",
            Strategy::LlamaIndexMarkdown => "LlamaIndex's MarkdownNodeParser reads no list: a line of #s then whitespace starts a section (outside ``` fences), whatever its level, and the header line is rebuilt with one space; it has no size, so the size only judges the chunks, and each cut is labelled with the #s of the header after it.",
            Strategy::TextSplitter => "text-splitter reads no list: its levels are fixed (runs of line breaks, a longer run first, then sentences, words, graphemes and characters), and each chunk packs the largest units that fit; each cut is labelled with the level it lies on.",
            Strategy::TextSplitterMarkdown => "text-splitter's MarkdownSplitter reads no list: its levels are Markdown's (headings, shallower first, thematic breaks, blocks, inline elements, soft line breaks), then sentences, words, graphemes and characters; each cut is labelled with the level it lies on.",
            _ => "Fixed windows ignore separators; they are used by the recursive splitter.",
        }
    }

    /// Why the view reads no overlap (only asked of one that reads none).
    pub fn overlap_unread(self) -> &'static str {
        match self.primary() {
            Strategy::ChonkieRecursive => "Chonkie's RecursiveChunker has no overlap, so the overlap is left out here and kept for the other strategies.",
            _ => "Semantic chunks never overlap (LangChain's SemanticChunker has no overlap), so the overlap is left out here and kept for the other strategies.",
        }
    }

    /// Why a split of a text that is not empty recorded no tree.
    pub fn no_tree(strategy: Strategy) -> &'static str {
        match strategy {
            Strategy::TextSplitter | Strategy::TextSplitterMarkdown => "text-splitter is not drawn as a tree: it reports only its chunks, so each cut's label names the level the cut lies on (a run of line breaks, a Markdown element, a sentence, a word, a grapheme) as its own segmenters find it in the text.",
            Strategy::LlamaIndexSentence => "LlamaIndex's SentenceSplitter is not drawn as a tree: each cut's label names the split that made it (three newlines, a sentence, a clause, a space, or between two characters).",
            Strategy::LlamaIndexToken => "LlamaIndex's TokenTextSplitter is not drawn as a tree: each cut's label names the split that made it (a space, a line break, or between two characters).",
            Strategy::LlamaIndexMarkdown => "LlamaIndex's MarkdownNodeParser is not drawn as a tree: it cuts the text once, before each header line, so each cut's label names the #s of the header that opens the next section; the headers above a chunk are its header_path.",
            Strategy::Semantic => "No chunk was over the size, so nothing was split again: the semantic view shows where the topic breaks fell.",
            _ => "This split recorded no tree.",
        }
    }

    /// What "recursive" means in `strategy`'s library: the rule its cuts
    /// follow, as an interview answer puts it. `None` for our own engines.
    pub fn recursive_means(strategy: Strategy) -> Option<&'static str> {
        Some(match strategy {
            Strategy::LangChain => "One list of separators, strongest first (\\n\\n, \\n, space, then any character). The whole text is split at the first separator it holds, the pieces are merged greedily back up to the size, and only a piece still too big is split again with the next separator. A separator is kept at the start of the piece after it, and a chunk can pass the size when no separator is left to cut it.",
            Strategy::Semchunk => "No list: for each piece, semchunk picks one splitter from what the piece holds (its longest run of newlines, else of tabs, else of whitespace, else a space after a sentence end, else punctuation, else every character), splits there, merges the pieces by binary search up to the size, and recurses only into a piece that is still too big. Whitespace it split at is dropped.",
            Strategy::ChonkieRecursive => "Fixed levels (paragraphs, sentence ends, pauses, words, then runs of tokens), each delimiter kept at the end of its split. A split under min_characters_per_chunk (24 bytes by default) is joined to its neighbour before packing, so a chunk can run across a blank line, and packing adds up the splits' counts rather than counting the joined text.",
            Strategy::TextSplitter => "Levels found in the text rather than a list: runs of line breaks (a longer run is a stronger level), then sentences, words, grapheme clusters and characters by Unicode's rules. For each chunk it takes the strongest level whose next piece fits, packs as many pieces of that level (or stronger) as fit, and trims the chunk; nothing is split again with a weaker list, so a chunk never ends inside a word while a word boundary fits.",
            Strategy::LlamaIndexSentence => "Split functions in a fixed order: three newlines, then sentences (NLTK's Punkt with no training, so \"Dr.\" ends a sentence and \"J. R. R. Tolkien\" does not), then clauses after , . ; and their CJK marks, then spaces, then characters; a piece over the size is split by the first function that divides it. The splits are packed in order up to the size with an overlap of whole splits, and every chunk is stripped. It counts cl100k tokens unless told otherwise.",
            _ => return None,
        })
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
            View::Libraries(shown) => shown.strategies(),
        }
    }

    /// The engine the single-result views (tree, table, stats, code) describe:
    /// the right-hand pane when two are shown, since that is the one the
    /// comparison is about (recursive against fixed, LangChain against ours);
    /// among the libraries, the first.
    pub fn primary(self) -> Strategy {
        match self {
            View::One(s) | View::Two(_, s) => s,
            View::Libraries(shown) => match shown.strategies().first() {
                Some(&first) => first,
                None => View::LIBRARIES[0],
            },
        }
    }

    /// Whether engines are shown side by side.
    pub const fn is_compare(self) -> bool {
        !matches!(self, View::One(_))
    }

    /// Whether each engine runs with its library's defaults rather than the
    /// page's separators, placement and trimming.
    pub const fn library_defaults(self) -> bool {
        matches!(self, View::Libraries(_))
    }

    /// Whether the page's separator list is read by an engine on screen.
    pub fn reads_separators(self) -> bool {
        !self.library_defaults() && self.strategies().iter().any(|s| s.uses_separators())
    }

    /// Whether the page's placement is read.
    pub fn reads_placement(self) -> bool {
        self.reads_separators()
    }

    /// Whether the page's trimming is read.
    pub fn reads_trim(self) -> bool {
        !self.library_defaults() && self.strategies().iter().any(|s| s.uses_trim())
    }

    /// Whether the Markdown strategy is on screen, so its heading prefix can
    /// be turned on.
    pub fn shows_markdown(self) -> bool {
        self.strategies().contains(&Strategy::Markdown)
    }

    /// Whether chonkie-recursive is on screen with the page's settings (not
    /// the libraries view's defaults), so its minimum can be set.
    pub fn reads_min_characters(self) -> bool {
        !self.library_defaults() && self.strategies().contains(&Strategy::ChonkieRecursive)
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
    fn the_libraries_shown_are_one_to_four_of_the_list() {
        let all = Libraries::DEFAULT;
        assert_eq!(
            all.strategies(),
            View::LIBRARIES[..View::LIBRARIES.len().min(4)]
        );
        let two = Libraries::parse("langchain,chonkie-recursive").unwrap();
        assert_eq!(
            two.strategies(),
            [Strategy::LangChain, Strategy::ChonkieRecursive]
        );
        assert_eq!(Libraries::parse(&two.names()), Some(two));
        assert_eq!(two.names(), "langchain,chonkie-recursive");
        // The list's order, whatever the link's.
        assert_eq!(Libraries::parse("chonkie-recursive,langchain"), Some(two));
        let three = two.with(Strategy::Semchunk, true).unwrap();
        assert_eq!(three.names(), "langchain,semchunk,chonkie-recursive");
        assert_eq!(three.with(Strategy::Semchunk, false), Some(two));
        // Not the last one, not a strategy of ours, not a name it does not know.
        let one = two.with(Strategy::LangChain, false).unwrap();
        assert_eq!(one.with(Strategy::ChonkieRecursive, false), None);
        assert_eq!(one.with(Strategy::Recursive, true), None);
        assert_eq!(Libraries::parse("langchain,fixed"), None);
        assert_eq!(Libraries::parse("langchain,nope"), None);
        assert_eq!(Libraries::parse(""), None);
        // No more than four.
        let four =
            Libraries::parse("langchain,semchunk,chonkie-recursive,llamaindex-sentence").unwrap();
        assert_eq!(four.strategies().len(), 4);
        for extra in View::LIBRARIES {
            if !four.contains(extra) {
                assert_eq!(four.with(extra, true), None, "{extra:?}");
            }
        }
        // The view follows the set: its panes, and the first is the primary.
        assert_eq!(
            View::Libraries(one).strategies(),
            [Strategy::ChonkieRecursive]
        );
        assert_eq!(View::Libraries(one).primary(), Strategy::ChonkieRecursive);
        assert_eq!(View::Libraries(one).name(), "libraries");
        // Every library offered says what "recursive" means in it.
        for s in View::LIBRARIES {
            assert!(View::recursive_means(s).is_some(), "{s:?}");
            assert!(View::short_title_of(s).len() <= 14, "{s:?}");
        }
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
