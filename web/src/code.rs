//! The current settings written as code a learner can paste into a project:
//! Rust with this crate, and Python with LangChain: for a LangChain strategy
//! the very call that gives the chunks on the page, for ours LangChain's
//! closest splitter with a note wherever it would cut differently.

use chunkscope::langchain::{python_str, LangChainConfig};
use chunkscope::{ChonkieConfig, Config, Placement, Separator, Strategy, Unit};

/// A Rust literal for `s` (Rust's own escaping, so it always compiles).
fn rust_str(s: &str) -> String {
    format!("{s:?}")
}

/// The separators as the argument of `with_separators`: plain strings, or
/// `Separator::literal`/`Separator::regex`/`Separator::sentence()` once any
/// of them is a regex or a level.
fn rust_separators(separators: &[Separator]) -> String {
    let any_regex = separators.iter().any(|s| s.regex || s.level.is_some());
    let list: Vec<String> = separators
        .iter()
        .map(|s| match (any_regex, s.regex) {
            _ if s.level.is_some() => "Separator::sentence()".to_string(),
            (false, _) => rust_str(&s.pattern),
            (true, false) => format!("Separator::literal({})", rust_str(&s.pattern)),
            (true, true) => format!("Separator::regex({})", rust_str(&s.pattern)),
        })
        .collect();
    format!("[{}]", list.join(", "))
}

/// What a separator is in LangChain's list: its pattern, and for the
/// sentence level (which LangChain lacks) the period rule `". "`.
fn python_pattern(s: &Separator) -> &str {
    if s.level.is_some() {
        ". "
    } else {
        &s.pattern
    }
}

/// The settings as Rust code using `chunkscope`.
pub fn rust(config: &Config) -> String {
    let placement = |b: &mut String| {
        if config.placement != config.kind().default_placement() {
            let p = match config.placement {
                Placement::End => "End",
                Placement::Start => "Start",
                Placement::None => "None",
            };
            b.push_str(&format!("\n    .with_placement(Placement::{p})"));
        }
    };
    let overlap = |b: &mut String| {
        if config.overlap > 0 {
            b.push_str(&format!("\n    .with_overlap({})", config.overlap));
        }
    };
    let mut builder = match config.kind() {
        Strategy::Fixed => format!("Config::fixed({}, {})", config.size, config.overlap),
        Strategy::Recursive => {
            let mut b = format!("Config::recursive({})", config.size);
            overlap(&mut b);
            b.push_str(&format!(
                "\n    .with_separators({})",
                rust_separators(&config.separators)
            ));
            placement(&mut b);
            b
        }
        // LangChain's own defaults, then what differs from them; an empty list
        // is LangChain's default list, as in Python.
        Strategy::LangChain | Strategy::LangChainCharacter => {
            let variant = match config.kind() {
                Strategy::LangChainCharacter => "LangChainCharacter",
                _ => "LangChain",
            };
            let mut b = format!(
                "Config {{\n    size: {},\n    ..Config::for_strategy(Strategy::{variant})\n}}",
                config.size
            );
            overlap(&mut b);
            if !config.separators.is_empty() {
                b.push_str(&format!(
                    "\n    .with_separators({})",
                    rust_separators(&config.separators)
                ));
            }
            placement(&mut b);
            b
        }
        // A strategy without a builder of its own: its defaults, then the
        // size and what differs.
        other => {
            let mut b = format!(
                "Config {{\n    size: {},\n    ..Config::for_strategy(\"{}\".parse().unwrap())\n}}",
                config.size,
                other.name()
            );
            overlap(&mut b);
            if config.separators != Config::for_strategy(other).separators {
                b.push_str(&format!(
                    "\n    .with_separators({})",
                    rust_separators(&config.separators)
                ));
            }
            placement(&mut b);
            b
        }
    };
    match config.unit {
        Unit::Chars => {}
        Unit::Bytes => builder.push_str("\n    .with_unit(Unit::Bytes)"),
        Unit::Tokens(encoding) => builder.push_str(&format!(
            "\n    .with_unit(Unit::Tokens(Encoding::{encoding:?}))"
        )),
    }
    if !config.trim {
        builder.push_str("\n    .with_trim(false)");
    }
    // The Markdown strategy's own settings.
    if let Some(own) = config.markdown_config() {
        if own.heading_prefix {
            builder.push_str("\n    .with_heading_prefix(true)");
        }
        if own.table_header == chunkscope::TableHeader::Repeat {
            builder.push_str("\n    .with_table_header(TableHeader::Repeat)");
        }
    }
    // Chonkie's minimum, where it is not chonkie's default.
    if let Some(own) = config.chonkie_config() {
        if own.min_characters_per_chunk != ChonkieConfig::DEFAULT_MIN_CHARACTERS_PER_CHUNK {
            builder.push_str(&format!(
                "\n    .with_min_characters_per_chunk({})",
                own.min_characters_per_chunk
            ));
        }
    }
    let comment = if config.kind().langchain().is_some() {
        "chunk.span is where the chunk comes from; out.langchain has LangChain's own text where it differs, and start_index."
    } else {
        "chunk.span is the exact byte range; chunk.cut says what ended it."
    };
    let mut imports = vec!["split", "Config"];
    if builder.contains("Strategy::") {
        imports.push("Strategy");
    }
    if builder.contains("Placement::") {
        imports.push("Placement");
    }
    if builder.contains("Separator::") {
        imports.push("Separator");
    }
    if builder.contains("TableHeader::") {
        imports.push("TableHeader");
    }
    if builder.contains("Unit::") {
        imports.push("Unit");
    }
    if builder.contains("Encoding::") {
        imports.push("tokens::Encoding");
    }
    format!(
        "use chunkscope::{{{}}};\n\n\
         let config = {builder};\n\
         let out = split(text, &config)?;\n\
         for chunk in &out.chunks {{\n    \
             // {comment}\n    \
             println!(\"{{}} {{:?}}\", chunk.index, chunk.text(text));\n\
         }}\n",
        imports.join(", ")
    )
}

/// The settings as Python code using LangChain, and where its chunks would
/// differ from the page's. For a LangChain strategy the code is the call that
/// gives exactly the page's chunks (and start indices), so there are no notes.
pub fn python(config: &Config) -> (String, Vec<&'static str>) {
    let mut notes = Vec::new();
    let length = match config.unit {
        Unit::Chars => "len".to_string(),
        Unit::Bytes => "lambda s: len(s.encode(\"utf-8\"))".to_string(),
        Unit::Tokens(encoding) => format!(
            "lambda s: len(tiktoken.get_encoding(\"{}\").encode(s))",
            encoding.python_name()
        ),
    };
    let code = match config.kind() {
        Strategy::LangChain | Strategy::LangChainCharacter => {
            return (langchain_python(config), notes)
        }
        // MarkdownHeaderTextSplitter, alone or followed by the recursive
        // splitter (the recipe of LangChain's docs): the engine's own code.
        // semchunk itself: the call that gives the page's chunks.
        Strategy::Semchunk => {
            let code =
                chunkscope::semchunk::to_python(config.size, config.overlap, config.unit);
            return (code, notes);
        }
        // Chonkie itself: the call that gives the page's chunks.
        Strategy::ChonkieRecursive => {
            let own = config.chonkie_config().copied().unwrap_or_default();
            let code = chunkscope::chonkie::to_python(config.size, config.unit, &own);
            return (code, notes);
        }
        Strategy::ChonkieToken => {
            let code =
                chunkscope::chonkie_token::to_python(config.size, config.overlap, config.unit);
            return (code, notes);
        }
        Strategy::ChonkieSentence => {
            let code =
                chunkscope::chonkie_sentence::to_python(config.size, config.overlap, config.unit);
            return (code, notes);
        }
        // LlamaIndex itself: the call that gives the page's chunks.
        Strategy::LlamaIndexSentence => {
            let code =
                chunkscope::llamaindex::to_python(config.size, config.overlap, config.unit);
            return (code, notes);
        }
        Strategy::LlamaIndexToken => {
            let code =
                chunkscope::llamaindex::token::to_python(config.size, config.overlap, config.unit);
            return (code, notes);
        }
        // The parser has no setting: the same call whatever the size.
        Strategy::LlamaIndexMarkdown => {
            return (chunkscope::llamaindex::markdown::to_python(), notes);
        }
        // The Python package of the text-splitter crate: the call that
        // gives the page's chunks.
        Strategy::TextSplitter | Strategy::TextSplitterMarkdown => {
            let kind = if config.kind() == Strategy::TextSplitter {
                chunkscope::text_splitter::Kind::Text
            } else {
                chunkscope::text_splitter::Kind::Markdown
            };
            let code = chunkscope::text_splitter::to_python(
                kind,
                config.size,
                config.overlap,
                config.trim,
                config.unit,
            );
            return (code, notes);
        }
        Strategy::LangChainMarkdown => {
            let code = match config.kind().langchain_python(config) {
                Some((_, code)) => code,
                None => "# These settings have no LangChain equivalent\n".to_string(),
            };
            return (code, notes);
        }
        Strategy::Fixed => {
            notes.push(
                "LangChain has no plain fixed-window splitter. CharacterTextSplitter with an empty \
                 separator cuts the text into single characters and packs them back up, which gives \
                 windows of the same size, but it strips whitespace from their ends and builds the \
                 overlap from whole characters of the previous window, so offsets can differ.",
            );
            format!(
                "from langchain_text_splitters import CharacterTextSplitter\n\n\
                 splitter = CharacterTextSplitter(\n    \
                     separator=\"\",\n    \
                     chunk_size={},\n    \
                     chunk_overlap={},\n    \
                     length_function={length},\n\
                 )\n\
                 chunks = splitter.split_text(text)\n",
                config.size, config.overlap
            )
        }
        Strategy::Recursive => {
            let list: Vec<String> = config
                .separators
                .iter()
                .map(|s: &Separator| python_str(python_pattern(s)))
                .collect();
            if config.uses_sentences() {
                notes.push(
                    "LangChain has no sentence level: \\p{sentence} is written as \". \" here, a \
                     period rule that also cuts after \"e.g.\" or \"Dr.\", inside URLs, and never \
                     after 。 without a space.",
                );
            }
            let keep = match config.placement {
                Placement::End => "\"end\"",
                Placement::Start => "\"start\"",
                Placement::None => "False",
            };
            let regex = if config.separators.iter().any(|s| s.regex) {
                notes.push(
                    "LangChain reads every separator as a regex once is_separator_regex is on, so \
                     the literal ones are escaped with re.escape first.",
                );
                "True"
            } else {
                "False"
            };
            notes.push(
                "LangChain picks one separator for the whole text (the first one present), splits \
                 on it, and merges the parts by joining strings, so whitespace at a join can differ \
                 from the source; here every chunk is an exact slice of the text. Pick \"Compare \
                 recursive and LangChain\" as the strategy to see LangChain's exact chunks beside \
                 these.",
            );
            if config.overlap > 0 {
                notes.push(
                    "LangChain's overlap is made of whole parts from the end of the previous chunk, \
                     so it may repeat more or less text than here; here the overlap is at most the \
                     setting and never takes a chunk over the size.",
                );
            }
            if !config.has_hard_cut() {
                notes.push(
                    "Without \"\" at the end of the list, LangChain returns a piece it cannot split \
                     as one oversized chunk (with a warning); here it is still cut at the size.",
                );
            }
            let list = if regex == "True" {
                config
                    .separators
                    .iter()
                    .map(|s| {
                        if s.regex {
                            python_str(&s.pattern)
                        } else {
                            format!("re.escape({})", python_str(python_pattern(s)))
                        }
                    })
                    .collect::<Vec<_>>()
            } else {
                list
            };
            format!(
                "{}from langchain_text_splitters import RecursiveCharacterTextSplitter\n\n\
                 splitter = RecursiveCharacterTextSplitter(\n    \
                     separators=[{}],\n    \
                     chunk_size={},\n    \
                     chunk_overlap={},\n    \
                     keep_separator={keep},\n    \
                     strip_whitespace={},\n    \
                     is_separator_regex={regex},\n    \
                     length_function={length},\n\
                 )\n\
                 chunks = splitter.split_text(text)\n",
                if regex == "True" { "import re\n" } else { "" },
                list.join(", "),
                config.size,
                config.overlap,
                if config.trim { "True" } else { "False" },
            )
        }
        // No LangChain class does what this strategy does: chunkscope's own
        // Python package runs the same engine.
        other => {
            return (
                format!(
                    "import chunkscope  # pip install ./python (this repository)\n\n\
                     report = chunkscope.split(text, strategy=\"{}\", size={}, overlap={}, unit=\"{}\")\n\
                     chunks = [c[\"text\"] for c in report[\"chunks\"]]\n",
                    other.name(),
                    config.size,
                    config.overlap,
                    config.unit.name()
                ),
                notes,
            )
        }
    };
    let code = if matches!(config.unit, Unit::Tokens(_)) {
        format!("import tiktoken\n{code}")
    } else {
        code
    };
    (code, notes)
}

/// The LangChain call behind a LangChain strategy: the engine's own
/// translation of the settings, so the code gives the page's chunks.
fn langchain_python(config: &Config) -> String {
    let made = config
        .kind()
        .langchain()
        .map(|kind| LangChainConfig::from_config(kind, config));
    match made {
        Some(Ok(langchain)) => langchain.to_python(),
        Some(Err(e)) => format!("# These settings have no LangChain equivalent: {e}\n"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The code the page shows for chonkie-recursive gives its chunks: the
    /// minimum appears in both languages when it is not chonkie's 24, and
    /// not at all when it is.
    #[test]
    fn chonkie_code_carries_its_minimum() {
        let chonkie = Config::for_strategy(Strategy::ChonkieRecursive);
        let tuned = chonkie.clone().with_min_characters_per_chunk(3);
        assert!(
            rust(&tuned).contains("\n    .with_min_characters_per_chunk(3);"),
            "{}",
            rust(&tuned)
        );
        assert!(
            python(&tuned)
                .0
                .contains("chunk_size=1000, min_characters_per_chunk=3)"),
            "{}",
            python(&tuned).0
        );
        assert!(!rust(&chonkie).contains("min_characters"));
        assert!(!python(&chonkie).0.contains("min_characters"));
    }

    #[test]
    fn rust_code_for_markdown_carries_its_own_settings() {
        let config = Config::markdown(300)
            .with_heading_prefix(true)
            .with_table_header(chunkscope::TableHeader::Repeat);
        let code = rust(&config);
        assert!(
            code.starts_with("use chunkscope::{split, Config, TableHeader};"),
            "{code}"
        );
        assert!(
            code.contains(
                "\n    .with_heading_prefix(true)\n    .with_table_header(TableHeader::Repeat);"
            ),
            "{code}"
        );
        assert!(
            !rust(&Config::markdown(300)).contains("with_"),
            "defaults say nothing"
        );
    }

    #[test]
    fn rust_code_for_the_lesson() {
        let config = Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]);
        let code = rust(&config);
        assert!(
            code.starts_with("use chunkscope::{split, Config};"),
            "{code}"
        );
        assert!(
            code.contains(r#".with_separators(["\n\n", "\n", ". ", " ", ""])"#),
            "{code}"
        );
        let code = rust(&Config::fixed(4, 1).with_unit(Unit::Bytes));
        assert!(
            code.contains("Config::fixed(4, 1)\n    .with_unit(Unit::Bytes)"),
            "{code}"
        );
    }

    #[test]
    fn python_code_for_the_markdown_recipe() {
        let config = Config {
            size: 30,
            strategy: chunkscope::StrategyConfig::LangChainMarkdown(
                chunkscope::HeaderSplitConfig {
                    each_line: false,
                    then_recursive: Some(Vec::new()),
                },
            ),
            ..Config::for_strategy(Strategy::LangChainMarkdown)
        };
        let (code, notes) = python(&config);
        assert!(notes.is_empty());
        assert!(
            code.contains("docs = splitter.split_documents(headers.split_text(text))"),
            "{code}"
        );
        assert!(code.contains("chunk_size=30"), "{code}");
        let (code, _) = python(&Config::for_strategy(Strategy::LangChainMarkdown));
        assert!(code.contains("docs = splitter.split_text(text)"), "{code}");
    }

    #[test]
    fn python_code_for_the_lesson() {
        let config = Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]);
        let (code, notes) = python(&config);
        assert!(
            code.contains(r#"separators=["\n\n", "\n", ". ", " ", ""]"#),
            "{code}"
        );
        assert!(code.contains("keep_separator=\"end\""));
        assert_eq!(notes.len(), 1);
        let config = config.with_separators([Separator::regex(r"\n#+ "), Separator::literal(".")]);
        let (code, notes) = python(&config);
        assert!(code.starts_with("import re\n"));
        assert!(
            code.contains(r#"separators=["\\n#+ ", re.escape(".")]"#),
            "{code}"
        );
        assert!(notes.iter().any(|n| n.contains("Without")));
    }

    #[test]
    fn langchain_strategies_copy_the_exact_call() {
        let config = Config {
            size: 40,
            ..Config::for_strategy(Strategy::LangChain)
        }
        .with_separators(["\n\n", "\n", ". ", " ", ""]);
        let (code, notes) = python(&config);
        assert!(notes.is_empty(), "the code gives the page's chunks");
        assert!(code.contains("RecursiveCharacterTextSplitter("), "{code}");
        assert!(code.contains("keep_separator=\"start\""), "{code}");
        assert!(code.contains("add_start_index=True"), "{code}");
        let code = rust(&config);
        assert!(
            code.contains("..Config::for_strategy(Strategy::LangChain)"),
            "{code}"
        );
        assert!(
            !code.contains("with_placement"),
            "start is the default: {code}"
        );
        let character = Config {
            size: 40,
            ..Config::for_strategy(Strategy::LangChainCharacter)
        }
        .with_placement(Placement::Start);
        let (code, _) = python(&character);
        assert!(
            code.contains("CharacterTextSplitter(\n    separator=\"\\n\\n\""),
            "{code}"
        );
        assert!(rust(&character).contains(".with_placement(Placement::Start)"));
        // LangChain has one regex switch for the whole list.
        let mixed = config.with_separators([Separator::regex(r"\s+"), Separator::literal("x")]);
        assert!(python(&mixed)
            .0
            .starts_with("# These settings have no LangChain equivalent"));
    }
}
