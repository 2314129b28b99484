//! The command line, read by clap from the declaration of [`Cli`].
//!
//! Parsing only builds a [`Config`]; whether the configuration makes sense
//! (overlap below size, regexes that compile, …) is the engine's to say, so the
//! CLI and the JS API give the same messages for the same mistakes. clap's own
//! error texts are replaced by one line each ([`message`]), worded like the
//! engine's, so a learner reads the same kind of message whoever caught it.
//!
//! The flags of a split live in [`SplitArgs`], flattened into [`Cli`], so
//! `chunkscope [OPTIONS] [FILE|-]` stays the command beside the subcommands
//! (`eval`), which are an `Option<…>` `#[command(subcommand)]` field of
//! [`Cli`] with `args_conflicts_with_subcommands`; [`Command`] has a variant
//! for each. A file named like a subcommand is read as `./eval` or after `--`.

use chunkscope::semantic::Breakpoint;
use chunkscope::{
    Config, Placement, SemanticSettings, Separator, SeparatorLevel, Settings, Strategy,
    TableHeader, Unit,
};
use clap::builder::{OsStringValueParser, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{ArgAction, Parser};
use std::ffi::OsString;
use std::path::PathBuf;

/// Where the text comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input (no FILE, or `-`).
    Stdin,
    /// A file. Kept as an OS path, so a file name that is not UTF-8 still opens.
    File(PathBuf),
}

/// How the chunks are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// One JSON object for the whole run (with several inputs,
    /// `{"files": [...]}`).
    #[default]
    Json,
    /// JSON Lines: one chunk a line, tagged with its file, written as the
    /// chunks are reported rather than built into one document.
    Jsonl,
    /// CSV: the chunks alone with a header line, one record per chunk (the
    /// columns of `chunkscope::export`: doc, index, text, start, end, len,
    /// unit, cut, heading_path for Markdown, sha256).
    Csv,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "json" => Ok(Format::Json),
            "jsonl" => Ok(Format::Jsonl),
            "csv" => Ok(Format::Csv),
            other => Err(format!(
                "unknown format {other:?}: use \"json\" (one object), \"jsonl\" (one chunk a line) or \"csv\" (one chunk a record)"
            )),
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Csv => "csv",
        })
    }
}

/// A run of the splitter, as the command line asks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    /// The configuration, not yet validated.
    pub config: Config,
    /// Whether to print the trace, the checks and the configuration too.
    pub trace: bool,
    /// How to print the chunks.
    pub format: Format,
    /// Where to read the texts, in order; never empty, and standard input
    /// at most once.
    pub inputs: Vec<Input>,
}

/// An evaluation, as `chunkscope eval` asks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalArgs {
    /// How the documents are split.
    pub split: Args,
    /// The questions file (JSON Lines).
    pub questions: PathBuf,
    /// How many chunks are retrieved per question.
    pub top_k: usize,
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Split a text.
    Run(Args),
    /// Evaluate a configuration on questions.
    Eval(EvalArgs),
    /// Print this text (the help or the version) to standard output, and stop.
    Print(String),
}

/// The whole command line.
#[derive(Debug, Parser)]
#[command(
    name = "chunkscope",
    version,
    about = "split text into chunks for retrieval, and show why each cut is where it is",
    before_help = DESCRIPTION,
    after_help = AFTER_HELP,
    help_template = "{name} {version}: {about}\n\n{usage-heading} {usage}\n\n{before-help}{all-args}{after-help}",
    max_term_width = 100,
    args_conflicts_with_subcommands = true,
    subcommand_help_heading = "Subcommands",
    disable_help_flag = true,
    disable_version_flag = true,
    // A repeated flag keeps its last value, so flags appended to a wrapper's
    // command line override the wrapper's.
    args_override_self = true
)]
struct Cli {
    #[command(flatten)]
    split: SplitArgs,

    #[command(subcommand)]
    sub: Option<Sub>,

    /// print this help
    #[arg(short, long, action = ArgAction::Help)]
    help: (),

    /// print the version
    #[arg(short = 'V', long, action = ArgAction::Version)]
    version: (),
}

#[derive(Debug, clap::Subcommand)]
enum Sub {
    /// which configuration retrieves best: split the FILEs, retrieve the top-k
    /// chunks for each question with BM25, and score them by characters
    /// against the answer excerpts (recall, precision, IoU)
    #[command(
        disable_help_flag = true,
        after_help = EVAL_AFTER_HELP,
        help_template = "{about}\n\n{usage-heading} {usage}\n\n{all-args}{after-help}"
    )]
    Eval(Evaluate),
}

#[derive(Debug, clap::Args)]
struct Evaluate {
    /// the questions, JSON Lines: {"question", "doc", "answers": [{"start",
    /// "end"}]} with char offsets into the FILE named by doc (its path as
    /// given, or its file name)
    #[arg(long, value_name = "QA.jsonl", value_parser = OsStringValueParser::new().map(PathBuf::from), required = true)]
    questions: PathBuf,

    /// how many chunks to retrieve per question
    #[arg(long = "top-k", value_name = "K", default_value_t = 5, value_parser = count("--top-k"), allow_hyphen_values = true)]
    top_k: usize,

    #[command(flatten)]
    split: SplitArgs,

    /// print this help
    #[arg(short, long, action = ArgAction::Help)]
    help: (),
}

const EVAL_AFTER_HELP: &str = "\
Prints one line of JSON: {\"questions\":[...],\"mean\":{\"recall\",\"precision\",\"iou\",
\"whole\",\"fragments\"},\"index\":{\"chunks\",\"units\"},\"top_k\",\"retriever\",\"config\"}.
Each question has the chunks it retrieved (doc, chunk, start, end, score), its
recall, precision and IoU, whole (the share of its answers inside one chunk) and
fragments (how many chunks an answer is cut into). Exit status 2 for a bad option,
questions file or configuration.";

/// The flags of a split. Every flag that takes a value takes the next argument
/// whatever it looks like (`allow_hyphen_values`), so `--sep -` and `--sep --`
/// are separators and `--size -3` is refused as a negative number rather than
/// taken for an unknown option.
#[derive(Debug, clap::Args)]
struct SplitArgs {
    /// fixed (windows), recursive (separators), sentence (whole sentences,
    /// packed), markdown (sections by heading, then blocks, then the --sep
    /// list inside an oversized block; every chunk has its heading_path),
    /// langchain (LangChain's RecursiveCharacterTextSplitter, exactly),
    /// langchain-character (its CharacterTextSplitter, on the first --sep),
    /// langchain-markdown (its MarkdownHeaderTextSplitter, on the --header
    /// markers), semantic (LangChain's SemanticChunker, cut where
    /// neighbouring sentences are far apart; a chunk over --size is split
    /// again by the separators), semchunk (semchunk 4.1.1's chunkerify,
    /// exactly: it picks its own splitter for each piece, so --sep is not
    /// read), chonkie-recursive (chonkie 1.7.0's RecursiveChunker with its
    /// default rules, exactly; chars or tokens, no overlap), chonkie-token
    /// (its TokenChunker, exactly: windows of --size tokens, or chars, every
    /// --size minus --overlap), chonkie-sentence (its SentenceChunker with
    /// its defaults, exactly: sentences packed whole, an --overlap of whole
    /// sentences),
    /// llamaindex-sentence (llama-index-core 0.14.25's SentenceSplitter with
    /// its defaults, exactly: paragraphs, Punkt sentences, clauses, words,
    /// characters; counts cl100k tokens unless --unit says otherwise),
    /// llamaindex-token (its TokenTextSplitter with its defaults, exactly:
    /// words, lines, characters, packed with an --overlap of whole splits;
    /// cl100k tokens unless --unit says otherwise),
    /// llamaindex-markdown (its MarkdownNodeParser, exactly: a section per
    /// header line outside ``` fences, the header rebuilt with one space,
    /// its ancestors as header_path; no size limit: --size only judges the
    /// chunks),
    /// text-splitter (the text-splitter crate 0.33.1's TextSplitter itself:
    /// line breaks, sentences, words, graphemes; --sep is not read) or
    /// text-splitter-markdown (its MarkdownSplitter)
    #[arg(long, value_name = "NAME", default_value_t = Config::default().kind(), value_parser = reader("--strategy", str::parse::<Strategy>), allow_hyphen_values = true)]
    strategy: Strategy,

    /// most units in a chunk
    #[arg(long, value_name = "N", default_value_t = Config::default().size, value_parser = count("--size"), allow_hyphen_values = true)]
    size: usize,

    /// most units a chunk repeats from the one before; less than --size
    #[arg(long, value_name = "N", default_value_t = Config::default().overlap, value_parser = count("--overlap"), allow_hyphen_values = true)]
    overlap: usize,

    #[arg(long = "sep", value_name = "S", help = sep_help(), value_parser = reader("--sep", |s| Ok(s.to_owned())), allow_hyphen_values = true)]
    seps: Vec<String>,

    /// read every --sep as a regular expression (its backslashes are then regex
    /// syntax; Python's re syntax for langchain)
    #[arg(long)]
    regex: bool,

    #[arg(long, value_name = "NAME", help = unit_help(), value_parser = reader("--unit", str::parse::<Unit>), allow_hyphen_values = true)]
    unit: Option<Unit>,

    #[arg(long, value_name = "end|start|none", help = placement_help(), value_parser = reader("--placement", str::parse::<Placement>), allow_hyphen_values = true)]
    placement: Option<Placement>,

    /// keep the whitespace at the ends of pieces (strip_whitespace=False for
    /// langchain)
    #[arg(long = "no-trim")]
    no_trim: bool,

    /// langchain-markdown: a header marker to split on, '#' to '######'
    /// (named "Header 1" to "Header 6" in each chunk's metadata); repeat it
    /// for each level [default: '#', '##', '###']
    #[arg(long = "header", value_name = "MARKER", value_parser = reader("--header", |s| Ok(s.to_owned())), allow_hyphen_values = true)]
    headers: Vec<String>,

    /// langchain-markdown: keep each header line at the start of its
    /// section's chunk (strip_headers=False)
    #[arg(long = "no-strip-headers")]
    no_strip_headers: bool,

    /// langchain-markdown: one chunk per paragraph instead of per section
    /// (return_each_line=True)
    #[arg(long = "each-line")]
    each_line: bool,

    /// langchain-markdown: LangChain's docs' recipe: split each section again
    /// with RecursiveCharacterTextSplitter (split_documents) at --size and
    /// --overlap, on the --sep separators [default: LangChain's]; chunks keep
    /// their section's metadata
    #[arg(long = "then-recursive")]
    then_recursive: bool,
    /// markdown only: give each chunk a prefix (its heading path joined by
    /// " > ", then a blank line) and count it in --size, so no chunk with its
    /// prefix is over the size; the chunk's text stays exact
    #[arg(long = "heading-prefix")]
    heading_prefix: bool,
    /// markdown only: when a table alone is over --size and is cut between
    /// rows, give its header rows to the table's first chunk only (once, the
    /// default: later chunks record them as context), or put them before
    /// every later chunk as its prefix and count them in --size (repeat)
    #[arg(long = "table-header", value_name = "once|repeat", value_parser = reader("--table-header", str::parse::<TableHeader>), allow_hyphen_values = true)]
    table_header: Option<TableHeader>,

    /// semantic only: what embeds the sentence groups: lexical (TF-IDF over the
    /// document's own sentences, no model: lexical similarity, not meaning) or a
    /// static model read from disk: a model2vec folder (model.safetensors,
    /// tokenizer.json, config.json), its model.safetensors, its files joined
    /// by commas, or a FILE of word vectors in the GloVe or fastText text format
    #[arg(long, value_name = "lexical|DIR|FILES", allow_hyphen_values = true)]
    embedder: Option<String>,

    /// semantic only: how the breakpoint threshold is computed: percentile,
    /// standard_deviation, interquartile or gradient (LangChain's
    /// breakpoint_threshold_type) [default: percentile]
    #[arg(long, value_name = "KIND", value_parser = reader("--breakpoint", str::parse::<Breakpoint>), allow_hyphen_values = true)]
    breakpoint: Option<Breakpoint>,

    /// semantic only: breakpoint_threshold_amount [default: 95 for percentile
    /// and gradient, 3 for standard_deviation, 1.5 for interquartile]
    #[arg(long, value_name = "X", value_parser = reader("--amount", |s| s.trim().parse::<f64>().map_err(|_| format!("--amount takes a number, not {s:?}"))), allow_hyphen_values = true)]
    amount: Option<f64>,

    /// semantic only: sentences either side of each sentence in its group
    /// (buffer_size) [default: 1]
    #[arg(long, value_name = "N", value_parser = count("--buffer"), allow_hyphen_values = true)]
    buffer: Option<usize>,

    /// semantic only: aim at about N chunks (number_of_chunks; overrides
    /// --breakpoint)
    #[arg(long = "number-of-chunks", value_name = "N", value_parser = count("--number-of-chunks"), allow_hyphen_values = true)]
    number_of_chunks: Option<usize>,

    /// semantic only: a chunk shorter than N chars runs on to the next
    /// breakpoint (min_chunk_size)
    #[arg(long = "min-chunk-size", value_name = "N", value_parser = count("--min-chunk-size"), allow_hyphen_values = true)]
    min_chunk_size: Option<usize>,

    /// chonkie-recursive only: at each level, a split shorter than N UTF-8
    /// bytes is joined to its neighbour before packing
    /// (min_characters_per_chunk; 1 joins none, 0 is refused as chonkie
    /// refuses it) [default: 24]
    #[arg(long = "min-characters-per-chunk", value_name = "N", value_parser = count("--min-characters-per-chunk"), allow_hyphen_values = true)]
    min_characters_per_chunk: Option<usize>,

    /// also print the recursion tree, the invariant checks and the configuration
    /// (json only)
    #[arg(long)]
    trace: bool,

    /// json (one object), jsonl (one chunk a line, each with its file,
    /// streamed) or csv (one chunk a record: doc, index, text, start, end,
    /// len, unit, cut, heading_path for markdown, sha256)
    #[arg(long, value_name = "json|jsonl|csv", default_value_t = Format::Json, value_parser = reader("--format", str::parse::<Format>), allow_hyphen_values = true)]
    format: Format,

    /// the texts (UTF-8), split one after the other; standard input when
    /// absent or -
    #[arg(value_name = "FILE|-")]
    inputs: Vec<PathBuf>,
}

const DESCRIPTION: &str = "\
Reads each FILE, or standard input when FILE is - or absent (the text must be
UTF-8), and prints one line of JSON: {\"chunks\":[...]}, or with several files
{\"files\":[{\"file\":...,\"chunks\":[...]},...]}; --format jsonl prints one
chunk a line instead, each with its \"file\". Each chunk has its char offsets
(start, end; half-open), byte offsets (byte_start, byte_end), its length in the
unit, the cut that ended it (the separator's text, or hard, end or window) and
its text. With a langchain strategy, text is exactly LangChain's string (is_slice
says whether it is the source between the offsets) and start_index is what
LangChain's add_start_index gives; with no --sep it uses LangChain's defaults.
With a chonkie strategy whose tokens cut a character, text is chonkie's (with
U+FFFD) and start_index its own.";

const AFTER_HELP: &str = "\
Values may also follow an equals sign: --size=40.

Exit status: 0 on success, 1 if the input cannot be read or the output written,
2 for a bad option or configuration, or input that is not UTF-8.

Example (the refund page of the first lesson):
  printf 'Refund policy\\n\\nRefunds take 5 days.' |
    chunkscope --size 40 --sep '\\n\\n' --sep '\\n' --sep '. ' --sep ' ' --sep ''";

/// The help of `--sep`, with the default list as core has it.
fn sep_help() -> String {
    let list = |config: Config| -> String {
        let seps: Vec<String> = config
            .separators
            .iter()
            .map(|s| match s.level {
                Some(level) => format!("'{}'", level.spelling()),
                None => format!("'{}'", chunkscope::escape(&s.pattern)),
            })
            .collect();
        seps.join(" ")
    };
    format!(
        "a separator; repeat it, strongest first. Understands the escapes \\n \\r \\t \\\\ \
         and \\u{{…}}; --sep '' is the hard cut, --sep '{}' the sentence level \
         [default: {}; {} for sentence; LangChain's for langchain; {} inside a block for markdown]",
        SeparatorLevel::Sentence.spelling(),
        list(Config::default()),
        list(Config::for_strategy(Strategy::Sentence)),
        list(Config::for_strategy(Strategy::Markdown))
    )
}

/// The help of `--placement`, with each strategy's default.
/// `--unit`'s help, with the default of each strategy whose default is not
/// the common one (a library's own default tokenizer).
fn unit_help() -> String {
    let common = Config::default().unit;
    let own: Vec<String> = Strategy::ALL
        .iter()
        .map(|&s| (s, Config::for_strategy(s).unit))
        .filter(|&(_, unit)| unit != common)
        .map(|(s, unit)| format!("; {unit} for {s}"))
        .collect();
    format!(
        "what --size and --overlap count: chars, bytes, or the tokens of an OpenAI encoding, \
         cl100k (GPT-4) or o200k (GPT-4o); a chunk never ends inside a character \
         [default: {common}{}]",
        own.concat()
    )
}

fn placement_help() -> String {
    let defaults: Vec<String> = Strategy::ALL
        .iter()
        .map(|s| format!("{} for {s}", s.default_placement()))
        .collect();
    format!(
        "which side of a cut keeps the separator; for langchain this is keep_separator \
         \"end\" / \"start\" / False [default: {}]",
        defaults.join(", ")
    )
}

/// Parses the arguments after the program name.
///
/// Strategy, unit and placement are read by core's `FromStr`, whose message for
/// an unknown name lists the valid ones.
///
/// Flags that take a value accept it as the next argument or after `=`
/// (`--size 40`, `--size=40`). After `--`, every argument is a file name. A
/// repeated flag other than `--sep` keeps its last value. `--help` and
/// `--version` win over everything else on the line, mistakes included.
pub fn parse<I>(args: I) -> Result<Command, String>
where
    I: IntoIterator<Item = OsString>,
{
    let argv = std::iter::once(OsString::from("chunkscope")).chain(args);
    match Cli::try_parse_from(argv) {
        Ok(Cli {
            sub: Some(Sub::Eval(e)),
            ..
        }) => {
            let split = e.split.into_args()?;
            if split.trace || split.format != Format::Json {
                return Err(
                    "eval prints one JSON object: --trace and --format do not apply".into(),
                );
            }
            Ok(Command::Eval(EvalArgs {
                split,
                questions: e.questions,
                top_k: e.top_k,
            }))
        }
        Ok(cli) => cli.split.into_args().map(Command::Run),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            Ok(Command::Print(e.render().to_string()))
        }
        Err(e) => Err(message(&e)),
    }
}

impl SplitArgs {
    /// The semantic flags given, if any (core refuses them for another
    /// strategy, where they would be ignored without a word).
    fn semantic(&self) -> Option<SemanticSettings> {
        SemanticSettings {
            breakpoint: self.breakpoint,
            amount: self.amount,
            buffer: self.buffer,
            number_of_chunks: self.number_of_chunks,
            min_chunk_size: self.min_chunk_size,
            embedder: self.embedder.clone(),
        }
        .given()
    }

    /// The configuration: each strategy starts from its own defaults
    /// (LangChain's classes from LangChain's: `keep_separator`, and its
    /// separators when none are given), whichever order the flags came in.
    fn into_args(mut self) -> Result<Args, String> {
        let semantic = self.semantic();
        let mut inputs: Vec<Input> = self
            .inputs
            .into_iter()
            .map(|path| {
                if path.as_os_str() == "-" {
                    Input::Stdin
                } else {
                    Input::File(path)
                }
            })
            .collect();
        if inputs.is_empty() {
            inputs.push(Input::Stdin);
        }
        if inputs.iter().filter(|i| **i == Input::Stdin).count() > 1 {
            return Err(
                "standard input (-) is given more than once: it can be read only once".to_string(),
            );
        }
        if self.trace && self.format != Format::Json {
            return Err(
                "--trace needs --format json: the trace is one tree per text, not a line per chunk"
                    .to_string(),
            );
        }
        if self.regex && self.seps.is_empty() {
            return Err(
                "--regex reads the --sep patterns as regular expressions, but no --sep was given"
                    .to_string(),
            );
        }
        let markdown = self.strategy == Strategy::LangChainMarkdown;
        for (given, flag) in [
            (!self.headers.is_empty(), "--header"),
            (self.no_strip_headers, "--no-strip-headers"),
        ] {
            if given && !markdown {
                return Err(format!(
                    "{flag} is an option of --strategy langchain-markdown (MarkdownHeaderTextSplitter)"
                ));
            }
        }
        if markdown && !self.seps.is_empty() && !self.then_recursive {
            return Err(
                "langchain-markdown splits on header markers: give them with --header, not --sep \
                 (--sep is for the RecursiveCharacterTextSplitter of --then-recursive)"
                    .to_string(),
            );
        }
        if self.no_strip_headers && self.placement.is_some() {
            return Err(
                "--no-strip-headers is --placement start for langchain-markdown: give one of them"
                    .to_string(),
            );
        }
        let base = Config::for_strategy(self.strategy);
        let then_recursive = if self.then_recursive {
            Some(separators(std::mem::take(&mut self.seps), self.regex)?)
        } else {
            None
        };
        let separators = if !self.headers.is_empty() {
            self.headers.into_iter().map(Separator::literal).collect()
        } else if self.seps.is_empty() {
            base.separators
        } else {
            separators(self.seps, self.regex)?
        };
        let placement = if self.no_strip_headers {
            Some(Placement::Start)
        } else {
            self.placement
        };
        let settings = Settings {
            strategy: Some(self.strategy),
            size: Some(self.size),
            overlap: Some(self.overlap),
            unit: Some(self.unit.unwrap_or(base.unit)),
            separators: Some(separators),
            placement: Some(placement.unwrap_or(base.placement)),
            trim: Some(!self.no_trim),
            each_line: self.each_line.then_some(true),
            then_recursive,
            heading_prefix: self.heading_prefix.then_some(true),
            table_header: self.table_header,
            semantic,
            min_characters_per_chunk: self.min_characters_per_chunk,
        };
        let config = settings
            .resolve_spelt(|name| format!("--{}", name.replace('_', "-")))
            .map_err(|e| e.message)?;
        Ok(Args {
            config,
            trace: self.trace,
            format: self.format,
            inputs,
        })
    }
}

/// The `--sep` values as separators. `\p{sentence}` is the sentence level
/// (with or without `--regex`: no literal and no regex here spells it).
/// Literal ones have their backslash escapes read here; a regex keeps its
/// backslashes, which are regex syntax (the regex engine reads `\n` and `\t`
/// itself).
fn separators(seps: Vec<String>, regex: bool) -> Result<Vec<Separator>, String> {
    seps.into_iter()
        .map(|sep| {
            Separator::parse(&sep, regex).map_err(|e| {
                // Core's message starts by quoting the value; quote it as typed.
                let why = e.strip_prefix(&format!("in {sep:?}: ")).unwrap_or(&e);
                format!("--sep '{sep}': {why}")
            })
        })
        .collect()
}

/// How `flag`'s value is read: as UTF-8 (a value that is not is refused with
/// the flag's name; only file names may be other bytes), then by `read`, whose
/// message is the one the user sees.
fn reader<T, F>(flag: &'static str, read: F) -> impl TypedValueParser<Value = T>
where
    T: Clone + Send + Sync + 'static,
    F: Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static,
{
    OsStringValueParser::new().try_map(move |raw| match raw.to_str() {
        Some(text) => read(text),
        None => Err(format!(
            "the value of {flag} ({:?}) is not valid UTF-8",
            raw.to_string_lossy()
        )),
    })
}

/// A count of units: `--size`, `--overlap`.
fn count(flag: &'static str) -> impl TypedValueParser<Value = usize> {
    reader(flag, move |value| number(flag, value))
}

fn number(name: &str, value: &str) -> Result<usize, String> {
    value.trim().parse().map_err(|e: std::num::ParseIntError| {
        use std::num::IntErrorKind::*;
        match e.kind() {
            PosOverflow => format!("{name} {value} is too large"),
            _ => format!("{name} expects a whole number of units (0, 1, 2, …), got {value:?}"),
        }
    })
}

/// One line for a mistake clap caught. A value our parsers refused keeps their
/// message; the rest are reworded from clap's context.
fn message(e: &clap::Error) -> String {
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => s.as_str(),
        _ => "",
    };
    // clap names a flag with its value's placeholder: `--size <N>`.
    let flag = context(ContextKind::InvalidArg)
        .split([' ', '='])
        .next()
        .unwrap_or_default();
    match e.kind() {
        ErrorKind::ValueValidation => match std::error::Error::source(e) {
            Some(why) => why.to_string(),
            None => format!("bad value for {flag}"),
        },
        ErrorKind::UnknownArgument => {
            let hint = match e.get(ContextKind::SuggestedArg) {
                Some(ContextValue::String(s)) => format!(" (did you mean {s}?)"),
                _ => String::new(),
            };
            format!("unknown option {flag}{hint}: run `chunkscope --help` for the options")
        }
        ErrorKind::InvalidValue if context(ContextKind::InvalidValue).is_empty() => {
            format!("{flag} needs a value: run `chunkscope --help` for its form")
        }
        ErrorKind::TooManyValues => format!(
            "{flag} takes no value (got {flag}={})",
            context(ContextKind::InvalidValue)
        ),
        // Kinds the declaration above cannot produce yet (a missing required
        // argument, …): clap's words without its usage block, on one line.
        _ => {
            let text = e.render().to_string();
            let body = text.split("\nUsage:").next().unwrap_or_default();
            let body = body.strip_prefix("error: ").unwrap_or(body);
            let lines: Vec<&str> = body
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            lines.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Args, String> {
        match parse(args.iter().map(OsString::from))? {
            Command::Run(a) => Ok(a),
            other => panic!("expected a run, got {other:?}"),
        }
    }

    fn err(args: &[&str]) -> String {
        parse(args.iter().map(OsString::from)).unwrap_err()
    }

    fn printed(args: &[&str]) -> String {
        match parse(args.iter().map(OsString::from)) {
            Ok(Command::Print(text)) => text,
            other => panic!("expected text to print, got {other:?}"),
        }
    }

    fn patterns(a: &Args) -> Vec<&str> {
        a.config
            .separators
            .iter()
            .map(|s| s.pattern.as_str())
            .collect()
    }

    #[test]
    fn the_declaration_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn no_arguments_give_the_documented_defaults() {
        let a = run(&[]).unwrap();
        assert_eq!(a.config, Config::default());
        assert_eq!(a.config.kind(), Strategy::Recursive);
        assert_eq!((a.config.size, a.config.overlap), (1000, 0));
        assert_eq!(
            a.config.separators,
            chunkscope::presets::separators("default").unwrap()
        );
        assert_eq!(a.inputs, [Input::Stdin]);
        assert!(!a.trace);
    }

    #[test]
    fn every_option_is_read_in_both_forms() {
        let a = run(&[
            "--strategy",
            "fixed",
            "--size=40",
            "--overlap",
            "5",
            "--unit=bytes",
            "--placement",
            "start",
            "--no-trim",
            "--trace",
            "doc.txt",
        ])
        .unwrap();
        assert_eq!(a.config.kind(), Strategy::Fixed);
        assert_eq!((a.config.size, a.config.overlap), (40, 5));
        assert_eq!(a.config.unit, Unit::Bytes);
        assert_eq!(a.config.placement, Placement::Start);
        assert!(!a.config.trim && a.trace);
        assert_eq!(a.inputs, [Input::File("doc.txt".into())]);
        // Options may follow the file, and numbers may carry spaces.
        let a = run(&["doc.txt", "--strategy=langchain", "--size", " 7 "]).unwrap();
        assert_eq!(a.config.kind(), Strategy::LangChain);
        assert_eq!(a.config.size, 7);
        assert_eq!(a.inputs, [Input::File("doc.txt".into())]);
    }

    #[test]
    fn a_library_strategy_counts_in_its_own_default_unit_unless_told() {
        let a = run(&["--strategy", "llamaindex-sentence"]).unwrap();
        assert_eq!(a.config.unit, "cl100k".parse().unwrap());
        let a = run(&["--strategy", "llamaindex-sentence", "--unit", "chars"]).unwrap();
        assert_eq!(a.config.unit, Unit::Chars);
        let a = run(&["--strategy", "llamaindex-token"]).unwrap();
        assert_eq!(a.config.unit, "cl100k".parse().unwrap());
        let a = run(&["--strategy", "llamaindex-token", "--unit", "chars"]).unwrap();
        assert_eq!(a.config.unit, Unit::Chars);
        assert_eq!(run(&[]).unwrap().config.unit, Unit::Chars);
    }

    #[test]
    fn a_repeated_option_keeps_its_last_value() {
        let a = run(&[
            "--size", "2", "--size=3", "--unit", "bytes", "--unit", "chars",
        ])
        .unwrap();
        assert_eq!((a.config.size, a.config.unit), (3, Unit::Chars));
        let a = run(&["--trace", "--trace", "--no-trim", "--no-trim"]).unwrap();
        assert!(a.trace && !a.config.trim);
    }

    #[test]
    fn separators_keep_their_order_and_read_escapes() {
        let a = run(&[
            "--sep",
            r"\n\n",
            "--sep=. ",
            "--sep",
            "",
            "--sep",
            r"\u{3002}",
            "--sep=",
        ])
        .unwrap();
        assert_eq!(patterns(&a), ["\n\n", ". ", "", "。", ""]);
        assert!(a.config.separators.iter().all(|s| !s.regex));
        assert!(a.config.separators[2].is_hard_cut());
    }

    #[test]
    fn regex_applies_to_every_sep_wherever_it_stands() {
        let a = run(&["--sep", r"\n#+ ", "--sep", "", "--regex"]).unwrap();
        assert_eq!(
            a.config.separators,
            [Separator::regex(r"\n#+ "), Separator::regex("")]
        );
    }

    #[test]
    fn values_that_look_like_flags_are_taken_as_values() {
        let a = run(&[
            "--sep", "-", "--sep", "--", "--sep", "--trace", "--size", "3",
        ])
        .unwrap();
        assert_eq!(patterns(&a), ["-", "--", "--trace"]);
        assert!(!a.trace);
        assert_eq!(a.inputs, [Input::Stdin]);
    }

    #[test]
    fn dash_is_stdin_and_double_dash_ends_the_options() {
        assert_eq!(run(&["-"]).unwrap().inputs, [Input::Stdin]);
        assert_eq!(run(&["--", "-"]).unwrap().inputs, [Input::Stdin]);
        let a = run(&["--", "--trace"]).unwrap();
        assert_eq!(a.inputs, [Input::File("--trace".into())]);
        assert!(!a.trace);
    }

    #[test]
    fn several_inputs_keep_their_order_and_the_format_is_read() {
        let a = run(&["a.txt", "--size", "4", "-", "b.txt"]).unwrap();
        assert_eq!(
            a.inputs,
            [
                Input::File("a.txt".into()),
                Input::Stdin,
                Input::File("b.txt".into())
            ]
        );
        assert_eq!(a.format, Format::Json);
        assert_eq!(run(&["--format=jsonl"]).unwrap().format, Format::Jsonl);
        let a = run(&["--format", "jsonl", "--format", "json", "--trace"]).unwrap();
        assert_eq!((a.format, a.trace), (Format::Json, true));
    }

    #[test]
    fn help_and_version_win_over_what_comes_before() {
        let help = printed(&["--help"]);
        assert!(help.starts_with(&format!(
            "chunkscope {}: split text into chunks",
            env!("CARGO_PKG_VERSION")
        )));
        assert_eq!(printed(&["--size", "4", "--help"]), help);
        assert_eq!(printed(&["-h"]), help);
        let version = format!("chunkscope {}\n", env!("CARGO_PKG_VERSION"));
        assert_eq!(printed(&["-V"]), version);
        assert_eq!(printed(&["--version", "--size", "ten"]), version);
    }

    #[test]
    fn help_states_the_contract() {
        let help = printed(&["--help"]);
        // Compared with the line breaks of clap's wrapping taken out.
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        for name in Strategy::ALL.map(Strategy::name) {
            assert!(flat.contains(name), "{name}");
        }
        for name in Unit::ALL.map(Unit::name) {
            assert!(flat.contains(name), "{name}");
        }
        for line in [
            "[default: recursive]",
            "--size <N> most units in a chunk [default: 1000]",
            "[default: 0]",
            "[default: chars; cl100k for llamaindex-sentence; cl100k for llamaindex-token]",
            "Usage: chunkscope [OPTIONS] [FILE|-]...",
            "Exit status: 0 on success, 1 if the input cannot be read or the output written, \
             2 for a bad option or configuration, or input that is not UTF-8.",
            // Both computed from core, so they cannot drift from it.
            r"[default: '\n\n' '\n' ' ' ''; '\p{sentence}' ' ' '' for sentence; LangChain's for langchain; '. ' ' ' '' inside a block for markdown]",
            r"--sep '\p{sentence}' the sentence level",
            "[default: end for fixed, end for recursive, end for sentence, end for markdown, \
             start for langchain, none for langchain-character, none for langchain-markdown, end for semantic, end for semchunk, end for chonkie-recursive, end for chonkie-token, end for chonkie-sentence, end for llamaindex-sentence, end for llamaindex-token, end for llamaindex-markdown, end for text-splitter, end for text-splitter-markdown]",
            "--breakpoint <KIND>",
            "--embedder <lexical|DIR|FILES>",
        ] {
            assert!(flat.contains(line), "{line}");
        }
        assert!(help.lines().all(|l| l.chars().count() <= 100), "{help}");
    }

    #[test]
    fn table_header_is_for_markdown_only() {
        let a = run(&["--strategy", "markdown", "--table-header", "repeat"]).unwrap();
        assert_eq!(
            a.config.markdown_config().unwrap().table_header,
            TableHeader::Repeat
        );
        let a = run(&["--strategy", "markdown", "--table-header", "once"]).unwrap();
        assert_eq!(
            a.config.markdown_config().unwrap().table_header,
            TableHeader::Once
        );
        // "once" is the default, so it is not a setting of another strategy.
        run(&["--table-header", "once"]).unwrap();
        let e = run(&["--table-header", "repeat"]).unwrap_err();
        assert_eq!(
            e,
            "--table-header applies to the \"markdown\" strategy only (the strategy is \
             \"recursive\"), which would ignore it"
        );
        let e = run(&["--strategy", "markdown", "--table-header", "always"]).unwrap_err();
        assert!(e.contains("unknown table header \"always\""), "{e}");
    }

    #[test]
    fn min_characters_per_chunk_is_for_chonkie_recursive_only() {
        let a = run(&[
            "--strategy",
            "chonkie-recursive",
            "--min-characters-per-chunk",
            "3",
        ])
        .unwrap();
        assert_eq!(
            a.config.chonkie_config().unwrap().min_characters_per_chunk,
            3
        );
        // Chonkie's default anywhere is no setting at all, as `--table-header once`.
        run(&["--min-characters-per-chunk", "24"]).unwrap();
        let e = run(&["--min-characters-per-chunk", "3"]).unwrap_err();
        assert_eq!(
            e,
            "--min-characters-per-chunk applies to the \"chonkie-recursive\" strategy only \
             (the strategy is \"recursive\"), which would ignore it"
        );
        let e = run(&[
            "--strategy",
            "chonkie-recursive",
            "--min-characters-per-chunk",
            "-1",
        ])
        .unwrap_err();
        assert!(e.contains("whole number"), "{e}");
    }

    #[test]
    fn heading_prefix_is_for_markdown_only() {
        let a = run(&["--strategy", "markdown", "--heading-prefix"]).unwrap();
        assert!(a.config.markdown_config().unwrap().heading_prefix);
        assert_eq!(a.config.kind(), Strategy::Markdown);
        assert_eq!(a.config.separators, [". ", " ", ""].map(Separator::literal));
        let e = run(&["--heading-prefix"]).unwrap_err();
        assert_eq!(
            e,
            "--heading-prefix applies to the \"markdown\" strategy only (the strategy is \
             \"recursive\"), which would ignore it"
        );
    }

    #[test]
    fn langchain_strategies_start_from_langchains_defaults() {
        let a = run(&["--strategy", "langchain"]).unwrap();
        assert_eq!(a.config.placement, Placement::Start);
        assert!(a.config.separators.is_empty());
        let a = run(&["--strategy", "langchain-character", "--sep", "x"]).unwrap();
        assert_eq!(a.config.placement, Placement::None);
        assert_eq!(a.config.separators, [Separator::literal("x")]);
        // An explicit placement wins, wherever it stands.
        let a = run(&["--placement", "end", "--strategy", "langchain"]).unwrap();
        assert_eq!(a.config.placement, Placement::End);
    }

    /// Every mistake the parser catches, with its whole message.
    #[test]
    fn mistakes_get_messages_that_name_the_fix() {
        let cases: [(&[&str], &str); 23] = [
            (&["--bogus"], "unknown option --bogus: run `chunkscope --help` for the options"),
            (&["--bogus=3"], "unknown option --bogus: run `chunkscope --help` for the options"),
            (&["-x"], "unknown option -x: run `chunkscope --help` for the options"),
            (
                &["--sise", "4"],
                "unknown option --sise (did you mean --size?): run `chunkscope --help` for the options",
            ),
            (&["--size"], "--size needs a value: run `chunkscope --help` for its form"),
            (&["--sep"], "--sep needs a value: run `chunkscope --help` for its form"),
            (
                &["--size", "ten"],
                "--size expects a whole number of units (0, 1, 2, …), got \"ten\"",
            ),
            (
                &["--size", "-3"],
                "--size expects a whole number of units (0, 1, 2, …), got \"-3\"",
            ),
            (
                &["--overlap=1.5"],
                "--overlap expects a whole number of units (0, 1, 2, …), got \"1.5\"",
            ),
            (
                &["--overlap="],
                "--overlap expects a whole number of units (0, 1, 2, …), got \"\"",
            ),
            (
                &["--size", "99999999999999999999999"],
                "--size 99999999999999999999999 is too large",
            ),
            (
                &["--strategy", "late"],
                "unknown strategy \"late\": use \"fixed\", \"recursive\", \"sentence\", \"markdown\", \"langchain\", \"langchain-character\", \"langchain-markdown\", \"semantic\", \"semchunk\", \"chonkie-recursive\", \"chonkie-token\", \"chonkie-sentence\", \"llamaindex-sentence\", \"llamaindex-token\", \"llamaindex-markdown\", \"text-splitter\" or \"text-splitter-markdown\"",
            ),
            // A flag after a flag that takes a value is that value.
            (
                &["--strategy", "--size", "3"],
                "unknown strategy \"--size\": use \"fixed\", \"recursive\", \"sentence\", \"markdown\", \"langchain\", \"langchain-character\", \"langchain-markdown\", \"semantic\", \"semchunk\", \"chonkie-recursive\", \"chonkie-token\", \"chonkie-sentence\", \"llamaindex-sentence\", \"llamaindex-token\", \"llamaindex-markdown\", \"text-splitter\" or \"text-splitter-markdown\"",
            ),
            (
                &["--unit", "tokens"],
                "unknown unit \"tokens\": use \"chars\" (Unicode characters), \"bytes\" (UTF-8 bytes), \"cl100k\" or \"o200k\" (OpenAI tokens)",
            ),
            (
                &["--placement", "middle"],
                "unknown placement \"middle\": use \"end\", \"start\" or \"none\"",
            ),
            (
                &["--sep", r"\q"],
                r"--sep '\q': unknown escape \q; use \n, \r, \t, \\ or \u{…}",
            ),
            (&["--trace=yes"], "--trace takes no value (got --trace=yes)"),
            (&["--no-trim=1"], "--no-trim takes no value (got --no-trim=1)"),
            (&["--help=x"], "--help takes no value (got --help=x)"),
            (
                &["--regex"],
                "--regex reads the --sep patterns as regular expressions, but no --sep was given",
            ),
            (
                &["a.txt", "-", "b.txt", "-"],
                "standard input (-) is given more than once: it can be read only once",
            ),
            (
                &["--format", "jsonl", "--trace"],
                "--trace needs --format json: the trace is one tree per text, not a line per chunk",
            ),
            (
                &["--format", "yaml"],
                "unknown format \"yaml\": use \"json\" (one object), \"jsonl\" (one chunk a line) or \"csv\" (one chunk a record)",
            ),
        ];
        for (args, message) in cases {
            assert_eq!(err(args), message, "{args:?}");
        }
    }

    #[test]
    fn claps_other_messages_lose_only_the_usage() {
        // The shape a planned subcommand's required argument would take.
        let e = clap::Command::new("chunkscope")
            .arg(clap::Arg::new("questions").long("questions").required(true))
            .try_get_matches_from(["chunkscope"])
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::MissingRequiredArgument);
        assert_eq!(
            message(&e),
            "the following required arguments were not provided: --questions <questions>"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_file_name_need_not_be_utf8_but_an_option_must() {
        use std::os::unix::ffi::OsStringExt;
        let name = OsString::from_vec(vec![b'f', 0xff]);
        let parsed = parse([name.clone()]).unwrap();
        assert_eq!(
            parsed,
            Command::Run(Args {
                config: Config::default(),
                trace: false,
                format: Format::Json,
                inputs: vec![Input::File(name.into())],
            })
        );
        let value = OsString::from_vec(vec![b'a', 0xff]);
        for flag in ["--sep", "--size", "--strategy"] {
            assert_eq!(
                parse([flag.into(), value.clone()]).unwrap_err(),
                format!("the value of {flag} (\"a\u{FFFD}\") is not valid UTF-8")
            );
        }
        let inline = OsString::from_vec(b"--sep=\xff".to_vec());
        assert_eq!(
            parse([inline]).unwrap_err(),
            "the value of --sep (\"\u{FFFD}\") is not valid UTF-8"
        );
        let flag = OsString::from_vec(vec![b'-', b'-', 0xff]);
        assert_eq!(
            parse([flag]).unwrap_err(),
            "unknown option --\u{FFFD}: run `chunkscope --help` for the options"
        );
    }
}
