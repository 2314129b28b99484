//! The three ways separator-based splitting breaks Markdown, each a small
//! document the interview cards load beside the Markdown strategy: a heading
//! cut from its body, table rows that lose their header, and a code fence
//! split at a blank line inside it. The sizes that show each are on the cards.

use crate::text::Text;

/// Two sections under one title: at 70 chars, separators keep the title and
/// the first subheading together and leave its body to the next chunk.
const HEADING: &str = include_str!("structure/heading.md");
/// A table longer than 80 chars: cut between rows either way, but only the
/// Markdown strategy records the header the later rows are read with.
const TABLE: &str = include_str!("structure/table.md");
/// A fence with a blank line inside: at 100 chars, "\n\n" cuts the fence in
/// two; the Markdown strategy keeps it whole, since it fits.
const FENCE: &str = include_str!("structure/fence.md");

/// The card document called `name`, if it is one of these.
pub fn text(name: &str) -> Option<Text> {
    Some(match name {
        "md-heading" => HEADING.into(),
        "md-table" => TABLE.into(),
        "md-fence" => FENCE.into(),
        _ => return None,
    })
}
