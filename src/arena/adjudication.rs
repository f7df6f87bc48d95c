//! Ending games early from the engines' scores, as cutechess-cli's `-resign`,
//! `-draw` and `-maxmoves` do.

use super::engine::Score;
use catena_core::game::{GameState, Player};

/// `--resign movecount=N score=S [twosided=true]`: a player whose engine scores
/// itself at least `S` centipawns behind for `N` moves in a row resigns; with
/// `twosided`, only if the opponent's engine agrees for as long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

/// `--draw movenumber=N movecount=M score=S`: from move `N` on, a game is drawn
/// when both engines have scored within `S` centipawns of zero for `M` moves in
/// a row each; a capture or pawn move starts the count again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// The `KEY=VALUE` fields of `flag`, each key one of `keys`.
fn fields<'a>(
    flag: &str,
    words: &'a [String],
    keys: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    words
        .iter()
        .map(|word| {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("{flag}: '{word}' is not KEY=VALUE"))?;
            if keys.contains(&key) {
                Ok((key, value))
            } else {
                Err(format!("{flag}: unknown key '{key}' ({})", keys.join(", ")))
            }
        })
        .collect()
}

/// The whole number `key` of `flag`, which must be given.
fn number<T: std::str::FromStr>(
    flag: &str,
    fields: &[(&str, &str)],
    key: &str,
) -> Result<T, String> {
    let (_, value) = fields
        .iter()
        .find(|(name, _)| *name == key)
        .ok_or_else(|| format!("{flag} needs {key}=N"))?;
    value
        .parse()
        .map_err(|_| format!("{flag}: {key}={value} is not a whole number in range"))
}

impl ResignRule {
    pub fn parse(words: &[String]) -> Result<ResignRule, String> {
        let flag = "--resign";
        let fields = fields(flag, words, &["movecount", "score", "twosided"])?;
        let two_sided = match fields.iter().find(|(key, _)| *key == "twosided") {
            None | Some((_, "false")) => false,
            Some((_, "true")) => true,
            Some((_, other)) => {
                return Err(format!("{flag}: twosided is true or false, not '{other}'"));
            }
        };
        Ok(ResignRule {
            move_count: number(flag, &fields, "movecount")?,
            score: number(flag, &fields, "score")?,
            two_sided,
        })
    }
}

impl DrawRule {
    pub fn parse(words: &[String]) -> Result<DrawRule, String> {
        let flag = "--draw";
        let fields = fields(flag, words, &["movenumber", "movecount", "score"])?;
        Ok(DrawRule {
            move_number: number(flag, &fields, "movenumber")?,
            move_count: number(flag, &fields, "movecount")?,
            score: number(flag, &fields, "score")?,
        })
    }
}

/// The adjudication settings of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// A game reaching this many moves (of each colour) is drawn.
    pub max_moves: Option<u32>,
}

/// How an adjudicated game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This player resigns the colour it controls.
    Resign(Player),
    /// Both engines see a dead draw.
    Draw,
    /// The game reached the move limit.
    MaxMoves,
}

/// Counts, through one game, the engines' scores toward a verdict.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    settings: Adjudication,
    /// Per player (index: `Player::StartedWhite` first), moves in a row scored …
    losing: [u32; 2],
    winning: [u32; 2],
    level: [u32; 2],
}

fn index(player: Player) -> usize {
    match player {
        Player::StartedWhite => 0,
        Player::StartedBlack => 1,
    }
}

impl Adjudicator {
    pub fn new(settings: Adjudication) -> Adjudicator {
        Adjudicator {
            settings,
            losing: [0; 2],
            winning: [0; 2],
            level: [0; 2],
        }
    }

    /// Takes in the move `player` just made in `game` with its engine's `score`
    /// (none: the engine gave no score, which breaks every run), and says
    /// whether the game should end here.
    pub fn judge(
        &mut self,
        game: &GameState,
        player: Player,
        score: Option<Score>,
    ) -> Option<Verdict> {
        let me = index(player);
        let cp = score.map(Score::centipawns);
        let count =
            |counter: &mut u32, holds: bool| *counter = if holds { *counter + 1 } else { 0 };
        if let Some(rule) = self.settings.resign {
            count(&mut self.losing[me], cp.is_some_and(|cp| cp <= -rule.score));
            count(&mut self.winning[me], cp.is_some_and(|cp| cp >= rule.score));
            let other = 1 - me;
            if self.losing[me] >= rule.move_count
                && (!rule.two_sided || self.winning[other] >= rule.move_count)
            {
                return Some(Verdict::Resign(player));
            }
        }
        if let Some(rule) = self.settings.draw {
            let position = game.position();
            if position.halfmove_clock() == 0 {
                self.level = [0; 2];
            }
            let late_enough = u32::from(position.fullmove_number()) > rule.move_number;
            count(
                &mut self.level[me],
                late_enough && cp.is_some_and(|cp| cp.abs() <= rule.score),
            );
            if self.level.iter().all(|&moves| moves >= rule.move_count) {
                return Some(Verdict::Draw);
            }
        }
        let limit = self.settings.max_moves?;
        (game.plies().len() >= 2 * limit as usize).then_some(Verdict::MaxMoves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn game_after(movetext: &str) -> GameState {
        catena_core::game::pgn::read(movetext).unwrap().game
    }

    #[test]
    fn reads_cutechess_forms() {
        assert_eq!(
            ResignRule::parse(&words("movecount=3 score=500 twosided=true")),
            Ok(ResignRule {
                move_count: 3,
                score: 500,
                two_sided: true
            })
        );
        assert_eq!(
            DrawRule::parse(&words("movenumber=40 movecount=8 score=10")),
            Ok(DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10
            })
        );
        for bad in [
            "movecount=3",
            "movecount=x score=5",
            "movecount=3 score=5 twosided=maybe",
            "depth=3",
        ] {
            assert!(ResignRule::parse(&words(bad)).is_err(), "{bad}");
        }
        assert!(DrawRule::parse(&words("movenumber=40 movecount=8")).is_err());
    }

    #[test]
    fn resigns_after_enough_bad_scores_in_a_row() {
        let game = game_after("1. Nf3 Nf6 2. Ng1 Ng8");
        let rule = ResignRule::parse(&words("movecount=2 score=300")).unwrap();
        let mut judge = Adjudicator::new(Adjudication {
            resign: Some(rule),
            ..Default::default()
        });
        let (white, black) = (Player::StartedWhite, Player::StartedBlack);
        assert_eq!(
            judge.judge(&game, white, Some(Score::Centipawns(-400))),
            None
        );
        assert_eq!(
            judge.judge(&game, black, Some(Score::Centipawns(400))),
            None
        );
        // A move without a score breaks the run.
        assert_eq!(judge.judge(&game, white, None), None);
        assert_eq!(judge.judge(&game, white, Some(Score::Mate(-3))), None);
        assert_eq!(
            judge.judge(&game, white, Some(Score::Centipawns(-300))),
            Some(Verdict::Resign(white))
        );
        let mut two_sided = Adjudicator::new(Adjudication {
            resign: Some(ResignRule {
                two_sided: true,
                ..rule
            }),
            ..Default::default()
        });
        assert_eq!(
            two_sided.judge(&game, white, Some(Score::Centipawns(-400))),
            None
        );
        assert_eq!(
            two_sided.judge(&game, black, Some(Score::Centipawns(100))),
            None
        );
        assert_eq!(
            two_sided.judge(&game, white, Some(Score::Centipawns(-400))),
            None
        );
    }

    #[test]
    fn draws_level_games_late_enough_and_long_ones() {
        let early = game_after("1. Nf3 Nf6");
        let late = game_after("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1");
        let mut judge = Adjudicator::new(Adjudication {
            draw: Some(DrawRule::parse(&words("movenumber=2 movecount=1 score=20")).unwrap()),
            max_moves: Some(4),
            ..Default::default()
        });
        let level = Some(Score::Centipawns(5));
        assert_eq!(judge.judge(&early, Player::StartedWhite, level), None);
        assert_eq!(judge.judge(&early, Player::StartedBlack, level), None);
        assert_eq!(judge.judge(&late, Player::StartedWhite, level), None);
        assert_eq!(
            judge.judge(&late, Player::StartedBlack, level),
            Some(Verdict::Draw)
        );
        let mut long = Adjudicator::new(Adjudication {
            max_moves: Some(4),
            ..Default::default()
        });
        assert_eq!(long.judge(&late, Player::StartedWhite, None), None);
        let longer = game_after("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Nc6");
        assert_eq!(
            long.judge(&longer, Player::StartedWhite, None),
            Some(Verdict::MaxMoves)
        );
    }
}
