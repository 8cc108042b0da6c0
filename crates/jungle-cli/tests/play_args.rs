//! `jungle play`'s command line in the player's language, with the real binary: its `--help`
//! and its argument errors follow `--lang`, else the environment (`LC_ALL`, `LC_MESSAGES`,
//! `LANG`); English stays clap's.
#![cfg(feature = "tui")]

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_jungle");

/// `jungle <args>` with `LANG` set to `locale` (and the variables before it unset, as is the
/// password's).
fn jungle(locale: &str, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANGUAGE")
        .env_remove("JUNGLE_PASSWORD")
        .env("LANG", locale)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn the_help_is_in_the_language_of_the_environment_or_of_lang() {
    let out = jungle("zh_CN.UTF-8", &["play", "--help"]);
    assert!(out.status.success());
    let help = stdout(&out);
    for said in [
        "用法：jungle play [选项]",
        "选项：",
        "--level <LEVEL>",
        "和电脑对弈，电脑的级别：1（入门）到 10（最强），默认 3。",
        "默认 600+0/60",
        "显示帮助",
        "下棋时的按键：",
        "示例：",
    ] {
        assert!(help.contains(said), "{said:?} missing:\n{help}");
    }
    for english in [
        "Usage:",
        "Options:",
        "Possible values",
        "[default:",
        "Print help",
    ] {
        assert!(!help.contains(english), "{english:?} left:\n{help}");
    }
    // Traditional from the locale, or from --lang whatever the locale.
    let help = stdout(&jungle("zh_TW.UTF-8", &["play", "--help"]));
    assert!(help.contains("用法：jungle play [選項]"), "{help}");
    assert!(help.contains("下棋時的按鍵："), "{help}");
    let help = stdout(&jungle("C", &["play", "--lang", "zh-Hant", "-h"]));
    assert!(help.contains("顯示說明"), "{help}");
    // English as clap says it, --lang en over a Chinese locale included.
    for (locale, args) in [
        ("C", &["play", "--help"][..]),
        ("zh_CN.UTF-8", &["play", "--lang", "en", "--help"]),
    ] {
        let help = stdout(&jungle(locale, args));
        assert!(help.contains("Usage: jungle play [OPTIONS]"), "{help}");
        assert!(help.contains("Keys while playing:"), "{help}");
    }
}

#[test]
fn bad_arguments_are_refused_in_the_players_language_with_a_hint() {
    for (locale, args, first) in [
        (
            "zh_CN.UTF-8",
            &["play", "--bogus"][..],
            "参数错误：没有 --bogus 这个选项",
        ),
        (
            "zh_CN.UTF-8",
            &["play", "--level", "11"],
            "参数错误：--level 的值“11”不对：应为 1 到 10 的整数",
        ),
        (
            "zh_TW.UTF-8",
            &["play", "--color", "green"],
            "參數錯誤：--color 的值「green」不對：可以是 red、blue",
        ),
        (
            "C",
            &["play", "--lang", "zh-Hans", "--tc", "10min"],
            "参数错误：--tc 的值“10min”不对：应为 局时+每步加秒/步时",
        ),
    ] {
        let out = jungle(locale, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {err}");
        assert!(lines[0].starts_with(first), "{args:?}: {err}");
        assert!(lines[1].starts_with("提示："), "{args:?}: {err}");
        assert!(lines[1].contains("jungle play --help"), "{args:?}: {err}");
    }
    // English: one line, clap's words, but for a value an option's own parser refused, said
    // as friendly as in Chinese (clap would name only a range).
    let out = jungle("C", &["play", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: unexpected argument '--bogus' found (see --help)\n"
    );
    let out = jungle("zh_CN.UTF-8", &["play", "--lang", "en", "--level", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: invalid value `0` for --level: expected a whole number from 1 to 10 \
         (see --help)\n"
    );
    let out = jungle("C", &["play", "--tc", "10min"]);
    assert_eq!(
        stderr(&out),
        "error: invalid value `10min` for --tc: expected CLOCK+INCREMENT/PER-MOVE in seconds, \
         e.g. 600+0/60 (see --help)\n"
    );
    // A bad rule set names the deviation at fault, in Chinese as in English (RULES §9).
    for (locale, said) in [
        ("zh_CN.UTF-8", "没有“foo”这个规则变化"),
        ("C", "there is no rule deviation `foo`"),
    ] {
        let out = jungle(locale, &["play", "--rules", "wolf_over_dog,foo"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).lines().next().unwrap().contains(said),
            "{}",
            stderr(&out)
        );
    }
    // Other commands are not touched.
    let out = jungle("zh_CN.UTF-8", &["perft", "--bogus"]);
    assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
}

#[test]
fn refused_combinations_are_said_in_the_players_language() {
    let out = jungle(
        "zh_CN.UTF-8",
        &[
            "play",
            "--server",
            "http://127.0.0.1:1",
            "--fen",
            "7/7/7/7/7/7/7/7/7 r",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("错误："), "{}", stderr(&out));
    // --name without a password is refused as the other argument errors are.
    let out = jungle(
        "zh_TW.UTF-8",
        &["play", "--server", "http://127.0.0.1:1", "--name", "bob"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "參數錯誤：--name 需要密碼：用 --password 或環境變數 JUNGLE_PASSWORD 給出\n\
         提示：用 jungle play --help 查看所有選項\n"
    );
    let out = jungle(
        "C",
        &["play", "--server", "http://127.0.0.1:1", "--name", "bob"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --name needs a password: --password or JUNGLE_PASSWORD (see --help)\n"
    );
    // Options that would be ignored are refused: a password without an account (nor a
    // server), a colour at one keyboard.
    for (args, said) in [
        (
            &["play", "--password", "x"][..],
            "参数错误：还需要 --server、--name",
        ),
        (
            &["play", "--password", "x", "--server", "http://127.0.0.1:1"],
            "参数错误：还需要 --name",
        ),
        (
            &["play", "--color", "blue", "--hotseat"],
            "参数错误：--color 不能和 --hotseat 一起用",
        ),
    ] {
        let out = jungle("zh_CN.UTF-8", args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {err}");
        assert!(lines[0].starts_with(said), "{args:?}: {err}");
        assert!(lines[1].starts_with("提示："), "{args:?}: {err}");
    }
    // The password may still come from the environment (with --name only).
    let out = Command::new(BIN)
        .args(["play", "--hotseat", "--lang", "en"])
        .env("JUNGLE_PASSWORD", "secret")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!stderr(&out).contains("--name"), "{}", stderr(&out));
}

/// `jungle play <args>` in a session of its own, without a controlling terminal (so that it
/// never takes the terminal the tests run in). `setsid` is util-linux's, on every Debian.
fn without_terminal(args: &[&str]) -> Output {
    let setsid = ["/usr/bin/setsid", "/bin/setsid"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("setsid (util-linux) is installed");
    Command::new(setsid)
        .arg("-w")
        .arg(BIN)
        .arg("play")
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANGUAGE")
        .env_remove("JUNGLE_PASSWORD")
        .env("LANG", "C")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn without_a_terminal_it_says_so_in_the_players_language() {
    let out = without_terminal(&["--hotseat", "--lang", "zh-Hans"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[0], "错误：jungle play 需要在终端里运行", "{err}");
    assert!(lines[1].starts_with("  详情："), "{err}");
    assert!(!lines[0].contains("terminal:"), "{err}");
    // --lang en-US is English, as zh-CN is Chinese: accepted, and the screen is what fails.
    let out = without_terminal(&["--hotseat", "--lang", "en-US"]);
    assert_eq!(
        stderr(&out).lines().next(),
        Some("error: jungle play needs a terminal to run in"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_command_list_says_play_as_its_help_does() {
    // `jungle --help` lists `play` with main.rs's doc comment (the one text of `jungle play`
    // the catalogue cannot set: the list is drawn before the command is known); it is the
    // catalogue's English `cli_play_about`, which `jungle play --help` shows.
    let about = jungle_tui::i18n::text(jungle_tui::Lang::En, "cli_play_about");
    let list = stdout(&jungle("C", &["--help"]));
    let line = list
        .lines()
        .find(|l| l.trim_start().starts_with("play "))
        .unwrap_or_else(|| panic!("no play in:\n{list}"));
    assert_eq!(line.trim_start()["play".len()..].trim(), about, "{list}");
    let help = stdout(&jungle("C", &["play", "--help"]));
    assert!(help.starts_with(about), "{help}");
}
