//! What the page shows: one engine, or two side by side, and the words for
//! each.

use chunkscope::Strategy;

/// What the page shows: one strategy, or two side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Fixed windows only.
    Fixed,
    /// Recursive splitting only.
    Recursive,
    /// LangChain's `RecursiveCharacterTextSplitter`, exactly.
    LangChain,
    /// LangChain's `CharacterTextSplitter`, exactly.
    LangChainCharacter,
    /// Fixed and recursive on the same text and settings, side by side.
    Compare,
    /// Our recursive splitter and LangChain's on the same text and settings.
    CompareLangChain,
}

impl View {
    /// Every view, in menu order.
    pub const ALL: [View; 6] = [
        View::Fixed,
        View::Recursive,
        View::LangChain,
        View::LangChainCharacter,
        View::Compare,
        View::CompareLangChain,
    ];

    /// The option value in `strategy-select`: a strategy's own name for a
    /// single view.
    pub const fn name(self) -> &'static str {
        match self {
            View::Fixed => Strategy::Fixed.name(),
            View::Recursive => Strategy::Recursive.name(),
            View::LangChain => Strategy::LangChain.name(),
            View::LangChainCharacter => Strategy::LangChainCharacter.name(),
            View::Compare => "compare",
            View::CompareLangChain => "compare-langchain",
        }
    }

    /// What the learner reads in the menu.
    pub const fn title(self) -> &'static str {
        match self {
            View::Fixed => "Fixed windows",
            View::Recursive => "Recursive separators",
            View::LangChain => "LangChain RecursiveCharacterTextSplitter",
            View::LangChainCharacter => "LangChain CharacterTextSplitter",
            View::Compare => "Compare fixed and recursive side by side",
            View::CompareLangChain => "Compare recursive and LangChain side by side",
        }
    }

    /// What one engine is called on the page: the title of the view that
    /// shows it alone.
    pub fn title_of(strategy: Strategy) -> &'static str {
        View::ALL
            .into_iter()
            .find(|v| v.strategies() == [strategy])
            .map_or(strategy.name(), View::title)
    }

    /// The view with this option value.
    pub fn parse(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The engines this view needs, in the order their panes are drawn.
    pub const fn strategies(self) -> &'static [Strategy] {
        match self {
            View::Fixed => &[Strategy::Fixed],
            View::Recursive => &[Strategy::Recursive],
            View::LangChain => &[Strategy::LangChain],
            View::LangChainCharacter => &[Strategy::LangChainCharacter],
            View::Compare => &[Strategy::Fixed, Strategy::Recursive],
            View::CompareLangChain => &[Strategy::Recursive, Strategy::LangChain],
        }
    }

    /// The engine the single-result views (tree, table, stats, code) describe:
    /// the right-hand pane when two are shown, since that is the one the
    /// comparison is about (recursive against fixed, LangChain against ours).
    pub const fn primary(self) -> Strategy {
        match self {
            View::Fixed => Strategy::Fixed,
            View::Recursive | View::Compare => Strategy::Recursive,
            View::LangChain | View::CompareLangChain => Strategy::LangChain,
            View::LangChainCharacter => Strategy::LangChainCharacter,
        }
    }

    /// Whether two engines are shown side by side.
    pub const fn is_compare(self) -> bool {
        self.strategies().len() > 1
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

    #[test]
    fn every_view_has_its_own_option_value() {
        for view in View::ALL {
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
            View::title_of(Strategy::LangChain),
            "LangChain RecursiveCharacterTextSplitter"
        );
    }
}
