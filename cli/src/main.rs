//! `chunkscope`: split a text file into chunks for retrieval and print them, with
//! the reason for every cut, as JSON.
//!
//! Exit status: 0 on success; 1 when the input cannot be read or the output
//! cannot be written; 2 for anything the user can fix by changing the command
//! (an unknown option, a bad value, a configuration the engine rejects) or the
//! input (text that is not UTF-8).

mod args;

use args::{Args, Command, Input};
use chunkscope::report;
use chunkscope::{Detail, Splitter};
use std::io::{self, Read, Write};
use std::process::ExitCode;

/// Why the run stopped, and with which exit status.
#[derive(Debug)]
enum Failure {
    /// The command line, the configuration or the input text is wrong (exit 2).
    Usage(String),
    /// Reading or writing failed (exit 1).
    Io(String),
}

fn main() -> ExitCode {
    match run(std::env::args_os().skip(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let (code, message) = match failure {
                Failure::Usage(m) => (2, m),
                Failure::Io(m) => (1, m),
            };
            // Nothing else can be done if stderr is gone too; never panic over it.
            let _ = writeln!(io::stderr(), "chunkscope: {message}");
            ExitCode::from(code)
        }
    }
}

fn run(argv: impl Iterator<Item = std::ffi::OsString>) -> Result<(), Failure> {
    let args = match args::parse(argv).map_err(Failure::Usage)? {
        Command::Print(text) => return print(text.as_bytes()),
        Command::Run(args) => args,
    };
    let Args {
        config,
        trace,
        input,
    } = args;
    // Checked before reading, so a bad command fails at once instead of after
    // waiting for standard input.
    let splitter = Splitter::new(config).map_err(|e| Failure::Usage(e.to_string()))?;
    let text = read(&input)?;
    // The CLI is not a hot path: `--trace` asks for everything, the
    // determinism re-run included.
    let detail = if trace {
        Detail::FULL.with_determinism(true)
    } else {
        Detail::CHUNKS
    };
    let report =
        report::run(&splitter, &text, detail).map_err(|e| Failure::Usage(e.to_string()))?;
    let mut json = serde_json::to_vec(&report)
        .map_err(|e| Failure::Io(format!("cannot encode the output: {e}")))?;
    json.push(b'\n');
    print(&json)
}

/// Writes to stdout. A closed pipe (`chunkscope doc.txt | head`) is not an
/// error: the reader has all it wanted.
fn print(bytes: &[u8]) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(Failure::Io(format!("cannot write the output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Reads the whole input and checks that it is UTF-8. Offsets are reported in
/// chars and bytes of the text as given, so it is never repaired or re-encoded:
/// a file in another encoding is refused with the position of its first bad byte.
fn read(input: &Input) -> Result<String, Failure> {
    let (name, bytes) = match input {
        Input::Stdin => {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::Io(format!("cannot read standard input: {e}")))?;
            ("standard input".to_string(), bytes)
        }
        Input::File(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| Failure::Io(format!("cannot read {}: {e}", path.display())))?;
            (path.display().to_string(), bytes)
        }
    };
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let byte = e.as_bytes().get(at).copied().unwrap_or_default();
        Failure::Usage(format!(
            "{name} is not UTF-8 text: the byte at offset {at} (0x{byte:02X}) is not valid UTF-8; \
             convert the text first, e.g. `iconv -f latin1 -t utf-8`"
        ))
    })
}
