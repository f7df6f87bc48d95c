//! Test-suite lines in the EPD manner: `<fen> ;<opcode> <operand> ;…`.

/// One position line of a suite file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdLine {
    /// The line's number in its file, counting from 1.
    pub number: usize,
    pub fen: String,
    /// The operations after the FEN, each an opcode and the rest of its field.
    pub operations: Vec<(String, String)>,
}

impl EpdLine {
    /// The operand of the first operation named `opcode`.
    pub fn operand(&self, opcode: &str) -> Option<&str> {
        self.operations
            .iter()
            .find(|(name, _)| name == opcode)
            .map(|(_, operand)| operand.as_str())
    }
}

/// The FEN at the head of an EPD line (the part before any `;`): its four
/// fields, and the two move counters when both follow; whatever comes
/// after (EPD operations such as `bm`) is left out.
///
/// ```
/// use catena::tools::epd::fen_of;
/// assert_eq!(fen_of("8/8/8/8/8/8/8/K1k5 w - - 3 40 extra"), "8/8/8/8/8/8/8/K1k5 w - - 3 40");
/// assert_eq!(fen_of("8/8/8/8/8/8/8/K1k5 w - - bm Kb2"), "8/8/8/8/8/8/8/K1k5 w - -");
/// ```
pub fn fen_of(head: &str) -> String {
    let words: Vec<&str> = head.split_whitespace().collect();
    let counters = words
        .get(4..6)
        .is_some_and(|counters| counters.iter().all(|word| word.parse::<u32>().is_ok()));
    words[..words.len().min(if counters { 6 } else { 4 })].join(" ")
}

/// The position lines of a suite's text, skipping blank lines and `#` comments.
///
/// ```
/// use catena::tools::epd::parse_suite;
/// let lines = parse_suite("# start\n\n8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3 ;D2 19\n");
/// assert_eq!(lines[0].number, 3);
/// assert_eq!(lines[0].fen, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
/// assert_eq!(lines[0].operand("D2"), Some("19"));
/// ```
pub fn parse_suite(text: &str) -> Vec<EpdLine> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(index, line)| {
            let mut fields = line.split(';');
            let fen = fields.next().unwrap_or_default().trim().to_string();
            let operations = fields
                .map(str::trim)
                .filter(|field| !field.is_empty())
                .map(|field| match field.split_once(char::is_whitespace) {
                    Some((opcode, operand)) => (opcode.to_string(), operand.trim().to_string()),
                    None => (field.to_string(), String::new()),
                })
                .collect();
            EpdLine {
                number: index + 1,
                fen,
                operations,
            }
        })
        .collect()
}
