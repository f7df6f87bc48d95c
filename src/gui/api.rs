//! The JSON API the page speaks. Every answer that changes the game carries
//! the new state; every refusal is `400` with `{"error": …, "state": …}`,
//! the game as it was, so that the page can say why and show the board again.

use catena_core::game::Action;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::app::App;
use super::book::AnalysisSettings;
use super::session::{Opponent, Session};
use super::view;
use crate::arena::TimeControl;
use catena_core::game::{Player, Rules, SwitchRule, Variant};

type Reply = Response;

fn refused(app: &App, session: &Session, why: String) -> Reply {
    log::info!("refused: {why}");
    (
        StatusCode::BAD_REQUEST,
        Json(json!({ "error": why, "state": app.state(session) })),
    )
        .into_response()
}

/// Runs `change` on the session: the new state if it worked (and everyone
/// told), a refusal with the unchanged state if not.
fn change(app: &App, change: impl FnOnce(&mut Session) -> Result<(), String>) -> Reply {
    let mut session = app.session();
    match change(&mut session) {
        Ok(()) => {
            app.changed(&session);
            Json(app.state(&session)).into_response()
        }
        Err(why) => refused(app, &session, why),
    }
}

pub async fn state(State(app): State<Arc<App>>) -> Reply {
    let session = app.session();
    Json(app.state(&session)).into_response()
}

#[derive(Deserialize)]
pub struct NewGame {
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    min_enclosed: Option<u32>,
    #[serde(default)]
    fen: Option<String>,
}

pub async fn new_game(State(app): State<Arc<App>>, Json(request): Json<NewGame>) -> Reply {
    change(&app, |session| {
        let rule = match request.rule.as_deref() {
            None => SwitchRule::default(),
            Some(text) => text.parse()?,
        };
        let rules = Rules::new(rule, request.min_enclosed.unwrap_or(2))?;
        let variant = match request.mode.as_deref() {
            None => Variant::Sscc(rules),
            Some(name) => match name.parse::<Variant>() {
                Ok(Variant::Sscc(_)) => Variant::Sscc(rules),
                Ok(Variant::Chess) => Variant::Chess,
                Err(_) => return Err(format!("'{name}' is no game here (sscc or chess)")),
            },
        };
        session.new_game(variant, request.fen.as_deref())
    })
}

#[derive(Deserialize)]
pub struct PlayMove {
    /// UCI (`e2e4`, `e7e8q`) or SAN.
    #[serde(rename = "move")]
    mv: String,
    #[serde(default)]
    switch: bool,
    /// The generation of the game the page showed when the move was chosen:
    /// if the game has changed since, the move is refused as such.
    #[serde(default)]
    generation: Option<u64>,
}

pub async fn play(State(app): State<Arc<App>>, Json(request): Json<PlayMove>) -> Reply {
    change(&app, |session| {
        if let Some(seen) = request.generation
            && seen != session.generation()
        {
            return Err(format!(
                "the game changed (in another page, or by the engine) after this page showed it: \
                 {} was not played; look at the board again",
                request.mv
            ));
        }
        session.play(&request.mv, request.switch)
    })
}

#[derive(Deserialize)]
pub struct ChainQuery {
    #[serde(rename = "move")]
    mv: String,
}

/// `GET /api/chain?move=d2d3`: the chain the move would close, and whether
/// and how a switch may follow: the run's switches and limit after it.
pub async fn chain(State(app): State<Arc<App>>, Query(query): Query<ChainQuery>) -> Reply {
    let session = app.session();
    let mv = match session.parse_move(&query.mv) {
        Ok(mv) => mv,
        Err(why) => return refused(&app, &session, why),
    };
    let found = session.chain_of(mv);
    let refusal = session.switch_refusal(mv);
    let run_now = session.game().run();
    let (switches, limit) = if refusal.is_none() {
        let mut after = session.game().clone();
        match after.apply(Action::switching(mv)) {
            Ok(()) => {
                let run = after.run();
                (run.switches(), run.limit())
            }
            Err(_) => (run_now.switches(), run_now.limit()),
        }
    } else {
        (run_now.switches(), run_now.limit())
    };
    Json(json!({
        "move": mv.to_string(),
        "san": catena_core::board::san::format(session.game().position(), mv),
        "chain": found.as_ref().map(view::chain_json),
        "switch_allowed": refusal.is_none(),
        "why_not": refusal,
        "switches_if_switched": switches,
        "limit": limit,
        "switch_rule": session.game().rules().switch_rule.name(),
        "next_army": view::capitalized(!session.game().position().side_to_move()),
    }))
    .into_response()
}

pub async fn undo(State(app): State<Arc<App>>) -> Reply {
    change(&app, Session::undo)
}

pub async fn redo(State(app): State<Arc<App>>) -> Reply {
    change(&app, Session::redo)
}

#[derive(Deserialize)]
pub struct GoTo {
    ply: usize,
}

pub async fn go_to(State(app): State<Arc<App>>, Json(request): Json<GoTo>) -> Reply {
    change(&app, |session| session.go_to(request.ply))
}

#[derive(Deserialize)]
pub struct SetOpponent {
    /// An engine's name, or none for two people at one board.
    engine: Option<String>,
    /// The colour the person starts with.
    #[serde(default)]
    human: Option<String>,
    /// A time control as `catena play --tc` takes it.
    #[serde(default)]
    tc: Option<String>,
}

pub async fn opponent(State(app): State<Arc<App>>, Json(request): Json<SetOpponent>) -> Reply {
    let book = app.book.clone();
    change(&app, |session| {
        let engine = match request.engine.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(name) => match book.named(name) {
                Some(spec) => Some(spec.name.clone()),
                None => return Err(format!("no engine called '{name}'")),
            },
        };
        let human = match request.human.as_deref() {
            None | Some("white") => Player::StartedWhite,
            Some("black") => Player::StartedBlack,
            Some(other) => return Err(format!("'{other}' is not a colour (white or black)")),
        };
        let control = match request.tc.as_deref().map(str::trim) {
            None | Some("") => super::session::DEFAULT_CONTROL,
            Some(text) => text.parse::<TimeControl>()?,
        };
        session.set_opponent(Opponent {
            engine,
            human,
            control,
        });
        Ok(())
    })
}

#[derive(Deserialize)]
pub struct SetAnalysis {
    on: bool,
    #[serde(default)]
    multipv: Option<usize>,
    #[serde(default)]
    engine: Option<String>,
}

pub async fn analysis(State(app): State<Arc<App>>, Json(request): Json<SetAnalysis>) -> Reply {
    let current = app.analysis();
    let settings = AnalysisSettings {
        on: request.on,
        multipv: request.multipv.unwrap_or(current.multipv),
        engine: request.engine.unwrap_or(current.engine),
    };
    let session = app.session();
    if let Err(why) = app.set_analysis(settings) {
        return refused(&app, &session, why);
    }
    app.changed(&session);
    Json(app.state(&session)).into_response()
}

/// `GET /api/pgn`: the game as PGN (docs/rules.md, section 6).
pub async fn save_pgn(State(app): State<Arc<App>>) -> Reply {
    let session = app.session();
    Json(json!({ "pgn": session.pgn() })).into_response()
}

#[derive(Deserialize)]
pub struct LoadText {
    text: String,
}

/// `POST /api/load`: a PGN game or a FEN position, parsed as `catena play` parses files.
pub async fn load(State(app): State<Arc<App>>, Json(request): Json<LoadText>) -> Reply {
    change(&app, |session| session.load(&request.text))
}

/// `GET /api/engines`: the engines the page may choose.
pub async fn engines(State(app): State<Arc<App>>) -> Json<Value> {
    Json(json!({
        "engines": app.book.engines.iter().map(|spec| &spec.name).collect::<Vec<_>>(),
        "problem": app.book.list_problem,
    }))
}

/// `GET /api/puzzles`: the trainer's puzzles (`perft/puzzles.epd`).
pub async fn puzzles() -> Json<&'static Value> {
    Json(super::puzzles::all())
}

#[derive(Deserialize)]
pub struct RefutationQuery {
    id: String,
    #[serde(default)]
    after: String,
}

/// `GET /api/puzzles/refutation?id=…&after=…`: the solver's answer to a
/// wrong action of a puzzle, the last of `after` (see `puzzles::refutation`).
pub async fn puzzle_refutation(Query(query): Query<RefutationQuery>) -> Reply {
    let found =
        tokio::task::spawn_blocking(move || super::puzzles::refutation(&query.id, &query.after))
            .await;
    match found {
        Ok(Ok(answer)) => Json(answer).into_response(),
        Ok(Err(why)) => (StatusCode::BAD_REQUEST, Json(json!({ "error": why }))).into_response(),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Json(json!({ "error": "the solver failed" })),
        )
            .into_response(),
    }
}

/// `GET /api/match`: the match being watched, if any.
pub async fn match_view(State(app): State<Arc<App>>) -> Json<Value> {
    Json(app.watch.view())
}

#[derive(Deserialize)]
pub struct StartMatch {
    first: String,
    second: String,
    #[serde(default)]
    games: Option<u32>,
    #[serde(default)]
    tc: Option<String>,
    #[serde(default)]
    max_moves: Option<u32>,
    /// `elo0=0 elo1=10`, as `catena match --sprt` takes it.
    #[serde(default)]
    sprt: Option<String>,
}

/// `POST /api/match/start`: a `catena match` between two engines of the
/// page's menu, under the rules of the game on the board.
pub async fn match_start(State(app): State<Arc<App>>, Json(request): Json<StartMatch>) -> Reply {
    let named = |name: &str| {
        app.book
            .named(name)
            .cloned()
            .ok_or_else(|| format!("no engine called '{name}'"))
    };
    let started = named(&request.first)
        .and_then(|first| Ok([first, named(&request.second)?]))
        .and_then(|engines| {
            let session = app.session();
            let rules = session.variant().rules();
            drop(session);
            app.watch.start(&super::watch::MatchRequest {
                engines,
                games: request.games.unwrap_or(2),
                time_control: request.tc.unwrap_or_else(|| "st=0.1".to_string()),
                max_moves: request.max_moves,
                rules,
                sprt: request
                    .sprt
                    .as_deref()
                    .unwrap_or("")
                    .split_whitespace()
                    .map(String::from)
                    .collect(),
            })
        });
    match started {
        Ok(()) => Json(app.watch.view()).into_response(),
        Err(why) => (StatusCode::BAD_REQUEST, Json(json!({ "error": why }))).into_response(),
    }
}

/// `POST /api/match/stop`: ends the match the page started.
pub async fn match_stop(State(app): State<Arc<App>>) -> Reply {
    match app.watch.stop() {
        Ok(()) => Json(app.watch.view()).into_response(),
        Err(why) => (StatusCode::BAD_REQUEST, Json(json!({ "error": why }))).into_response(),
    }
}

/// `GET /api/events`: the stream, kept alive across quiet spells.
pub async fn events(
    State(app): State<Arc<App>>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let notes = futures_util::stream::unfold(app.events.subscribe(), |mut receiver| async move {
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
