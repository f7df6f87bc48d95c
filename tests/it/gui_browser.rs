//! `catena gui` in a real browser: Debian's headless Chromium, driven through
//! chromedriver (WebDriver) by fantoccini. The page is played as a person
//! plays it, by clicking squares and buttons.
//!
//! Without chromium and chromedriver the test says so and passes, except
//! under CI (`CI=true`), where it fails: `.ci/run` installs them.
//! With `CATENA_GUI_SCREENSHOTS=DIR` it also saves the screenshots of
//! `docs/gui.md` there.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::gui_support::GuiServer;
use catena_core::game::pgn;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

const PATIENCE: Duration = Duration::from_secs(30);

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

async fn js(client: &Client, script: &str) -> Value {
    client
        .execute(script, Vec::new())
        .await
        .unwrap_or_else(|error| panic!("{error}: {script}"))
}

/// Waits until `script` returns true.
async fn wait_for(client: &Client, script: &str, what: &str) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if js(client, script).await == Value::Bool(true) {
            return;
        }
        if Instant::now() > deadline {
            let status = js(
                client,
                "return document.getElementById('status').textContent",
            )
            .await;
            let messages = js(
                client,
                "return document.getElementById('messages').textContent",
            )
            .await;
            panic!("waited in vain for {what}; status {status}, messages {messages}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn plies(client: &Client) -> usize {
    js(
        client,
        "return document.querySelectorAll('#moves .ply:not(.future)').length",
    )
    .await
    .as_u64()
    .unwrap() as usize
}

async fn wait_for_plies(client: &Client, count: usize) {
    wait_for(
        client,
        &format!("return document.querySelectorAll('#moves .ply:not(.future)').length === {count}"),
        &format!("{count} moves in the list"),
    )
    .await;
}

/// Clicks the centre of `square` (the board seen from White).
async fn click_square(client: &Client, square: &str) {
    let at = js(
        client,
        &format!(
            "const b = document.querySelector('cg-board').getBoundingClientRect();
             const f = '{square}'.charCodeAt(0) - 97, r = '{square}'.charCodeAt(1) - 49;
             return [Math.round(b.left + (f + 0.5) * b.width / 8), Math.round(b.top + (7.5 - r) * b.height / 8)];"
        ),
    )
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
    client.perform_actions(mouse).await.unwrap();
}

/// Plays a move by clicking its two squares.
async fn click_move(client: &Client, from: &str, to: &str) {
    click_square(client, from).await;
    click_square(client, to).await;
}

async fn click(client: &Client, id: &str) {
    client
        .find(Locator::Id(id))
        .await
        .unwrap_or_else(|error| panic!("no #{id}: {error}"))
        .click()
        .await
        .unwrap_or_else(|error| panic!("cannot click #{id}: {error}"));
}

/// The loop's edges as drawn (`b2-c3`, each pair sorted) and the shaded squares, sorted.
async fn drawn_chain(client: &Client) -> (Vec<String>, Vec<String>) {
    let drawn = js(
        client,
        "return {
           hashes: [...document.querySelectorAll('svg.cg-shapes g[cgHash]')].map(g => g.getAttribute('cgHash')),
           shaded: [...document.querySelectorAll('cg-board square.enclosed')].map(s => s.cgKey),
         };",
    )
    .await;
    let mut edges: Vec<String> = drawn["hashes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|hash| {
            let parts: Vec<&str> = hash.as_str()?.split(',').collect();
            let squares: Vec<&str> = parts
                .iter()
                .copied()
                .filter(|part| part.len() == 2 && part.as_bytes()[0].is_ascii_lowercase())
                .collect();
            parts.contains(&"chain").then(|| {
                let mut pair = [squares[0], squares[1]];
                pair.sort();
                pair.join("-")
            })
        })
        .collect();
    edges.sort();
    let mut shaded: Vec<String> = drawn["shaded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|square| square.as_str().unwrap().to_string())
        .collect();
    shaded.sort();
    (edges, shaded)
}

/// Waits until the board shows the loop of 1.c3 e5 2.d3 with c2 and d2 shaded
/// (chessground draws shapes at the next animation frame).
async fn wait_for_the_c3_d3_chain(client: &Client) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let drawn = drawn_chain(client).await;
        if drawn == (c3_d3_loop_edges(), vec!["c2".to_string(), "d2".to_string()]) {
            return;
        }
        assert!(Instant::now() < deadline, "the chain drawn is {drawn:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn c3_d3_loop_edges() -> Vec<String> {
    let mut edges: Vec<String> = ["b2-c3", "c3-d3", "d3-e2", "d1-e2", "c1-d1", "b2-c1"]
        .iter()
        .map(|edge| edge.to_string())
        .collect();
    edges.sort();
    edges
}

async fn screenshot(client: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("CATENA_GUI_SCREENSHOTS") {
        let png = client.screenshot().await.unwrap();
        std::fs::write(Path::new(&dir).join(name), png).unwrap();
    }
}

#[test]
fn plays_switches_undoes_saves_and_loads_in_chromium() {
    let (Some(chromium), Some(chromedriver)) = (
        program("chromium").or_else(|| program("chromium-browser")),
        program("chromedriver"),
    ) else {
        let why = "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)";
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        eprintln!("skipped: {why}");
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(drive(&chromium, &chromedriver));
}

async fn drive(chromium: &Path, chromedriver: &Path) {
    let server = GuiServer::start(&[]);
    let (_driver, driver_url) = start_driver(chromedriver);
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

    // The page is up and interactive within a second of loading.
    let loaded = Instant::now();
    client.goto(&server.url("/")).await.unwrap();
    wait_for(
        &client,
        "return document.body.dataset.ready === 'true'",
        "the page",
    )
    .await;
    assert!(
        loaded.elapsed() < Duration::from_secs(5),
        "{:?}",
        loaded.elapsed()
    );
    let ready = js(&client, "return Number(document.body.dataset.readyMs)").await;
    assert!(
        ready.as_f64().unwrap() < 1000.0,
        "the page took {ready} ms to get ready"
    );
    // Unfold every panel, as a person would to reach its buttons.
    js(
        &client,
        "document.querySelectorAll('details').forEach(d => d.open = true); return true;",
    )
    .await;

    // 1.c3 e5 by hand, both sides.
    click_move(&client, "c2", "c3").await;
    wait_for_plies(&client, 1).await;
    click_move(&client, "e7", "e5").await;
    wait_for_plies(&client, 2).await;

    // Now Catena takes the player who started Black; the person keeps White.
    client
        .find(Locator::Id("opponent-engine"))
        .await
        .unwrap()
        .select_by_value("Catena")
        .await
        .unwrap();
    let tc = client.find(Locator::Id("opponent-tc")).await.unwrap();
    tc.clear().await.unwrap();
    tc.send_keys("st=0.2").await.unwrap();
    click(&client, "opponent-apply").await;
    wait_for(
        &client,
        "return document.getElementById('player-bottom').textContent.includes('Human plays White')",
        "the person to play White",
    )
    .await;

    // 2.d3 closes the chain: the loop is drawn, c2 and d2 shaded, and the question asked.
    click_move(&client, "d2", "d3").await;
    wait_for(
        &client,
        "return !document.getElementById('switch-dialog').hidden",
        "the switch question",
    )
    .await;
    wait_for_the_c3_d3_chain(&client).await;
    let question = js(
        &client,
        "return document.getElementById('switch-dialog').textContent",
    )
    .await;
    let question = question.as_str().unwrap();
    assert!(question.contains("size 2"), "{question}");
    assert!(question.contains("limit 2"), "{question}");
    screenshot(&client, "gui-chain.png").await;

    // Switch: the person now plays Black and moves again at once.
    click(&client, "switch-yes").await;
    wait_for_plies(&client, 3).await;
    wait_for_the_c3_d3_chain(&client).await;
    wait_for(
        &client,
        "return document.getElementById('player-bottom').textContent.includes('Catena plays White')
            && document.getElementById('player-top').textContent.includes('Human plays Black')",
        "the armies exchanged",
    )
    .await;
    let switch_mark = js(
        &client,
        "return document.querySelectorAll('#moves .switch-mark').length",
    )
    .await;
    assert_eq!(switch_mark, json!(1));

    // The person plays Black's 2...Nf6; Catena answers with White, the other army.
    click_move(&client, "g8", "f6").await;
    wait_for(
        &client,
        "return document.querySelectorAll('#moves .ply:not(.future)').length >= 5",
        "Catena's move",
    )
    .await;
    let last = js(
        &client,
        "return document.querySelectorAll('#moves .ply:not(.future)')[4].querySelector('.num').textContent;",
    )
    .await;
    assert_eq!(last, json!("3."), "Catena should have moved with White");
    wait_for(
        &client,
        "return document.getElementById('messages').textContent.includes('Catena plays 3.')",
        "the engine's move announced",
    )
    .await;

    // Undo takes back Catena's move and the person's.
    click(&client, "undo").await;
    wait_for_plies(&client, 3).await;

    // Saved, the PGN reads back with the project's reader and rules.
    click(&client, "pgn-save").await;
    wait_for(
        &client,
        "return document.getElementById('pgn-text').value.includes('{switch}')",
        "the PGN",
    )
    .await;
    let saved = js(&client, "return document.getElementById('pgn-text').value").await;
    let record = pgn::read(saved.as_str().unwrap()).expect("the saved PGN reads back");
    assert_eq!(record.game.uci_moves(), "c2c3 e7e5 d2d3 switch");
    assert_eq!(record.tag("WhiteAtEnd"), Some("Catena"));
    assert_eq!(record.tag("BlackAtEnd"), Some("Human"));

    // Analysis: lines arrive while the engine thinks, at least twice a second.
    js(
        &client,
        "window.thinkingSeen = 0;
         const events = new EventSource('/api/events');
         events.addEventListener('thinking', e => { if (JSON.parse(e.data).role === 'analysis') window.thinkingSeen++; });
         return true;",
    )
    .await;
    click(&client, "analysis-on").await;
    wait_for(
        &client,
        "return document.querySelectorAll('#analysis-lines li').length >= 2",
        "analysis lines",
    )
    .await;
    js(&client, "window.thinkingSeen = 0; return true;").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let seen = js(&client, "return window.thinkingSeen")
        .await
        .as_u64()
        .unwrap();
    assert!(seen >= 4, "{seen} analysis events in 2 s");
    let line = js(
        &client,
        "return document.getElementById('analysis-lines').textContent",
    )
    .await;
    assert!(line.as_str().unwrap().contains("3."), "{line}");
    screenshot(&client, "gui-analysis.png").await;
    click(&client, "analysis-on").await;

    // Back to both sides by hand, then a PGN of docs/rules.md, section 6, stepped through.
    client
        .find(Locator::Id("opponent-engine"))
        .await
        .unwrap()
        .select_by_value("")
        .await
        .unwrap();
    click(&client, "opponent-apply").await;
    wait_for(
        &client,
        "return document.getElementById('player-bottom').textContent.includes('Player')",
        "no engine",
    )
    .await;
    let spec_pgn = "[Event \"Catena match\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n\
        [White \"Alice\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\
        [SSCC \"SwitchRule=chain;MinEnclosed=2\"]\n[WhiteAtEnd \"Bob\"]\n[BlackAtEnd \"Alice\"]\n\n\
        1. c3 e5 2. d3 {switch} 2... Nf6 3. e4 *\n";
    js(
        &client,
        &format!(
            "document.getElementById('pgn-text').value = {}; return true;",
            json!(spec_pgn)
        ),
    )
    .await;
    click(&client, "pgn-load").await;
    wait_for_plies(&client, 5).await;
    click(&client, "first").await;
    wait_for_plies(&client, 0).await;
    let mut game = catena_core::game::GameState::new(
        catena_core::board::Position::startpos(),
        catena_core::game::Rules::default(),
    );
    for (ply, uci) in ["c2c3", "e7e5", "d2d3 switch", "g8f6", "e2e4"]
        .iter()
        .enumerate()
    {
        click(&client, "next").await;
        wait_for_plies(&client, ply + 1).await;
        let tokens: Vec<&str> = uci.split_whitespace().collect();
        game.apply_uci_moves(&tokens).unwrap();
        let fen = js(&client, "return document.getElementById('fen').textContent").await;
        assert_eq!(
            fen,
            json!(game.position().to_fen()),
            "after ply {}",
            ply + 1
        );
        if ply == 2 {
            wait_for_the_c3_d3_chain(&client).await;
        }
        if ply == 3 {
            // 2...Nf6 closes no chain: the loop goes.
            wait_for(
                &client,
                "return document.querySelectorAll('svg.cg-shapes g[cgHash]').length === 0
                    && document.querySelectorAll('cg-board square.enclosed').length === 0",
                "the loop gone after 2...Nf6",
            )
            .await;
        }
    }
    assert_eq!(plies(&client).await, 5);

    // A 2-game match, started from the page: both games play out on it.
    for (id, value) in [
        ("match-count", "2"),
        ("match-tc", "st=0.02"),
        ("match-max", "12"),
    ] {
        let field = client.find(Locator::Id(id)).await.unwrap();
        field.clear().await.unwrap();
        field.send_keys(value).await.unwrap();
    }
    click(&client, "match-start").await;
    wait_for(
        &client,
        "return document.querySelectorAll('#match-games .match-game').length >= 1",
        "a game of the match on the page",
    )
    .await;
    wait_for(
        &client,
        "return document.querySelectorAll('#match-games .match-game:not([data-result=\"*\"])').length === 2
            && document.getElementById('match-head').dataset.state === 'finished'",
        "both games of the match finished",
    )
    .await;
    let table = js(
        &client,
        "return document.getElementById('match-table').textContent",
    )
    .await;
    assert!(table.as_str().unwrap().contains("Catena 2"), "{table}");
    let boards = js(
        &client,
        "return document.querySelectorAll('#match-games cg-board piece').length",
    )
    .await;
    assert!(
        boards.as_u64().unwrap() > 20,
        "{boards} pieces on the match boards"
    );
    if let Some(dir) = std::env::var_os("CATENA_GUI_SCREENSHOTS") {
        js(
            &client,
            "document.getElementById('match-panel').scrollIntoView(); return true;",
        )
        .await;
        let png = client.screenshot().await.unwrap();
        std::fs::write(Path::new(&dir).join("gui-match.png"), png).unwrap();
    }
    client.close().await.unwrap();
}
