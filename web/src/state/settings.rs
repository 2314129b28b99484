//! The settings as the learner typed them, and how they are read into the
//! engine's configuration. Numbers stay text until then, so that an empty or
//! half-typed field is reported, never clamped.

use crate::invalid::{Field, Problem};
use chunkscope::{
    Config, HeaderSplitConfig, MarkdownConfig, Placement, Separator, Strategy, StrategyConfig, Unit,
};

/// The settings as the learner typed them. Numbers stay text until a split is
/// made, so that an empty or half-typed field is reported, never clamped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The size field, as typed.
    pub size: String,
    /// The overlap field, as typed.
    pub overlap: String,
    /// What size and overlap count.
    pub unit: Unit,
    /// The recursive engine's separators, strongest first.
    pub separators: Vec<Separator>,
    /// Where a separator goes at a cut.
    pub placement: Placement,
    /// Whether whitespace at the ends of pieces is trimmed.
    pub trim: bool,
    /// `langchain-markdown`: a chunk per paragraph (`return_each_line`).
    pub each_line: bool,
    /// `langchain-markdown`: the recipe of LangChain's docs, each section
    /// split again by `RecursiveCharacterTextSplitter` on this list; `None`
    /// for the header splitter alone.
    pub then_recursive: Option<super::RecipeList>,
    /// `markdown`: each chunk gets its heading path as a prefix, counted in
    /// the size with the chunk's text.
    pub heading_prefix: bool,
    /// `markdown`: whether each chunk of a cut table's rows starts with the
    /// table's header rows, counted in the size.
    pub table_header: chunkscope::TableHeader,
    /// `chonkie-recursive`: `min_characters_per_chunk`, as typed (read only
    /// for that strategy, so a half-typed value never blocks another).
    pub min_characters: String,
}

impl Settings {
    /// The engine configuration for `strategy`, with its numbers read, or
    /// which number to fix. The engine checks the rest (size 0, overlap ≥
    /// size, a regex that does not compile, …) in the worker, so the page
    /// carries no engine of its own. A strategy without overlap gets none:
    /// the field is one for every strategy, and switching to one that has no
    /// overlap must not turn the learner's number into an error; likewise a
    /// strategy that reads no separators, placement or trimming gets its
    /// defaults ([`Config::with_strategy`]; the engine refuses any other
    /// value). The page
    /// keeps every strategy's own settings while the learner switches; the
    /// configuration takes only its strategy's ([`StrategyConfig`]).
    /// The semantic strategy's come from the semantic panel
    /// ([`super::semantic`]); here they are `SemanticChunker`'s defaults.
    pub fn config(&self, strategy: Strategy) -> Result<Config, Problem> {
        let mut config = self.common(strategy)?;
        match &mut config.strategy {
            StrategyConfig::LangChainMarkdown(own) => {
                *own = HeaderSplitConfig {
                    each_line: self.each_line,
                    then_recursive: self.then_recursive.map(super::RecipeList::separators),
                };
            }
            StrategyConfig::Markdown(own) => {
                *own = MarkdownConfig {
                    heading_prefix: self.heading_prefix,
                    table_header: self.table_header,
                };
            }
            StrategyConfig::ChonkieRecursive(own) => {
                // chonkie-core counts the minimum in UTF-8 bytes, whatever
                // the unit of the size.
                own.min_characters_per_chunk =
                    parse_count(MIN_CHARACTERS, &self.min_characters, Unit::Bytes)
                        .map_err(|message| Problem::new(Field::MinCharacters, message))?;
            }
            _ => {}
        }
        Ok(config)
    }

    /// The common settings for `strategy`, with its own at their defaults.
    fn common(&self, strategy: Strategy) -> Result<Config, Problem> {
        let count = |field, name, raw: &str| {
            parse_count(name, raw, self.unit).map_err(|message| Problem::new(field, message))
        };
        let overlap = if strategy.uses_overlap() {
            count(Field::Overlap, "overlap", &self.overlap)?
        } else {
            0
        };
        let typed = Config {
            size: count(Field::Size, "size", &self.size)?,
            overlap,
            unit: self.unit,
            separators: self.separators_for(strategy),
            placement: self.placement,
            trim: self.trim,
            ..Config::default()
        };
        Ok(typed.with_strategy(strategy))
    }

    /// The engine configuration for `strategy` as `view` shows it: in the
    /// libraries view, the library's own defaults
    /// ([`Config::for_strategy`]) with the size, overlap and unit typed here,
    /// so each pane is that library called with a size and nothing else
    /// (its own settings, hidden there, are neither read nor refused).
    pub fn config_in(&self, view: super::View, strategy: Strategy) -> Result<Config, Problem> {
        if !view.library_defaults() {
            return self.config(strategy);
        }
        let typed = self.common(strategy)?;
        Ok(Config {
            size: typed.size,
            overlap: typed.overlap,
            unit: typed.unit,
            ..Config::for_strategy(strategy)
        })
    }

    /// The list `strategy` splits with: the list as typed, except that the
    /// sentence strategy cuts between sentences first (the list as typed
    /// then cuts inside a sentence that is too long), so the level is put
    /// in front when the list does not start with it. The report's
    /// separators are this list, so the legend and the cut labels match it.
    fn separators_for(&self, strategy: Strategy) -> Vec<Separator> {
        let sentence = Separator::sentence();
        if strategy == Strategy::Sentence && self.separators.first() != Some(&sentence) {
            return std::iter::once(sentence)
                .chain(self.separators.iter().cloned())
                .collect();
        }
        self.separators.clone()
    }

    /// The separator preset whose list this is, if any.
    pub fn separator_preset(&self) -> Option<&'static str> {
        chunkscope::presets::SEPARATOR_PRESETS
            .into_iter()
            .find(|name| chunkscope::presets::separators(name).as_ref() == Some(&self.separators))
    }
}

/// The name the page gives the minimum in its messages: the library's.
const MIN_CHARACTERS: &str = "min_characters_per_chunk";

/// The minimum's field as the page first shows it: chonkie's default.
pub fn default_min_characters() -> String {
    chunkscope::ChonkieConfig::DEFAULT_MIN_CHARACTERS_PER_CHUNK.to_string()
}

/// Reads a whole number typed into the `field` input. Anything else is an error
/// that says what to type: a learner should see why nothing changed.
pub fn parse_count(field: &str, raw: &str, unit: Unit) -> Result<usize, String> {
    let typed = raw.trim();
    if typed.is_empty() {
        let example = if field == "overlap" { "0" } else { "40" };
        return Err(format!(
            "{field} is empty: type a whole number of {unit}, such as {example}"
        ));
    }
    if typed.starts_with('-') && typed[1..].bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{field} cannot be negative ({typed}): it counts {unit}, so use 0 or more"
        ));
    }
    typed.parse::<usize>().map_err(|_| {
        if typed.bytes().all(|b| b.is_ascii_digit()) {
            format!("{field} ({typed}) is too large to count with")
        } else {
            format!("{field} must be a whole number of {unit}, such as 40, not {typed:?}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_parse_strictly() {
        assert_eq!(parse_count("size", " 12 ", Unit::Chars), Ok(12));
        assert!(parse_count("size", "12abc", Unit::Chars).is_err());
        assert!(parse_count("size", "99999999999999999999999", Unit::Chars)
            .unwrap_err()
            .contains("too large"));
    }

    #[test]
    fn a_strategy_without_overlap_gets_none_whatever_the_field_says() {
        let settings = |overlap: &str| Settings {
            size: "40".into(),
            overlap: overlap.into(),
            unit: Unit::Chars,
            separators: vec![Separator::literal(" ")],
            placement: Placement::End,
            trim: true,
            each_line: false,
            then_recursive: None,
            heading_prefix: false,
            table_header: chunkscope::TableHeader::Once,
            min_characters: default_min_characters(),
        };
        assert_eq!(
            settings("20").config(Strategy::Semantic).unwrap().overlap,
            0
        );
        assert_eq!(settings("x").config(Strategy::Semantic).unwrap().overlap, 0);
        assert_eq!(
            settings("20").config(Strategy::Recursive).unwrap().overlap,
            20
        );
        assert_eq!(
            settings("x").config(Strategy::Recursive).unwrap_err().field,
            Some(Field::Overlap)
        );
    }

    /// The libraries view runs LangChain as `RecursiveCharacterTextSplitter`
    /// with nothing but a size and an overlap: its default separators (the
    /// empty list) and `keep_separator=True`, whatever the page's list says.
    #[test]
    fn the_libraries_view_uses_each_librarys_defaults() {
        let settings = Settings {
            size: "40".into(),
            overlap: "5".into(),
            unit: Unit::Tokens(chunkscope::tokens::Encoding::Cl100k),
            separators: vec![Separator::literal(". ")],
            placement: Placement::End,
            trim: false,
            each_line: false,
            then_recursive: None,
            heading_prefix: false,
            table_header: chunkscope::TableHeader::Once,
            min_characters: default_min_characters(),
        };
        let libraries = super::super::View::Libraries(super::super::Libraries::DEFAULT);
        let langchain = settings.config_in(libraries, Strategy::LangChain).unwrap();
        assert_eq!(
            (langchain.size, langchain.overlap, langchain.unit),
            (40, 5, Unit::Tokens(chunkscope::tokens::Encoding::Cl100k))
        );
        assert_eq!(langchain.separators, []);
        assert_eq!(
            (langchain.placement, langchain.trim),
            (Placement::Start, true)
        );
        let chonkie = settings
            .config_in(libraries, Strategy::ChonkieRecursive)
            .unwrap();
        assert_eq!((chonkie.size, chonkie.overlap), (40, 0));
        // Any other view reads the page's settings.
        let alone = super::super::View::One(Strategy::LangChain);
        assert_eq!(
            settings.config_in(alone, Strategy::LangChain),
            settings.config(Strategy::LangChain)
        );
        assert_eq!(
            settings
                .config_in(alone, Strategy::LangChain)
                .unwrap()
                .placement,
            Placement::End
        );
    }

    #[test]
    fn the_sentence_strategy_cuts_at_sentences_first() {
        let settings = Settings {
            size: "40".into(),
            overlap: "0".into(),
            unit: Unit::Chars,
            separators: vec![Separator::literal(" "), Separator::hard_cut()],
            placement: Placement::End,
            trim: true,
            each_line: false,
            then_recursive: None,
            heading_prefix: false,
            table_header: chunkscope::TableHeader::Once,
            min_characters: default_min_characters(),
        };
        let config = settings.config(Strategy::Sentence).unwrap();
        assert_eq!(
            config.separators,
            [
                Separator::sentence(),
                Separator::literal(" "),
                Separator::hard_cut()
            ]
        );
        assert!(config.validate().is_ok());
        // Other strategies, and a list that starts with the level, as typed.
        assert_eq!(
            settings.config(Strategy::Recursive).unwrap().separators,
            settings.separators
        );
        let typed = Settings {
            separators: config.separators.clone(),
            ..settings
        };
        assert_eq!(
            typed.config(Strategy::Sentence).unwrap().separators,
            config.separators
        );
    }
}
