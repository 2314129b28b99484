//! Numbers about a split: lengths, a histogram, and which separators fired.

use crate::model::{glyph, separator_class, tenths, visible_label};
use crate::state::Shared;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct StatsProps {
    pub split: Shared,
}

/// One line of numbers, for a pane heading.
#[function_component]
pub fn StatsLine(props: &StatsProps) -> Html {
    let s = props.split.stats();
    let unit = props.split.config.unit;
    html! {
        <p class="stats-line" data-testid="stats-line">
            <strong data-testid="chunk-count">{s.count}</strong>{if s.count == 1 { " chunk" } else { " chunks" }}
            {format!(" · {}–{} {unit}, mean {}", s.min, s.max, tenths(s.mean))}
            if s.over > 0 {
                <span class="warn-text">{format!(" · {} over the size", s.over)}</span>
            }
            if s.mid_word > 0 {
                <span class="warn-text">{format!(" · {} cut mid-word", s.mid_word)}</span>
            }
            if s.only_markup > 0 {
                <span class="warn-text" data-testid="only-markup" data-count={s.only_markup.to_string()}
                    title="chunks with no words: only heading marks, a fence, a rule or a separator">
                    {format!(" · {} only markup", s.only_markup)}
                </span>
            }
        </p>
    }
}

/// The full statistics card.
#[function_component]
pub fn StatsView(props: &StatsProps) -> Html {
    let split = &props.split;
    let s = split.stats();
    let unit = split.config.unit;
    let seps = &split.separators;
    let tallest = s
        .histogram
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(s.over)
        .max(1);
    // Whole numbers where they are printed; floats only for the bar arithmetic.
    let (w, h, pad) = (300_u32, 120_u32, 18_u32);
    let (wf, hf) = (f64::from(w), f64::from(h));
    // Chunks over the size get a bar of their own, right of the size mark.
    let bars = s.histogram.len() + usize::from(s.over > 0);
    let bar_w = (wf - 8.0) / bars as f64;
    let size_x = 4.0 + s.histogram.len() as f64 * bar_w;
    let over_h = (s.over as f64 / tallest as f64) * (hf - 14.0);
    let percent = |n: usize| (n * 100 + s.cuts / 2).checked_div(s.cuts).unwrap_or(0);
    html! {
        <section class="card stats" aria-label="Statistics" data-testid="stats">
            <h2>{"Lengths"}</h2>
            <dl class="numbers">
                <div><dt>{"chunks"}</dt><dd>{s.count}</dd></div>
                <div><dt>{"min"}</dt><dd>{s.min}</dd></div>
                <div><dt>{"median"}</dt><dd>{s.median}</dd></div>
                <div><dt>{"mean"}</dt><dd>{tenths(s.mean)}</dd></div>
                <div><dt>{"max"}</dt><dd>{s.max}</dd></div>
            </dl>
            <svg class="histogram" viewBox={format!("0 0 {w} {}", h + pad)} role="img"
                aria-label={format!("How many chunks have each length, in bins of {} {unit}, up to the size {}", s.bin_width, split.config.size)}>
                { for s.histogram.iter().enumerate().map(|(b, &n)| {
                    let bh = (n as f64 / tallest as f64) * (hf - 14.0);
                    let x = 4.0 + b as f64 * bar_w;
                    let lo = b * s.bin_width + 1;
                    let hi = ((b + 1) * s.bin_width).min(split.config.size.max(lo));
                    html! {
                        <g>
                            <title>{format!("{} of {} {unit}", crate::model::count(n, "chunk", "chunks"),
                                if lo == hi { lo.to_string() } else { format!("{lo}–{hi}") })}</title>
                            <rect x={tenths(x + 1.0)} y={tenths(hf - bh)}
                                width={tenths((bar_w - 2.0).max(1.0))} height={tenths(bh)} />
                            if n > 0 {
                                <text x={tenths(x + bar_w / 2.0)} y={tenths(hf - bh - 3.0)} class="count">{n}</text>
                            }
                        </g>
                    }
                })}
                if s.over > 0 {
                    <g class="over">
                        <title>{format!("{} {} over the size of {} {unit}", s.over,
                            if s.over == 1 { "chunk" } else { "chunks" }, split.config.size)}</title>
                        <rect x={tenths(size_x + 1.0)} y={tenths(hf - over_h)}
                            width={tenths((bar_w - 2.0).max(1.0))} height={tenths(over_h)} />
                        <text x={tenths(size_x + bar_w / 2.0)} y={tenths(hf - over_h - 3.0)} class="count">{s.over}</text>
                        <text x={tenths(size_x + bar_w / 2.0)} y={(h + 14).to_string()} class="tick mid">{"over"}</text>
                    </g>
                }
                <line x1="4" x2={(w - 4).to_string()} y1={h.to_string()} y2={h.to_string()} class="axis" />
                <text x="4" y={(h + 14).to_string()} class="tick">{"1"}</text>
                <text x={tenths(size_x - 2.0)} y={(h + 14).to_string()} class="tick end">
                    {format!("{} {unit} (size)", split.config.size)}
                </text>
            </svg>
            <h2>{"Cuts"}</h2>
            <ul class="fired">
                { for seps.iter().enumerate().filter(|(_, sep)| !sep.is_hard_cut()).map(|(i, sep)| html! {
                    <li class={classes!((s.fired[i] == 0).then_some("zero"))}>
                        <span class={classes!("cut", separator_class(seps, i))} aria-hidden="true">{glyph(sep)}</span>
                        <code>{visible_label(sep)}</code>
                        <span class="bar"><span style={format!("width:{}%", percent(s.fired[i]))} /></span>
                        <span class="num">{s.fired[i]}</span>
                    </li>
                })}
                if split.config.kind() == chunkscope::Strategy::Fixed {
                    <li>
                        <span class="cut cut-window" aria-hidden="true">{"│"}</span>
                        <code>{"window"}</code>
                        <span class="bar"><span style={format!("width:{}%", percent(s.windows))} /></span>
                        <span class="num">{s.windows}</span>
                    </li>
                } else if split.output.langchain.is_none() || seps.iter().any(|sep| sep.is_hard_cut()) {
                    // LangChain cuts between characters only where its list
                    // says "": without it there is no such cut to count.
                    <li class={classes!((s.hard == 0).then_some("zero"))}>
                        <span class="cut cut-hard" aria-hidden="true">{"✂"}</span>
                        <code>{"hard"}</code>
                        <span class="bar"><span style={format!("width:{}%", percent(s.hard))} /></span>
                        <span class="num">{s.hard}</span>
                    </li>
                }
            </ul>
            <p class="hint">
                {format!("{} of {} cuts split a word ({}%), {} end mid-sentence ({}%; a cut at a sentence's end, in the space after it or at a line end is not).",
                    s.mid_word, s.cuts, percent(s.mid_word), s.mid_sentence, percent(s.mid_sentence))}
                if s.only_markup > 0 {
                    {format!(" {} {} only markup or a separator, with no words to retrieve.", s.only_markup,
                        if s.only_markup == 1 { "chunk is" } else { "chunks are" })}
                }
            </p>
        </section>
    }
}
