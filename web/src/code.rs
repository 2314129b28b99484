//! The current settings written as code a learner can paste into a project:
//! Rust with this crate, and Python with LangChain's closest splitter, with a
//! note wherever LangChain would cut differently.

use chunkscope::langchain::python_str;
use chunkscope::{Config, Placement, Separator, Strategy, Unit};

/// A Rust literal for `s` (Rust's own escaping, so it always compiles).
fn rust_str(s: &str) -> String {
    format!("{s:?}")
}

/// The settings as Rust code using `chunkscope`.
pub fn rust(config: &Config) -> String {
    let mut builder = match config.strategy {
        Strategy::Fixed => format!("Config::fixed({}, {})", config.size, config.overlap),
        Strategy::Recursive => {
            let mut b = format!("Config::recursive({})", config.size);
            if config.overlap > 0 {
                b.push_str(&format!("\n    .with_overlap({})", config.overlap));
            }
            let any_regex = config.separators.iter().any(|s| s.regex);
            let list: Vec<String> = config
                .separators
                .iter()
                .map(|s| match (any_regex, s.regex) {
                    (false, _) => rust_str(&s.pattern),
                    (true, false) => format!("Separator::literal({})", rust_str(&s.pattern)),
                    (true, true) => format!("Separator::regex({})", rust_str(&s.pattern)),
                })
                .collect();
            b.push_str(&format!("\n    .with_separators([{}])", list.join(", ")));
            if config.placement != Placement::End {
                let p = match config.placement {
                    Placement::Start => "Start",
                    _ => "None",
                };
                b.push_str(&format!("\n    .with_placement(Placement::{p})"));
            }
            b
        }
    };
    if config.unit == Unit::Bytes {
        builder.push_str("\n    .with_unit(Unit::Bytes)");
    }
    if !config.trim {
        builder.push_str("\n    .with_trim(false)");
    }
    let mut imports = vec!["split", "Config"];
    if builder.contains("Placement::") {
        imports.push("Placement");
    }
    if builder.contains("Separator::") {
        imports.push("Separator");
    }
    if builder.contains("Unit::") {
        imports.push("Unit");
    }
    format!(
        "use chunkscope::{{{}}};\n\n\
         let config = {builder};\n\
         let out = split(text, &config)?;\n\
         for chunk in &out.chunks {{\n    \
             // chunk.span is the exact byte range; chunk.cut says what ended it.\n    \
             println!(\"{{}} {{:?}}\", chunk.index, chunk.text(text));\n\
         }}\n",
        imports.join(", ")
    )
}

/// The settings as Python code using LangChain, and where its chunks would differ.
pub fn python(config: &Config) -> (String, Vec<&'static str>) {
    let mut notes = Vec::new();
    let length = match config.unit {
        Unit::Chars => "len",
        Unit::Bytes => "lambda s: len(s.encode(\"utf-8\"))",
    };
    let code = match config.strategy {
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
                .map(|s: &Separator| python_str(&s.pattern))
                .collect();
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
                 from the source; here every chunk is an exact slice of the text.",
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
                            format!("re.escape({})", python_str(&s.pattern))
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
    };
    (code, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
