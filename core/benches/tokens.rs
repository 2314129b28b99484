//! Token counting throughput, in MB/s of source text: chunkscope's tokenizer
//! against tiktoken-rs 0.12.1 (the Rust core of Python tiktoken), on the same
//! text, for both encodings.
//!
//! Run with `cargo bench -p chunkscope --bench tokens` (after `bench/corpus.sh`
//! for the real corpora; without them a built-in mixed text is used). Names
//! read `<what>  <corpus>/<encoding>`:
//!
//! - `count_ours`: [`Tokenizer::count`] (no token list built);
//! - `encode_ours`: [`Tokenizer::encode`];
//! - `pieces_ours`: the pre-tokenizer alone ([`Encoding::pieces`]);
//! - `count_tiktoken`: tiktoken-rs `CoreBPE::count_ordinary`, which is
//!   `encode_ordinary(text).len()`.
//!
//! Each corpus is cut to its first 300 KB (on a char boundary) so that one
//! sample stays short; see `benches/split.rs` for why divan.

use chunkscope::tokens::{Encoding, Tokenizer};
use divan::counter::BytesCount;
use divan::{black_box, Bencher};
use std::fmt;
use std::path::PathBuf;
use std::sync::OnceLock;
use tiktoken_rs::CoreBPE;

/// How much of each corpus is tokenized per sample.
const SAMPLE_BYTES: usize = 300_000;

const CORPORA: [&str; 3] = ["markdown.md", "code.rs", "prose.txt"];

fn corpus_dir() -> PathBuf {
    std::env::var_os("CHUNKSCOPE_CORPUS").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/corpus")),
        PathBuf::from,
    )
}

/// A few paragraphs in many scripts, repeated: non-ASCII letters, CJK, emoji.
const MULTILINGUAL: &str =
    "Le cœur a ses raisons que la raison ne connaît point. L'été dernier, j'ai vu l'Hôtel-Dieu.\n\
Ich weiß nicht, was soll es bedeuten. STRASSE und Straße; Ärger über Öl.\n\
Съешь же ещё этих мягких французских булок, да выпей чаю.\n\
Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. כל עוד בלבב פנימה נפש יהודי הומייה. العربية لغة جميلة جداً.\n\
हिन्दी भाषा में लिखा गया वाक्य। ภาษาไทยเขียนโดยไม่มีช่องว่าง\n\
我能吞下玻璃而不伤身体。私はガラスを食べられます。それは私を傷つけません。\n\
나는 유리를 먹을 수 있어요. 그래도 아프지 않아요. Emoji: 👩‍💻👨‍👩‍👧‍👦 🇯🇵 👍🏽 — x² + y³ = ½.\n\n";

/// The texts, read once: the three corpora (or a stand-in) and the
/// multilingual text.
fn texts() -> &'static [(String, String); 4] {
    static TEXTS: OnceLock<[(String, String); 4]> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let corpus = |name: &str| {
            let path = corpus_dir().join(name);
            let text = std::fs::read_to_string(&path).unwrap_or_else(|_| {
                eprintln!(
                    "{} not found (run bench/corpus.sh); using a built-in text",
                    path.display()
                );
                "A short paragraph. With two sentences, and don't forget 1234 numbers.\n\n\
                 # Heading\n\nfn main() { println!(\"{}\", 42); }\n"
                    .repeat(SAMPLE_BYTES / 100)
            });
            let stem = name.split('.').next().unwrap_or(name).to_owned();
            (stem, prefix(&text, SAMPLE_BYTES).to_owned())
        };
        [
            corpus(CORPORA[0]),
            corpus(CORPORA[1]),
            corpus(CORPORA[2]),
            (
                "multilingual".to_owned(),
                prefix(
                    &MULTILINGUAL.repeat(SAMPLE_BYTES / MULTILINGUAL.len() + 1),
                    SAMPLE_BYTES,
                )
                .to_owned(),
            ),
        ]
    })
}

/// The longest prefix of `text` of at most `len` bytes that ends on a char
/// boundary.
fn prefix(text: &str, len: usize) -> &str {
    let mut end = len.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Our tokenizer (built from tiktoken-rs's rank table) and tiktoken-rs's.
struct Pair {
    ours: Tokenizer,
    reference: CoreBPE,
}

fn pair(encoding: Encoding) -> &'static Pair {
    static PAIRS: [OnceLock<Pair>; 2] = [OnceLock::new(), OnceLock::new()];
    PAIRS[encoding as usize].get_or_init(|| {
        let reference = match encoding {
            Encoding::Cl100k => tiktoken_rs::cl100k_base(),
            Encoding::O200k => tiktoken_rs::o200k_base(),
        }
        .expect("tiktoken-rs builds its encodings");
        let ours = Tokenizer::load(encoding).expect("tiktoken-rs's rank table");
        Pair { ours, reference }
    })
}

/// One point of the matrix: which text, which encoding.
#[derive(Clone, Copy)]
struct Case {
    text: usize,
    encoding: Encoding,
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", texts()[self.text].0, self.encoding)
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for text in 0..4 {
        for encoding in Encoding::ALL {
            out.push(Case { text, encoding });
        }
    }
    out
}

fn run(bencher: Bencher, case: &Case, measure: impl Fn(&Pair, &str) -> usize + Sync) {
    let text = texts()[case.text].1.as_str();
    let pair = pair(case.encoding);
    // The two must agree, or the comparison means nothing.
    assert_eq!(pair.ours.count(text), pair.reference.count_ordinary(text));
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| measure(pair, black_box(text)));
}

#[divan::bench(args = cases(), sample_count = 20, sample_size = 1)]
fn count_ours(bencher: Bencher, case: &Case) {
    run(bencher, case, |pair, text| pair.ours.count(text));
}

#[divan::bench(args = cases(), sample_count = 20, sample_size = 1)]
fn encode_ours(bencher: Bencher, case: &Case) {
    run(bencher, case, |pair, text| pair.ours.encode(text).len());
}

#[divan::bench(args = cases(), sample_count = 20, sample_size = 1)]
fn pieces_ours(bencher: Bencher, case: &Case) {
    run(bencher, case, |pair, text| {
        pair.ours.encoding().pieces(text).count()
    });
}

#[divan::bench(args = cases(), sample_count = 10, sample_size = 1)]
fn count_tiktoken(bencher: Bencher, case: &Case) {
    run(bencher, case, |pair, text| {
        pair.reference.count_ordinary(text)
    });
}

fn main() {
    texts();
    divan::main();
}
