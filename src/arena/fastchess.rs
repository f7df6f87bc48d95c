//! fastchess's command line for `catena match`: its single-dash options
//! (`-engine cmd=… name=…`, `-each tc=10+0.1`, `-rounds 100 -repeat`,
//! `-openings file=… format=epd order=random`, `-sprt …`, `-pgnout file=…`)
//! are rewritten into `catena match`'s own before clap reads the command
//! line, so that a command written for fastchess runs as it is. An option of
//! fastchess that Catena cannot honour is refused with one line naming it.
//!
//! A single-dash option takes the words after it up to the next word that
//! starts with `-` and no digit, as fastchess reads them. Double-dash options
//! pass through untouched and may be mixed in. Unless `-output` (or
//! `--output`) says otherwise, fastchess options bring fastchess's output.

use std::ffi::OsString;

use super::time_control::TimeControl;

/// fastchess options that `catena match` refuses: what they ask for, Catena
/// does not do.
const UNSUPPORTED: &[&str] = &[
    "quick",
    "seeds",
    "noswap",
    "reverse",
    "wait",
    "epdout",
    "scoreinterval",
    "config",
    "autosaveinterval",
    "log",
    "crc32",
    "use-affinity",
    "check-mate-pvs",
    "show-latency",
    "debug",
    "testEnv",
    "strict",
    "startup-ms",
    "ucinewgame-ms",
    "ping-ms",
    "version",
    "v",
];

/// What the rewriting has seen so far.
#[derive(Debug, Default)]
struct Seen {
    /// A fastchess option was rewritten.
    fastchess: bool,
    /// The output format was chosen.
    output: bool,
    /// The number of games was given, by rounds or games.
    games: bool,
    /// An SPRT was asked for in fastchess's way.
    sprt: bool,
    /// The variant was chosen.
    variant: bool,
    /// The words of each `-engine`, and of every `-each`.
    engines: Vec<Vec<String>>,
    each: Vec<String>,
}

/// The command line with fastchess's options of `catena match` rewritten;
/// any other command line as it is.
pub fn rewrite_command_line(argv: Vec<OsString>) -> Result<Vec<OsString>, String> {
    if argv.get(1).and_then(|word| word.to_str()) != Some("match") {
        return Ok(argv);
    }
    let mut words = argv.into_iter();
    let head: Vec<OsString> = words.by_ref().take(2).collect();
    let rest = rewrite(words.collect())?;
    Ok(head.into_iter().chain(rest).collect())
}

/// `catena match`'s arguments with fastchess's options rewritten.
pub fn rewrite(args: Vec<OsString>) -> Result<Vec<OsString>, String> {
    let mut seen = Seen::default();
    let mut out = Vec::new();
    // `--` and the values after it, kept for the end.
    let mut values_only = Vec::new();
    let mut words = args.into_iter().peekable();
    while let Some(word) = words.next() {
        if word == "--" {
            values_only = std::iter::once(word).chain(words.by_ref()).collect();
            break;
        }
        let Some(name) = fastchess_option(&word) else {
            note_native(&word, &mut seen);
            out.push(word);
            continue;
        };
        let mut values = Vec::new();
        while let Some(value) = words.next_if(|next| !starts_option(next)) {
            let value = value
                .into_string()
                .map_err(|value| format!("-{name}: '{}' is not UTF-8", value.to_string_lossy()))?;
            values.push(value);
        }
        seen.fastchess = true;
        out.extend(
            translate(&name, &values, &mut seen)?
                .into_iter()
                .map(OsString::from),
        );
    }
    one_clock(&seen)?;
    if seen.fastchess && !seen.output {
        out.extend(["--output", "fastchess"].map(OsString::from));
    }
    // fastchess plays standard chess unless told otherwise: a command line
    // written for it means chess, against engines that cannot switch.
    if seen.fastchess && !seen.variant {
        out.extend(["--variant", "chess"].map(OsString::from));
    }
    // fastchess runs an SPRT until it decides, as far as 500000 rounds.
    if seen.sprt && !seen.games {
        out.extend(["--rounds", "500000"].map(OsString::from));
    }
    out.extend(values_only);
    Ok(out)
}

/// fastchess gives each engine its own clock; Catena plays both under one,
/// so the engines' time controls and time margins must agree.
fn one_clock(seen: &Seen) -> Result<(), String> {
    let setting = |engine: &[String], keys: &[&str]| {
        // -each is applied after the engine's own words, as in fastchess:
        // the last word given counts.
        engine
            .iter()
            .chain(&seen.each)
            .rev()
            .filter_map(|word| word.split_once('='))
            .find(|(key, _)| keys.contains(key))
            .map(|(key, value)| format!("{key}={value}"))
    };
    let [first, second] = &seen.engines[..] else {
        return Ok(());
    };
    let clocks = [first, second].map(|engine| {
        setting(engine, &["tc", "st"]).and_then(|word| {
            let spec = word.strip_prefix("tc=").unwrap_or(&word);
            spec.parse::<TimeControl>().ok()
        })
    });
    if let [Some(a), Some(b)] = clocks
        && a != b
    {
        return Err(format!(
            "-engine tc: the engines' time controls differ ({a}, {b}): catena match gives both engines one clock"
        ));
    }
    let margins = [first, second].map(|engine| setting(engine, &["timemargin"]));
    if let [Some(a), Some(b)] = &margins
        && a != b
    {
        return Err(format!(
            "-engine timemargin: the engines' margins differ ({a}, {b}): catena match gives both engines one"
        ));
    }
    Ok(())
}

/// The name of a fastchess option, `engine` for `-engine`; `-h` is clap's.
fn fastchess_option(word: &OsString) -> Option<String> {
    let name = word.to_str()?.strip_prefix('-')?;
    let starts_with_letter = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    (starts_with_letter && name != "h").then(|| name.to_string())
}

/// Whether a word starts an option rather than being a value (`-5` is a value).
fn starts_option(word: &OsString) -> bool {
    let text = word.to_string_lossy();
    text.strip_prefix('-')
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| !c.is_ascii_digit())
}

/// Notes the native options the rewriting must not add to.
fn note_native(word: &OsString, seen: &mut Seen) {
    let text = word.to_string_lossy();
    let name = text.split('=').next().unwrap_or_default();
    match name {
        "--output" => seen.output = true,
        "--rounds" | "--games" => seen.games = true,
        "--variant" | "--sscc" => seen.variant = true,
        _ => {}
    }
}

/// The native words for the fastchess option `-name values…`.
fn translate(name: &str, values: &[String], seen: &mut Seen) -> Result<Vec<String>, String> {
    let option = format!("-{name}");
    let native = |flag: &str, value: &str| -> Result<Vec<String>, String> {
        Ok(vec![flag.to_string(), value.to_string()])
    };
    match name {
        "engine" | "each" => {
            key_values(&option, values)?;
            if name == "engine" {
                seen.engines.push(values.to_vec());
            } else {
                seen.each.extend_from_slice(values);
            }
            Ok(with_flag(&format!("--{name}"), values))
        }
        "openings" => openings(&key_values(&option, values)?),
        "sprt" => {
            seen.sprt = true;
            sprt(&key_values(&option, values)?)
        }
        "pgnout" => pgnout(&key_values(&option, values)?),
        "resign" => adjudication(
            "--resign",
            &key_values(&option, values)?,
            &[("movecount", "1"), ("score", "0")],
            &["twosided"],
        ),
        "draw" => adjudication(
            "--draw",
            &key_values(&option, values)?,
            &[("movenumber", "0"), ("movecount", "1"), ("score", "0")],
            &[],
        ),
        "output" => {
            seen.output = true;
            output(&key_values(&option, values)?)
        }
        "report" => report(&key_values(&option, values)?),
        "rounds" => {
            seen.games = true;
            native("--rounds", single(&option, values)?)
        }
        "games" => games(single(&option, values)?),
        "repeat" => match values {
            [] => Ok(Vec::new()),
            [count] => games(count),
            _ => Err("-repeat takes at most one value, 2".to_string()),
        },
        "concurrency" => native("--concurrency", single(&option, values)?),
        "srand" => native("--srand", single(&option, values)?),
        "maxmoves" => native("--max-moves", single(&option, values)?),
        "tb" => native("--tb", single(&option, values)?),
        "tbpieces" => native("--tb-pieces", single(&option, values)?),
        "tbadjudicate" => match single(&option, values)? {
            "BOTH" => native("--tb-adjudicate", "both"),
            "WIN_LOSS" => native("--tb-adjudicate", "win-loss"),
            "DRAW" => native("--tb-adjudicate", "draw"),
            other => Err(format!(
                "{option} {other} is not one of fastchess's: WIN_LOSS, DRAW, BOTH"
            )),
        },
        "tbignore50" => {
            no_values(&option, values)?;
            Ok(vec!["--tb-ignore-50".to_string()])
        }
        "ratinginterval" => native("--rating-interval", single(&option, values)?),
        "variant" => {
            seen.variant = true;
            variant(single(&option, values)?)
        }
        "tournament" => match single(&option, values)? {
            // Two engines: a round robin is the match itself.
            "roundrobin" => Ok(Vec::new()),
            other => Err(format!(
                "-tournament {other} is not supported: catena match plays two engines"
            )),
        },
        "event" | "site" if values.is_empty() => Err(format!("{option} needs a name")),
        "event" | "site" => native(&format!("--{name}"), &values.join(" ")),
        "recover" | "force-concurrency" => {
            // Crashed engines are restarted anyway; no hardware limit to force.
            no_values(&option, values)?;
            Ok(Vec::new())
        }
        "help" => Ok(vec!["--help".to_string()]),
        _ if UNSUPPORTED.contains(&name) => Err(format!(
            "fastchess's option {option} is not supported by catena match"
        )),
        _ => Err(format!(
            "unknown option '{option}' (see 'catena match --help' and docs/match.md)"
        )),
    }
}

/// `flag` followed by `values`.
fn with_flag(flag: &str, values: &[String]) -> Vec<String> {
    std::iter::once(flag.to_string())
        .chain(values.iter().cloned())
        .collect()
}

/// The one value of `option`.
fn single<'a>(option: &str, values: &'a [String]) -> Result<&'a str, String> {
    match values {
        [value] => Ok(value),
        _ => Err(format!("{option} takes one value, not {}", values.len())),
    }
}

fn no_values(option: &str, values: &[String]) -> Result<(), String> {
    match values {
        [] => Ok(()),
        [value, ..] => Err(format!("{option} takes no value, not '{value}'")),
    }
}

/// The `KEY=VALUE` words of `option`, at least one, keys and values not empty.
fn key_values<'a>(option: &str, values: &'a [String]) -> Result<Vec<(&'a str, &'a str)>, String> {
    if values.is_empty() {
        return Err(format!("{option} needs KEY=VALUE words"));
    }
    values
        .iter()
        .map(|word| {
            word.split_once('=')
                .filter(|(key, value)| !key.is_empty() && !value.is_empty())
                .ok_or_else(|| format!("{option}: '{word}' is not KEY=VALUE"))
        })
        .collect()
}

fn unknown_key(option: &str, key: &str, keys: &str) -> String {
    format!("{option}: unknown key '{key}' ({keys})")
}

/// `-openings file=F [format=epd|pgn] [order=sequential|random] [start=N] [plies=N] [policy=round]`.
fn openings(fields: &[(&str, &str)]) -> Result<Vec<String>, String> {
    let mut file = None;
    let mut rest = Vec::new();
    for &(key, value) in fields {
        let flag = match (key, value) {
            ("file", _) => {
                file = Some(value);
                continue;
            }
            ("policy", "round") => continue,
            ("format", "epd" | "pgn") => "--openings-format",
            ("order", "sequential" | "random") => "--openings-order",
            ("start", _) => "--openings-start",
            ("plies", _) => "--openings-plies",
            ("format" | "order" | "policy", _) => {
                return Err(format!("-openings {key}={value} is not supported"));
            }
            _ => {
                return Err(unknown_key(
                    "-openings",
                    key,
                    "file, format, order, start, plies",
                ));
            }
        };
        rest.extend([flag.to_string(), value.to_string()]);
    }
    let file = file.ok_or("-openings needs file=FILE")?;
    Ok(["--openings".to_string(), file.to_string()]
        .into_iter()
        .chain(rest)
        .collect())
}

/// `-sprt elo0=A elo1=B [alpha=X] [beta=Y] [model=logistic]`: Catena's test
/// is on logistic Elo, which fastchess calls `model=logistic`.
fn sprt(fields: &[(&str, &str)]) -> Result<Vec<String>, String> {
    let mut words = vec!["--sprt".to_string()];
    for &(key, value) in fields {
        match key {
            "elo0" | "elo1" | "alpha" | "beta" => words.push(format!("{key}={value}")),
            "model" if value == "logistic" => {}
            "model" => {
                return Err(format!(
                    "-sprt model={value} is not supported: catena match tests logistic Elo (model=logistic)"
                ));
            }
            _ => {
                return Err(unknown_key("-sprt", key, "elo0, elo1, alpha, beta, model"));
            }
        }
    }
    Ok(words)
}

/// `-pgnout file=F [notation=san] [append=true|false]`; what fastchess can
/// add to each move (`nodes=true`, …) Catena does not record.
fn pgnout(fields: &[(&str, &str)]) -> Result<Vec<String>, String> {
    const EXTRAS: &[&str] = &[
        "nodes", "seldepth", "nps", "hashfull", "tbhits", "pv", "timeleft", "latency", "min",
    ];
    let mut file = None;
    let mut overwrite = false;
    for &(key, value) in fields {
        match (key, value) {
            ("file", _) => file = Some(value),
            ("notation", "san") => {}
            ("append", "true" | "false") => overwrite = value == "false",
            (extra, "false") if EXTRAS.contains(&extra) => {}
            ("notation" | "match_line", _) => {
                return Err(format!(
                    "-pgnout {key}={value} is not supported (Catena writes SAN)"
                ));
            }
            (extra, _) if EXTRAS.contains(&extra) => {
                return Err(format!(
                    "-pgnout {key}={value} is not supported: Catena records the moves and switches only"
                ));
            }
            _ => {
                return Err(unknown_key("-pgnout", key, "file, notation, append"));
            }
        }
    }
    let file = file.ok_or("-pgnout needs file=FILE")?;
    let mut words = vec!["--pgn".to_string(), file.to_string()];
    if overwrite {
        words.push("--pgn-overwrite".to_string());
    }
    Ok(words)
}

/// `-resign` or `-draw` as `flag` with every key Catena needs, fastchess's
/// defaults filling those not given.
fn adjudication(
    flag: &str,
    fields: &[(&str, &str)],
    defaults: &[(&str, &str)],
    optional: &[&str],
) -> Result<Vec<String>, String> {
    let option = flag.trim_start_matches('-');
    let known =
        |key: &str| defaults.iter().any(|&(name, _)| name == key) || optional.contains(&key);
    if let Some(&(key, _)) = fields.iter().find(|(key, _)| !known(key)) {
        let mut keys: Vec<&str> = defaults.iter().map(|&(name, _)| name).collect();
        keys.extend(optional);
        return Err(unknown_key(&format!("-{option}"), key, &keys.join(", ")));
    }
    let value_of = |key: &str, default: &str| {
        fields
            .iter()
            .rev()
            .find(|&&(name, _)| name == key)
            .map_or(default.to_string(), |&(_, value)| value.to_string())
    };
    let mut words = vec![flag.to_string()];
    for &(key, default) in defaults {
        words.push(format!("{key}={}", value_of(key, default)));
    }
    for &key in optional {
        if fields.iter().any(|&(name, _)| name == key) {
            words.push(format!("{key}={}", value_of(key, "")));
        }
    }
    Ok(words)
}

/// `-output format=fastchess|cutechess`.
fn output(fields: &[(&str, &str)]) -> Result<Vec<String>, String> {
    match fields {
        [("format", format @ ("fastchess" | "cutechess"))] => {
            Ok(vec!["--output".to_string(), format.to_string()])
        }
        _ => Err("-output takes format=fastchess or format=cutechess".to_string()),
    }
}

/// `-report penta=true`: the fastchess output reports pairs anyway.
fn report(fields: &[(&str, &str)]) -> Result<Vec<String>, String> {
    match fields {
        [("penta", "true")] => Ok(Vec::new()),
        _ => Err("-report: only penta=true is supported".to_string()),
    }
}

/// `-games 2`: the only count Catena plays, each opening once with either colour.
fn games(count: &str) -> Result<Vec<String>, String> {
    if count == "2" {
        Ok(Vec::new())
    } else {
        Err(format!(
            "-games {count} is not supported: catena match plays each opening twice, colours reversed (-games 2, or -repeat); set the number of games with -rounds"
        ))
    }
}

/// `-variant standard` is chess, fastchess's default; Catena adds `sscc`.
fn variant(name: &str) -> Result<Vec<String>, String> {
    let native = match name {
        "standard" => "chess",
        "sscc" => "sscc",
        _ => {
            return Err(format!(
                "-variant {name} is not supported (standard, or sscc)"
            ));
        }
    };
    Ok(vec!["--variant".to_string(), native.to_string()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(line: &str) -> Result<String, String> {
        let args = line.split_whitespace().map(OsString::from).collect();
        rewrite(args).map(|words| {
            words
                .iter()
                .map(|word| word.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    #[test]
    fn rewrites_a_fastchess_command() {
        let line = "-engine cmd=./a name=A option.Hash=64 -engine cmd=./b name=B \
            -each tc=10+0.1 depth=2 -rounds 5 -repeat -concurrency 2 \
            -openings file=book.epd format=epd order=random start=3 -srand 42 \
            -pgnout file=out.pgn notation=san append=false nodes=false \
            -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic \
            -resign score=600 -draw movenumber=34 movecount=8 score=20 -maxmoves 200 \
            -tb /syzygy -tbpieces 4 -tbignore50 -tbadjudicate WIN_LOSS -event Test Run -recover -variant standard -games 2";
        assert_eq!(
            rewritten(line).unwrap(),
            "--engine cmd=./a name=A option.Hash=64 --engine cmd=./b name=B \
            --each tc=10+0.1 depth=2 --rounds 5 --concurrency 2 \
            --openings book.epd --openings-format epd --openings-order random --openings-start 3 \
            --srand 42 --pgn out.pgn --pgn-overwrite \
            --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 \
            --resign movecount=1 score=600 --draw movenumber=34 movecount=8 score=20 \
            --max-moves 200 --tb /syzygy --tb-pieces 4 --tb-ignore-50 --tb-adjudicate win-loss --event Test Run --variant chess --output fastchess"
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
    }

    #[test]
    fn leaves_native_options_alone() {
        let line = "A B --games 4 --tc 1+0.01 --sprt elo0=-5 elo1=5 -h";
        assert_eq!(rewritten(line).unwrap(), line);
        // A fastchess SPRT without a number of rounds runs until it decides.
        assert!(
            rewritten("-sprt elo0=0 elo1=5")
                .unwrap()
                .ends_with("--rounds 500000")
        );
        assert!(
            rewritten("-sprt elo0=0 elo1=5 --games 8")
                .unwrap()
                .ends_with("--games 8 --output fastchess --variant chess")
        );
        assert!(
            rewritten("-output format=cutechess -rounds 1")
                .unwrap()
                .starts_with("--output cutechess --rounds 1")
        );
        // Negative numbers are values, not options.
        assert_eq!(
            rewritten("-sprt elo0=-1 elo1=3 -srand -7 -rounds 2").unwrap(),
            "--sprt elo0=-1 elo1=3 --srand -7 --rounds 2 --output fastchess --variant chess"
        );
        // -each overrides what the engines say, so they agree.
        assert!(rewritten("-engine cmd=a tc=1+0.1 -engine cmd=b tc=2+0.1 -each tc=3+0.1").is_ok());
        assert!(rewritten("-engine cmd=a tc=10+0.1 -engine cmd=b tc=10+0.10").is_ok());
        // After `--` only values follow: nothing is added after them.
        assert_eq!(
            rewritten("-rounds 1 -- -x").unwrap(),
            "--rounds 1 --output fastchess --variant chess -- -x"
        );
        let argv = ["catena", "perft", "-engine"].map(OsString::from).to_vec();
        assert_eq!(rewrite_command_line(argv.clone()).unwrap(), argv);
    }

    #[test]
    fn refuses_what_catena_cannot_honour() {
        for (line, expected) in [
            ("-noswap", "fastchess's option -noswap is not supported"),
            ("-tbadjudicate draw", "not one of fastchess's: WIN_LOSS"),
            ("-tbignore50 yes", "takes no value"),
            ("-games 4", "-games 4 is not supported"),
            (
                "-sprt elo0=0 elo1=2 model=normalized",
                "model=normalized is not supported",
            ),
            (
                "-pgnout file=x.pgn notation=lan",
                "notation=lan is not supported",
            ),
            (
                "-pgnout file=x.pgn nodes=true",
                "nodes=true is not supported",
            ),
            ("-pgnout notation=san", "needs file=FILE"),
            ("-openings format=epd", "needs file=FILE"),
            (
                "-openings file=a.epd order=shuffled",
                "order=shuffled is not supported",
            ),
            ("-variant fischerandom", "fischerandom is not supported"),
            ("-report penta=false", "only penta=true"),
            (
                "-output format=json",
                "format=fastchess or format=cutechess",
            ),
            ("-resign movecount=3 cp=5", "unknown key 'cp'"),
            ("-engine cmd", "'cmd' is not KEY=VALUE"),
            ("-rounds", "takes one value"),
            ("-frobnicate 3", "unknown option '-frobnicate'"),
            (
                "-engine cmd=a tc=1+0.1 -engine cmd=b tc=2+0.1",
                "time controls differ (1+0.1, 2+0.1)",
            ),
            (
                "-engine cmd=a timemargin=10 -engine cmd=b timemargin=20",
                "margins differ",
            ),
        ] {
            let error = rewritten(line).unwrap_err();
            assert!(error.contains(expected), "{line}: {error}");
            assert_eq!(error.lines().count(), 1);
        }
    }
}
