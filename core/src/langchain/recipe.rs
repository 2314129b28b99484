//! The recipe of LangChain's docs for Markdown: `MarkdownHeaderTextSplitter`
//! cuts the document into sections with their headers as metadata, then
//! `RecursiveCharacterTextSplitter.split_documents` cuts each section that is
//! too long, copying the section's metadata onto every piece.
//!
//! The header splitter has no size limit, so on its own a long section is
//! one long chunk; the recipe is how LangChain users get both the heading
//! metadata and a size. Both steps are the exact engines of this module's
//! parent, so the chunks and metadata are LangChain's.
//!
//! The trace is the two steps as one tree: the whole text split at the
//! header cuts into sections, then inside each section the recursive
//! splitter's own levels. A section's text is often not a slice of the
//! source (LangChain strips its lines and rejoins its paragraphs with
//! `"  \n"`), so every span the recursive splitter reports inside it is
//! mapped back to the source through where its lines are.

use super::markdown::{self, Lines};
use super::{engine, Keep, Kind, LangChainChunk, LangChainConfig, LangChainError};
use super::{LangChainOutput, MarkdownHeaderConfig};
use crate::config::Config;
use crate::span::Span;
use crate::trace::{Action, Close, Cut, Node};
use crate::unit::Counter;

/// The header splitter, then the recursive splitter on each of its sections.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MarkdownRecipe {
    /// `MarkdownHeaderTextSplitter`'s arguments.
    pub headers: MarkdownHeaderConfig,
    /// `RecursiveCharacterTextSplitter`'s arguments (its `kind` is
    /// [`Kind::Recursive`]).
    pub recursive: LangChainConfig,
}

impl MarkdownRecipe {
    /// The recipe from the playground's settings, when
    /// [`HeaderSplitConfig::then_recursive`](crate::HeaderSplitConfig::then_recursive) asks for it: the header splitter from the
    /// header markers, placement and each-line setting; the recursive
    /// splitter with `chunk_size` = size, `chunk_overlap` = overlap, the
    /// unit as its length function, `then_recursive`'s separators (none:
    /// LangChain's default list), `keep_separator=True` (LangChain's
    /// default) and `strip_whitespace` = trim.
    pub fn from_config(config: &Config) -> Result<Option<MarkdownRecipe>, LangChainError> {
        let Some(separators) = config
            .header_split_config()
            .and_then(|h| h.then_recursive.as_ref())
        else {
            return Ok(None);
        };
        let headers = MarkdownHeaderConfig::from_config(config)?;
        let recursive = Config {
            separators: separators.clone(),
            placement: crate::Placement::Start,
            ..config.clone()
        };
        let recursive = LangChainConfig::from_config(Kind::Recursive, &recursive)?;
        debug_assert_eq!(recursive.keep_separator, Keep::Start);
        Ok(Some(MarkdownRecipe { headers, recursive }))
    }

    /// Python code that runs the recipe on `text` and gives the same chunks
    /// and metadata, as `(page_content, metadata)` pairs.
    pub fn to_python(&self) -> String {
        let headers = self.headers.to_python();
        let headers = headers
            .split("docs = ")
            .next()
            .unwrap_or_default()
            .replace("splitter = ", "headers = ");
        let recursive = self.recursive.to_python();
        let recursive = recursive
            .replace("    add_start_index=True,\n", "")
            .split("docs = ")
            .next()
            .unwrap_or_default()
            .replace(
                "from langchain_text_splitters import RecursiveCharacterTextSplitter\n\n",
                "",
            );
        let headers = headers.replace(
            "import MarkdownHeaderTextSplitter",
            "import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter",
        );
        format!(
            "{headers}{recursive}docs = splitter.split_documents(headers.split_text(text))\n\
             chunks = [(d.page_content, d.metadata) for d in docs]\n"
        )
    }
}

/// Runs the recipe on `text`: the recursive splitter's chunks of every
/// section, in order, each with its section's metadata; `counter` is the
/// recursive splitter's length function, `record` keeps the trace.
///
/// Separator indices (cuts, the trace) refer to the header splitter's
/// separators (its markers, then `"\n\n"`), followed by the recursive
/// splitter's effective ones. The last chunk of a section ends at the
/// section's own cut.
pub(crate) fn run(
    text: &str,
    recipe: &MarkdownRecipe,
    counter: Counter,
    record: bool,
) -> Result<LangChainOutput, LangChainError> {
    recipe.recursive.validate()?;
    let chars = Counter::CHARS;
    let (sections, lines) = markdown::run_with_lines(text, &recipe.headers, chars, record);
    let shift = sections.separators.len();
    let mut separators = sections.separators;
    separators.extend(recipe.recursive.effective_separators());

    let header_nodes = sections.trace.nodes;
    // With one section and no cut, the section's own tree is the whole tree;
    // otherwise each section's tree hangs where the header splitter's leaf was.
    let graft = header_nodes.len() > 1;
    let mut nodes: Vec<Node> = if graft || sections.chunks.is_empty() {
        header_nodes.into_iter().take(1).collect()
    } else {
        Vec::new()
    };
    if let Some(root) = nodes.first_mut().filter(|_| graft) {
        root.children.clear();
    }

    let mut chunks: Vec<LangChainChunk> = Vec::new();
    let mut warnings = Vec::new();
    for (section, lines) in sections.chunks.into_iter().zip(lines) {
        let out = engine::run(&section.text, &recipe.recursive, counter, record)?;
        warnings.extend(out.warnings);
        let map = |s: Span| place(text, &section.span, section.is_slice, &lines, s);
        let base = nodes.len();
        let first_chunk = chunks.len();
        for mut node in out.trace.nodes {
            node.span = map(node.span);
            for child in &mut node.children {
                *child += base;
            }
            for absent in &mut node.absent {
                *absent += shift;
            }
            node.action = match node.action {
                Action::Split { separator, parts } => Action::Split {
                    separator: separator + shift,
                    parts,
                },
                Action::HardCut { separator, windows } => Action::HardCut {
                    separator: separator.map(|s| s + shift),
                    windows,
                },
                other => other,
            };
            node.chunk = node.chunk.map(|c| c + first_chunk);
            match node.parent {
                Some(parent) => node.parent = Some(parent + base),
                None if graft => {
                    node.parent = Some(0);
                    node.parts = Some((section.index, section.index + 1));
                    node.close = Some(Close::ParentEnded);
                    nodes[0].children.push(base);
                }
                None => {}
            }
            if graft {
                node.depth += 1;
            }
            nodes.push(node);
        }
        let last = out.chunks.len().saturating_sub(1);
        for (i, piece) in out.chunks.into_iter().enumerate() {
            let span = map(piece.span);
            let is_slice = piece.is_slice && span.text(text) == piece.text;
            chunks.push(LangChainChunk {
                index: chunks.len(),
                span,
                is_slice,
                not_slice: if is_slice {
                    None
                } else {
                    piece.not_slice.or(section.not_slice)
                },
                start_index: None,
                metadata: section.metadata.clone(),
                cut: if i == last {
                    section.cut
                } else {
                    match piece.cut {
                        Cut::Separator(s) => Cut::Separator(s + shift),
                        other => other,
                    }
                },
                overlap: piece.overlap.map(map),
                node: piece.node.map(|n| n + base),
                ..piece
            });
        }
    }
    Ok(LangChainOutput {
        chunks,
        trace: crate::trace::Trace {
            nodes,
            semantic: None,
        },
        warnings,
        separators,
        regex: recipe.recursive.is_separator_regex,
    })
}

/// Where a span of a section's text is in the source: shifted by the
/// section's start when the section is a slice, mapped line by line when
/// LangChain rebuilt it.
fn place(source: &str, section: &Span, is_slice: bool, lines: &Lines, s: Span) -> Span {
    if is_slice {
        Span::new(section.start + s.start, section.start + s.end)
    } else {
        lines.source_span(source, s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_line_cut_into_many_chunks_maps_each_by_its_offset() {
        // Two paragraphs make the section's text not a slice (rejoined), so
        // every chunk is mapped through the lines: by offset, not by a walk.
        let line = "word ".repeat(200_000);
        let text = format!("# A\n{line}\n\n{line}");
        let recipe = MarkdownRecipe {
            headers: MarkdownHeaderConfig::new(["#"]),
            recursive: LangChainConfig::recursive(50, 0),
        };
        let counter = Counter::CHARS;
        let out = run(&text, &recipe, counter, false).unwrap();
        assert_eq!(out.chunks.len(), 40_000);
        assert!(out
            .chunks
            .iter()
            .all(|c| c.is_slice && c.span.text(&text) == c.text));
    }

    #[test]
    fn rejoined_sections_map_back_to_their_lines() {
        let text = "# A\none two\n\nthree four\n# B\nfive";
        let recipe = MarkdownRecipe {
            headers: MarkdownHeaderConfig::new(["#"]),
            recursive: LangChainConfig::recursive(9, 0),
        };
        let counter = Counter::CHARS;
        let out = run(text, &recipe, counter, true).unwrap();
        let got: Vec<(&str, &str, bool)> = out
            .chunks
            .iter()
            .map(|c| (c.text.as_str(), c.span.text(text), c.is_slice))
            .collect();
        assert_eq!(
            got,
            [
                ("one two", "one two", true),
                ("three", "three", true),
                ("four", "four", true),
                ("five", "five", true),
            ]
        );
        // Cuts: inside a section at the recursive " " (markers "#", "\n\n",
        // then "\n\n", "\n", " ", ""), and at the header before "# B".
        let cuts: Vec<Cut> = out.chunks.iter().map(|c| c.cut).collect();
        assert_eq!(
            cuts,
            [
                Cut::Separator(3),
                Cut::Separator(4),
                Cut::Separator(0),
                Cut::End
            ]
        );
        // The tree: the root split at "#" into two sections; the first split
        // again by the recursive splitter.
        let nodes = &out.trace.nodes;
        assert_eq!(nodes[0].children.len(), 2);
        let first = &nodes[nodes[0].children[0]];
        assert_eq!(first.span.text(text), "one two\n\nthree four");
        assert_eq!(first.depth, 2);
        assert!(first.children.iter().all(|&c| nodes[c].depth == 3));
        for (id, n) in nodes.iter().enumerate() {
            for &k in &n.children {
                assert_eq!(nodes[k].parent, Some(id));
            }
        }
        for c in &out.chunks {
            assert_eq!(nodes[c.node.unwrap()].chunk, Some(c.index));
        }
    }
}
