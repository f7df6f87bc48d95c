//! The page of `catena gui` in Debian's headless Chromium, driven through
//! chromedriver (WebDriver) by fantoccini, and the steps a person takes on
//! it: clicking squares and buttons, typing, reading what the page shows.
//!
//! Without chromium and chromedriver a test says so and passes, except under
//! CI (`CI=true`), where it fails: `.ci/run` installs them.

use std::future::Future;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use super::GuiServer;

pub const PATIENCE: Duration = Duration::from_secs(30);

/// Runs one browser test to its end.
pub fn run(test: impl Future<Output = ()>) {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(test);
}

/// A program on the PATH (or in /usr/bin).
fn program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// chromedriver on a free port, once it accepts connections.
fn start_driver(chromedriver: &Path) -> (Killed, String) {
    let port = free_port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start chromedriver");
    let deadline = Instant::now() + PATIENCE;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    (Killed(child), format!("http://127.0.0.1:{port}"))
}

/// An engine list with one engine: this very binary searching to depth 1,
/// which answers within milliseconds. Written under the system's temporary
/// directory, named after `test`.
pub fn fast_engine_list(test: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("catena-{test}-{}.json", std::process::id()));
    let list = json!([{
        "name": "Catena-d1",
        "command": format!("\"{}\"", env!("CARGO_BIN_EXE_catena")),
        "workingDirectory": ".",
        "protocol": "uci",
        "depth": 1,
    }]);
    std::fs::write(&path, list.to_string()).unwrap();
    path
}

/// A loaded page of a fresh `catena gui`, and the browser showing it.
pub struct Page {
    pub client: Client,
    pub server: GuiServer,
    _driver: Killed,
}

impl Page {
    /// The page of a fresh `catena gui` run with `extra` arguments, ready to
    /// play, with every panel unfolded; `None` if the test is to be skipped.
    pub async fn open(extra: &[&str]) -> Option<Page> {
        let (Some(chromium), Some(chromedriver)) = (
            program("chromium").or_else(|| program("chromium-browser")),
            program("chromedriver"),
        ) else {
            let why = "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)";
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
            eprintln!("skipped: {why}");
            return None;
        };
        let server = GuiServer::start(extra);
        let (driver, driver_url) = start_driver(&chromedriver);
        let mut capabilities = fantoccini::wd::Capabilities::new();
        capabilities.insert(
            "goog:chromeOptions".to_string(),
            json!({
                "binary": chromium,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,900"],
            }),
        );
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&driver_url)
            .await
            .expect("cannot open a browser session");
        let page = Page {
            client,
            server,
            _driver: driver,
        };
        page.load().await;
        Some(page)
    }

    /// Loads (or reloads) the page and waits until it is ready, with every
    /// panel unfolded, as a person would to reach its buttons.
    pub async fn load(&self) {
        self.reload().await;
        self.js("document.querySelectorAll('details').forEach(d => d.open = true); return true;")
            .await;
    }

    /// Loads (or reloads) the page as it comes, and waits until it is ready.
    pub async fn reload(&self) {
        self.client.goto(&self.server.url("/")).await.unwrap();
        self.wait_for("return document.body.dataset.ready === 'true'", "the page")
            .await;
    }

    pub async fn close(self) {
        self.client.close().await.unwrap();
    }

    /// The server's own picture of the game: `GET /api/state`.
    pub fn server_state(&self) -> Value {
        let (status, body) = self.server.get("/api/state");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    }

    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, Vec::new())
            .await
            .unwrap_or_else(|error| panic!("{error}: {script}"))
    }

    /// The text of the element `id`.
    pub async fn text(&self, id: &str) -> String {
        let text = self
            .js(&format!(
                "return document.getElementById('{id}').textContent"
            ))
            .await;
        text.as_str().unwrap_or_default().to_string()
    }

    /// Waits until `script` returns true.
    pub async fn wait_for(&self, script: &str, what: &str) {
        self.wait_for_within(script, what, PATIENCE).await;
    }

    /// Waits at most `patience` until `script` returns true.
    pub async fn wait_for_within(&self, script: &str, what: &str, patience: Duration) {
        let deadline = Instant::now() + patience;
        loop {
            if self.js(script).await == Value::Bool(true) {
                return;
            }
            if Instant::now() > deadline {
                let status = self.text("status").await;
                let messages = self.text("messages").await;
                panic!("waited in vain for {what}; status {status:?}, messages {messages:?}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The plies of the move list that have been played (not the greyed future).
    pub async fn plies(&self) -> usize {
        self.js("return document.querySelectorAll('#moves .ply:not(.future)').length")
            .await
            .as_u64()
            .unwrap() as usize
    }

    pub async fn wait_for_plies(&self, count: usize) {
        self.wait_for(
            &format!(
                "return document.querySelectorAll('#moves .ply:not(.future)').length === {count}"
            ),
            &format!("{count} moves in the list"),
        )
        .await;
    }

    /// Clicks the centre of `square`, whichever way the board is turned.
    pub async fn click_square(&self, square: &str) {
        let at = self
            .js(&format!(
                "const b = document.querySelector('#board cg-board').getBoundingClientRect();
                 const black = document.getElementById('board').classList.contains('orientation-black');
                 let f = '{square}'.charCodeAt(0) - 97, r = '{square}'.charCodeAt(1) - 49;
                 if (black) {{ f = 7 - f; r = 7 - r; }}
                 return [Math.round(b.left + (f + 0.5) * b.width / 8), Math.round(b.top + (7.5 - r) * b.height / 8)];"
            ))
            .await;
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        let mouse = MouseActions::new("mouse".to_string())
            .then(PointerAction::MoveTo {
                duration: None,
                x,
                y,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client.perform_actions(mouse).await.unwrap();
    }

    /// Plays a move by clicking its two squares.
    pub async fn click_move(&self, from: &str, to: &str) {
        self.click_square(from).await;
        self.click_square(to).await;
    }

    pub async fn click(&self, id: &str) {
        self.client
            .find(Locator::Id(id))
            .await
            .unwrap_or_else(|error| panic!("no #{id}: {error}"))
            .click()
            .await
            .unwrap_or_else(|error| panic!("cannot click #{id}: {error}"));
    }

    /// Chooses `value` in the menu `id`.
    pub async fn select(&self, id: &str, value: &str) {
        self.client
            .find(Locator::Id(id))
            .await
            .unwrap()
            .select_by_value(value)
            .await
            .unwrap_or_else(|error| panic!("cannot choose {value:?} in #{id}: {error}"));
    }

    /// Types `text` into the empty field `id`.
    pub async fn fill(&self, id: &str, text: &str) {
        let field = self.client.find(Locator::Id(id)).await.unwrap();
        field.clear().await.unwrap();
        field.send_keys(text).await.unwrap();
    }

    /// Sets the opponent as a person does: the engine, the colour the person
    /// starts with, the time control, then Play.
    pub async fn choose_opponent(&self, engine: &str, human: &str, tc: &str) {
        self.select("opponent-engine", engine).await;
        self.select("opponent-color", human).await;
        self.fill("opponent-tc", tc).await;
        self.click("opponent-apply").await;
    }

    /// Saves a screenshot as `name` under `$CATENA_GUI_SCREENSHOTS`, if set.
    pub async fn screenshot(&self, name: &str) {
        if let Some(dir) = std::env::var_os("CATENA_GUI_SCREENSHOTS") {
            let png = self.client.screenshot().await.unwrap();
            std::fs::write(Path::new(&dir).join(name), png).unwrap();
        }
    }
}
