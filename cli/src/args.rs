//! The command line, parsed by hand: there are a dozen flags, and a parser crate
//! would be most of the binary.
//!
//! Parsing only builds a [`Config`]; whether the configuration makes sense
//! (overlap below size, regexes that compile, …) is the engine's to say, so the
//! CLI and the JS API give the same messages for the same mistakes.

use chunkscope::{unescape, Config, Separator};
use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

/// Where the text comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input (no FILE, or `-`).
    Stdin,
    /// A file. Kept as an OS path, so a file name that is not UTF-8 still opens.
    File(PathBuf),
}

/// A run of the splitter, as the command line asks for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    /// The configuration, not yet validated.
    pub config: Config,
    /// Whether to print the trace, the checks and the configuration too.
    pub trace: bool,
    /// Where to read the text.
    pub input: Input,
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Split a text.
    Run(Args),
    /// Print the help.
    Help,
    /// Print the version.
    Version,
}

/// Parses the arguments after the program name.
///
/// Strategy, unit and placement are read by core's `FromStr`, whose message for
/// an unknown name lists the valid ones.
///
/// Flags that take a value accept it as the next argument or after `=`
/// (`--size 40`, `--size=40`). The next argument is taken as the value whatever
/// it looks like, so `--sep -` and `--sep --` are separators. After `--`, every
/// argument is a file name. A repeated flag other than `--sep` keeps its last
/// value.
pub fn parse<I>(args: I) -> Result<Command, String>
where
    I: IntoIterator<Item = OsString>,
{
    let mut args = args.into_iter();
    let mut config = Config::default();
    let mut seps: Vec<String> = Vec::new();
    let mut regex = false;
    let mut placement = None;
    let mut trace = false;
    let mut input: Option<Input> = None;
    let mut only_files = false;

    while let Some(arg) = args.next() {
        let is_flag = !only_files && arg != "-" && arg.as_encoded_bytes().starts_with(b"-");
        if !is_flag {
            let next = if arg == "-" {
                Input::Stdin
            } else {
                Input::File(PathBuf::from(&arg))
            };
            if let Some(first) = &input {
                return Err(format!(
                    "more than one input given ({} and {}): chunkscope reads one FILE, or standard input",
                    describe(first),
                    describe(&next)
                ));
            }
            input = Some(next);
            continue;
        }
        let text = utf8(&arg)?;
        if text == "--" {
            only_files = true;
            continue;
        }
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (text, None),
        };
        match name {
            "-h" | "--help" => {
                no_value(name, inline)?;
                return Ok(Command::Help);
            }
            "-V" | "--version" => {
                no_value(name, inline)?;
                return Ok(Command::Version);
            }
            "--no-trim" => {
                no_value(name, inline)?;
                config.trim = false;
            }
            "--regex" => {
                no_value(name, inline)?;
                regex = true;
            }
            "--trace" => {
                no_value(name, inline)?;
                trace = true;
            }
            "--strategy" => config.strategy = value(name, inline, &mut args)?.parse()?,
            "--unit" => config.unit = value(name, inline, &mut args)?.parse()?,
            "--placement" => placement = Some(value(name, inline, &mut args)?.parse()?),
            "--size" => config.size = number(name, value(name, inline, &mut args)?)?,
            "--overlap" => config.overlap = number(name, value(name, inline, &mut args)?)?,
            "--sep" => seps.push(value(name, inline, &mut args)?),
            _ => {
                return Err(format!(
                    "unknown option {name}: run `chunkscope --help` for the options"
                ))
            }
        }
    }

    // Each strategy starts from its own defaults: LangChain's classes from
    // LangChain's (keep_separator, and its separators when none are given),
    // whichever order the flags came in.
    let base = Config::for_strategy(config.strategy);
    config.placement = placement.unwrap_or(base.placement);
    if regex && seps.is_empty() {
        return Err(
            "--regex reads the --sep patterns as regular expressions, but no --sep was given"
                .to_string(),
        );
    }
    config.separators = if seps.is_empty() {
        base.separators
    } else {
        separators(seps, regex)?
    };
    Ok(Command::Run(Args {
        config,
        trace,
        input: input.unwrap_or(Input::Stdin),
    }))
}

/// The `--sep` values as separators. Literal ones have their backslash escapes
/// read here; a regex keeps its backslashes, which are regex syntax (the regex
/// engine reads `\n` and `\t` itself).
fn separators(seps: Vec<String>, regex: bool) -> Result<Vec<Separator>, String> {
    seps.into_iter()
        .map(|sep| {
            if regex {
                Ok(Separator::regex(sep))
            } else {
                unescape(&sep).map(Separator::literal).map_err(|e| {
                    // Core's message starts by quoting the value; quote it as typed.
                    let why = e.strip_prefix(&format!("in {sep:?}: ")).unwrap_or(&e);
                    format!("--sep '{sep}': {why}")
                })
            }
        })
        .collect()
}

fn describe(input: &Input) -> String {
    match input {
        Input::Stdin => "\"-\" (standard input)".to_string(),
        Input::File(path) => format!("{:?}", path.display().to_string()),
    }
}

fn utf8(arg: &OsStr) -> Result<&str, String> {
    arg.to_str()
        .ok_or_else(|| format!("the option {:?} is not valid UTF-8", arg.to_string_lossy()))
}

fn no_value(name: &str, inline: Option<&str>) -> Result<(), String> {
    match inline {
        None => Ok(()),
        Some(v) => Err(format!("{name} takes no value (got {name}={v})")),
    }
}

/// The flag's value: after `=`, or the next argument.
fn value<I>(name: &str, inline: Option<&str>, rest: &mut I) -> Result<String, String>
where
    I: Iterator<Item = OsString>,
{
    if let Some(v) = inline {
        return Ok(v.to_string());
    }
    let next = rest
        .next()
        .ok_or_else(|| format!("{name} needs a value: run `chunkscope --help` for its form"))?;
    next.into_string().map_err(|raw| {
        format!(
            "the value of {name} ({:?}) is not valid UTF-8",
            raw.to_string_lossy()
        )
    })
}

fn number(name: &str, value: String) -> Result<usize, String> {
    value.trim().parse().map_err(|e: std::num::ParseIntError| {
        use std::num::IntErrorKind::*;
        match e.kind() {
            PosOverflow => format!("{name} {value} is too large"),
            _ => format!("{name} expects a whole number of units (0, 1, 2, …), got {value:?}"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::{Placement, Strategy, Unit};

    fn run(args: &[&str]) -> Result<Args, String> {
        match parse(args.iter().map(OsString::from))? {
            Command::Run(a) => Ok(a),
            other => panic!("expected a run, got {other:?}"),
        }
    }

    fn err(args: &[&str]) -> String {
        parse(args.iter().map(OsString::from)).unwrap_err()
    }

    #[test]
    fn no_arguments_give_the_documented_defaults() {
        let a = run(&[]).unwrap();
        assert_eq!(a.config, Config::default());
        assert_eq!(a.config.strategy, Strategy::Recursive);
        assert_eq!((a.config.size, a.config.overlap), (1000, 0));
        assert_eq!(
            a.config.separators,
            chunkscope::presets::separators("default").unwrap()
        );
        assert_eq!(a.input, Input::Stdin);
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
        assert_eq!(a.config.strategy, Strategy::Fixed);
        assert_eq!((a.config.size, a.config.overlap), (40, 5));
        assert_eq!(a.config.unit, Unit::Bytes);
        assert_eq!(a.config.placement, Placement::Start);
        assert!(!a.config.trim && a.trace);
        assert_eq!(a.input, Input::File("doc.txt".into()));
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
        ])
        .unwrap();
        let seps: Vec<&str> = a
            .config
            .separators
            .iter()
            .map(|s| s.pattern.as_str())
            .collect();
        assert_eq!(seps, ["\n\n", ". ", "", "。"]);
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
        assert!(err(&["--regex"]).contains("no --sep"));
    }

    #[test]
    fn values_that_look_like_flags_are_taken_for_sep() {
        let a = run(&["--sep", "-", "--sep", "--", "--size", "3"]).unwrap();
        let seps: Vec<&str> = a
            .config
            .separators
            .iter()
            .map(|s| s.pattern.as_str())
            .collect();
        assert_eq!(seps, ["-", "--"]);
    }

    #[test]
    fn dash_is_stdin_and_double_dash_ends_the_options() {
        assert_eq!(run(&["-"]).unwrap().input, Input::Stdin);
        assert_eq!(
            run(&["--", "--trace"]).unwrap().input,
            Input::File("--trace".into())
        );
        assert!(err(&["a.txt", "b.txt"]).contains("more than one input"));
    }

    #[test]
    fn help_and_version_win() {
        let p = |a: &[&str]| parse(a.iter().map(OsString::from)).unwrap();
        assert_eq!(p(&["--size", "4", "--help"]), Command::Help);
        assert_eq!(p(&["-h"]), Command::Help);
        assert_eq!(p(&["-V"]), Command::Version);
        assert_eq!(p(&["--version"]), Command::Version);
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

    #[test]
    fn mistakes_get_messages_that_name_the_fix() {
        assert!(err(&["--bogus"]).contains("unknown option --bogus"));
        assert!(err(&["--size"]).contains("--size needs a value"));
        assert!(err(&["--size", "ten"]).contains("whole number"));
        assert!(err(&["--size", "-3"]).contains("whole number"));
        assert!(err(&["--overlap=1.5"]).contains("whole number"));
        assert!(err(&["--size", "99999999999999999999999"]).contains("too large"));
        assert!(err(&["--strategy", "semantic"]).contains("\"langchain-character\""));
        assert!(err(&["--unit", "tokens"]).contains("chars"));
        assert!(err(&["--placement", "middle"]).contains("\"start\""));
        assert!(err(&["--sep", r"\q"]).contains("unknown escape"));
        assert!(err(&["--trace=yes"]).contains("takes no value"));
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
                input: Input::File(name.into()),
            })
        );
        let flag = OsString::from_vec(vec![b'-', b'-', 0xff]);
        assert!(parse([flag]).unwrap_err().contains("not valid UTF-8"));
    }
}
