//! The engines the page may choose and the analysis it asked for: what the
//! server's state (`app.rs`) and the page's view of it (`view.rs`) share.

use std::path::{Path, PathBuf};

use crate::arena::{self, EngineSpec};

/// The name Catena itself goes by in the engine menu.
pub const CATENA: &str = "Catena";

/// The engines the page may choose: Catena (this very program) and those of the list.
#[derive(Clone, Debug)]
pub struct EngineBook {
    pub engines: Vec<EngineSpec>,
    /// Why the engine list could not be read, if it could not.
    pub list_problem: Option<String>,
}

impl EngineBook {
    /// Catena run from `catena` (the program's own file), and the list at
    /// `list` (the repository's by default), if it can be read.
    pub fn new(catena: PathBuf, list: Option<&Path>) -> EngineBook {
        let mut engines = vec![EngineSpec {
            name: CATENA.to_string(),
            program: catena,
            args: Vec::new(),
            working_directory: PathBuf::from("."),
            options: vec![("Hash".to_string(), "64".to_string())],
            init_strings: Vec::new(),
            stderr_file: None,
            depth: None,
            nodes: None,
        }];
        let mut list_problem = None;
        match arena::engine_list(list) {
            Ok((_, listed)) => engines.extend(
                listed
                    .into_iter()
                    .filter(|spec| spec.name != CATENA && spec.name != "Catena-chess"),
            ),
            Err(problem) => {
                log::warn!("{problem}");
                list_problem = Some(problem);
            }
        }
        EngineBook {
            engines,
            list_problem,
        }
    }

    pub fn named(&self, name: &str) -> Option<&EngineSpec> {
        self.engines.iter().find(|spec| spec.name == name)
    }
}

/// Analysis as the page asked for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisSettings {
    pub on: bool,
    pub multipv: usize,
    pub engine: String,
}

impl Default for AnalysisSettings {
    fn default() -> AnalysisSettings {
        AnalysisSettings {
            on: false,
            multipv: 3,
            engine: CATENA.to_string(),
        }
    }
}
