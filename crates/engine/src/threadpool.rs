//! The threads of a search: the helper threads, kept alive from one search
//! to the next (issue 23, point 4), and [`search`], which sets a search
//! up on them, runs it, and gathers what each thread found and learnt.
//!
//! Starting `Threads - 1` threads at every `go` cost more than a short search
//! itself when there are many more threads than cores: each must be created
//! and scheduled before the search can even begin. The helpers now live in a
//! rayon pool that is built once for a thread count and rebuilt only when the
//! count changes; a search hands its helper workers to it as jobs.
//!
//! The search itself uses no rayon parallelism inside a node (chains on the
//! 8x8 board take the bitboard path), so a pool thread runs one helper search
//! from start to end and never picks up a second one while it waits.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::history::{Histories, QuietHistory};
use crate::movepick::{MovePicker, OrderingHints, Switches};
use crate::score::{INFINITE, MATE};
use crate::search::Worker;
use crate::tablebase::{self, Plan, Start};
use crate::thread::{Control, Info, Limits, Root, RootMove, SearchResult, Shared};
use crate::transposition::TranspositionTable;
use catena_core::board::Move;
use catena_core::game::{Action, Variant};

/// The pool of the last thread count asked for, shared by every search of
/// the process (one engine per process, as UCI has it).
static HELPERS: Mutex<Option<(usize, Arc<ThreadPool>)>> = Mutex::new(None);

/// A pool of `count` helper threads, the same one as last time when the count
/// is unchanged. `None` when no helper is wanted, or when the system refuses
/// the threads: the search then runs on its own thread alone.
fn helper_pool(count: usize) -> Option<Arc<ThreadPool>> {
    if count == 0 {
        return None;
    }
    let mut cached = HELPERS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((size, pool)) = cached.as_ref()
        && *size == count
    {
        return Some(Arc::clone(pool));
    }
    // The old pool's threads end once its last search has let go of it.
    *cached = None;
    let built = ThreadPoolBuilder::new()
        .num_threads(count)
        .thread_name(|index| format!("catena-helper-{}", index + 1))
        .build();
    match built {
        Ok(pool) => {
            let pool = Arc::new(pool);
            *cached = Some((count, Arc::clone(&pool)));
            Some(pool)
        }
        Err(error) => {
            log::error!("cannot start {count} helper threads ({error}); searching on one");
            None
        }
    }
}

/// The root actions, in a first guess at their order, restricted to `search_moves` if any.
fn root_actions(
    root: &Root,
    tt: &TranspositionTable,
    histories: &Histories,
    search_moves: &[Move],
) -> Vec<Action> {
    let position = &root.position;
    let hints = OrderingHints {
        tt_action: tt
            .probe(position.key() ^ root.run.key())
            .map_or(0, |entry| entry.action),
        killers: [None; 2],
        counter: None,
        history: QuietHistory::without_context(&histories.quiet),
        captures: &histories.captures,
    };
    let run = root.run;
    // Every root action is searched: each chain is tested at once, and its
    // switch ranked as an action of its own.
    let switches = match root.variant {
        Variant::Sscc(rules) if run.allows_switch() => Switches::Ranked(rules),
        _ => Switches::Never,
    };
    let mut picker = MovePicker::default();
    picker.add_all(position, &hints, switches);
    picker
        .map(|scored| scored.action)
        .filter(|action| search_moves.is_empty() || search_moves.contains(&action.mv))
        .collect()
}

/// Searches `root` within `limits` until they or `control.stop` end it. Only
/// the first thread calls `report`. Thread `i` starts from `histories[i]`
/// and leaves what it learnt there (the list grows to the number of threads).
pub fn search(
    root: &Root,
    limits: &Limits,
    tt: &Arc<TranspositionTable>,
    histories: &mut Vec<Histories>,
    control: &Control,
    started: Instant,
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    tt.new_search();
    let threads = limits.threads.max(1);
    if histories.len() < threads {
        histories.resize_with(threads, Histories::default);
    }
    let actions = root_actions(root, tt, &histories[0], &limits.search_moves);
    let plan = limits
        .tablebases
        .as_ref()
        .map_or_else(Plan::default, |settings| {
            let start = Start {
                position: &root.position,
                history: &root.history,
                variant: root.variant,
            };
            tablebase::plan(settings, start, &actions)
        });
    // With the root in the tables, only the actions that keep its best
    // result are searched, each reported with the tables' score.
    let actions: Vec<(Action, Option<i32>)> = match &plan.root {
        Some(ranked) => ranked
            .actions
            .iter()
            .map(|&(action, score)| (action, Some(score)))
            .collect(),
        None => actions.into_iter().map(|action| (action, None)).collect(),
    };
    if actions.is_empty() {
        return SearchResult {
            best: None,
            ponder: None,
            score: if root.position.in_check() { -MATE } else { 0 },
            nodes: 0,
            depth: 0,
            best_share: 0.0,
        };
    }
    let shared = Shared {
        tt,
        control,
        limits,
        started,
        nodes: AtomicU64::new(0),
        tb_hits: AtomicU64::new(plan.root.as_ref().map_or(0, |ranked| ranked.hits)),
        probing: plan.probing,
        variant: root.variant,
        done: AtomicBool::new(false),
        giving_away: AtomicBool::new(false),
    };
    let mut workers: Vec<Worker> = histories
        .drain(..threads)
        .enumerate()
        .map(|(id, thread_histories)| {
            let mut worker = Worker::new(id, &shared, root, thread_histories);
            worker.root_moves = actions
                .iter()
                .map(|&(action, tb_score)| RootMove {
                    action,
                    score: -INFINITE,
                    previous_score: -INFINITE,
                    pv: vec![action],
                    nodes: 0,
                    tb_score,
                })
                .collect();
            worker
        })
        .collect();
    let helpers = workers.split_off(1);
    let mut main = workers.pop().expect("a search has at least one thread");
    let pool = helper_pool(helpers.len());
    // Each helper leaves its histories here, in its own slot.
    let learnt_by_helpers: Vec<Mutex<Option<Histories>>> =
        helpers.iter().map(|_| Mutex::new(None)).collect();
    let depth = std::thread::scope(|scope| {
        // With more threads than cores, the main thread may wait long for
        // its turn to look at the clock: a watcher that sleeps between looks
        // is woken on time and stops every thread at the hard limit.
        if threads > 1 && limits.budget.is_some() {
            let shared = &shared;
            scope.spawn(move || {
                while !shared.done.load(Ordering::Relaxed) {
                    if !control.pondering.load(Ordering::Relaxed) && shared.out_of_time() {
                        control.stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
        }
        let mut main_search = || {
            let depth = main.iterate(root, report);
            main.publish_nodes();
            shared.done.store(true, Ordering::Relaxed);
            depth
        };
        match &pool {
            Some(pool) => pool.in_place_scope(|jobs| {
                for (mut helper, slot) in helpers.into_iter().zip(&learnt_by_helpers) {
                    jobs.spawn(move |_| {
                        helper.iterate(root, &mut |_| {});
                        helper.publish_nodes();
                        *slot.lock().unwrap_or_else(PoisonError::into_inner) =
                            Some(helper.histories);
                    });
                }
                main_search()
            }),
            // No helper, or none could start: the first thread searches alone.
            None => main_search(),
        }
    });
    let best_share = main.best_action_share();
    let best_move = main.root_moves.swap_remove(0);
    let score = best_move.reported_score();
    let RootMove {
        action: best, pv, ..
    } = best_move;
    let learnt = std::iter::once(main.histories).chain(learnt_by_helpers.into_iter().map(|slot| {
        slot.into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .unwrap_or_default()
    }));
    histories.splice(0..0, learnt);
    let ponder = if best.switch {
        None
    } else {
        pv.get(1).copied()
    };
    SearchResult {
        best: Some(best),
        ponder,
        score,
        nodes: shared.nodes.load(Ordering::Relaxed),
        depth,
        best_share,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_is_kept_for_the_same_count_and_rebuilt_for_another() {
        assert!(helper_pool(0).is_none());
        let first = helper_pool(3).expect("three threads start");
        let again = helper_pool(3).expect("three threads start");
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(first.current_num_threads(), 3);
        let other = helper_pool(2).expect("two threads start");
        assert!(!Arc::ptr_eq(&first, &other));
        assert_eq!(other.current_num_threads(), 2);
    }
}
