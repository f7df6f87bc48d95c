//! `catena gui` in a real browser: Debian's headless Chromium, driven through
//! chromedriver (WebDriver) by fantoccini (`gui_support::browser`). The page
//! is played as a person plays it, by clicking squares and buttons.
//!
//! With `CATENA_GUI_SCREENSHOTS=DIR` the tests also save the screenshots of
//! `docs/gui.md` there.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::gui_support::browser::{PATIENCE, Page, fast_engine_list, run};
use catena_core::board::Position;
use catena_core::game::pgn;
use serde_json::{Value, json};

/// The loop's edges as drawn (`b2-c3`, each pair sorted) and the shaded squares, sorted.
async fn drawn_chain(page: &Page) -> (Vec<String>, Vec<String>) {
    let drawn = page
        .js("return {
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
async fn wait_for_the_c3_d3_chain(page: &Page) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let drawn = drawn_chain(page).await;
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

#[test]
fn plays_switches_undoes_saves_and_loads_in_chromium() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        // The page is up and interactive within a second of loading.
        let loaded = Instant::now();
        page.load().await;
        assert!(
            loaded.elapsed() < Duration::from_secs(5),
            "{:?}",
            loaded.elapsed()
        );
        let ready = page
            .js("return Number(document.body.dataset.readyMs)")
            .await;
        assert!(
            ready.as_f64().unwrap() < 1000.0,
            "the page took {ready} ms to get ready"
        );
        plays_switches_undoes_saves_and_loads(&page).await;
        page.close().await;
    });
}

async fn plays_switches_undoes_saves_and_loads(page: &Page) {
    // 1.c3 e5 by hand, both sides.
    page.click_move("c2", "c3").await;
    page.wait_for_plies(1).await;
    page.click_move("e7", "e5").await;
    page.wait_for_plies(2).await;

    // Now Catena takes the player who started Black; the person keeps White.
    page.choose_opponent("Catena", "white", "st=0.2").await;
    page.wait_for(
        "return document.getElementById('player-bottom').textContent.includes('Human plays White')",
        "the person to play White",
    )
    .await;

    // 2.d3 closes the chain: the loop is drawn, c2 and d2 shaded, and the question asked.
    page.click_move("d2", "d3").await;
    page.wait_for(
        "return !document.getElementById('switch-dialog').hidden",
        "the switch question",
    )
    .await;
    wait_for_the_c3_d3_chain(page).await;
    let question = page
        .js("return document.getElementById('switch-dialog').textContent")
        .await;
    let question = question.as_str().unwrap();
    assert!(question.contains("size 2"), "{question}");
    assert!(question.contains("limit 2"), "{question}");
    page.screenshot("gui-chain.png").await;

    // Switch: the person now plays Black and moves again at once; the board
    // turns to face the person's new army.
    page.click("switch-yes").await;
    page.wait_for_plies(3).await;
    wait_for_the_c3_d3_chain(page).await;
    page.wait_for(
        "return document.getElementById('player-bottom').textContent.includes('Human plays Black')
            && document.getElementById('player-top').textContent.includes('Catena plays White')",
        "the armies exchanged, the board turned",
    )
    .await;
    assert_eq!(page.js(FROM_BLACK).await, true);
    let switch_mark = page
        .js("return document.querySelectorAll('#moves .switch-mark').length")
        .await;
    assert_eq!(switch_mark, json!(1));

    // The person plays Black's 2...Nf6; Catena answers with White, the other army.
    page.click_move("g8", "f6").await;
    page.wait_for(
        "return document.querySelectorAll('#moves .ply:not(.future)').length >= 5",
        "Catena's move",
    )
    .await;
    let last = page
        .js(
            "const ply = document.querySelectorAll('#moves .ply:not(.future)')[4];
             return `${ply.dataset.number} ${ply.dataset.color}`;",
        )
        .await;
    assert_eq!(
        last,
        json!("3 white"),
        "Catena should have moved with White"
    );
    page.wait_for(
        "return document.getElementById('messages').textContent.includes('Catena plays 3.')",
        "the engine's move announced",
    )
    .await;

    // Undo takes back Catena's move and the person's.
    page.click("undo").await;
    page.wait_for_plies(3).await;

    // Saved, the PGN reads back with the project's reader and rules.
    page.click("pgn-save").await;
    page.wait_for(
        "return document.getElementById('pgn-text').value.includes('{switch}')",
        "the PGN",
    )
    .await;
    let saved = page
        .js("return document.getElementById('pgn-text').value")
        .await;
    let record = pgn::read(saved.as_str().unwrap()).expect("the saved PGN reads back");
    assert_eq!(record.game.uci_moves(), "c2c3 e7e5 d2d3 switch");
    assert_eq!(record.tag("WhiteAtEnd"), Some("Catena"));
    assert_eq!(record.tag("BlackAtEnd"), Some("Human"));

    // Analysis: lines arrive while the engine thinks, at least twice a second.
    page.js("window.thinkingSeen = 0;
         const events = new EventSource('/api/events');
         events.addEventListener('thinking', e => { if (JSON.parse(e.data).role === 'analysis') window.thinkingSeen++; });
         return true;",
    )
    .await;
    page.click("analysis-on").await;
    page.wait_for(
        "return document.querySelectorAll('#analysis-lines li').length >= 2",
        "analysis lines",
    )
    .await;
    page.js("window.thinkingSeen = 0; return true;").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let seen = page
        .js("return window.thinkingSeen")
        .await
        .as_u64()
        .unwrap();
    assert!(seen >= 4, "{seen} analysis events in 2 s");
    let line = page
        .js("return document.getElementById('analysis-lines').textContent")
        .await;
    assert!(line.as_str().unwrap().contains("3."), "{line}");
    page.screenshot("gui-analysis.png").await;
    page.click("analysis-on").await;

    // Back to both sides by hand, then a PGN of docs/rules.md, section 6, stepped through.
    page.select("opponent-engine", "").await;
    page.click("opponent-apply").await;
    page.wait_for(
        "return document.getElementById('player-bottom').textContent.includes('Player')",
        "no engine",
    )
    .await;
    let spec_pgn = "[Event \"Catena match\"]\n[Site \"?\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n\
        [White \"Alice\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\
        [SSCC \"SwitchRule=chain;MinEnclosed=2\"]\n[WhiteAtEnd \"Bob\"]\n[BlackAtEnd \"Alice\"]\n\n\
        1. c3 e5 2. d3 {switch} 2... Nf6 3. e4 *\n";
    page.js(&format!(
        "document.getElementById('pgn-text').value = {}; return true;",
        json!(spec_pgn)
    ))
    .await;
    page.click("pgn-load").await;
    page.wait_for_plies(5).await;
    page.click("first").await;
    page.wait_for_plies(0).await;
    let mut game = catena_core::game::GameState::new(
        catena_core::board::Position::startpos(),
        catena_core::game::Rules::default(),
    );
    for (ply, uci) in ["c2c3", "e7e5", "d2d3 switch", "g8f6", "e2e4"]
        .iter()
        .enumerate()
    {
        page.click("next").await;
        page.wait_for_plies(ply + 1).await;
        let tokens: Vec<&str> = uci.split_whitespace().collect();
        game.apply_uci_moves(&tokens).unwrap();
        let fen = page
            .js("return document.getElementById('fen').textContent")
            .await;
        assert_eq!(
            fen,
            json!(game.position().to_fen()),
            "after ply {}",
            ply + 1
        );
        if ply == 2 {
            wait_for_the_c3_d3_chain(page).await;
        }
        if ply == 3 {
            // 2...Nf6 closes no chain: the loop goes.
            page.wait_for(
                "return document.querySelectorAll('svg.cg-shapes g[cgHash]').length === 0
                    && document.querySelectorAll('cg-board square.enclosed').length === 0",
                "the loop gone after 2...Nf6",
            )
            .await;
        }
    }
    assert_eq!(page.plies().await, 5);

    // A 2-game match, started from the page: both games play out on it.
    for (id, value) in [
        ("match-count", "2"),
        ("match-tc", "st=0.02"),
        ("match-max", "12"),
    ] {
        page.fill(id, value).await;
    }
    page.click("match-start").await;
    page.wait_for(
        "return document.querySelectorAll('#match-games .match-game').length >= 1",
        "a game of the match on the page",
    )
    .await;
    page.wait_for("return document.querySelectorAll('#match-games .match-game:not([data-result=\"*\"])').length === 2
            && document.getElementById('match-head').dataset.state === 'finished'",
        "both games of the match finished",
    )
    .await;
    let table = page
        .js("return document.getElementById('match-table').textContent")
        .await;
    assert!(table.as_str().unwrap().contains("Catena 2"), "{table}");
    let boards = page
        .js("return document.querySelectorAll('#match-games cg-board piece').length")
        .await;
    assert!(
        boards.as_u64().unwrap() > 20,
        "{boards} pieces on the match boards"
    );
    if let Some(dir) = std::env::var_os("CATENA_GUI_SCREENSHOTS") {
        page.js("document.getElementById('match-panel').scrollIntoView(); return true;")
            .await;
        let png = page.client.screenshot().await.unwrap();
        std::fs::write(Path::new(&dir).join("gui-match.png"), png).unwrap();
    }
}

/// What the page shows of the game: the board's pieces (as a FEN's first
/// field), the FEN line, the moves played in SAN, and whether it says the
/// game is over.
const PAGE_PICTURE: &str = "
    const letters = { pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' };
    const at = {};
    for (const piece of document.querySelectorAll('#board cg-board piece')) {
      if (piece.classList.contains('ghost') || piece.classList.contains('fading')) continue;
      const role = [...piece.classList].find(name => letters[name]);
      const letter = letters[role];
      at[piece.cgKey] = piece.classList.contains('white') ? letter.toUpperCase() : letter;
    }
    const ranks = [];
    for (let rank = 8; rank >= 1; rank--) {
      let text = '', empty = 0;
      for (const file of 'abcdefgh') {
        const letter = at[file + rank];
        if (!letter) { empty++; continue; }
        if (empty) text += empty;
        text += letter;
        empty = 0;
      }
      ranks.push(empty ? text + empty : text);
    }
    return {
      board: ranks.join('/'),
      fen: document.getElementById('fen').textContent,
      moves: [...document.querySelectorAll('#moves .ply:not(.future) .san')].map(san => san.textContent),
      over: document.getElementById('status').textContent.includes('Game over'),
    };";

/// The same picture from the server's `GET /api/state`.
fn server_picture(state: &Value) -> Value {
    let fen = state["fen"].as_str().unwrap();
    json!({
        "board": fen.split(' ').next().unwrap(),
        "fen": fen,
        "moves": state["history"].as_array().unwrap().iter().map(|ply| ply["san"].clone()).collect::<Vec<_>>(),
        "over": !state["ending"].is_null(),
    })
}

/// Waits (a few seconds at most) until the page shows the game as the server has it.
async fn agrees_with_server(page: &Page, state: &Value) {
    let expected = server_picture(state);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let shown = page.js(PAGE_PICTURE).await;
        if shown == expected {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the page fell behind the server:\n page   {shown}\n server {expected}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Polls `GET /api/state` until `done` holds of it.
async fn wait_for_server(page: &Page, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let state = page.server_state();
        if done(&state) {
            return state;
        }
        assert!(
            Instant::now() < deadline,
            "waited in vain for {what}: {state}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A small deterministic stream of choices (an LCG), so that a failure replays.
struct Choices(u64);

impl Choices {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Plays one of the person's legal moves in `state` by clicking it, answering
/// the promotion question with a queen and the switch question either way,
/// and waits until the server has it.
async fn click_a_legal_move(page: &Page, state: &Value, choices: &mut Choices) {
    let moves: Vec<&Value> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|mv| mv["promotion"].is_null() || mv["promotion"] == "q")
        .collect();
    let mv = moves[choices.below(moves.len())];
    let switch = mv["switchable"] == true && choices.below(2) == 0;
    click_action(page, state, mv, switch).await;
}

/// Plays the legal move `mv` of `state` by clicking it, a queen if it
/// promotes, switching after it if `switch` (when the page asks), and waits
/// until the server has it.
async fn click_action(page: &Page, state: &Value, mv: &Value, switch: bool) {
    // A person clicks what the page shows: the server may be a reply ahead.
    agrees_with_server(page, state).await;
    let (from, to) = (mv["from"].as_str().unwrap(), mv["to"].as_str().unwrap());
    page.click_move(from, to).await;
    if mv["promotion"] == "q" {
        page.wait_for(
            "return !document.getElementById('promotion').hidden",
            "the promotion question",
        )
        .await;
        page.js("document.querySelector('#promotion [data-piece=\"q\"]').click(); return true;")
            .await;
    }
    if mv["switchable"] == true {
        page.wait_for(
            "return !document.getElementById('switch-dialog').hidden",
            "the switch question",
        )
        .await;
        page.click(if switch { "switch-yes" } else { "switch-no" })
            .await;
    }
    let before = state["generation"].as_u64().unwrap();
    let uci = mv["uci"].as_str().unwrap();
    wait_for_server(page, &format!("the page to play {uci}"), |now| {
        now["generation"].as_u64().unwrap() > before
    })
    .await;
}

/// Issue 54, problem 1: against an engine that answers within milliseconds,
/// the page shows the server's game after every one of its replies, over
/// 30 moves of the person's and the games they take (the person takes the
/// other colour in each new game, so the engine opens every other one).
#[test]
fn keeps_up_with_a_fast_engine() {
    run(async {
        let list = fast_engine_list("keeps-up");
        let Some(page) = Page::open(&["--engines", list.to_str().unwrap()]).await else {
            return;
        };
        page.choose_opponent("Catena-d1", "white", "st=0.05").await;
        let chosen = wait_for_server(&page, "Catena-d1 to be the opponent", |state| {
            state["opponent"]["engine"] == "Catena-d1"
        })
        .await;
        // The state the page must show next is newer than this generation.
        let mut after = chosen["generation"].as_u64().unwrap() - 1;
        let mut choices = Choices(54);
        let mut human = "white";
        let mut played = 0;
        while played < 30 {
            let state = wait_for_server(&page, "the person's turn", |state| {
                state["generation"].as_u64().unwrap() > after && state["engine_to_move"] == false
            })
            .await;
            agrees_with_server(&page, &state).await;
            if state["ending"].is_null() {
                after = state["generation"].as_u64().unwrap();
                click_a_legal_move(&page, &state, &mut choices).await;
                played += 1;
                continue;
            }
            human = if human == "white" { "black" } else { "white" };
            page.choose_opponent("Catena-d1", human, "st=0.05").await;
            page.click("new-game").await;
            let fresh = wait_for_server(&page, "a new game and the person's turn", |state| {
                state["ending"].is_null()
                    && state["engine_to_move"] == false
                    && state["history"].as_array().unwrap().len() <= 1
            })
            .await;
            after = fresh["generation"].as_u64().unwrap() - 1;
        }
        let _ = std::fs::remove_file(list);
        page.close().await;
    });
}

/// A page whose opponent is `Catena-d1` (depth 1, answering at once), the
/// person starting with `human` under the time control `tc`.
async fn against_a_fast_engine(test: &str, human: &str, tc: &str) -> Option<Page> {
    let list = fast_engine_list(test);
    let page = Page::open(&["--engines", list.to_str().unwrap()]).await?;
    page.choose_opponent("Catena-d1", human, tc).await;
    wait_for_server(&page, "Catena-d1 to be the opponent", |state| {
        state["opponent"]["engine"] == "Catena-d1" && state["engine_to_move"] == false
    })
    .await;
    Some(page)
}

/// Issue 54, problem 2: after Undo against an engine, with the moves taken
/// back greyed in the list, a move clicked on the board is played and the
/// engine answers it.
#[test]
fn plays_on_the_board_after_an_undo() {
    run(async {
        let Some(page) = against_a_fast_engine("undo", "white", "st=0.05").await else {
            return;
        };
        page.click_move("e2", "e4").await;
        page.wait_for_plies(2).await;
        page.click("undo").await;
        page.wait_for(
            "return document.querySelectorAll('#moves .ply:not(.future)').length === 0
                && document.querySelectorAll('#moves .ply.future').length === 2",
            "the two moves taken back, greyed",
        )
        .await;
        page.click_move("d2", "d4").await;
        page.wait_for_within(
            "return document.querySelectorAll('#moves .ply:not(.future)').length === 2
                && document.querySelectorAll('#moves .ply.future').length === 0",
            "1.d4 played on the board and answered",
            Duration::from_secs(5),
        )
        .await;
        let state = page.server_state();
        assert_eq!(state["history"][0]["uci"], "d2d4", "{state}");
        page.close().await;
    });
}

/// Types `text` into the move box and presses Enter.
async fn type_move(page: &Page, text: &str) {
    page.fill("move-input", &format!("{text}\n")).await;
}

/// White mates in one on the back rank: 1.Ra8#.
const BACK_RANK_MATE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";

/// Starts a new game from `fen` (the start position if empty) and waits for it.
async fn new_game_from(page: &Page, fen: &str) {
    page.fill("new-fen", fen).await;
    page.click("new-game").await;
    let fen = if fen.is_empty() {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    } else {
        fen
    };
    wait_for_server(page, "the new game", |state| state["start_fen"] == fen).await;
    // The page hears of the game after the server has it: a click before it
    // shows the new board lands on the old one. The men, not the board: an
    // engine to move may already have moved.
    let men = Position::from_fen(fen).expect("a FEN").occupied().len();
    page.wait_for(
        &format!(
            "return document.querySelectorAll('#board cg-board piece:not(.ghost):not(.fading)')
                 .length === {men}"
        ),
        "the new game's board",
    )
    .await;
}

/// Waits for the result panel and returns what it says.
async fn result_panel(page: &Page) -> String {
    page.wait_for(
        "return !document.getElementById('result').hidden",
        "the result panel",
    )
    .await;
    page.text("result").await
}

/// Issue 54, problem 3: the end of a game is said to the person as players:
/// who won ("you" or the engine, whatever army each held), and how; the
/// banner keeps nothing of the game before; the two-column move list ends
/// with the result; a new game starts with an empty log.
#[test]
fn says_who_won_as_players() {
    run(async {
        let Some(page) = against_a_fast_engine("result", "white", "st=0.05").await else {
            return;
        };
        // Two columns: White's move and Black's answer side by side.
        page.click_move("e2", "e4").await;
        page.wait_for_plies(2).await;
        let columns = page
            .js(
                "const [white, black] = document.querySelectorAll('#moves .ply');
                 const a = white.getBoundingClientRect(), b = black.getBoundingClientRect();
                 return Math.abs(a.top - b.top) < 2 && b.left > a.right - 1;",
            )
            .await;
        assert_eq!(columns, true, "1.e4 and Black's answer in one row");
        page.wait_for(
            "return document.getElementById('messages').textContent.includes('Catena-d1 plays 1...')",
            "the engine's answer in the log",
        )
        .await;

        // The person mates, after a refused move that put up the banner.
        new_game_from(&page, BACK_RANK_MATE).await;
        page.wait_for(
            "return !document.getElementById('messages').textContent.includes('Catena-d1 plays')",
            "a log of the new game's own",
        )
        .await;
        type_move(&page, "Kg3").await;
        page.wait_for(
            "return !document.getElementById('banner').hidden",
            "the refusal in the banner",
        )
        .await;
        page.click_move("a1", "a8").await;
        let result = result_panel(&page).await;
        assert!(result.contains("You won"), "{result}");
        assert_eq!(
            page.js("return document.getElementById('sound').dataset.played")
                .await,
            "end 1",
            "the end of the game sounds"
        );
        assert!(result.contains("checkmate"), "{result}");
        assert!(result.contains("1-0"), "{result}");
        assert_eq!(
            page.js("return document.getElementById('banner').hidden")
                .await,
            true,
            "the banner: {}",
            page.text("banner").await
        );
        let last = page
            .js("return document.querySelector('#moves > :last-child').textContent")
            .await;
        assert!(last.as_str().unwrap().contains("1-0"), "{last}");
        page.js("document.getElementById('result').scrollIntoView({ block: 'end' }); return true;")
            .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        page.screenshot("gui-result.png").await;

        // The engine mates the person, who started Black.
        page.choose_opponent("Catena-d1", "black", "st=0.05").await;
        new_game_from(&page, BACK_RANK_MATE).await;
        let result = result_panel(&page).await;
        assert!(result.contains("Catena-d1 won"), "{result}");
        assert!(result.contains("checkmate"), "{result}");
        page.wait_for(
            "return document.getElementById('messages').textContent.includes('Ra8#')",
            "the engine's mate in the log",
        )
        .await;

        // A new game: no result, and a log of its own.
        new_game_from(&page, "").await;
        page.wait_for(
            "return document.getElementById('result').hidden",
            "the result panel gone",
        )
        .await;
        page.wait_for(
            "return !document.getElementById('messages').textContent.includes('Ra8#')",
            "a log of the new game's own",
        )
        .await;
        page.close().await;
    });
}

/// Issue 54, problem 5: moves typed in SAN are played; an illegal one is
/// refused in SAN's terms, and the text stays in the box to be corrected.
#[test]
fn takes_typed_moves_in_san() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        for (ply, san) in ["e4", "e5", "Ke2"].iter().enumerate() {
            type_move(&page, san).await;
            page.wait_for_plies(ply + 1).await;
            page.wait_for(
                "return document.getElementById('move-input').value === ''",
                "the box emptied after a move",
            )
            .await;
        }
        // Black cannot castle yet.
        type_move(&page, "O-O").await;
        page.wait_for(
            "return document.querySelector('#messages li.error') !== null",
            "the refusal",
        )
        .await;
        let refusal = page
            .js("return document.querySelector('#messages li.error').textContent")
            .await;
        let refusal = refusal.as_str().unwrap();
        assert!(refusal.contains("O-O"), "{refusal}");
        assert!(refusal.contains("castle"), "{refusal}");
        assert!(!refusal.contains("UCI"), "{refusal}");
        assert_eq!(
            page.js("return document.getElementById('move-input').value")
                .await,
            "O-O",
            "the refused move stays in the box"
        );
        assert_eq!(page.plies().await, 3);
        page.close().await;
    });
}

/// Issue 54, problem 6: on a clock, the person's time does not run before
/// the game's first moves; it runs once both sides have moved.
#[test]
fn starts_the_persons_clock_with_the_game() {
    run(async {
        let Some(page) = against_a_fast_engine("clock", "white", "20+0.2").await else {
            return;
        };
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(page.text("clock-white").await, "0:20.0");
        let state = page.server_state();
        assert_eq!(state["clocks"]["white_ms"], 20_000, "{state}");
        assert!(state["clocks"]["running"].is_null(), "{state}");
        page.click_move("e2", "e4").await;
        page.wait_for_plies(2).await;
        // Both sides have moved: now the person's clock runs.
        page.wait_for(
            "return document.getElementById('clock-white').textContent < '0:19.5'",
            "the person's clock to run",
        )
        .await;
        let state = page.server_state();
        assert_eq!(state["clocks"]["running"], "white", "{state}");
        page.close().await;
    });
}

/// Issue 54, problem 4: a match game's title names its winner as the engine
/// that held the winning army at the end, whichever colour it started with;
/// and after Stop no game says it is still being played.
#[test]
fn names_match_winners_and_stops() {
    run(async {
        let dir = std::env::temp_dir().join(format!("catena-gui-titles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Beta started Black; after 2.d3 {switch} it holds White, and wins 1-0.
        let live = dir.join("live.json");
        let followed = json!({
            "engines": ["Alpha", "Beta"],
            "games_total": 1,
            "time_control": "st=0.1",
            "variant": "SSCC (SwitchRule=chain;MinEnclosed=2)",
            "games": [{
                "number": 1, "white": "Alpha", "black": "Beta",
                "start_fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "moves": "c2c3 e7e5 d2d3 switch g8f6",
                "result": "1-0", "comment": "Black loses on time",
            }],
            "score": {"wins": 0, "losses": 1, "draws": 0, "games": 1,
                      "score": 0.0, "elo": null, "elo_margin": null},
            "sprt": null,
            "finished": true,
        });
        std::fs::write(&live, followed.to_string()).unwrap();
        let list = fast_engine_list("titles");
        let Some(page) = Page::open(&[
            "--follow",
            live.to_str().unwrap(),
            "--engines",
            list.to_str().unwrap(),
        ])
        .await
        else {
            return;
        };
        page.wait_for(
            "return document.querySelector('#match-games .match-title') !== null",
            "the followed game",
        )
        .await;
        let title = page
            .js("return document.querySelector('#match-games .match-title').textContent")
            .await;
        let title = title.as_str().unwrap();
        assert!(title.contains("Beta won"), "{title}");
        assert!(!title.contains("Alpha won"), "{title}");

        // A match of the page's own, stopped while it plays: long enough
        // (games of depth 1 take about a second) that it cannot end before
        // the click on a loaded machine, as two games could.
        page.select("match-first", "Catena-d1").await;
        page.select("match-second", "Catena-d1").await;
        page.fill("match-count", "100").await;
        page.fill("match-tc", "st=1").await;
        page.click("match-start").await;
        page.wait_for(
            "return document.querySelector('#match-games .match-game[data-result=\"*\"]') !== null",
            "a game of the match under way",
        )
        .await;
        page.click("match-stop").await;
        page.wait_for(
            "return document.getElementById('match-head').dataset.state === 'stopped'",
            "the match stopped",
        )
        .await;
        let titles = page.text("match-games").await;
        assert!(!titles.contains("playing"), "{titles}");
        assert!(titles.contains("stopped"), "{titles}");
        let _ = std::fs::remove_dir_all(dir);
        page.close().await;
    });
}

/// Issue 54, problem 8: the PGN saved carries today's date, the page has an
/// icon, and a FEN with one rank is refused in good English.
#[test]
fn dates_the_pgn_shows_an_icon_and_counts_ranks() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        page.click("pgn-save").await;
        page.wait_for(
            "return document.getElementById('pgn-text').value.includes('[Date')",
            "the PGN",
        )
        .await;
        let saved = page
            .js("return document.getElementById('pgn-text').value")
            .await;
        let record = pgn::read(saved.as_str().unwrap()).unwrap();
        let date = record.tag("Date").unwrap_or_default();
        let today = page
            .js("const d = new Date(); return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()].map(n => String(n).padStart(2, '0')).join('.')")
            .await;
        assert_eq!(date, today.as_str().unwrap(), "{saved}");

        let icon = page
            .js("const link = document.querySelector('link[rel=icon]');
                 return link ? link.getAttribute('href') : null;")
            .await;
        let icon = icon.as_str().expect("a link to an icon");
        let (status, body) = page.server.get(icon);
        assert_eq!(status, 200, "{icon}");
        assert!(body.contains("<svg"), "{body}");

        page.fill("new-fen", "8 w - - 0 1").await;
        page.click("new-game").await;
        page.wait_for(
            "return document.querySelector('#messages li.error') !== null",
            "the refusal",
        )
        .await;
        let refusal = page.text("messages").await;
        assert!(refusal.contains("1 rank instead of 8"), "{refusal}");
        page.close().await;
    });
}

/// Whether the board is seen from Black.
const FROM_BLACK: &str =
    "return document.getElementById('board').classList.contains('orientation-black')";

/// Issue 54, problem 8: the board turns to the army the person holds, unless
/// they turn that off, which the page remembers.
#[test]
fn turns_the_board_to_the_persons_army() {
    run(async {
        let Some(page) = against_a_fast_engine("flip", "black", "st=0.05").await else {
            return;
        };
        page.wait_for(FROM_BLACK, "the board seen from Black").await;
        page.click("auto-flip").await;
        page.wait_for(
            &FROM_BLACK.replace("return ", "return !"),
            "the board seen from White",
        )
        .await;
        page.load().await;
        assert_eq!(
            page.js("return document.getElementById('auto-flip').checked")
                .await,
            false
        );
        assert_eq!(page.js(FROM_BLACK).await, false);
        page.click("auto-flip").await;
        page.wait_for(FROM_BLACK, "the board seen from Black again")
            .await;
        page.close().await;
    });
}

/// Issue 54, problem 7: every analysis score says whose it is (the player to
/// move, and the army they hold), the best move is drawn as an arrow, and a
/// line clicked plays its first move.
#[test]
fn labels_analysis_scores_draws_the_best_move_and_plays_a_line() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        page.click_move("e2", "e4").await;
        page.wait_for_plies(1).await;
        page.click("analysis-on").await;
        page.wait_for(
            "return document.querySelectorAll('#analysis-lines li').length >= 2",
            "analysis lines",
        )
        .await;
        let lines = page.text("analysis-lines").await;
        assert!(lines.contains("for Player 2 (Black)"), "{lines}");
        page.wait_for(
            "return [...document.querySelectorAll('#board svg.cg-shapes g[cgHash]')]
                .some(g => g.getAttribute('cgHash').split(',').includes('best'))",
            "the best move's arrow",
        )
        .await;
        page.screenshot("gui-analysis-arrow.png").await;
        // Read and clicked in one script: the analysis may replace its lines
        // between two.
        let first = page
            .js("const line = document.querySelector('#analysis-lines li');
                 line.querySelector('.pv').click();
                 return line.dataset.move;")
            .await;
        let first = first.as_str().expect("the line's first move").to_string();
        page.wait_for_plies(2).await;
        let state = page.server_state();
        assert_eq!(state["history"][1]["uci"], first.as_str(), "{state}");
        page.close().await;
    });
}

/// Issue 54, problem 8: a question left open while the game moves on
/// elsewhere (another tab; here a plain request) is withdrawn with a word
/// why, and a move sent for a game its page had not yet seen is refused
/// as such, not as a move with no piece to make it.
#[test]
fn withdraws_a_question_the_game_has_outrun() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        page.click_move("c2", "c3").await;
        page.wait_for_plies(1).await;
        page.click_move("e7", "e5").await;
        page.wait_for_plies(2).await;
        page.click_move("d2", "d3").await;
        page.wait_for(
            "return !document.getElementById('switch-dialog').hidden",
            "the switch question",
        )
        .await;
        // Another tab plays 2.d3 and stays.
        let (status, body) = page.server.post("/api/move", r#"{"move":"d2d3"}"#);
        assert_eq!(status, 200, "{body}");
        page.wait_for(
            "return document.getElementById('switch-dialog').hidden",
            "the question withdrawn",
        )
        .await;
        page.wait_for_plies(3).await;
        let log = page.text("messages").await;
        assert!(log.contains("The game changed"), "{log}");
        // A move for the game as it was two moves ago.
        let (status, body) = page.server.post(
            "/api/move",
            r#"{"move":"d2d3","switch":true,"generation":2}"#,
        );
        assert_eq!(status, 400, "{body}");
        assert!(body.contains("the game changed"), "{body}");
        assert_eq!(page.server_state()["history"].as_array().unwrap().len(), 3);
        page.close().await;
    });
}

/// Issue 54, problem 8: a reload keeps the panels open or folded as they
/// were and the board turned as it was; the promotion question is asked on
/// the board, not in the side panel.
#[test]
fn keeps_panels_and_the_board_turned_and_asks_promotion_on_the_board() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        page.client
            .find(fantoccini::Locator::Css("#analysis-panel > summary"))
            .await
            .expect("the analysis panel")
            .click()
            .await
            .unwrap();
        page.click("flip").await;
        page.wait_for(FROM_BLACK, "the board turned").await;
        page.reload().await;
        assert_eq!(
            page.js("return document.getElementById('analysis-panel').open")
                .await,
            false,
            "the analysis panel folded"
        );
        assert_eq!(
            page.js("return document.getElementById('new-game-panel').open")
                .await,
            true,
            "the new game panel open"
        );
        assert_eq!(page.js(FROM_BLACK).await, true, "the board turned");

        new_game_from(&page, "8/P6k/8/8/8/8/8/K7 w - - 0 1").await;
        page.click_move("a7", "a8").await;
        page.wait_for(
            "return !document.getElementById('promotion').hidden",
            "the promotion question",
        )
        .await;
        let on_board = page
            .js(
                "const q = document.getElementById('promotion').getBoundingClientRect();
                 const b = document.querySelector('#board cg-board').getBoundingClientRect();
                 const x = q.left + q.width / 2, y = q.top + q.height / 2;
                 return x > b.left && x < b.right && y > b.top && y < b.bottom;",
            )
            .await;
        assert_eq!(on_board, true, "the promotion question over the board");
        page.js("document.querySelector('#promotion [data-piece=\"q\"]').click(); return true;")
            .await;
        page.wait_for_plies(1).await;
        assert_eq!(page.server_state()["history"][0]["uci"], "a7a8q");
        page.close().await;
    });
}

/// Issue 54, "a result that speaks to the person": a sound for a move, a
/// capture, a check, a switch and the end of the game, and a mute that the
/// page remembers.
#[test]
fn sounds_moves_and_remembers_the_mute() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        let played = "return document.getElementById('sound').dataset.played";
        for (text, sound) in [
            ("c3", "move"),
            ("e5", "move"),
            ("d3 switch", "switch"),
            ("Bb4", "move"),
            ("cxb4", "capture"),
            ("Qh4", "move"),
            ("Nf3", "move"),
            ("Qxf2+", "check"),
        ] {
            let before = page.plies().await;
            let (status, body) = page.server.post(
                "/api/move",
                &json!({"move": text.trim_end_matches(" switch"), "switch": text.ends_with("switch")})
                    .to_string(),
            );
            assert_eq!(status, 200, "{text}: {body}");
            page.wait_for_plies(before + 1).await;
            page.wait_for(
                &format!(
                    "return (document.getElementById('sound').dataset.played || '').endsWith(' {}')",
                    before + 1
                ),
                &format!("the sound of {text}"),
            )
            .await;
            assert_eq!(
                page.js(played).await,
                format!("{sound} {}", before + 1),
                "{text}"
            );
        }
        page.click("sound").await;
        page.reload().await;
        assert_eq!(
            page.js("return document.getElementById('sound').getAttribute('aria-pressed')")
                .await,
            "true",
            "the mute kept"
        );
        let (status, body) = page.server.post("/api/move", r#"{"move":"Kxf2"}"#);
        assert_eq!(status, 200, "{body}");
        page.wait_for_plies(9).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(page.js(played).await.is_null(), "muted, yet a sound");
        page.close().await;
    });
}

/// The legal move `uci` of `state`, as the state lists it.
fn legal<'a>(state: &'a Value, uci: &str) -> &'a Value {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|mv| mv["uci"] == uci)
        .unwrap_or_else(|| panic!("{uci} is not legal in {}", state["fen"]))
}

/// The first puzzle of `perft/puzzles.epd` with D `plies` under `rule`, set
/// up by the page (*Next puzzle*): the puzzle as `GET /api/puzzles` gives
/// it, its line, and the server's state once it is on the board.
async fn next_puzzle(page: &Page, plies: u32, rule: &str) -> (Value, Vec<String>, Value) {
    let (status, body) = page.server.get("/api/puzzles");
    assert_eq!(status, 200);
    let all: Value = serde_json::from_str(&body).unwrap();
    let puzzle = all["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["plies"] == plies && p["rule"] == rule)
        .unwrap_or_else(|| panic!("a puzzle of D {plies} under rule {rule}"))
        .clone();
    let line: Vec<String> = puzzle["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|action| action.as_str().unwrap().to_string())
        .collect();
    page.select("puzzle-plies", &plies.to_string()).await;
    page.select("puzzle-rule", rule).await;
    page.click("puzzle-next").await;
    let fen = puzzle["fen"].clone();
    let state = wait_for_server(page, "the puzzle", |state| state["start_fen"] == fen).await;
    page.wait_for(
        &format!(
            "return document.getElementById('puzzle-status').textContent.includes({})",
            puzzle["id"]
        ),
        "the puzzle's id",
    )
    .await;
    (puzzle, line, state)
}

/// Clicks the person's actions of `line` from the start of the puzzle,
/// switches included, and lets the page play the defender's: after each
/// of those, the page must say the defender's answer, in SAN. Returns how
/// many replies the page played.
async fn click_the_line(page: &Page, line: &[String]) -> usize {
    let mut replies = 0;
    for (index, action) in line.iter().enumerate() {
        // The page may have played the defender's reply already.
        let state = wait_for_server(page, "the person's turn", |state| {
            state["history"].as_array().unwrap().len() >= index
        })
        .await;
        let (uci, switch) = action.split_once(' ').unwrap_or((action, ""));
        if state["history"].as_array().unwrap().len() == index
            && state["turn"] == state["human"]["now"]
        {
            click_action(page, &state, legal(&state, uci), switch == "switch").await;
            continue;
        }
        // The defender's reply, which the page plays from the line.
        let state = wait_for_server(page, "the defender's reply", |state| {
            state["history"].as_array().unwrap().len() > index
        })
        .await;
        let reply = &state["history"][index];
        assert_eq!(
            format!(
                "{}{}",
                reply["uci"].as_str().unwrap(),
                if reply["switched"] == true {
                    " switch"
                } else {
                    ""
                }
            ),
            *action,
            "the page's reply: {state}"
        );
        let san = reply["san"].as_str().unwrap();
        if index + 1 < line.len() {
            page.wait_for(
                &format!(
                    "return document.getElementById('puzzle-status').textContent.includes('answers {san}')"
                ),
                &format!("the page to say the defender answers {san}"),
            )
            .await;
        }
        replies += 1;
    }
    page.wait_for(
        "return document.getElementById('puzzle-status').textContent.startsWith('Solved')",
        "the puzzle solved",
    )
    .await;
    replies
}

/// Issue 54, "a place to train": the first puzzle of D 3 under rule chain
/// (perft/puzzles.epd), the solution clicked, switches included, and the
/// progress kept across a reload.
#[test]
fn trains_on_the_puzzles() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        let (_, line, _) = next_puzzle(&page, 3, "chain").await;
        assert_eq!(click_the_line(&page, &line).await, 0, "one player's run");
        assert!(page.text("puzzle-score").await.contains("streak 1"));
        page.screenshot("gui-puzzle.png").await;
        page.reload().await;
        let score = page.text("puzzle-score").await;
        assert!(score.starts_with("Solved 1 of"), "{score}");
        page.close().await;
    });
}

/// Issue 54, "a wrong action is shown as wrong, with the refutation": a
/// wrong first action of the first puzzle of D 3 under rule chain is
/// answered with the defender's reply that the server's solver finds
/// (`GET /api/puzzles/refutation`), said in SAN and drawn as an arrow while
/// the action is on the board; then the action is taken back and the
/// streak is 0.
#[test]
fn refutes_a_wrong_puzzle_action() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        let (puzzle, line, state) = next_puzzle(&page, 3, "chain").await;
        let (solution, _) = line[0].split_once(' ').unwrap_or((&line[0], ""));
        let wrong = state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|mv| mv["uci"] != solution && mv["promotion"].is_null())
            .unwrap()
            .clone();
        click_action(&page, &state, &wrong, false).await;
        let played = page.server_state();
        let wrong_san = played["history"][0]["san"].clone();
        page.wait_for(
            "return document.getElementById('puzzle-status').textContent.includes('answers')",
            "the wrong action refuted",
        )
        .await;
        // What the server's solver says of it.
        let uci = wrong["uci"].as_str().unwrap();
        let (status, body) = page.server.get(&format!(
            "/api/puzzles/refutation?id={}&after={uci}",
            puzzle["id"].as_str().unwrap()
        ));
        assert_eq!(status, 200, "{body}");
        let refutation: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(refutation["wins"], false, "{refutation}");
        assert_eq!(refutation["plies_left"], 2, "{refutation}");
        let reply = &refutation["reply"];
        let (reply_uci, reply_san) = (
            reply["uci"].as_str().unwrap(),
            reply["san"].as_str().unwrap(),
        );
        let told = page.text("puzzle-status").await;
        assert!(told.starts_with("Wrong: after "), "{told}");
        assert!(told.contains(wrong_san.as_str().unwrap()), "{told}");
        assert!(
            told.contains(&format!("answers {reply_san}")),
            "{told} (the solver's reply: {refutation})"
        );
        assert!(
            told.contains("no forced win within the 2 plies left"),
            "{told}"
        );
        assert!(
            !told.contains(&line[0]),
            "the solver's line is no refutation: {told}"
        );
        // The reply drawn on the board, from the position after the wrong action.
        page.wait_for(
            &format!(
                "return [...document.querySelectorAll('svg.cg-shapes g[cgHash]')]
                   .some(g => g.getAttribute('cgHash').includes('refute')
                     && g.getAttribute('cgHash').includes('{}')
                     && g.getAttribute('cgHash').includes('{}'))",
                &reply_uci[..2],
                &reply_uci[2..4]
            ),
            "the reply's arrow",
        )
        .await;
        assert_eq!(
            page.js("return document.getElementById('board').dataset.refutation")
                .await,
            reply_uci
        );
        page.screenshot("gui-puzzle-wrong.png").await;
        wait_for_server(&page, "the wrong action taken back", |state| {
            state["history"].as_array().unwrap().is_empty()
        })
        .await;
        page.wait_for(
            "return document.getElementById('board').dataset.refutation === ''",
            "the arrow gone with the action",
        )
        .await;
        assert!(page.text("puzzle-status").await.contains(reply_san));
        assert!(page.text("puzzle-score").await.contains("streak 0"));
        page.close().await;
    });
}

/// Issue 54, "the defender's replies come from the solver's line": the
/// first puzzle of D 7 under rule chain, whose line hands the move to the
/// defender after the person's second action. The person's actions are
/// clicked; the page plays the defender's reply from the line and says it,
/// and the puzzle ends solved.
#[test]
fn plays_the_defenders_replies_from_the_line() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        let (puzzle, line, _) = next_puzzle(&page, 7, "chain").await;
        assert!(
            line[..line.len() - 1]
                .iter()
                .any(|action| !action.ends_with("switch")),
            "a line with a defender's reply: {puzzle}"
        );
        assert_eq!(click_the_line(&page, &line).await, 1, "{puzzle}");
        assert!(page.text("puzzle-score").await.contains("streak 1"));
        page.close().await;
    });
}

/// The pieces of the board in `selector` as a FEN's first field.
async fn board_shown(page: &Page, selector: &str) -> String {
    let script = format!(
        "const letters = {{ pawn: 'p', knight: 'n', bishop: 'b', rook: 'r', queen: 'q', king: 'k' }};
         const at = {{}};
         for (const piece of document.querySelectorAll('{selector} cg-board piece')) {{
           const role = [...piece.classList].find(name => letters[name]);
           at[piece.cgKey] = piece.classList.contains('white') ? letters[role].toUpperCase() : letters[role];
         }}
         const ranks = [];
         for (let rank = 8; rank >= 1; rank--) {{
           let text = '', empty = 0;
           for (const file of 'abcdefgh') {{
             const letter = at[file + rank];
             if (!letter) {{ empty++; continue; }}
             if (empty) text += empty;
             text += letter;
             empty = 0;
           }}
           ranks.push(empty ? text + empty : text);
         }}
         return ranks.join('/');"
    );
    page.js(&script).await.as_str().unwrap().to_string()
}

/// Issue 54, "a result panel: who won, as players, how, and the final
/// position": after 1.Ra8# the result panel holds a small board of the
/// final position, drawn at its size (the rook on a8 in its top left
/// corner), also when the panel shows again for a second game.
#[test]
fn draws_the_final_position_in_the_result_panel() {
    run(async {
        let Some(page) = Page::open(&[]).await else {
            return;
        };
        for game in 0..2 {
            new_game_from(&page, BACK_RANK_MATE).await;
            page.wait_for(
                "return document.getElementById('result').hidden",
                "no result panel in a new game",
            )
            .await;
            page.click_move("a1", "a8").await;
            result_panel(&page).await;
            let fen = page.server_state()["fen"].as_str().unwrap().to_string();
            let board = fen.split(' ').next().unwrap();
            assert_eq!(board, "R5k1/5ppp/8/8/8/8/8/6K1");
            let deadline = Instant::now() + Duration::from_secs(5);
            loop {
                let shown = board_shown(&page, "#result-board").await;
                if shown == board {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "game {game}: the result's board shows {shown}"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let placed = page
                .js("const b = document.querySelector('#result-board cg-board').getBoundingClientRect();
                     const rook = [...document.querySelectorAll('#result-board piece')].find(p => p.cgKey === 'a8')
                       .getBoundingClientRect();
                     return { width: b.width, height: b.height,
                              dx: Math.round(rook.left - b.left), dy: Math.round(rook.top - b.top),
                              rook: Math.round(rook.width) };")
                .await;
            let width = placed["width"].as_f64().unwrap();
            assert!((100.0..=240.0).contains(&width), "game {game}: {placed}");
            assert_eq!(placed["height"], placed["width"], "game {game}: {placed}");
            assert_eq!(placed["dx"], 0, "game {game}: {placed}");
            assert_eq!(placed["dy"], 0, "game {game}: {placed}");
            assert_eq!(
                placed["rook"].as_f64().unwrap(),
                (width / 8.0).round(),
                "game {game}: {placed}"
            );
        }
        page.close().await;
    });
}
