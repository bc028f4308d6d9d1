//! `a3s-test contract review CANDIDATES --out contract.acl` with `--approve ID`, `--reject ID`,
//! `--approve-all`, `--choose CONFLICT=ID --rationale TEXT`, or the interactive form when
//! standard input is a terminal and no decision flag is given.
//!
//! The sources are hashed again first (a changed one refuses the review), the candidates file is
//! checked again (spans, references), every conflict must be settled, and only then is the
//! contract rendered, admitted by `lang` and written atomically.

use super::render;
use super::sources;
use super::{refuse, Exit};
use a3s_test_provider::contract::{
    Candidate, CandidatesFile, ContractCode, ContractError, Expectation,
};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `contract review`.
#[derive(Debug, clap::Args)]
pub struct ReviewArgs {
    /// The candidates file `contract generate` wrote.
    candidates: PathBuf,
    /// Where to write the contract.
    #[arg(long)]
    out: PathBuf,
    /// Approve a candidate (repeatable).
    #[arg(long = "approve", value_name = "ID")]
    approve: Vec<String>,
    /// Reject a candidate (repeatable).
    #[arg(long = "reject", value_name = "ID")]
    reject: Vec<String>,
    /// Approve every candidate not rejected.
    #[arg(long)]
    approve_all: bool,
    /// Settle a conflict by keeping one of its candidates (repeatable; each with a `--rationale`).
    #[arg(long = "choose", value_name = "CONFLICT=ID", value_parser = choice)]
    choose: Vec<(String, String)>,
    /// Why, for the `--choose` at the same position.
    #[arg(long = "rationale", value_name = "TEXT")]
    rationale: Vec<String>,
    /// The contract's id (default: `contract`).
    #[arg(long, default_value = "contract")]
    id: String,
}

fn choice(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((c, id)) if !c.is_empty() && !id.is_empty() => Ok((c.to_string(), id.to_string())),
        _ => Err("write CONFLICT=CANDIDATE, e.g. k1=c2".to_string()),
    }
}

/// What the reviewer decided.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decisions {
    /// Approve every candidate not rejected.
    pub approve_all: bool,
    /// Approved ids.
    pub approve: Vec<String>,
    /// Rejected ids.
    pub reject: Vec<String>,
    /// `(conflict, chosen, rationale)`.
    pub choose: Vec<(String, String, String)>,
}

/// A conflict as settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    /// The conflict's id.
    pub conflict: String,
    /// The candidate kept.
    pub chosen: String,
    /// The candidates set aside.
    pub over: Vec<String>,
    /// Why.
    pub rationale: String,
}

/// The review's result: what goes into the contract.
#[derive(Debug, Clone)]
pub struct Reviewed<'a> {
    /// Approved candidates, in file order.
    pub approved: Vec<&'a Candidate>,
    /// Every candidate not approved (rejected, set aside by a choice, or not decided).
    pub rejected: Vec<String>,
    /// The settled conflicts.
    pub settled: Vec<Settled>,
}

/// Apply `d` to `file`: unknown ids, open conflicts and an empty result are refused.
pub fn decide<'a>(file: &'a CandidatesFile, d: &Decisions) -> Result<Reviewed<'a>, ContractError> {
    let known = |id: &str| file.candidates.iter().any(|c| c.id == id);
    let unknown = |what: &str, id: &str| {
        ContractError::new(
            ContractCode::UnknownId,
            format!("{what} \"{id}\" is not in the candidates file"),
        )
    };
    for id in d.approve.iter().chain(&d.reject) {
        if !known(id) {
            return Err(unknown("candidate", id));
        }
    }
    if let Some(id) = d.approve.iter().find(|id| d.reject.contains(id)) {
        return Err(ContractError::new(
            ContractCode::UnknownId,
            format!("candidate \"{id}\" is both approved and rejected"),
        ));
    }
    let mut approved: BTreeSet<&str> = if d.approve_all {
        file.candidates.iter().map(|c| c.id.as_str()).collect()
    } else {
        d.approve.iter().map(String::as_str).collect()
    };
    for id in &d.reject {
        approved.remove(id.as_str());
    }
    let mut settled = Vec::new();
    let mut chosen_conflicts = BTreeSet::new();
    for (conflict, chosen, rationale) in &d.choose {
        let Some(k) = file.conflicts.iter().find(|k| &k.id == conflict) else {
            return Err(unknown("conflict", conflict));
        };
        if !chosen_conflicts.insert(conflict.as_str()) {
            return Err(ContractError::new(
                ContractCode::UnknownId,
                format!("conflict \"{conflict}\" is chosen twice"),
            ));
        }
        if !k.candidates.contains(chosen) {
            return Err(ContractError::new(
                ContractCode::UnknownId,
                format!(
                    "conflict \"{conflict}\" is between {}; \"{chosen}\" is not one of them",
                    k.candidates.join(", ")
                ),
            ));
        }
        if rationale.trim().is_empty() {
            return Err(ContractError::new(
                ContractCode::UnresolvedConflict,
                format!("the choice for conflict \"{conflict}\" has no rationale"),
            ));
        }
        let over: Vec<String> = k
            .candidates
            .iter()
            .filter(|c| *c != chosen)
            .cloned()
            .collect();
        for o in &over {
            approved.remove(o.as_str());
        }
        approved.insert(chosen);
        settled.push(Settled {
            conflict: conflict.clone(),
            chosen: chosen.clone(),
            over,
            rationale: rationale.clone(),
        });
    }
    let open: Vec<&str> = file
        .conflicts
        .iter()
        .filter(|k| !chosen_conflicts.contains(k.id.as_str()))
        .filter(|k| {
            k.candidates
                .iter()
                .filter(|c| approved.contains(c.as_str()))
                .count()
                > 1
        })
        .map(|k| k.id.as_str())
        .collect();
    if !open.is_empty() {
        return Err(ContractError::new(
            ContractCode::UnresolvedConflict,
            format!(
                "conflict {} is not settled, so no contract is written",
                open.join(", ")
            ),
        ));
    }
    // A layout relation stands only with both of its elements.
    loop {
        let orphan = file.candidates.iter().find(|c| {
            approved.contains(c.id.as_str())
                && matches!(&c.expectation, Expectation::Layout { subject, object, .. }
                    if !approved.contains(subject.as_str()) || !approved.contains(object.as_str()))
        });
        match orphan {
            Some(c) => {
                approved.remove(c.id.as_str());
            }
            None => break,
        }
    }
    let list: Vec<&Candidate> = file
        .candidates
        .iter()
        .filter(|c| approved.contains(c.id.as_str()))
        .collect();
    if list.is_empty() {
        return Err(ContractError::new(
            ContractCode::NothingApproved,
            "no candidate is approved",
        ));
    }
    let rejected = file
        .candidates
        .iter()
        .filter(|c| !approved.contains(c.id.as_str()))
        .map(|c| c.id.clone())
        .collect();
    Ok(Reviewed {
        approved: list,
        rejected,
        settled,
    })
}

/// Run `contract review`.
pub fn run(args: ReviewArgs) -> ExitCode {
    let bytes = match read_bounded(&args.candidates) {
        Ok(b) => b,
        Err(e) => return refuse(&e, Exit::InvalidInput),
    };
    let file = match CandidatesFile::parse(&bytes) {
        Ok(f) => f,
        Err(e) => return refuse(&e, Exit::InvalidInput),
    };
    let dir = args
        .candidates
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut texts: Vec<(String, String)> = Vec::new();
    for s in &file.sources {
        let path = dir.join(&s.path);
        let now = match sources::read(&path) {
            Ok(now) => now,
            Err(e) => return refuse(&e, Exit::InvalidInput),
        };
        if now.sha256 != s.sha256 {
            let e = ContractError::new(
                ContractCode::SourceChanged,
                format!(
                    "{} is {} now; the candidates were made from {}",
                    s.path, now.sha256, s.sha256
                ),
            );
            return refuse(&e, Exit::InvalidInput);
        }
        if let Some(text) = now.text() {
            texts.push((s.id.clone(), text.to_string()));
        }
    }
    let views: Vec<(&str, &str)> = texts
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    if let Err(e) = file.verify(&views) {
        return refuse(&e, Exit::InvalidInput);
    }
    if args.choose.len() != args.rationale.len() {
        let e = ContractError::new(
            ContractCode::UnresolvedConflict,
            format!(
                "{} --choose and {} --rationale were given; each choice needs its rationale",
                args.choose.len(),
                args.rationale.len()
            ),
        );
        return refuse(&e, Exit::InvalidInput);
    }
    let flags = !args.approve.is_empty()
        || !args.reject.is_empty()
        || args.approve_all
        || !args.choose.is_empty();
    let decisions = if flags {
        Decisions {
            approve_all: args.approve_all,
            approve: args.approve,
            reject: args.reject,
            choose: args
                .choose
                .into_iter()
                .zip(args.rationale)
                .map(|((k, c), r)| (k, c, r))
                .collect(),
        }
    } else if std::io::stdin().is_terminal() {
        match super::form::interactive(&file) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("error: the review form stopped: {e}");
                return Exit::InvalidInput.into();
            }
        }
    } else {
        print!("{}", render::summary(&file));
        let e = ContractError::new(
            ContractCode::NothingApproved,
            "no decision flag was given and standard input is not a terminal",
        );
        return refuse(&e, Exit::InvalidInput);
    };
    let reviewed = match decide(&file, &decisions) {
        Ok(r) => r,
        Err(e) => return refuse(&e, Exit::InvalidInput),
    };
    let digest = sources::hex(&Sha256::digest(&bytes));
    let text = render::contract_acl(&args.id, &file, &reviewed, &digest);
    let admission = a3s_test_lang::admit(&text);
    if !matches!(
        admission.document,
        Some(a3s_test_lang::ir::AdmittedDocument::Contract(_))
    ) {
        let shown: Vec<String> = admission
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect();
        let e = ContractError::new(
            ContractCode::NotAContract,
            format!("the contract would not be admitted: {}", shown.join("; ")),
        );
        return refuse(&e, Exit::InvalidInput);
    }
    if let Err(e) = a3s_test_driver::atomic::write_atomic(
        &args.out,
        text.as_bytes(),
        ".contract-",
        a3s_test_driver::atomic::Permissions::Mode(0o644),
    ) {
        let e = ContractError::new(ContractCode::Output, format!("{}: {e}", args.out.display()));
        return refuse(&e, Exit::Failed);
    }
    println!(
        "wrote {}: {} approved, {} not approved, {} conflict(s) settled",
        args.out.display(),
        reviewed.approved.len(),
        reviewed.rejected.len(),
        reviewed.settled.len()
    );
    Exit::Success.into()
}

fn read_bounded(path: &Path) -> Result<Vec<u8>, ContractError> {
    use std::io::Read;
    let bad = |m: String| ContractError::new(ContractCode::CandidatesFile, m);
    let file = std::fs::File::open(path).map_err(|e| bad(format!("{}: {e}", path.display())))?;
    let mut bytes = Vec::new();
    let max = a3s_test_provider::contract::file::MAX_FILE_BYTES as u64;
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(format!("{}: {e}", path.display())))?;
    if bytes.len() as u64 > max {
        return Err(bad(format!(
            "{} is larger than {max} bytes",
            path.display()
        )));
    }
    Ok(bytes)
}
