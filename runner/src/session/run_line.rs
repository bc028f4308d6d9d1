//! The `a3s-test run …` line a promotion prints for a program session (terminal or desktop),
//! written once: the same quoting and the same flag order for both surfaces, so a promoted
//! suite's next command is pasted into a shell the same way whichever program it drives.

use std::path::Path;

/// A shell word: as it is when it needs no quoting, else single-quoted.
pub(crate) fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:+,@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `a3s-test run OUTPUT --{surface}-executable … --{surface}-arg=… --{surface}-working-directory
/// … --{surface}-{size}` for the program `command` started in `cwd` (an argument that starts with
/// `-` is safe: it is passed as `--{surface}-arg=…`).
pub(crate) fn program_run_command(
    output: &Path,
    surface: &str,
    command: &[String],
    cwd: &Path,
    size: [(&str, u16); 2],
) -> String {
    let mut words = vec![
        "a3s-test".to_string(),
        "run".to_string(),
        shell_word(&output.display().to_string()),
    ];
    if let Some((executable, args)) = command.split_first() {
        words.push(format!("--{surface}-executable {}", shell_word(executable)));
        for arg in args {
            words.push(format!("--{surface}-arg={}", shell_word(arg)));
        }
    }
    words.push(format!(
        "--{surface}-working-directory {}",
        shell_word(&cwd.display().to_string())
    ));
    for (name, value) in size {
        words.push(format!("--{surface}-{name} {value}"));
    }
    words.join(" ")
}
