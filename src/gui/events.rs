//! Server-sent events: everything the page should learn without asking (the
//! game changed, the engine thinks, an engine switched or failed), fanned out
//! to every open page.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use futures_util::stream;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::app::App;

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

/// `GET /api/events`: the stream, kept alive across quiet spells.
pub async fn stream(
    State(app): State<Arc<App>>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let notes = stream::unfold(app.events.subscribe(), |mut receiver| async move {
        loop {
            match receiver.recv().await {
                Ok(note) => {
                    let event = Event::default()
                        .event(note.name)
                        .data(note.data.to_string());
                    return Some((Ok(event), receiver));
                }
                // A page too slow to keep up misses some events; the next state catches it up.
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(notes).keep_alive(KeepAlive::new().interval(Duration::from_secs(10)))
}
