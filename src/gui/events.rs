//! Server-sent events: everything the page should learn without asking (the
//! game changed, the engine thinks, an engine switched or failed), fanned out
//! to every open page (the stream itself is `api::events`).

use serde_json::{Value, json};
use tokio::sync::broadcast;

/// One event: its name (`state`, `thinking`, `message`) and its JSON data.
#[derive(Clone, Debug)]
pub struct Note {
    pub name: &'static str,
    pub data: Value,
}

/// The sending end; cheap to clone, callable from any thread.
#[derive(Clone, Debug)]
pub struct Events {
    sender: broadcast::Sender<Note>,
}

impl Default for Events {
    fn default() -> Events {
        Events::new()
    }
}

impl Events {
    pub fn new() -> Events {
        let (sender, _) = broadcast::channel(256);
        Events { sender }
    }

    pub fn send(&self, name: &'static str, data: Value) {
        // Nobody listening is fine.
        let _ = self.sender.send(Note { name, data });
    }

    /// A line for the page's message area; `error` ones stand out.
    pub fn message(&self, text: &str, error: bool) {
        if error {
            log::warn!("{text}");
        } else {
            log::info!("{text}");
        }
        self.send("message", json!({ "text": text, "error": error }));
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Note> {
        self.sender.subscribe()
    }
}
