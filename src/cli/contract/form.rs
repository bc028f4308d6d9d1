//! The interactive review form (`contract review` with a terminal on standard input and no
//! decision flag): one question per candidate, then one choice and one rationale per conflict
//! still open.
//!
//! Why a pure core: [`Form`] only turns answers into [`Decisions`] — the same value the flags
//! build — so the terminal loop is a thin reader and every rule is unit-tested.

use super::render::describe;
use super::review::Decisions;
use a3s_test_provider::contract::CandidatesFile;
use std::io::{BufRead, Write};

/// What is asked next.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// Approve candidate `i`?
    Candidate(usize),
    /// Which candidate of conflict `i` is kept?
    Choose(usize),
    /// Why (for conflict `i`, keeping the candidate)?
    Rationale(usize, String),
    /// Nothing more.
    Done,
}

/// The form's state.
#[derive(Debug, Clone)]
pub struct Form<'a> {
    file: &'a CandidatesFile,
    step: Step,
    decisions: Decisions,
}

impl<'a> Form<'a> {
    /// A form over `file`.
    pub fn new(file: &'a CandidatesFile) -> Form<'a> {
        let mut form = Form {
            file,
            step: Step::Done,
            decisions: Decisions::default(),
        };
        form.step = if file.candidates.is_empty() {
            form.next_conflict(0)
        } else {
            Step::Candidate(0)
        };
        form
    }

    /// The question to show, or `None` when the form is complete.
    pub fn prompt(&self) -> Option<String> {
        match &self.step {
            Step::Candidate(i) => {
                let c = &self.file.candidates[*i];
                Some(format!(
                    "{} {} {} (confidence {:.2}) — approve? [Y/n] ",
                    c.id,
                    c.route,
                    describe(c),
                    c.confidence
                ))
            }
            Step::Choose(i) => {
                let k = &self.file.conflicts[*i];
                Some(format!(
                    "conflict {}: {} — keep which? [{}] ",
                    k.id,
                    k.reason,
                    k.candidates.join("/")
                ))
            }
            Step::Rationale(i, chosen) => Some(format!(
                "why keep {chosen} for {}? ",
                self.file.conflicts[*i].id
            )),
            Step::Done => None,
        }
    }

    /// Take one answer; an answer that does not fit the question is refused with why (the same
    /// question is asked again).
    pub fn answer(&mut self, line: &str) -> Result<(), String> {
        let line = line.trim();
        match self.step.clone() {
            Step::Candidate(i) => {
                let id = self.file.candidates[i].id.clone();
                match line.to_ascii_lowercase().as_str() {
                    "" | "y" | "yes" => self.decisions.approve.push(id),
                    "n" | "no" => self.decisions.reject.push(id),
                    _ => return Err("answer y or n".to_string()),
                }
                self.step = if i + 1 < self.file.candidates.len() {
                    Step::Candidate(i + 1)
                } else {
                    self.next_conflict(0)
                };
            }
            Step::Choose(i) => {
                if !self.file.conflicts[i].candidates.iter().any(|c| c == line) {
                    return Err(format!(
                        "answer one of {}",
                        self.file.conflicts[i].candidates.join(", ")
                    ));
                }
                self.step = Step::Rationale(i, line.to_string());
            }
            Step::Rationale(i, chosen) => {
                if line.is_empty() {
                    return Err("a choice needs a rationale".to_string());
                }
                self.decisions.choose.push((
                    self.file.conflicts[i].id.clone(),
                    chosen,
                    line.to_string(),
                ));
                self.step = self.next_conflict(i + 1);
            }
            Step::Done => return Err("the form is complete".to_string()),
        }
        Ok(())
    }

    /// The decisions so far.
    pub fn decisions(&self) -> &Decisions {
        &self.decisions
    }

    /// The first conflict from `from` with more than one approved candidate.
    fn next_conflict(&self, from: usize) -> Step {
        let approved = |id: &String| self.decisions.approve.contains(id);
        self.file
            .conflicts
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, k)| k.candidates.iter().filter(|c| approved(c)).count() > 1)
            .map_or(Step::Done, |(i, _)| Step::Choose(i))
    }
}

/// Ask the questions on the terminal; the decisions once every question is answered.
pub fn interactive(file: &CandidatesFile) -> std::io::Result<Decisions> {
    print!("{}", super::render::summary(file));
    let mut form = Form::new(file);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    while let Some(prompt) = form.prompt() {
        write!(out, "{prompt}")?;
        out.flush()?;
        let Some(line) = lines.next() else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "standard input closed before the form was complete",
            ));
        };
        if let Err(why) = form.answer(&line?) {
            writeln!(out, "  {why}")?;
        }
    }
    Ok(form.decisions().clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use a3s_test_provider::contract::{
        Candidate, Conflict, Evidence, Expectation, CANDIDATES_FORMAT,
    };

    fn file() -> CandidatesFile {
        let c = |id: &str, name: &str| Candidate {
            id: id.into(),
            route: "/pay".into(),
            expectation: Expectation::Element {
                role: "button".into(),
                name: name.into(),
                state: None,
            },
            confidence: 0.8,
            evidence: vec![Evidence::Span {
                source: "s1".into(),
                start: 0,
                end: 1,
                quote: "x".into(),
            }],
        };
        CandidatesFile {
            format: CANDIDATES_FORMAT.into(),
            provider: "p".into(),
            model: "m".into(),
            sources: Vec::new(),
            candidates: vec![c("c1", "Pay"), c("c2", "Pay now"), c("c3", "Back")],
            conflicts: vec![Conflict {
                id: "k1".into(),
                candidates: vec!["c1".into(), "c2".into()],
                reason: "two names".into(),
            }],
            open_decisions: Vec::new(),
        }
    }

    #[test]
    fn approving_both_sides_of_a_conflict_asks_for_a_choice_and_a_rationale() {
        let file = file();
        let mut form = Form::new(&file);
        for answer in ["", "y", "n"] {
            form.answer(answer).expect("accepted");
        }
        assert!(form.prompt().expect("a choice").starts_with("conflict k1"));
        assert!(
            form.answer("c9").is_err(),
            "not a candidate of the conflict"
        );
        form.answer("c2").expect("a candidate");
        assert!(form.answer("  ").is_err(), "a rationale is required");
        form.answer("the PRD's button list").expect("a rationale");
        assert_eq!(form.prompt(), None);
        let d = form.decisions();
        assert_eq!(d.approve, ["c1", "c2"]);
        assert_eq!(d.reject, ["c3"]);
        assert_eq!(
            d.choose,
            [(
                "k1".to_string(),
                "c2".to_string(),
                "the PRD's button list".to_string()
            )]
        );
    }

    #[test]
    fn rejecting_one_side_settles_the_conflict_without_a_question() {
        let file = file();
        let mut form = Form::new(&file);
        for answer in ["y", "no", "yes"] {
            form.answer(answer).expect("accepted");
        }
        assert_eq!(form.prompt(), None);
        assert!(form.answer("y").is_err());
        assert!(Form::new(&file).answer("maybe").is_err());
    }
}
