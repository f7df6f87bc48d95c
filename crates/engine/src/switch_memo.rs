//! The stand pat's switches, remembered by board.
//!
//! In SSCC the stand pat tests each move of a horizon node for a chain and
//! evaluates the switch of each one that closes one: more than half of an
//! SSCC search's time (docs/sscc-search.md, "Where the time goes").
//! Horizon boards recur (transpositions, the next iteration, the next move),
//! and the scan's answer for any other own value and bound follows from a
//! few numbers: the switches' values that beat every one before them, in
//! the scan's order. The scan stops at the first switch that reaches beta,
//! which is always such a record, and when it goes to the end its answer
//! is the best of them or the player's own value.

use arrayvec::ArrayVec;

/// Record values kept a board; a scan with more is not remembered.
const RECORDS: usize = 7;

const ENTRIES: usize = 1 << 17;

/// What a scan of one board's switches found.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The board's key with its run and rules; 0 for an unused entry.
    key: u64,
    records: [i16; RECORDS],
    len: u8,
    /// Whether the scan went over every move, not stopped at its last record.
    complete: bool,
}

/// A scan of one board's switches as it goes: each switch's value that
/// beats every one before it.
#[derive(Default)]
pub struct Scan {
    records: ArrayVec<i16, RECORDS>,
    overflowed: bool,
}

impl Scan {
    /// Notes a switch's value, in the scan's order.
    pub fn note(&mut self, value: i32) {
        if self
            .records
            .last()
            .is_some_and(|&last| value <= i32::from(last))
        {
            return;
        }
        match i16::try_from(value) {
            Ok(value) if !self.records.is_full() => self.records.push(value),
            _ => self.overflowed = true,
        }
    }
}

/// One search thread's remembered scans, kept from move to move.
pub struct SwitchMemo {
    entries: Box<[Entry]>,
}

impl Default for SwitchMemo {
    fn default() -> SwitchMemo {
        SwitchMemo {
            entries: vec![Entry::default(); ENTRIES].into_boxed_slice(),
        }
    }
}

impl SwitchMemo {
    fn slot(key: u64) -> usize {
        (key >> (64 - ENTRIES.trailing_zeros())) as usize
    }

    /// The stand pat's value at the board `key` for the player's `own`
    /// value (below `beta`), as the remembered scan tells it: the first
    /// switch that reaches `beta`, or after a full scan the best of the
    /// switches and `own`. `None` if the board was not scanned, or its scan
    /// stopped before reaching `beta`.
    pub fn answer(&self, key: u64, own: i32, beta: i32) -> Option<i32> {
        let entry = &self.entries[Self::slot(key)];
        if entry.key != key || key == 0 {
            return None;
        }
        let records = &entry.records[..usize::from(entry.len)];
        if let Some(&first) = records.iter().find(|&&value| i32::from(value) >= beta) {
            return Some(i32::from(first));
        }
        entry
            .complete
            .then(|| records.last().map_or(own, |&best| own.max(i32::from(best))))
    }

    /// Keeps what `scan` found at the board `key`; `complete` if it went
    /// over every move.
    pub fn remember(&mut self, key: u64, scan: &Scan, complete: bool) {
        if scan.overflowed || key == 0 {
            return;
        }
        let mut records = [0; RECORDS];
        records[..scan.records.len()].copy_from_slice(&scan.records);
        self.entries[Self::slot(key)] = Entry {
            key,
            records,
            len: scan.records.len() as u8,
            complete,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stand pat's own loop over switch values in scan order.
    fn scanned(values: &[i32], own: i32, beta: i32) -> i32 {
        let mut best = own;
        for &value in values {
            best = best.max(value);
            if best >= beta {
                return best;
            }
        }
        best
    }

    #[test]
    fn a_remembered_scan_answers_as_the_scan_would() {
        let values = [-300, -420, -120, -120, 40, -10, 260, 90];
        let mut scan = Scan::default();
        for &value in &values {
            scan.note(value);
        }
        let mut memo = SwitchMemo::default();
        let key = 0x1234_5678_9abc_def1;
        memo.remember(key, &scan, true);
        for own in [-500, -200, 0, 100] {
            for beta in (own + 1..400).step_by(7) {
                assert_eq!(
                    memo.answer(key, own, beta),
                    Some(scanned(&values, own, beta))
                );
            }
        }
        assert_eq!(memo.answer(key ^ 1, -200, 0), None);
    }

    #[test]
    fn a_stopped_scan_answers_only_at_or_below_its_last_record() {
        // Stopped at 40, the first switch at or above a beta of 30.
        let mut scan = Scan::default();
        for value in [-300, -120, 40] {
            scan.note(value);
        }
        let mut memo = SwitchMemo::default();
        let key = 77 << 50;
        memo.remember(key, &scan, false);
        assert_eq!(memo.answer(key, -200, 30), Some(40));
        assert_eq!(memo.answer(key, -200, -150), Some(-120));
        assert_eq!(memo.answer(key, -200, 41), None);
    }

    #[test]
    fn a_scan_with_too_many_records_is_not_kept() {
        let mut scan = Scan::default();
        for value in 0..=RECORDS as i32 {
            scan.note(value);
        }
        let mut memo = SwitchMemo::default();
        memo.remember(5 << 40, &scan, true);
        assert_eq!(memo.answer(5 << 40, -10, 1000), None);
    }
}
