//! What the learner sets: strategy, size, overlap, unit, separators, placement, trim.

use crate::error::Error;
pub(crate) mod semantic;
pub(crate) mod settings;

use crate::separator::{Matcher, Placement, Separator};
use crate::strategy::{Strategy, TableHeader};
use crate::unit::Unit;
use regex_lite::Regex;
use semantic::SemanticConfig;

/// A complete splitting configuration: the settings every strategy reads,
/// and the strategy with the settings only it reads ([`StrategyConfig`]).
/// Plain data: it is checked when a split is made ([`Config::validate`]), so
/// any value can be built and shown while a learner is still typing it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// The engine, and what only it reads.
    pub strategy: StrategyConfig,
    /// The most units a chunk may hold. A hard limit: no chunk is ever longer.
    pub size: usize,
    /// How many units a chunk may repeat from the one before. Must be `< size`
    /// (LangChain's strategies accept `== size`, as LangChain does).
    pub overlap: usize,
    /// What `size` and `overlap` count.
    pub unit: Unit,
    /// The recursive engine's separators, strongest first. Ignored by `fixed`.
    /// LangChain's strategies take an empty list as LangChain's default, and
    /// `langchain-character` uses only the first.
    pub separators: Vec<Separator>,
    /// Where a separator goes at a cut (recursive engine).
    pub placement: Placement,
    /// Whether whitespace at the ends of every piece is trimmed off (by moving the
    /// span). Fixed windows are never trimmed, but whitespace-only ones are skipped.
    pub trim: bool,
}

/// Which strategy splits, with the settings that only it reads. Each
/// strategy is one variant, so a configuration cannot carry a setting its
/// strategy would ignore; [`StrategyConfig::kind`] names the strategy.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StrategyConfig {
    /// [`Strategy::Fixed`].
    Fixed,
    /// [`Strategy::Recursive`].
    Recursive,
    /// [`Strategy::LangChain`].
    LangChain,
    /// [`Strategy::LangChainCharacter`].
    LangChainCharacter,
    /// [`Strategy::LangChainMarkdown`] and its `return_each_line` and recipe.
    LangChainMarkdown(HeaderSplitConfig),
    /// [`Strategy::Markdown`] and its heading prefix and table header rule.
    Markdown(MarkdownConfig),
    /// [`Strategy::Sentence`].
    Sentence,
    /// [`Strategy::Semantic`] and `SemanticChunker`'s arguments.
    Semantic(SemanticConfig),
    /// [`Strategy::Semchunk`].
    Semchunk,
    /// [`Strategy::ChonkieRecursive`] and its `min_characters_per_chunk`.
    ChonkieRecursive(ChonkieConfig),
    /// [`Strategy::ChonkieToken`].
    ChonkieToken,
    /// [`Strategy::ChonkieSentence`].
    ChonkieSentence,
    /// [`Strategy::LlamaIndexSentence`].
    LlamaIndexSentence,
    /// [`Strategy::LlamaIndexToken`].
    LlamaIndexToken,
    /// [`Strategy::LlamaIndexMarkdown`].
    LlamaIndexMarkdown,
    /// [`Strategy::TextSplitter`].
    TextSplitter,
    /// [`Strategy::TextSplitterMarkdown`].
    TextSplitterMarkdown,
}

/// What only the Markdown strategy reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MarkdownConfig {
    /// Put each chunk's heading path before it for embedding (`Refunds >
    /// UPI` and a blank line), and count it in the size, so no chunk with
    /// its prefix is over `size`. The chunk's text stays its span; the
    /// prefix is beside it.
    pub heading_prefix: bool,
    /// Whether a chunk of a table's rows after the first carries the
    /// table's header rows in its embedded text, counted in the size
    /// ([`TableHeader::Repeat`]), or only records them as context
    /// ([`TableHeader::Once`], the default).
    pub table_header: TableHeader,
}

/// What only `chonkie-recursive` (Chonkie's `RecursiveChunker`) reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChonkieConfig {
    /// `min_characters_per_chunk`: at every level but the last, a split
    /// shorter than this many UTF-8 *bytes* (chonkie-core measures the
    /// encoded text, whatever the name says) is joined to its neighbour
    /// before packing, and so is the split after a short one. Chonkie
    /// raises on 0 (`ValueError`); 1 joins nothing, and a value at least the
    /// length of a piece makes the whole piece one split.
    pub min_characters_per_chunk: usize,
}

impl ChonkieConfig {
    /// Chonkie's own default, 24.
    pub const DEFAULT_MIN_CHARACTERS_PER_CHUNK: usize = 24;
}

/// Chonkie's defaults.
impl Default for ChonkieConfig {
    fn default() -> ChonkieConfig {
        ChonkieConfig {
            min_characters_per_chunk: ChonkieConfig::DEFAULT_MIN_CHARACTERS_PER_CHUNK,
        }
    }
}

/// What only `langchain-markdown` (LangChain's
/// `MarkdownHeaderTextSplitter`) reads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HeaderSplitConfig {
    /// One chunk per paragraph (LangChain's `return_each_line`) instead of
    /// one per section.
    pub each_line: bool,
    /// The recipe of LangChain's docs. `Some` splits each of the header
    /// splitter's sections again with `RecursiveCharacterTextSplitter`
    /// (`split_documents`): these separators (empty: LangChain's default
    /// list), `chunk_size` = size, `chunk_overlap` = overlap, the unit,
    /// `strip_whitespace` = trim. `None`: the header splitter alone, with no
    /// size limit.
    pub then_recursive: Option<Vec<Separator>>,
}

impl StrategyConfig {
    /// The strategy, without its settings.
    pub fn kind(&self) -> Strategy {
        match self {
            StrategyConfig::Fixed => Strategy::Fixed,
            StrategyConfig::Recursive => Strategy::Recursive,
            StrategyConfig::LangChain => Strategy::LangChain,
            StrategyConfig::LangChainCharacter => Strategy::LangChainCharacter,
            StrategyConfig::LangChainMarkdown(_) => Strategy::LangChainMarkdown,
            StrategyConfig::Markdown(_) => Strategy::Markdown,
            StrategyConfig::Sentence => Strategy::Sentence,
            StrategyConfig::Semantic(_) => Strategy::Semantic,
            StrategyConfig::Semchunk => Strategy::Semchunk,
            StrategyConfig::ChonkieRecursive(_) => Strategy::ChonkieRecursive,
            StrategyConfig::ChonkieToken => Strategy::ChonkieToken,
            StrategyConfig::ChonkieSentence => Strategy::ChonkieSentence,
            StrategyConfig::LlamaIndexSentence => Strategy::LlamaIndexSentence,
            StrategyConfig::LlamaIndexToken => Strategy::LlamaIndexToken,
            StrategyConfig::LlamaIndexMarkdown => Strategy::LlamaIndexMarkdown,
            StrategyConfig::TextSplitter => Strategy::TextSplitter,
            StrategyConfig::TextSplitterMarkdown => Strategy::TextSplitterMarkdown,
        }
    }
}

/// A strategy with its own settings at their defaults.
impl From<Strategy> for StrategyConfig {
    fn from(strategy: Strategy) -> StrategyConfig {
        match strategy {
            Strategy::Fixed => StrategyConfig::Fixed,
            Strategy::Recursive => StrategyConfig::Recursive,
            Strategy::LangChain => StrategyConfig::LangChain,
            Strategy::LangChainCharacter => StrategyConfig::LangChainCharacter,
            Strategy::LangChainMarkdown => {
                StrategyConfig::LangChainMarkdown(HeaderSplitConfig::default())
            }
            Strategy::Markdown => StrategyConfig::Markdown(MarkdownConfig::default()),
            Strategy::Sentence => StrategyConfig::Sentence,
            Strategy::Semantic => StrategyConfig::Semantic(SemanticConfig::new()),
            Strategy::Semchunk => StrategyConfig::Semchunk,
            Strategy::ChonkieRecursive => {
                StrategyConfig::ChonkieRecursive(ChonkieConfig::default())
            }
            Strategy::ChonkieToken => StrategyConfig::ChonkieToken,
            Strategy::ChonkieSentence => StrategyConfig::ChonkieSentence,
            Strategy::LlamaIndexSentence => StrategyConfig::LlamaIndexSentence,
            Strategy::LlamaIndexToken => StrategyConfig::LlamaIndexToken,
            Strategy::LlamaIndexMarkdown => StrategyConfig::LlamaIndexMarkdown,
            Strategy::TextSplitter => StrategyConfig::TextSplitter,
            Strategy::TextSplitterMarkdown => StrategyConfig::TextSplitterMarkdown,
        }
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            strategy: StrategyConfig::Recursive,
            size: 1000,
            overlap: 0,
            unit: Unit::Chars,
            separators: crate::presets::separators("default").unwrap_or_default(),
            placement: Placement::End,
            trim: true,
        }
    }
}

impl Config {
    /// Fixed windows of `size` chars, each repeating `overlap` chars of the last.
    pub fn fixed(size: usize, overlap: usize) -> Config {
        Config {
            strategy: StrategyConfig::Fixed,
            size,
            overlap,
            ..Config::default()
        }
    }

    /// Recursive splitting at `size` chars with the default separators
    /// (`["\n\n", "\n", " ", ""]`).
    pub fn recursive(size: usize) -> Config {
        Config {
            size,
            ..Config::default()
        }
    }

    /// The Markdown strategy at `size` chars: sections, blocks, then inside
    /// an oversized block the separators `[". ", " ", ""]`.
    pub fn markdown(size: usize) -> Config {
        Config {
            size,
            ..Config::for_strategy(Strategy::Markdown)
        }
    }

    /// The strategy, without its settings.
    pub fn kind(&self) -> Strategy {
        self.strategy.kind()
    }

    /// The Markdown strategy's own settings; `None` for another strategy.
    pub fn markdown_config(&self) -> Option<&MarkdownConfig> {
        match &self.strategy {
            StrategyConfig::Markdown(m) => Some(m),
            _ => None,
        }
    }

    /// `langchain-markdown`'s own settings; `None` for another strategy.
    pub fn header_split_config(&self) -> Option<&HeaderSplitConfig> {
        match &self.strategy {
            StrategyConfig::LangChainMarkdown(h) => Some(h),
            _ => None,
        }
    }

    /// `chonkie-recursive`'s own settings; `None` for another strategy.
    pub fn chonkie_config(&self) -> Option<&ChonkieConfig> {
        match &self.strategy {
            StrategyConfig::ChonkieRecursive(c) => Some(c),
            _ => None,
        }
    }

    /// The semantic strategy's own settings; `None` for another strategy.
    pub fn semantic_config(&self) -> Option<&SemanticConfig> {
        match &self.strategy {
            StrategyConfig::Semantic(s) => Some(s),
            _ => None,
        }
    }

    /// The semantic strategy's own settings, to change; `None` for another
    /// strategy.
    pub fn semantic_config_mut(&mut self) -> Option<&mut SemanticConfig> {
        match &mut self.strategy {
            StrategyConfig::Semantic(s) => Some(s),
            _ => None,
        }
    }

    /// The Markdown configuration with the heading prefix on or off.
    ///
    /// # Panics
    ///
    /// On another strategy's configuration, which has no heading prefix:
    /// start from [`Config::markdown`].
    pub fn with_heading_prefix(mut self, on: bool) -> Config {
        self.markdown_mut("with_heading_prefix").heading_prefix = on;
        self
    }

    /// The `chonkie-recursive` configuration with this
    /// `min_characters_per_chunk` (0 is kept, and refused when the split is
    /// made, as chonkie refuses it).
    ///
    /// # Panics
    ///
    /// On another strategy's configuration: start from
    /// `Config::for_strategy(Strategy::ChonkieRecursive)`.
    pub fn with_min_characters_per_chunk(mut self, min: usize) -> Config {
        let kind = self.kind();
        match &mut self.strategy {
            StrategyConfig::ChonkieRecursive(own) => own.min_characters_per_chunk = min,
            _ => panic!(
                "with_min_characters_per_chunk sets a chonkie-recursive setting, on a {:?} configuration",
                kind.name()
            ),
        }
        self
    }

    fn markdown_mut(&mut self, builder: &str) -> &mut MarkdownConfig {
        let kind = self.kind();
        match &mut self.strategy {
            StrategyConfig::Markdown(m) => m,
            _ => panic!(
                "{builder} sets a Markdown strategy's setting, on a {:?} configuration",
                kind.name()
            ),
        }
    }

    /// The defaults of `strategy`: ours for `fixed` and `recursive` (and for
    /// `sentence`, the sentence level then `" "` and `""` inside a sentence
    /// that is too long), and
    /// LangChain's own for its classes (`keep_separator`, and an empty list
    /// standing for LangChain's default separators). The CLI and the JS API
    /// start from these, so a LangChain strategy with nothing else set is
    /// LangChain with nothing else set.
    pub fn for_strategy(strategy: Strategy) -> Config {
        let defaults = Config::default();
        Config {
            strategy: strategy.into(),
            placement: strategy.default_placement(),
            separators: match strategy {
                Strategy::LangChainMarkdown => ["#", "##", "###"].map(Separator::literal).to_vec(),
                Strategy::Markdown => [". ", " ", ""].map(Separator::literal).to_vec(),
                _ if strategy.langchain().is_some() => Vec::new(),
                Strategy::Sentence => vec![
                    Separator::sentence(),
                    Separator::literal(" "),
                    Separator::hard_cut(),
                ],
                _ => defaults.separators,
            },
            // LlamaIndex's own default tokenizer counts cl100k tokens.
            unit: match strategy {
                _ if strategy.is_llamaindex() => Unit::Tokens(crate::tokens::Encoding::Cl100k),
                _ => defaults.unit,
            },
            ..defaults
        }
    }

    /// These common settings for `strategy`: the size and unit as they
    /// are, the overlap, separators, placement and trimming where `strategy`
    /// reads them and its defaults where it does not (an overlap of 0; see
    /// [`Strategy::uses_separators`]), and its own settings at their
    /// defaults (or as given, for a [`StrategyConfig`]). What a UI does
    /// when the learner switches strategy, so the result is never refused
    /// for a setting the new strategy ignores. (A list of patterns is kept
    /// as it is for `langchain-markdown`, which reads its separators as
    /// header markers.)
    pub fn with_strategy(self, strategy: impl Into<StrategyConfig>) -> Config {
        let own = strategy.into();
        let strategy = own.kind();
        let defaults = Config::for_strategy(strategy);
        Config {
            size: self.size,
            unit: self.unit,
            overlap: if strategy.uses_overlap() {
                self.overlap
            } else {
                0
            },
            separators: if strategy.uses_separators() {
                self.separators
            } else {
                defaults.separators
            },
            placement: if strategy.uses_placement() {
                self.placement
            } else {
                defaults.placement
            },
            trim: if strategy.uses_trim() {
                self.trim
            } else {
                defaults.trim
            },
            strategy: own,
        }
    }

    /// The same configuration with these separators.
    pub fn with_separators<I, S>(mut self, separators: I) -> Config
    where
        I: IntoIterator<Item = S>,
        S: Into<Separator>,
    {
        self.separators = separators.into_iter().map(Into::into).collect();
        self
    }

    /// The same configuration with this overlap.
    pub fn with_overlap(mut self, overlap: usize) -> Config {
        self.overlap = overlap;
        self
    }

    /// The same configuration counting in `unit`.
    pub fn with_unit(mut self, unit: Unit) -> Config {
        self.unit = unit;
        self
    }

    /// The same configuration with this placement.
    pub fn with_placement(mut self, placement: Placement) -> Config {
        self.placement = placement;
        self
    }

    /// The Markdown configuration with this table header rule.
    ///
    /// # Panics
    ///
    /// On another strategy's configuration, as
    /// [`Config::with_heading_prefix`].
    pub fn with_table_header(mut self, table_header: TableHeader) -> Config {
        self.markdown_mut("with_table_header").table_header = table_header;
        self
    }

    /// The same configuration with trimming on or off.
    pub fn with_trim(mut self, trim: bool) -> Config {
        self.trim = trim;
        self
    }

    /// Whether the separator list has the sentence level, so a split records
    /// the text's sentences.
    pub fn uses_sentences(&self) -> bool {
        self.kind().uses_separators()
            && self
                .separators
                .iter()
                .any(|s| s.level == Some(crate::separator::SeparatorLevel::Sentence))
    }

    /// Whether the separator list ends in a hard cut. Without one the recursive
    /// engine still cuts hard as a last resort (the size limit is a guarantee), but
    /// the cut is not one the learner asked for, so the UI warns.
    pub fn has_hard_cut(&self) -> bool {
        self.separators.iter().any(Separator::is_hard_cut)
    }

    pub(crate) fn matchers(&self) -> Result<Vec<Matcher>, Error> {
        if self.separators.is_empty() {
            return Err(Error::NoSeparators);
        }
        self.separators
            .iter()
            .enumerate()
            .map(|(index, sep)| {
                if sep.level == Some(crate::separator::SeparatorLevel::Sentence) {
                    Ok(Matcher::Sentence)
                } else if sep.is_hard_cut() {
                    Ok(Matcher::HardCut)
                } else if sep.regex {
                    Regex::new(&sep.pattern)
                        .map(Matcher::Regex)
                        .map_err(|e| Error::InvalidRegex {
                            index,
                            pattern: sep.pattern.clone(),
                            reason: e.to_string(),
                        })
                } else {
                    Ok(Matcher::Literal(sep.pattern.clone()))
                }
            })
            .collect()
    }
}

impl From<&str> for Separator {
    fn from(s: &str) -> Separator {
        Separator::literal(s)
    }
}

impl From<String> for Separator {
    fn from(s: String) -> Separator {
        Separator::literal(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_configurations_say_what_to_change() {
        let e = Config::fixed(0, 0).validate().unwrap_err();
        assert!(e.to_string().contains("at least 1"));
        let e = Config::fixed(4, 4).validate().unwrap_err();
        assert_eq!(
            e,
            Error::OverlapTooLarge {
                overlap: 4,
                size: 4
            }
        );
        assert!(e.to_string().contains("never move forward"));
        let e = Config::recursive(10)
            .with_separators(Vec::<Separator>::new())
            .validate()
            .unwrap_err();
        assert_eq!(e, Error::NoSeparators);
        let e = Config::recursive(10)
            .with_separators([Separator::regex("(")])
            .validate()
            .unwrap_err();
        assert!(matches!(e, Error::InvalidRegex { index: 0, .. }), "{e}");
        assert!(e
            .to_string()
            .starts_with("separator 1 is not a valid regular expression"));
    }

    #[test]
    fn langchain_strategies_follow_langchain_checks() {
        let lc = |size, overlap| Config {
            strategy: StrategyConfig::LangChain,
            ..Config::recursive(size).with_overlap(overlap)
        };
        // LangChain accepts overlap == size, and an empty list is its default.
        assert!(lc(4, 4).validate().is_ok());
        assert!(lc(4, 0)
            .with_separators(Vec::<Separator>::new())
            .validate()
            .is_ok());
        let e = lc(4, 5).validate().unwrap_err();
        assert!(matches!(e, Error::LangChain(_)), "{e}");
        let e = lc(0, 0).validate().unwrap_err();
        assert!(e.to_string().contains("chunk_size"), "{e}");
        let mixed = lc(10, 0).with_separators([Separator::regex(r"\s"), Separator::literal("x")]);
        assert!(mixed.validate().unwrap_err().to_string().contains("regex"));
    }

    /// Each common setting a strategy does not read is refused at any value
    /// but the strategy's default, naming the setting and the strategy; one
    /// it reads never is; and switching strategy with `with_strategy` never
    /// gives a configuration refused for it.
    #[test]
    fn a_setting_the_strategy_does_not_read_is_refused_unless_at_its_default() {
        use crate::Setting;
        type Change = fn(Config) -> Config;
        let odd: [(Setting, Change); 3] = [
            (Setting::Separators, |c| c.with_separators(["|", ""])),
            (Setting::Placement, |c| {
                let other = if c.placement == Placement::Start {
                    Placement::End
                } else {
                    Placement::Start
                };
                c.with_placement(other)
            }),
            (Setting::Trim, |c| {
                let trim = !c.trim;
                c.with_trim(trim)
            }),
        ];
        let (mut refused, mut read) = (0, 0);
        for strategy in Strategy::ALL {
            if strategy.is_text_splitter() && cfg!(not(feature = "text-splitter")) {
                continue;
            }
            let reads = [
                strategy.uses_separators(),
                strategy.uses_placement(),
                strategy.uses_trim(),
            ];
            for ((setting, change), reads) in odd.iter().zip(reads) {
                let config = change(Config::for_strategy(strategy).with_overlap(0));
                match config.validate() {
                    Err(Error::NotRead {
                        setting: s,
                        strategy: t,
                    }) => {
                        assert!(!reads, "{strategy}: {setting:?} is read");
                        assert_eq!((s, t), (*setting, strategy));
                        refused += 1;
                    }
                    other => {
                        assert!(reads, "{strategy}: {setting:?} is not read: {other:?}");
                        read += 1;
                    }
                }
            }
            let switched = Config::recursive(40)
                .with_separators(["|", ""])
                .with_placement(Placement::Start)
                .with_trim(false)
                .with_overlap(5)
                .with_strategy(strategy);
            assert!(
                !matches!(switched.validate(), Err(Error::NotRead { .. })),
                "{strategy}"
            );
            assert_eq!(switched.kind(), strategy);
        }
        // Fixed and the nine libraries' splitters read neither separators
        // nor placement; semchunk, Chonkie's three and LlamaIndex's three not
        // trim either.
        let built = if cfg!(feature = "text-splitter") {
            2
        } else {
            0
        };
        assert_eq!(refused, 2 * (8 + built) + 7);
        assert_eq!(read + refused, 3 * (Strategy::ALL.len() - 2 + built));
        let e = Config::for_strategy(Strategy::ChonkieRecursive)
            .with_separators(["|"])
            .validate()
            .unwrap_err();
        assert_eq!(e.setting(), Setting::Separators);
        assert_eq!(
            e.to_string(),
            "the \"chonkie-recursive\" strategy does not read separators (it follows the rules of chonkie 1.7.0), so it would be ignored: leave it out, or choose a strategy that reads it"
        );
    }

    #[test]
    fn names_parse_back() {
        for s in Strategy::ALL {
            assert_eq!(s.name().parse::<Strategy>().unwrap(), s);
        }
        assert!("LangChain"
            .parse::<Strategy>()
            .unwrap_err()
            .contains("langchain-character"));
        for p in [Placement::End, Placement::Start, Placement::None] {
            assert_eq!(p.name().parse::<Placement>().unwrap(), p);
        }
        assert!("tokens".parse::<Unit>().unwrap_err().contains("chars"));
    }
}
