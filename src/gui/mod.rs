//! `catena gui`: SSCC in the browser, served by this binary on the local machine.
//!
//! The page (`gui/page/`, with lichess's chessground board vendored under
//! `gui/vendor/`) is built into the binary (`assets.rs`). It holds no rules:
//! it asks the JSON API (`api.rs`) for the legal moves, the chain a move
//! closes and whether a switch may follow, and the server keeps the game
//! (`session.rs`, a [`GameState`](catena_core::game::GameState) with undo and
//! redo). Engines run in threads of their own (`worker.rs`) as UCI processes:
//! Catena is this very program. What they think, and every change of the
//! game, reaches the page as server-sent events (`events.rs`). Only requests
//! addressed to this server by its own page are answered (`guard.rs`).

mod api;
mod app;
mod assets;
mod book;
mod events;
mod guard;
pub mod info;
mod puzzles;
pub mod session;
mod view;
mod watch;
mod worker;

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

pub use app::App;
pub use book::{CATENA, EngineBook};

use crate::cli::{Failure, FailureKind};
pub use guard::Guard;

/// Play, analyse and watch SSCC in the browser.
#[derive(clap::Args, Debug)]
#[command(about = "Play and analyse Switch-Side Chain-Chess in the browser")]
pub struct GuiArgs {
    /// The port to serve on (0: any free one; the address is printed).
    #[arg(long, default_value_t = 8017)]
    port: u16,
    /// The address to serve on; keep the default unless you know why.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// The engine list whose engines the page offers besides Catena
    /// [default: engines.json at the top of the repository].
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
    /// Open the page in the system's browser (xdg-open), if there is one.
    #[arg(long)]
    open: bool,
    /// Follow the match a `catena match --live FILE` keeps in FILE.
    #[arg(long, value_name = "FILE")]
    follow: Option<PathBuf>,
}

/// Runs `catena gui` until it is interrupted. An engine list named with
/// `--engines` that cannot be read, or an address it cannot serve on, is bad
/// input; without `--engines` a missing default list only leaves Catena alone
/// on the page, which says why.
pub fn run(args: &GuiArgs) -> Result<bool, Failure> {
    if let Some(path) = &args.engines {
        crate::arena::engine_list(Some(path)).or_usage()?;
    }
    let catena = std::env::current_exe()
        .map_err(|error| format!("cannot find this program's own file: {error}"))
        .or_runtime()?;
    let book = EngineBook::new(catena, args.engines.as_deref());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the server: {error}"))
        .or_runtime()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((args.bind, args.port))
            .await
            .map_err(|error| format!("cannot serve on {}:{}: {error}", args.bind, args.port))
            .or_usage()?;
        let address = listener
            .local_addr()
            .map_err(|error| format!("cannot serve: {error}"))
            .or_runtime()?;
        let url = format!("http://{address}/");
        println!("Catena GUI at {url} (Ctrl-C to stop)");
        if args.open {
            open_browser(&url);
        }
        serve(listener, book, args.follow.clone())
            .await
            .or_runtime()
    })?;
    Ok(true)
}

/// Serves the page and the API on `listener` until the process ends.
pub async fn serve(
    listener: tokio::net::TcpListener,
    book: EngineBook,
    follow: Option<PathBuf>,
) -> Result<(), String> {
    let address = listener
        .local_addr()
        .map_err(|error| format!("cannot serve: {error}"))?;
    let app = App::new(book, Guard::new(address), follow);
    axum::serve(listener, router(app))
        .await
        .map_err(|error| format!("the server stopped: {error}"))
}

/// The routes: the API, the event stream, and the fixed table of files.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/state", get(api::state))
        .route("/api/new", post(api::new_game))
        .route("/api/move", post(api::play))
        .route("/api/chain", get(api::chain))
        .route("/api/undo", post(api::undo))
        .route("/api/redo", post(api::redo))
        .route("/api/goto", post(api::go_to))
        .route("/api/opponent", post(api::opponent))
        .route("/api/analysis", post(api::analysis))
        .route("/api/pgn", get(api::save_pgn))
        .route("/api/load", post(api::load))
        .route("/api/engines", get(api::engines))
        .route("/api/match", get(api::match_view))
        .route("/api/match/start", post(api::match_start))
        .route("/api/match/stop", post(api::match_stop))
        .route("/api/puzzles", get(api::puzzles))
        .route("/api/puzzles/refutation", get(api::puzzle_refutation))
        .route("/api/events", get(api::events))
        .fallback(asset)
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// Refuses what does not come from the page of this server.
async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let text = |name| {
        headers
            .get(name)
            .map(|value| value.to_str().unwrap_or("(not text)"))
    };
    // HTTP/2 and absolute-form requests carry the host in the URI.
    let host = text(header::HOST).or(request.uri().authority().map(|a| a.as_str()));
    if let Some(why) = app.guard.refusal(host, text(header::ORIGIN)) {
        log::warn!("refused {why}");
        return (StatusCode::FORBIDDEN, format!("refused: {why}\n")).into_response();
    }
    next.run(request).await
}

/// A file of the fixed table, by the request's exact path.
async fn asset(method: Method, uri: axum::http::Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, "only GET\n").into_response();
    }
    match assets::find(uri.path()) {
        Some(asset) => {
            let mut headers = HeaderMap::new();
            headers.insert(
                header::CONTENT_TYPE,
                header::HeaderValue::from_static(asset.content_type),
            );
            headers.insert(
                header::CACHE_CONTROL,
                header::HeaderValue::from_static("no-cache"),
            );
            (headers, asset.body).into_response()
        }
        None => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}

/// Opens `url` with xdg-open, if the system has it; never fails.
fn open_browser(url: &str) {
    match std::process::Command::new("xdg-open")
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        Ok(mut child) => {
            log::info!("opened {url}");
            // Reaped when it ends, so that it leaves no zombie behind.
            std::thread::spawn(move || child.wait());
        }
        Err(error) => log::info!("cannot open a browser ({error}): open {url} yourself"),
    }
}
