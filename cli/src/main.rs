//! `chunkscope`: split text files into chunks for retrieval and print them, with
//! the reason for every cut, as JSON or JSON Lines.
//!
//! Exit status: 0 on success; 1 when an input cannot be read or the output
//! cannot be written; 2 for anything the user can fix by changing the command
//! (an unknown option, a bad value, a configuration the engine rejects) or the
//! input (text that is not UTF-8).
//!
//! Memory: an input is mapped or read whole (the engine needs all of it)
//! and split in one go. As JSON or JSON Lines, each chunk is then written
//! from the source as it is reported (see `lines`), so the peak stays near
//! the size of one input however many chunks it makes.

mod args;
mod escape;
mod lines;
mod model;
mod source;

use args::{Args, Command, EvalArgs, Format, Input};
use chunkscope::report;
use chunkscope::{Detail, Splitter};
use serde::Serialize;
use source::Source;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

/// Why the run stopped, and with which exit status.
#[derive(Debug)]
enum Failure {
    /// The command line, the configuration or the input text is wrong (exit 2).
    Usage(String),
    /// Reading or writing failed (exit 1).
    Io(String),
    /// The reader closed standard output (`chunkscope doc.txt | head`): it has
    /// all it wanted, so this is a success.
    Closed,
}

fn main() -> ExitCode {
    let (code, message) = match run(std::env::args_os().skip(1)) {
        Ok(()) | Err(Failure::Closed) => return ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => (2, m),
        Err(Failure::Io(m)) => (1, m),
    };
    // Nothing else can be done if stderr is gone too; never panic over it.
    let _ = writeln!(io::stderr(), "chunkscope: {message}");
    ExitCode::from(code)
}

fn run(argv: impl Iterator<Item = std::ffi::OsString>) -> Result<(), Failure> {
    let args = match args::parse(argv).map_err(Failure::Usage)? {
        Command::Print(text) => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes()).map_err(write_failure)?;
            return out.flush().map_err(write_failure);
        }
        Command::Run(args) => args,
        Command::Eval(eval) => return evaluate(eval),
    };
    let Args {
        config,
        trace,
        format,
        inputs,
    } = args;
    // Checked before reading, so a bad command fails at once instead of after
    // waiting for standard input.
    let resources = model::resources(&config).map_err(Failure::Usage)?;
    let splitter = Splitter::new(config, &resources).map_err(|e| Failure::Usage(e.to_string()))?;
    // A missing file fails before anything is printed, whichever input it is.
    for input in &inputs {
        if let Input::File(path) = input {
            std::fs::File::open(path).map_err(|e| cannot_read(path, &e))?;
        }
    }
    // The CLI is not a hot path for traces: `--trace` asks for everything,
    // the determinism re-run included.
    let detail = if trace {
        Detail::FULL.with_determinism(true)
    } else {
        Detail::CHUNKS
    };
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    match format {
        Format::Json if inputs.len() == 1 => {
            let source = Source::open(&inputs[0])?;
            let mut lines = lines::Lines::new(&mut out);
            stream_report(&mut lines, b"{", &splitter, source.text()?, detail)?;
            lines.raw(b"\n").map_err(write_failure)?;
            lines.finish().map_err(write_failure)?;
        }
        Format::Json => {
            let mut lines = lines::Lines::new(&mut out);
            lines.raw(b"{\"files\":[").map_err(write_failure)?;
            for (i, input) in inputs.iter().enumerate() {
                let source = Source::open(input)?;
                let mut open = if i > 0 { b",".to_vec() } else { Vec::new() };
                lines::push_file(&mut open, &name(input));
                stream_report(&mut lines, &open, &splitter, source.text()?, detail)?;
            }
            lines.raw(b"]}\n").map_err(write_failure)?;
            lines.finish().map_err(write_failure)?;
        }
        Format::Jsonl => {
            let mut lines = lines::Lines::new(&mut out);
            for input in &inputs {
                let source = Source::open(input)?;
                lines.file(&name(input));
                stream_lines(&mut lines, &splitter, source.text()?)?;
            }
            lines.finish().map_err(write_failure)?;
        }
        Format::Csv => {
            // The page's CSV download, file after file under one header.
            let unit = splitter.config().unit;
            let headings = splitter.config().kind() == chunkscope::Strategy::Markdown;
            out.write_all(chunkscope::export::csv_header(headings).as_bytes())
                .map_err(write_failure)?;
            for input in &inputs {
                let source = Source::open(input)?;
                let text = source.text()?;
                let analysis = splitter
                    .analyze(text, Detail::CHUNKS)
                    .map_err(|e| Failure::Usage(format!("{}: {e}", name(input))))?;
                let rows = chunkscope::export::rows(text, &analysis);
                let body = chunkscope::export::csv_records(&name(input), unit, &rows, headings);
                out.write_all(body.as_bytes()).map_err(write_failure)?;
            }
        }
    }
    out.flush().map_err(write_failure)
}

/// `chunkscope eval`: splits every input, retrieves and scores, prints the
/// evaluation as one line of JSON.
fn evaluate(eval: EvalArgs) -> Result<(), Failure> {
    use chunkscope_eval::{questions, Corpus, Document};
    let EvalArgs {
        split,
        questions: path,
        top_k,
    } = eval;
    let resources = model::resources(&split.config).map_err(Failure::Usage)?;
    let splitter =
        Splitter::new(split.config, &resources).map_err(|e| Failure::Usage(e.to_string()))?;
    let qa = std::fs::read(&path).map_err(|e| cannot_read(&path, &e))?;
    let qa = String::from_utf8(qa)
        .map_err(|_| Failure::Usage(format!("{}: not UTF-8 text", path.display())))?;
    let parsed = questions::parse_questions(&qa)
        .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
    let mut corpus = Corpus::default();
    for input in &split.inputs {
        let text = Source::open(input)?.text()?.to_string();
        let analysis = splitter
            .analyze(&text, Detail::CHUNKS)
            .map_err(|e| Failure::Usage(format!("{}: {e}", name(input))))?;
        corpus.documents.push(Document {
            name: name(input),
            units: analysis.output.chunks.iter().map(|c| c.len).collect(),
            chunks: analysis.chunk_chars,
            text,
        });
    }
    for (q, question) in parsed.questions.iter().enumerate() {
        let doc = corpus.find(&question.doc).map_err(|e| {
            Failure::Usage(format!("{}: line {}: {e}", path.display(), parsed.lines[q]))
        })?;
        questions::check_texts(&parsed, q, &corpus.documents[doc].text)
            .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
    }
    let evaluation =
        chunkscope_eval::evaluate(&corpus, &parsed.questions, top_k).map_err(Failure::Usage)?;
    let mut out = BufWriter::new(io::stdout().lock());
    json_line(
        &mut out,
        &Configured {
            inner: &evaluation,
            config: chunkscope::Settings::echo(splitter.config()),
        },
    )?;
    out.flush().map_err(write_failure)
}

/// An evaluation with the configuration it judged.
#[derive(Serialize)]
struct Configured<'a, T: Serialize> {
    #[serde(flatten)]
    inner: &'a T,
    config: chunkscope::Settings,
}

/// Writes the report of `text` as one JSON object, after `open` (`{`, or
/// `{` and fields ending in a comma): byte for byte serde_json's
/// serialization of the [`report::Report`], but with each chunk written
/// from the source as it is reported, not all of them first copied into
/// the report (three times the input at 256, and a third of the time).
fn stream_report(
    lines: &mut lines::Lines<impl Write>,
    open: &[u8],
    splitter: &Splitter,
    text: &str,
    detail: Detail,
) -> Result<(), Failure> {
    let analysis = splitter
        .analyze(text, detail)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    // The rest of the report, after its chunks (which come first).
    let rest = report::Report::without_chunks(text, splitter.config(), &analysis, detail);
    let rest = serde_json::to_vec(&rest).map_err(encode_failure)?;
    let rest = rest
        .strip_prefix(b"{\"chunks\":[]")
        .expect("a report's chunks come first");
    lines.raw(open).map_err(write_failure)?;
    lines.raw(b"\"chunks\":[").map_err(write_failure)?;
    each_report(text, &analysis, detail.trace, |i, chunk| {
        lines.element(i == 0, chunk)
    })?;
    lines.raw(b"]").map_err(write_failure)?;
    lines.raw(rest).map_err(write_failure)
}

/// Writes the chunks of `text` as JSON Lines. The text is analysed once;
/// each chunk's report borrows its text from the source and is written
/// before the next is made.
fn stream_lines(
    lines: &mut lines::Lines<impl Write>,
    splitter: &Splitter,
    text: &str,
) -> Result<(), Failure> {
    let analysis = splitter
        .analyze(text, Detail::CHUNKS)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    each_report(text, &analysis, false, |_, chunk| lines.chunk(chunk))
}

/// Hands `write` each chunk's report in turn (`full`: with the fields only
/// a full report has), made as it is written, its text borrowed.
fn each_report(
    text: &str,
    analysis: &chunkscope::Analysis,
    full: bool,
    mut write: impl FnMut(usize, &report::ChunkReport) -> io::Result<()>,
) -> Result<(), Failure> {
    let reports = report::ChunkReports::new(text, analysis, full);
    let chunks = &analysis.output.chunks;
    for i in 0..reports.len() {
        // A report checks that its text ends on a char boundary, reading
        // the byte at its end: for a large text, a line of memory not
        // touched since the split. Asked for one chunk ahead, it arrives
        // while this chunk is written (at 4000, 0.25 ms of 7 for 10 MB).
        if let Some(next) = chunks.get(i + 1) {
            prefetch(text.as_bytes(), next.span.end);
        }
        write(i, &reports.get(i)).map_err(write_failure)?;
    }
    Ok(())
}

/// Asks the processor to bring `bytes[at]`'s line of memory into its cache,
/// without waiting for it.
#[inline]
fn prefetch(bytes: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(b) = bytes.get(at) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of every x86_64 processor, and a prefetch
        // of an address inside `bytes` reads nothing and cannot fault.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(b).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bytes, at);
}

/// One value as one line of JSON.
fn json_line(out: &mut impl Write, value: &impl Serialize) -> Result<(), Failure> {
    serde_json::to_writer(&mut *out, value).map_err(encode_failure)?;
    out.write_all(b"\n").map_err(write_failure)
}

/// How an input is named in the output: its path as given, `-` for
/// standard input.
fn name(input: &Input) -> String {
    match input {
        Input::Stdin => "-".to_string(),
        Input::File(path) => path.display().to_string(),
    }
}

/// A closed pipe is the reader's choice, not an error.
fn write_failure(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::Closed
    } else {
        Failure::Io(format!("cannot write the output: {e}"))
    }
}

fn encode_failure(e: serde_json::Error) -> Failure {
    match e.io_error_kind() {
        Some(kind) => write_failure(io::Error::from(kind)),
        None => Failure::Io(format!("cannot encode the output: {e}")),
    }
}

fn cannot_read(path: &std::path::Path, e: &io::Error) -> Failure {
    Failure::Io(format!("cannot read {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::{Config, Strategy};

    #[test]
    fn a_streamed_report_is_serde_jsons_report_byte_for_byte() {
        let text = "# Refunds \"policy\"\n\nRefunds go back\tto the card in 5 days.\r\n\
                    ## UPI é中😀\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n\
                    Ask support\\help. Then wait!  Really?\u{1}\n"
            .repeat(4);
        let mut compared = 0;
        for (strategy, size, overlap) in [
            (Strategy::Recursive, 30, 8),
            (Strategy::Fixed, 25, 5),
            (Strategy::LangChain, 40, 10),
            (Strategy::LangChainMarkdown, 60, 0),
            (Strategy::Markdown, 30, 0),
            (Strategy::Sentence, 50, 0),
            (Strategy::Semantic, 80, 0),
        ] {
            let mut config = Config::for_strategy(strategy);
            config.size = size;
            config.overlap = overlap;
            let splitter = Splitter::new(config, &chunkscope::Resources::tiktoken()).unwrap();
            for detail in [Detail::CHUNKS, Detail::FULL.with_determinism(true)] {
                let expected = serde_json::to_vec(&splitter.report(&text, detail).unwrap());
                // Alone, and as the second of several files.
                for (open, close) in [(&b"{"[..], &b""[..]), (b"[1,{\"file\":\"a\",", b"]")] {
                    let mut out = Vec::new();
                    let mut lines = lines::Lines::new(&mut out);
                    stream_report(&mut lines, open, &splitter, &text, detail).unwrap();
                    lines.raw(close).unwrap();
                    lines.finish().unwrap();
                    let mut want = expected.as_ref().unwrap().clone();
                    if open != b"{" {
                        want.splice(..1, open.iter().copied());
                        want.extend_from_slice(close);
                    }
                    assert_eq!(
                        String::from_utf8(out).unwrap(),
                        String::from_utf8(want).unwrap(),
                        "{strategy:?} {detail:?}"
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 28);
    }
}
