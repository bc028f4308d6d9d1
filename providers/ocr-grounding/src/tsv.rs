//! Tesseract's `tsv` output read into typed words with their boxes.
//!
//! Why a parser of its own with a property test: the TSV is another program's output, read on
//! every request; a line that does not fit (a short row, a number that is not one, text holding
//! a tab) must be an error naming the line, never a panic or a silently shifted column. Only word
//! rows (level 5) with text become [`Word`]s; the page, block, paragraph and line rows carry no
//! text and are skipped once checked.

/// The header Tesseract writes first (its 12 column names).
pub const HEADER: [&str; 12] = [
    "level",
    "page_num",
    "block_num",
    "par_num",
    "line_num",
    "word_num",
    "left",
    "top",
    "width",
    "height",
    "conf",
    "text",
];

/// The `level` of a word row.
const WORD_LEVEL: u32 = 5;

/// One recognised word, in image pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// Which line it is on: `(page, block, paragraph, line)`, as Tesseract numbers them.
    pub line: (u32, u32, u32, u32),
    /// Its position on that line (1-based).
    pub index: u32,
    /// Left edge.
    pub left: u32,
    /// Top edge.
    pub top: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Tesseract's confidence, 0..100.
    pub confidence: f64,
    /// What it read.
    pub text: String,
}

/// Why the TSV could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TsvError {
    /// The first line is not Tesseract's TSV header.
    #[error("line 1 is not the TSV header of tesseract")]
    Header,
    /// A row has another number of columns than the header.
    #[error("line {line} has {found} columns, not 12")]
    Columns {
        /// 1-based line number.
        line: usize,
        /// How many it has.
        found: usize,
    },
    /// A numeric column does not hold a number of its kind.
    #[error("line {line}: column `{column}` is not a number ({value:?})")]
    Number {
        /// 1-based line number.
        line: usize,
        /// The column's header name.
        column: &'static str,
        /// What it holds (cut at 40 characters).
        value: String,
    },
}

/// The words of Tesseract's TSV `text`, in the order it wrote them.
pub fn parse(text: &str) -> Result<Vec<Word>, TsvError> {
    let mut lines = text.lines();
    let header = lines.next().ok_or(TsvError::Header)?;
    if !header.trim_end_matches('\r').split('\t').eq(HEADER) {
        return Err(TsvError::Header);
    }
    let mut words = Vec::new();
    for (i, row) in lines.enumerate() {
        let line = i + 2;
        let row = row.trim_end_matches('\r');
        if row.is_empty() {
            continue;
        }
        let cells: Vec<&str> = row.split('\t').collect();
        if cells.len() != HEADER.len() {
            return Err(TsvError::Columns {
                line,
                found: cells.len(),
            });
        }
        let int = |at: usize| -> Result<u32, TsvError> {
            cells[at]
                .trim()
                .parse::<u32>()
                .map_err(|_| TsvError::Number {
                    line,
                    column: HEADER[at],
                    value: cells[at].chars().take(40).collect(),
                })
        };
        let level = int(0)?;
        let numbers = (int(1)?, int(2)?, int(3)?, int(4)?, int(5)?);
        let (left, top, width, height) = (int(6)?, int(7)?, int(8)?, int(9)?);
        let confidence = cells[10]
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|c| c.is_finite())
            .ok_or_else(|| TsvError::Number {
                line,
                column: HEADER[10],
                value: cells[10].chars().take(40).collect(),
            })?;
        let text = cells[11].trim();
        if level != WORD_LEVEL || text.is_empty() || confidence < 0.0 {
            continue;
        }
        let (page, block, par, line_num, index) = numbers;
        words.push(Word {
            line: (page, block, par, line_num),
            index,
            left,
            top,
            width,
            height,
            confidence: confidence.min(100.0),
            text: text.to_string(),
        });
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
1\t1\t0\t0\t0\t0\t0\t0\t640\t480\t-1\t\n\
4\t1\t1\t1\t1\t0\t10\t20\t200\t30\t-1\t\n\
5\t1\t1\t1\t1\t1\t10\t20\t90\t30\t96.5\tPlace\n\
5\t1\t1\t1\t1\t2\t110\t20\t100\t30\t91\torder\n";

    #[test]
    fn word_rows_become_words_and_the_rest_is_skipped() {
        let words = parse(SAMPLE).unwrap();
        assert_eq!(words.len(), 2);
        assert_eq!(words[0].text, "Place");
        assert_eq!(words[0].line, (1, 1, 1, 1));
        assert_eq!((words[1].left, words[1].width), (110, 100));
        assert_eq!(words[1].confidence, 91.0);
    }

    #[test]
    fn a_bad_row_is_an_error_naming_its_line() {
        assert_eq!(parse("nope\n"), Err(TsvError::Header));
        assert_eq!(parse(""), Err(TsvError::Header));
        let short = format!("{}5\t1\t1\n", &SAMPLE[..SAMPLE.find('\n').unwrap() + 1]);
        assert_eq!(parse(&short), Err(TsvError::Columns { line: 2, found: 3 }));
        let bad = SAMPLE.replace("\t90\t", "\tninety\t");
        assert!(matches!(
            parse(&bad),
            Err(TsvError::Number {
                line: 4,
                column: "width",
                ..
            })
        ));
    }
}
