//! Directories for the files a test writes, removed when the test ends,
//! whether it passed or not.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A fresh directory under the system's temporary one, removed on drop.
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// `catena-<pid>-<name>`: the process id keeps concurrent test runs apart.
    pub fn new(name: &str) -> ScratchDir {
        let dir = std::env::temp_dir().join(format!("catena-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }
}

impl Deref for ScratchDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        // Failing to clean up must not turn a passing test into a failing one.
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
