//! `jungle play`: the full-screen terminal client (the `jungle-tui` library).
//!
//! Its command line speaks the player's language too: the language is known before the
//! arguments are parsed (`--lang`, else the environment: [`args_lang`]), so that in Chinese its
//! `--help` ([`localize`]) and its argument errors ([`usage_error_text`]) are in Chinese. Every
//! text is the catalogue's (`web/messages.json`, its `cli_play_…` entries, read through
//! `jungle_tui::i18n`), English included: the options' help, the text after them and the
//! refusals below are set from it in every language (clap's own words stay for the rest of the
//! English help and for English argument errors).

use anyhow::{anyhow, bail, Result};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Arg, ArgAction, Args, ValueEnum};
use jungle::{Color, Game, Jfen, Position, Rules};
use jungle_tui::i18n::{self, Msg};
use jungle_tui::proto::{send, TimeControl};
use jungle_tui::{Config, Glyphs, Lang, Opponent, Server};
use std::ffi::OsString;
use std::process::ExitCode;

/// A side, as given on the command line.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// Red moves first, from the bottom.
    Red,
    /// Blue moves second, from the top.
    Blue,
}

/// How animals are drawn.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GlyphArg {
    /// Letters: uppercase Red, lowercase Blue (E L T P D W C R).
    Letters,
    /// Chinese characters (象 狮 虎 豹 狗 狼 猫 鼠).
    Chinese,
}

/// Arguments of `jungle play`. Each option's help is its catalogue entry (`OPTIONS`), set by
/// [`localize`] in every language.
#[derive(Args)]
pub struct PlayArgs {
    // `cli_play_level`
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10), conflicts_with = "hotseat")]
    level: Option<u8>,
    // `cli_play_color` (only against the AI: not at one keyboard, nor watching)
    #[arg(long, value_enum, default_value = "red", conflicts_with_all = ["hotseat", "watch"])]
    color: Side,
    // `cli_play_hotseat`
    #[arg(long)]
    hotseat: bool,
    // `cli_play_rules`
    #[arg(long, default_value = "standard", value_parser = rules_arg)]
    rules: String,
    // `cli_play_fen`
    #[arg(long)]
    fen: Option<String>,
    // `cli_play_server`
    #[arg(long)]
    server: Option<String>,
    // `cli_play_watch`
    #[arg(long, requires = "server", conflicts_with_all = ["hotseat", "level"])]
    watch: Option<String>,
    // `cli_play_name`
    #[arg(long, requires = "server")]
    name: Option<String>,
    // `cli_play_password` (else `JUNGLE_PASSWORD`, read with --name: see [`password`]; not
    // clap's `env`, whose value would count as given and refuse a local game)
    #[arg(long, requires = "name")]
    password: Option<String>,
    // `cli_play_tc`
    #[arg(long, default_value = "600+0/60")]
    tc: TimeControl,
    // `cli_play_lang`
    #[arg(long)]
    lang: Option<Lang>,
    // `cli_play_glyphs`
    #[arg(long, value_enum)]
    glyphs: Option<GlyphArg>,
}

/// A `--rules` value, checked: refused here, it is refused as a bad value of the option.
fn rules_arg(s: &str) -> Result<String, String> {
    s.parse::<Rules>()
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

fn color_of(s: Side) -> Color {
    match s {
        Side::Red => Color::Red,
        Side::Blue => Color::Blue,
    }
}

/// The password of `--name`: `--password`, else the environment's `JUNGLE_PASSWORD` (a
/// non-empty one).
fn password(a: &PlayArgs) -> Option<String> {
    a.password.clone().or_else(|| {
        std::env::var("JUNGLE_PASSWORD")
            .ok()
            .filter(|p| !p.is_empty())
    })
}

/// A refused command line as [`usage_error_text`] says it: in Chinese "参数错误：`what`" and
/// the line pointing to `--help`; in English one line, as `jungle`'s other usage errors are,
/// "error: `what` (see --help)".
fn usage_text(lang: Lang, what: &str) -> String {
    if !lang.is_chinese() {
        return format!("error: {what} (see --help)");
    }
    format!(
        "{}\n{}",
        i18n::fill(i18n::text(lang, "cli_play_bad_args"), &[("msg", &what)]),
        i18n::text(lang, "cli_play_see_help")
    )
}

/// Runs `jungle play`. In Chinese its errors are said here, as "错误：…" (English ones go back
/// to `main`, which says them as "error: …"); options that do not go together in a way clap
/// cannot check are refused here as clap's are, in every language (exit status 2).
pub fn play(a: PlayArgs) -> Result<ExitCode> {
    let lang = a.lang.unwrap_or_else(Lang::from_env);
    if a.name.is_some() && password(&a).is_none() {
        eprintln!(
            "{}",
            usage_text(lang, i18n::text(lang, "cli_play_name_without_password"))
        );
        return Ok(ExitCode::from(2));
    }
    match play_in(a, lang) {
        Err(e) if lang.is_chinese() => {
            eprintln!(
                "{}",
                Msg::ErrorLine.fill(lang, &[("msg", &format!("{e:#}"))])
            );
            Ok(ExitCode::from(2))
        }
        done => done,
    }
}

fn play_in(a: PlayArgs, lang: Lang) -> Result<ExitCode> {
    // Checked by clap already.
    let rules: Rules = a.rules.parse().map_err(|e| anyhow!("--rules: {e}"))?;
    let start = match &a.fen {
        // A refused JFEN is said in the player's language.
        Some(f) => Jfen::parse_position(f, rules)
            .map_err(|e| anyhow!("--fen: {}", jungle_tui::i18n::invalid_jfen_text(lang, &e)))?,
        None => Position::start(rules),
    };
    // Every end the rules know (a den entered, a side wiped out or left without a move, the
    // no-capture draw), said in the player's language.
    if let Some(outcome) = Game::from_position(start).outcome() {
        bail!(jungle_tui::i18n::finished_position_text(lang, outcome));
    }
    let glyphs = match a.glyphs {
        Some(GlyphArg::Letters) => Glyphs::Letters,
        Some(GlyphArg::Chinese) => Glyphs::Chinese,
        None if lang.is_chinese() => Glyphs::Chinese,
        None => Glyphs::Letters,
    };
    let tc = a.tc;
    let (opponent, server, online_start) = match &a.server {
        Some(url) => {
            if a.fen.is_some() {
                bail!(i18n::text(lang, "cli_play_fen_with_server"));
            }
            if !a.hotseat && !rules.is_standard() {
                bail!(i18n::text(lang, "cli_play_rules_with_server"));
            }
            let first = if let Some(id) = &a.watch {
                send::watch_id(id)
            } else if a.hotseat {
                send::play_hotseat(tc, &a.rules)
            } else if let Some(level) = a.level {
                send::play_ai(level, color_of(a.color).name(), tc)
            } else {
                send::quick(tc)
            };
            let login = match (&a.name, password(&a)) {
                (Some(n), Some(p)) => Some((n.clone(), p)),
                // Refused in `play`.
                (Some(_), None) => bail!(i18n::text(lang, "cli_play_name_without_password")),
                _ => None,
            };
            let server = Server {
                url: url.clone(),
                login,
            };
            (Opponent::Online, Some(server), Some(first))
        }
        None if a.hotseat => (Opponent::Hotseat, None, None),
        None => (
            Opponent::Engine {
                level: a.level.unwrap_or(3),
                human: color_of(a.color),
            },
            None,
            None,
        ),
    };
    let config = Config {
        lang,
        glyphs,
        start,
        opponent,
        online_start,
        save_dir: std::env::current_dir().unwrap_or_default(),
    };
    // Said in the player's language (no terminal, one that failed, a server that could not
    // be used, a game to watch that is not there).
    jungle_tui::run(config, server).map_err(|e| anyhow!(e.text(lang)))?;
    Ok(ExitCode::SUCCESS)
}

// ----- the command line in the player's language -----

/// Each option's help, by its id: its catalogue entry. In Chinese the entry says the option's
/// possible and default values itself (clap's `[default: …]` and `Possible values:` are hidden
/// there); English keeps clap's.
const OPTIONS: &[(&str, &str)] = &[
    ("level", "cli_play_level"),
    ("color", "cli_play_color"),
    ("hotseat", "cli_play_hotseat"),
    ("rules", "cli_play_rules"),
    ("fen", "cli_play_fen"),
    ("server", "cli_play_server"),
    ("watch", "cli_play_watch"),
    ("name", "cli_play_name"),
    ("password", "cli_play_password"),
    ("tc", "cli_play_tc"),
    ("lang", "cli_play_lang"),
    ("glyphs", "cli_play_glyphs"),
];

/// What a value of an option checked by a parser of its own must be, by the option's id: its
/// catalogue entry.
const EXPECTED: &[(&str, &str)] = &[
    ("level", "cli_play_expect_level"),
    ("tc", "cli_play_expect_tc"),
    ("lang", "cli_play_expect_lang"),
    ("rules", "cli_play_expect_rules"),
];

/// The language `jungle play` speaks for the command line `args` (the program's name first),
/// known before clap reads it: its `--lang` where that names a language, else the
/// environment's ([`Lang::from_env`]). `None` where the command is not `jungle play` (nor
/// `jungle help play`).
pub fn args_lang(args: &[OsString]) -> Option<Lang> {
    let args: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
    let sub = args.iter().position(|a| !a.starts_with('-'))?;
    let rest = match args[sub] {
        "play" => &args[sub + 1..],
        "help" if args.get(sub + 1) == Some(&"play") => &args[sub + 2..],
        _ => return None,
    };
    let mut lang = None;
    for (i, a) in rest.iter().enumerate() {
        if *a == "--" {
            break;
        }
        let value = match a.strip_prefix("--lang") {
            Some("") => rest.get(i + 1).copied(),
            Some(v) => v.strip_prefix('='),
            None => None,
        };
        if let Some(l) = value.and_then(|v| v.parse::<Lang>().ok()) {
            lang = Some(l);
        }
    }
    Some(lang.unwrap_or_else(Lang::from_env))
}

/// `jungle`'s command `cmd` with `play`'s help in `lang`, from the catalogue: its about, every
/// option's help and the keys and examples after them in every language; in Chinese also its
/// usage, headings and help flag, the options' values and defaults said in their help rather than
/// in clap's English (left as clap has it, with clap's headings, in English).
pub fn localize(cmd: clap::Command, lang: Lang) -> clap::Command {
    cmd.mut_subcommand("play", |play| {
        let mut play = play
            .about(i18n::text(lang, "cli_play_about"))
            .long_about(None::<&str>)
            .after_help(i18n::text(lang, "cli_play_after_help"))
            .after_long_help(None::<&str>);
        if lang.is_chinese() {
            let heading = |key| lang.detail(i18n::text(lang, key), "");
            let template = format!(
                "{{about-with-newline}}\n{}{{usage}}\n\n{}\n{{options}}{{after-help}}",
                heading("cli_play_usage_heading"),
                heading("cli_play_options_heading"),
            );
            play = play
                .override_usage(i18n::text(lang, "cli_play_usage"))
                .help_template(template)
                .disable_help_flag(true)
                .arg(
                    Arg::new("help")
                        .short('h')
                        .long("help")
                        .action(ArgAction::Help)
                        .help(i18n::text(lang, "cli_play_help_flag")),
                );
        }
        for (id, key) in OPTIONS {
            let text = i18n::text(lang, key);
            play = play.mut_arg(id, |a| {
                let a = a.help(text);
                if !lang.is_chinese() {
                    a
                } else if a.get_action().takes_values() {
                    a.long_help(text)
                        .hide_env(true)
                        .hide_possible_values(true)
                        .hide_default_value(true)
                } else {
                    a.long_help(text).hide_env(true)
                }
            });
        }
        play
    })
}

/// A refused `jungle play` command line said in `lang`, for Chinese: "参数错误：" and what is
/// wrong — an unknown option (and the one perhaps meant), a bad value (and what it may be: a
/// bad `--rules` names the deviation at fault), a missing value, a value for a switch, options
/// that do not go together, one missing (rarer cases in clap's English) — then a line pointing
/// to `--help`. In English, a value that an option's own parser refused (`--level`, `--tc`,
/// `--lang`, `--rules`) is said in the same words, on one line (clap's name only the range or
/// the parser's detail); the rest is left to clap (`None`), whose words are plain there.
pub fn usage_error_text(lang: Lang, e: &clap::Error) -> Option<String> {
    let text = |key: &'static str, fills: &[(&str, &str)]| {
        let fills: Vec<(&str, &dyn std::fmt::Display)> = fills
            .iter()
            .map(|(name, value)| (*name, value as &dyn std::fmt::Display))
            .collect();
        i18n::fill(i18n::text(lang, key), &fills)
    };
    let one = |kind: ContextKind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => v.first().cloned(),
        _ => None,
    };
    let all = |kind: ContextKind| match e.get(kind) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(v)) => v.clone(),
        _ => Vec::new(),
    };
    // `--level <LEVEL>` is said as `--level`.
    let option = |s: &str| s.split([' ', '=']).next().unwrap_or(s).to_string();
    let arg = one(ContextKind::InvalidArg).map(|a| option(&a));
    let value = one(ContextKind::InvalidValue);
    let own_parser = arg.as_ref().is_some_and(|a| {
        let id = a.trim_start_matches('-');
        EXPECTED.iter().any(|(i, _)| *i == id)
    });
    let value_error = matches!(
        e.kind(),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation
    ) && value.as_deref().is_some_and(|v| !v.is_empty());
    // English says here only what its own parsers refused.
    let said_here = lang.is_chinese() || (own_parser && value_error);
    if !said_here {
        return None;
    }
    let what = match (e.kind(), arg) {
        (ErrorKind::UnknownArgument, Some(arg)) if arg.starts_with('-') => {
            let t = text("cli_play_unknown_option", &[("arg", &arg)]);
            match one(ContextKind::SuggestedArg) {
                Some(s) => lang.aside(&t, text("cli_play_did_you_mean", &[("arg", &option(&s))])),
                None => t,
            }
        }
        (ErrorKind::UnknownArgument, Some(arg)) => {
            text("cli_play_extra_argument", &[("arg", &lang.quote(&arg))])
        }
        (ErrorKind::InvalidValue, Some(arg)) if value.as_deref().is_none_or(str::is_empty) => {
            text("cli_play_no_value", &[("arg", &arg)])
        }
        (ErrorKind::InvalidValue | ErrorKind::ValueValidation, Some(arg)) => {
            let value = lang.quote(&value.unwrap_or_default());
            let t = text("cli_play_bad_value", &[("arg", &arg), ("value", &value)]);
            let valid = all(ContextKind::ValidValue);
            let id = arg.trim_start_matches('-');
            let sep = if lang.is_chinese() { "、" } else { ", " };
            let bad_rules = (id == "rules")
                .then(|| one(ContextKind::InvalidValue)?.parse::<Rules>().err())
                .flatten();
            if !valid.is_empty() {
                lang.detail(&t, text("cli_play_one_of", &[("list", &valid.join(sep))]))
            } else if let Some(r) = bad_rules {
                // RULES §9: an unknown deviation is an error that names it.
                let item = lang.quote(&r.item);
                lang.detail(&t, i18n::rules_error_text(lang, &r, &item, true))
            } else if let Some((_, expected)) = EXPECTED.iter().find(|(i, _)| *i == id) {
                lang.detail(&t, i18n::text(lang, expected))
            } else {
                t
            }
        }
        (ErrorKind::TooManyValues, Some(arg)) => text("cli_play_needs_no_value", &[("arg", &arg)]),
        (ErrorKind::ArgumentConflict, Some(arg)) => {
            let other = one(ContextKind::PriorArg).map(|o| option(&o));
            match other {
                Some(other) if other != arg => {
                    text("cli_play_conflict", &[("arg", &arg), ("other", &other)])
                }
                _ => text("cli_play_twice", &[("arg", &arg)]),
            }
        }
        (ErrorKind::MissingRequiredArgument, _) => {
            let missing: Vec<String> = all(ContextKind::InvalidArg)
                .iter()
                .map(|a| option(a))
                .collect();
            let sep = if lang.is_chinese() { "、" } else { ", " };
            text("cli_play_missing", &[("arg", &missing.join(sep))])
        }
        // Rarer ones in clap's words.
        _ => e
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .to_string(),
    };
    Some(usage_text(lang, &what))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches;

    /// `jungle` with only `play`, its help in `lang`.
    fn command(lang: Lang) -> clap::Command {
        let play = PlayArgs::augment_args(clap::Command::new("play"));
        localize(clap::Command::new("jungle").subcommand(play), lang)
    }

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    /// The error of `jungle play <args>` said in `lang`, if it is one.
    fn refused(lang: Lang, args: &[&str]) -> Option<String> {
        let mut all = vec!["jungle", "play"];
        all.extend(args);
        let e = command(lang).try_get_matches_from(all).err()?;
        usage_error_text(lang, &e)
    }

    #[test]
    fn the_language_is_read_from_the_command_line_before_clap_reads_it() {
        let lang = |args: &[&str]| args_lang(&os(args));
        assert_eq!(
            lang(&["jungle", "play", "--lang", "zh-Hant", "--bogus"]),
            Some(Lang::ZhHant)
        );
        assert_eq!(
            lang(&["jungle", "play", "--hotseat", "--lang=zh-Hans"]),
            Some(Lang::ZhHans)
        );
        assert_eq!(
            lang(&["jungle", "help", "play", "--lang", "en"]),
            Some(Lang::En)
        );
        assert_eq!(
            lang(&["jungle", "play", "--lang", "en", "--lang=zh"]),
            Some(Lang::ZhHans)
        );
        // Not `jungle play`: clap's English.
        assert_eq!(lang(&["jungle", "perft", "--lang", "zh-Hans"]), None);
        assert_eq!(lang(&["jungle", "--help"]), None);
        assert_eq!(lang(&["jungle"]), None);
        // A value that is no language is left to clap (and to the environment meanwhile).
        assert!(lang(&["jungle", "play", "--lang", "fr"]).is_some());
    }

    #[test]
    fn the_help_in_chinese_has_no_english_left_but_names_and_values() {
        for lang in [Lang::ZhHans, Lang::ZhHant] {
            command(lang).debug_assert();
            let e = command(lang)
                .try_get_matches_from(["jungle", "play", "--help"])
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::DisplayHelp);
            let help = e.to_string();
            let t = |key| i18n::text(lang, key);
            assert!(help.starts_with(t("cli_play_about")), "{help}");
            let usage = lang.detail(t("cli_play_usage_heading"), t("cli_play_usage"));
            assert!(help.contains(&usage), "{help}");
            assert!(help.contains(&lang.detail(t("cli_play_options_heading"), "")));
            for (id, key) in OPTIONS {
                assert!(help.contains(&format!("--{id}")), "{id}: {help}");
                assert!(help.contains(t(key)), "{id}: {help}");
            }
            assert!(help.contains(t("cli_play_help_flag")), "{help}");
            assert!(help.contains(t("cli_play_after_help")), "{help}");
            for english in [
                "Usage",
                "Options",
                "Possible values",
                "[default",
                "[env",
                "Print help",
                "Keys",
                "Examples",
                "Play the AI",
            ] {
                assert!(!help.contains(english), "{english}: {help}");
            }
            // -h too, and `jungle help play`.
            let short = command(lang)
                .try_get_matches_from(["jungle", "play", "-h"])
                .unwrap_err()
                .to_string();
            assert!(short.contains(t(OPTIONS[0].1)), "{short}");
            let help_play = command(lang)
                .try_get_matches_from(["jungle", "help", "play"])
                .unwrap_err()
                .to_string();
            assert!(help_play.contains(t("cli_play_about")), "{help_play}");
        }
        // Both scripts say every option, each its own way.
        assert!(OPTIONS
            .iter()
            .all(|(_, key)| i18n::text(Lang::ZhHans, key) != i18n::text(Lang::ZhHant, key)));
        // English has clap's layout, values and defaults, with the catalogue's English texts.
        for args in [["jungle", "play", "--help"], ["jungle", "play", "-h"]] {
            let help = command(Lang::En)
                .try_get_matches_from(args)
                .unwrap_err()
                .to_string();
            assert!(help.contains("Usage: jungle play [OPTIONS]"), "{help}");
            assert!(help.contains("[default: red]"), "{help}");
            let t = |key| i18n::text(Lang::En, key);
            assert!(help.starts_with(t("cli_play_about")), "{help}");
            for (id, key) in OPTIONS {
                assert!(help.contains(&format!("--{id}")), "{id}: {help}");
                assert!(help.contains(t(key)), "{id}: {help}");
            }
            assert!(help.contains(t("cli_play_after_help")), "{help}");
        }
        let long = command(Lang::En)
            .try_get_matches_from(["jungle", "play", "--help"])
            .unwrap_err()
            .to_string();
        assert!(long.contains("Possible values:"), "{long}");
    }

    #[test]
    fn every_text_of_the_command_line_is_a_catalogue_entry_in_three_languages() {
        // The keys this file names, each in the catalogue, said apart in each language.
        let source = include_str!("play_cmd.rs");
        let mut used: Vec<&str> = source
            .split('"')
            .filter(|s| s.starts_with("cli_play_") && !s.ends_with('_'))
            .collect();
        used.sort_unstable();
        used.dedup();
        assert!(used.len() > 30, "{used:?}");
        for key in &used {
            assert!(i18n::has_entry(key), "no `{key}` in web/messages.json");
        }
        // Every `cli_play_` entry of the catalogue is said somewhere here.
        let catalogue = include_str!("../../../web/messages.json");
        let keys: Vec<&str> = catalogue
            .split("\n  \"")
            .filter_map(|entry| entry.split_once("\": ["))
            .map(|(key, _)| key)
            .filter(|key| key.starts_with("cli_play_"))
            .collect();
        assert_eq!(keys.len(), used.len(), "{keys:?}");
        for key in keys {
            assert!(used.contains(&key), "`{key}` is not used");
        }
        // No Chinese left in the code but in tests: the texts are the catalogue's.
        let code = source.split("#[cfg(test)]").next().unwrap();
        let chinese: Vec<&str> = code
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .filter(|l| l.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)))
            .collect();
        assert_eq!(chinese, Vec::<&str>::new());
    }

    #[test]
    fn bad_arguments_are_said_in_chinese_with_a_hint() {
        let hans = [
            (&["--bogus"][..], "没有 --bogus 这个选项"),
            (&["--levl", "3"], "没有 --levl 这个选项（是不是 --level？）"),
            (
                &["--level", "11"],
                "--level 的值“11”不对：应为 1 到 10 的整数",
            ),
            (
                &["--level", "x"],
                "--level 的值“x”不对：应为 1 到 10 的整数",
            ),
            (&["--level"], "--level 后面缺少值"),
            (
                &["--color", "green"],
                "--color 的值“green”不对：可以是 red、blue",
            ),
            (
                &["--lang", "fr"],
                "--lang 的值“fr”不对：应为 en、zh-Hans 或 zh-Hant",
            ),
            (
                &["--tc", "5"],
                "--tc 的值“5”不对：应为 局时+每步加秒/步时，单位秒，例如 600+0/60",
            ),
            (
                &["--rules", "no_such_rule"],
                "--rules 的值“no_such_rule”不对：没有“no_such_rule”这个规则变化",
            ),
            (
                &["--watch", "g1", "--hotseat"],
                "--watch 不能和 --hotseat 一起用",
            ),
            (
                &["--hotseat", "--level", "3"],
                "--hotseat 不能和 --level 一起用",
            ),
            (&["--watch", "g1"], "还需要 --server"),
            (&["--hotseat=1"], "--hotseat 后面不用给值"),
            (&["extra"], "多余的参数“extra”"),
            (
                &["--rules", "no_7_3,foo"],
                "--rules 的值“no_7_3,foo”不对：没有“foo”这个规则变化；可以用的有：wolf_over_dog、",
            ),
            (&["--password", "x", "--server", "h"], "还需要 --name"),
            (
                &["--hotseat", "--color", "blue"],
                "--hotseat 不能和 --color 一起用",
            ),
            (
                &["--watch", "g1", "--server", "h", "--color", "red"],
                "不能和 --color 一起用",
            ),
        ];
        for (args, said) in hans {
            let text = refused(Lang::ZhHans, args).unwrap_or_else(|| panic!("{args:?}"));
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), 2, "{args:?}: {text}");
            assert!(lines[0].starts_with("参数错误："), "{args:?}: {text}");
            assert!(lines[0].contains(said), "{args:?}: {text}");
            assert_eq!(lines[1], i18n::text(Lang::ZhHans, "cli_play_see_help"));
            assert!(!lines[0].contains("invalid"), "{text}");
        }
        let text = refused(Lang::ZhHant, &["--glyphs", "emoji"]).unwrap();
        assert_eq!(
            text,
            "參數錯誤：--glyphs 的值「emoji」不對：可以是 letters、chinese\n\
             提示：用 jungle play --help 查看所有選項"
        );
        // English: a value an option's own parser refused in the same words, on one line;
        // the rest in clap's words (its list of values, what is missing).
        assert_eq!(
            refused(Lang::En, &["--level", "11"]).as_deref(),
            Some(
                "error: invalid value `11` for --level: expected a whole number from 1 to 10 \
                 (see --help)"
            )
        );
        assert_eq!(
            refused(Lang::En, &["--rules", "no_7_3,foo"])
                .unwrap()
                .lines()
                .count(),
            1
        );
        assert!(refused(Lang::En, &["--rules", "foo"])
            .unwrap()
            .contains("there is no rule deviation `foo`; known: wolf_over_dog, "));
        assert_eq!(refused(Lang::En, &["--color", "green"]), None);
        assert_eq!(refused(Lang::En, &["--bogus"]), None);
        assert_eq!(
            refused(Lang::En, &["--level"]),
            None,
            "no value: clap's words"
        );
        // Any English is a language, as any Chinese of a region.
        let m = command(Lang::En)
            .try_get_matches_from(["jungle", "play", "--lang", "en-US"])
            .unwrap();
        let a = PlayArgs::from_arg_matches(m.subcommand_matches("play").unwrap()).unwrap();
        assert_eq!(a.lang, Some(Lang::En));
        // A default colour is no colour given: it goes with --hotseat.
        assert!(command(Lang::En)
            .try_get_matches_from(["jungle", "play", "--hotseat"])
            .is_ok());
        // What clap accepts still parses to the arguments.
        let m = command(Lang::ZhHans)
            .try_get_matches_from(["jungle", "play", "--lang", "zh-Hant", "--tc", "300+3/0"])
            .unwrap();
        let a = PlayArgs::from_arg_matches(m.subcommand_matches("play").unwrap()).unwrap();
        assert_eq!(
            (a.lang, a.tc.to_string()),
            (Some(Lang::ZhHant), "300+3/0".into())
        );
    }
}
