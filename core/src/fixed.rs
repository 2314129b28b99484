//! Fixed windows: every `size` units, stepping `size − overlap`.

use crate::engine::Run;
use crate::error::Error;
use crate::span::{is_space, Span};
use crate::trace::{Cut, Node};
use crate::unit::{ceil_boundary, Unit};

/// Cuts `run.source` into windows.
///
/// Termination: every step moves the start forward by at least one unit
/// (`size − overlap ≥ 1` is checked before; in tokens, at least one char), and
/// the loop stops once a window reaches the end, so there is no tail made only
/// of overlap.
pub(crate) fn split(run: &mut Run<'_>) -> Result<(), Error> {
    let source = run.source;
    let Run { config, .. } = *run;
    let (size, unit) = (config.size, run.counter);
    let stride = size - config.overlap;
    if source.is_empty() {
        return Ok(());
    }
    let total = unit.len(source);
    let root = run.node(Node::windows(source.len(), total, size, stride));
    run.pending = Cut::Window;
    let mut start = 0;
    // The end of the window at `start`, when finding `start` already took it.
    let mut known_end = None;
    while start < source.len() {
        let end = known_end
            .take()
            .unwrap_or_else(|| unit.forward(source, start, size));
        if end == start {
            return Err(run.char_too_big(start, run.config.size));
        }
        let window = Span::new(start, end);
        let text = window.text(source);
        if !config.trim || !text.chars().all(is_space) {
            // A window that stops before the end holds exactly `size` chars,
            // so only the last one needs counting.
            let len = match unit.unit() {
                Unit::Chars if end < source.len() => size,
                _ => unit.len(text),
            };
            run.emit(window, len, root);
        }
        if end == source.len() {
            break;
        }
        start = match unit.unit() {
            Unit::Chars => unit.forward(source, start, stride),
            // Tokens counted on a window's own text do not add up, so both
            // promises are checked: the text two windows share holds at most
            // `overlap` tokens, and the next window reaches past `end`.
            // Starting at `end` keeps both, so the search ends.
            Unit::Tokens(_) => {
                let mut next = unit
                    .backward(source, end, config.overlap, start)
                    .max(ceil_boundary(source, start + 1))
                    .min(end);
                while next < end {
                    if unit.len(&source[next..end]) <= config.overlap {
                        let next_end = unit.forward(source, next, size);
                        if next_end > end {
                            known_end = Some(next_end);
                            break;
                        }
                    }
                    next = ceil_boundary(source, next + 1);
                }
                next
            }
            // Never past `end` (a character straddling both would be skipped), and
            // far enough that the next window reaches past `end`: a window that
            // ended where this one does would repeat it and add nothing.
            Unit::Bytes => {
                let next_char = source[end..].chars().next().map_or(1, char::len_utf8);
                let reach = ceil_boundary(source, (end + next_char).saturating_sub(size));
                ceil_boundary(source, start + stride).max(reach).min(end)
            }
        };
    }
    Ok(())
}
