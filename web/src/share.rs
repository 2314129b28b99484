//! The whole page state in a link: text, view and settings (the semantic
//! strategy's too), compressed with
//! DEFLATE and written in URL-safe base64 after `#s=`. A link can come from
//! anywhere, so reading one checks everything and limits how much it may
//! inflate to; anything wrong is a message, and the page starts from defaults.
//!
//! The browser compresses and inflates (`crate::deflate`), so [`encode`] and
//! [`decode`] are asynchronous; what they wrap, [`plain`] and [`read`], is
//! not. A link in the address is read before the page mounts ([`open`]), so
//! the first state drawn is already the link's.

use crate::state::{SemanticSettings, Settings, View};
use crate::text::Text;
use chunkscope::{escape, unescape, Separator};

/// What a link carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub text: Text,
    pub view: View,
    pub settings: Settings,
    /// The semantic strategy's threshold kind, amount and buffer: only its
    /// engine reads them, so they are kept apart from `settings`.
    pub semantic: SemanticSettings,
}

/// The first line of every snapshot, so that a future format can be told apart.
const MAGIC: &str = "chunkscope 1";
/// The most a link may inflate to (a link is not a way to upload a corpus).
const MAX_BYTES: usize = 4 << 20;

/// The link fragment (`s=…`, without the `#`) for this state; `None` when the
/// browser could not compress it.
pub async fn encode(snapshot: &Snapshot) -> Option<String> {
    let packed = crate::deflate::pack(plain(snapshot).as_bytes())
        .await
        .ok()?;
    Some(link(&packed))
}

/// The fragment for an already compressed snapshot.
fn link(packed: &[u8]) -> String {
    format!("s={}", base64url(packed))
}

/// What a link compresses: the format's first line, one setting a line, then
/// the text.
pub fn plain(snapshot: &Snapshot) -> String {
    let s = &snapshot.settings;
    let mut plain = format!(
        "{MAGIC}\nview={}\nsize={}\noverlap={}\nunit={}\nplacement={}\ntrim={}\neach_line={}\nheading_prefix={}\n",
        snapshot.view.name(),
        escape(&s.size),
        escape(&s.overlap),
        s.unit.name(),
        s.placement.name(),
        u8::from(s.trim),
        u8::from(s.each_line),
        u8::from(s.heading_prefix),
    );
    // Written only when not the default, so a link without it is unchanged.
    if let View::Libraries(shown) = snapshot.view {
        if shown != crate::state::Libraries::DEFAULT {
            plain.push_str(&format!("libraries={}\n", shown.names()));
        }
    }
    if let Some(list) = s.then_recursive {
        plain.push_str(&format!("then_recursive={}\n", list.name()));
    }
    // Written only when not the default, so a link without it is unchanged.
    if s.table_header != chunkscope::TableHeader::Once {
        plain.push_str(&format!("table_header={}\n", s.table_header.name()));
    }
    // As typed, and only when not chonkie's default.
    if s.min_characters != crate::state::settings::default_min_characters() {
        plain.push_str(&format!("min_characters={}\n", escape(&s.min_characters)));
    }
    let m = &snapshot.semantic;
    plain.push_str(&format!(
        "breakpoint={}\namount={}\nbuffer={}\n",
        m.breakpoint.name(),
        escape(&m.amount),
        escape(&m.buffer)
    ));
    for sep in &s.separators {
        // A level (`v`) is written as its spelling, `\p{sentence}`.
        let (kind, pattern) = match sep.level {
            Some(level) => ('v', level.spelling()),
            None if sep.regex => ('r', sep.pattern.as_str()),
            None => ('l', sep.pattern.as_str()),
        };
        plain.push_str(&format!("sep={kind}:{}\n", escape(pattern)));
    }
    plain.push_str("text\n");
    plain.push_str(&snapshot.text);
    plain
}

/// The compressed bytes of a link fragment; `Ok(None)` when the fragment is
/// not a shared state at all (no `s=`).
fn packed(fragment: &str) -> Result<Option<Vec<u8>>, String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let Some(data) = fragment.strip_prefix("s=") else {
        return Ok(None);
    };
    Ok(Some(
        from_base64url(data).ok_or("the link is not valid base64")?,
    ))
}

/// The message for a stream that does not inflate, or inflates past the limit.
const DAMAGED: &str = "the link is damaged or too large to open";

/// Reads a link fragment made by [`encode`]. `Ok(None)` when the fragment is
/// not a shared state at all (no `s=`), so the page just starts normally.
pub async fn decode(fragment: &str) -> Result<Option<Snapshot>, String> {
    let Some(packed) = packed(fragment)? else {
        return Ok(None);
    };
    match crate::deflate::unpack(&packed, MAX_BYTES).await {
        Ok(Some(plain)) => read(plain).map(Some),
        _ => Err(DAMAGED.into()),
    }
}

thread_local! {
    /// The address's link, read before the page mounted.
    static OPENED: std::cell::RefCell<Result<Option<Snapshot>, String>> =
        const { std::cell::RefCell::new(Ok(None)) };
}

/// Reads the address's link (if any), then calls `mount`: the page's first
/// state is the link's, never the defaults replaced a moment later.
pub fn open(mount: impl FnOnce() + 'static) {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if !hash.starts_with("#s=") {
        mount();
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let opened = decode(&hash).await;
        OPENED.with(|o| *o.borrow_mut() = opened);
        mount();
    });
}

/// What [`open`] read from the address: taken once, by the first state.
pub fn opened() -> Result<Option<Snapshot>, String> {
    OPENED.with(|o| std::mem::replace(&mut *o.borrow_mut(), Ok(None)))
}

/// The snapshot an inflated link holds, every line checked.
fn read(plain: Vec<u8>) -> Result<Snapshot, String> {
    let plain = String::from_utf8(plain).map_err(|_| "the link does not hold text")?;
    let (head, text) = plain
        .split_once("\ntext\n")
        .ok_or("the link has no document in it")?;
    let mut lines = head.lines();
    if lines.next() != Some(MAGIC) {
        return Err("the link was made by another version of chunkscope".into());
    }
    let mut view = View::Recursive;
    let mut settings = crate::state::State::default().settings;
    settings.separators.clear();
    // A link made before the semantic settings were shared has none: the
    // strategy's defaults then, as when the page opens.
    let mut semantic = SemanticSettings::default();
    for line in lines {
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| format!("unreadable line {line:?}"))?;
        match key {
            "view" => view = View::parse(value).ok_or_else(|| format!("unknown view {value:?}"))?,
            "libraries" => {
                let shown = crate::state::Libraries::parse(value)
                    .ok_or_else(|| format!("unknown libraries {value:?}"))?;
                match view {
                    View::Libraries(_) => view = View::Libraries(shown),
                    _ => return Err("libraries without the libraries view".into()),
                }
            }
            "size" => settings.size = unescape(value)?,
            "overlap" => settings.overlap = unescape(value)?,
            "unit" => settings.unit = value.parse()?,
            "placement" => settings.placement = value.parse()?,
            "trim" => settings.trim = value == "1",
            "each_line" => settings.each_line = value == "1",
            "then_recursive" => {
                settings.then_recursive = Some(
                    crate::state::RecipeList::parse(value)
                        .ok_or_else(|| format!("unknown recipe separator list {value:?}"))?,
                )
            }
            "heading_prefix" => settings.heading_prefix = value == "1",
            "table_header" => settings.table_header = value.parse()?,
            "min_characters" => settings.min_characters = unescape(value)?,
            "breakpoint" => semantic.breakpoint = value.parse()?,
            "amount" => semantic.amount = unescape(value)?,
            "buffer" => semantic.buffer = unescape(value)?,
            "sep" => {
                let (kind, pattern) = value
                    .split_once(':')
                    .ok_or_else(|| format!("unreadable separator {value:?}"))?;
                let pattern = unescape(pattern)?;
                settings.separators.push(match kind {
                    "l" => Separator::literal(pattern),
                    "r" => Separator::regex(pattern),
                    "v" => Separator::parse(&pattern, false)
                        .ok()
                        .filter(|s| s.level.is_some())
                        .ok_or_else(|| format!("unknown separator level {pattern:?}"))?,
                    _ => return Err(format!("unknown separator kind {kind:?}")),
                });
            }
            _ => return Err(format!("unknown setting {key:?}")),
        }
    }
    Ok(Snapshot {
        text: text.into(),
        view,
        settings,
        semantic,
    })
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// URL-safe base64 without padding (RFC 4648 §5).
pub(crate) fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for k in 0..=group.len() {
            out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}

pub(crate) fn from_base64url(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes() {
        let v = ALPHABET.iter().position(|&a| a == c)? as u32;
        acc = acc << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::testing::start;
    use crate::state::RecipeList;
    use chunkscope::semantic::Breakpoint;
    use chunkscope::Strategy;

    // The browser's compressor stands in for these in the page; any raw
    // DEFLATE stream inflates the same.
    fn encode(snapshot: &Snapshot) -> String {
        link(&miniz_oxide::deflate::compress_to_vec(
            plain(snapshot).as_bytes(),
            9,
        ))
    }

    fn decode(fragment: &str) -> Result<Option<Snapshot>, String> {
        let Some(packed) = packed(fragment)? else {
            return Ok(None);
        };
        let plain = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_BYTES)
            .map_err(|_| DAMAGED)?;
        read(plain).map(Some)
    }

    fn snapshot() -> Snapshot {
        let state = start();
        Snapshot {
            text: "héllo\n\nwörld 😀".into(),
            view: View::Compare,
            settings: Settings {
                separators: vec![
                    Separator::literal("\n\n"),
                    Separator::sentence(),
                    Separator::literal("\\p{sentence}"),
                    Separator::regex(r"\s+"),
                    Separator::hard_cut(),
                ],
                heading_prefix: true,
                table_header: chunkscope::TableHeader::Repeat,
                min_characters: "3 ".into(),
                ..state.settings
            },
            semantic: SemanticSettings {
                amount: "1.5".into(),
                buffer: "2".into(),
                ..SemanticSettings::of(Breakpoint::StandardDeviation)
            },
        }
    }

    #[test]
    fn a_link_without_the_semantic_settings_opens_with_their_defaults() {
        let plain = "chunkscope 1\nview=semantic\nsize=60\ntext\nOne. Two.";
        let packed = miniz_oxide::deflate::compress_to_vec(plain.as_bytes(), 9);
        let s = decode(&format!("s={}", base64url(&packed)))
            .unwrap()
            .unwrap();
        assert_eq!(s.semantic, SemanticSettings::default());
        let bad = plain.replace("view=semantic", "view=semantic\nbreakpoint=median");
        let packed = miniz_oxide::deflate::compress_to_vec(bad.as_bytes(), 9);
        assert_eq!(
            decode(&format!("s={}", base64url(&packed))),
            Err("unknown breakpoint \"median\": use \"percentile\", \"standard_deviation\", \"interquartile\" or \"gradient\"".into())
        );
    }

    #[test]
    fn a_link_round_trips() {
        let s = snapshot();
        let link = encode(&s);
        assert!(link.starts_with("s="));
        assert!(link[2..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        assert_eq!(decode(&format!("#{link}")).unwrap(), Some(s));
    }

    #[test]
    fn the_markdown_recipe_round_trips() {
        for list in [None, Some(RecipeList::Default), Some(RecipeList::Markdown)] {
            let s = Snapshot {
                view: View::parse("langchain-markdown").unwrap(),
                settings: Settings {
                    then_recursive: list,
                    ..snapshot().settings
                },
                ..snapshot()
            };
            assert_eq!(decode(&encode(&s)).unwrap(), Some(s));
        }
    }

    #[test]
    fn every_view_round_trips() {
        let two = crate::state::Libraries::DEFAULT
            .with(Strategy::Semchunk, false)
            .unwrap();
        for view in View::all().chain([View::Libraries(two)]) {
            let s = Snapshot {
                view,
                settings: Settings {
                    placement: view.primary().default_placement(),
                    ..snapshot().settings
                },
                ..snapshot()
            };
            assert_eq!(decode(&encode(&s)).unwrap(), Some(s), "{}", view.name());
        }
        let bad = miniz_oxide::deflate::compress_to_vec(
            b"chunkscope 1\nview=langchain-python\ntext\nhi",
            9,
        );
        assert!(decode(&format!("s={}", base64url(&bad)))
            .unwrap_err()
            .contains("unknown view"));
    }

    #[test]
    fn base64_round_trips_every_length() {
        for n in 0..40u8 {
            let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37)).collect();
            assert_eq!(from_base64url(&base64url(&bytes)).unwrap(), bytes);
        }
    }

    #[test]
    fn hostile_links_are_messages() {
        assert_eq!(decode("#section-2").unwrap(), None);
        assert!(decode("#s=***").is_err());
        assert!(decode("#s=AAAA").is_err());
        // A valid deflate stream that inflates past the limit.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b'a'; MAX_BYTES + 10], 9);
        assert!(decode(&format!("s={}", base64url(&bomb))).is_err());
        let wrong = miniz_oxide::deflate::compress_to_vec(b"chunkscope 9\ntext\nhi", 9);
        assert!(decode(&format!("s={}", base64url(&wrong)))
            .unwrap_err()
            .contains("another version"));
    }
}
