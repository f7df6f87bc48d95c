//! Progress of long runs (`match`, `perft --suite`, `chain --suite`,
//! `train`) as an `indicatif` bar on stderr, only where stderr is a
//! terminal: logs and pipes get the plain lines alone, as before.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `total` steps, or nothing when stderr is not a terminal.
pub struct Progress(Option<ProgressBar>);

impl Progress {
    /// A bar named `what` (`games`, `positions`, `batches`).
    pub fn new(total: u64, what: &str) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = ProgressBar::new(total);
        let template =
            format!("{{bar:30}} {{pos}}/{{len}} {what}  {{msg}}  [{{elapsed}}, {{eta}} left]");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress(Some(bar))
    }

    /// One step done; `message` says where the run stands.
    pub fn advance(&self, message: String) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
            bar.set_message(message);
        }
    }

    /// Prints `line` on stdout without tearing the bar.
    pub fn println(&self, line: &str) {
        match &self.0 {
            Some(bar) => bar.suspend(|| println!("{line}")),
            None => println!("{line}"),
        }
    }

    /// Runs `print`, which writes to stdout, with the bar hidden meanwhile.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Prints `line` on stderr above the bar.
    pub fn eprintln(&self, line: &str) {
        match &self.0 {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
