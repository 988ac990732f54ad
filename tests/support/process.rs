//! Running a command with its standard input, for the end-to-end tests.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

/// Runs `command` with `stdin` on its standard input, and waits for it. The command may
/// answer before reading (a bad flag, bad usage): a closed pipe is fine.
pub fn feed(mut command: Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}
