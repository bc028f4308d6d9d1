//! The typed result of `contract check`: per route, per expectation, the outcome and evidence.
//!
//! Why typed and not free text: the JSON reporter writes exactly these structs and the terminal
//! reporter renders them, so a CI system and a person read the same facts.

use serde::{Deserialize, Serialize};

/// How one expectation compares with the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The page shows it as the contract says.
    Met,
    /// The page does not show it at all.
    Missing,
    /// The page shows something close, but not as the contract says.
    Different,
}

impl Outcome {
    /// The word the terminal reporter prints.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Met => "met",
            Outcome::Missing => "missing",
            Outcome::Different => "different",
        }
    }
}

/// One expectation's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectationResult {
    /// The expectation's id.
    pub id: String,
    /// What the contract expects, in one line (`button "Pay now" enabled`).
    pub expected: String,
    /// The outcome.
    pub outcome: Outcome,
    /// What was seen on the page (untrusted page text, in one line).
    pub seen: String,
    /// Where the contract's sources say it (`s1:10..17`).
    pub evidence: Vec<String>,
}

/// The results of one route.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RouteReport {
    /// The route's path.
    pub path: String,
    /// The URL that was loaded.
    pub url: String,
    /// Its expectations' results, in contract order.
    pub expectations: Vec<ExpectationResult>,
}

/// The whole reconciliation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContractReport {
    /// Always `a3s.test.contract-report/1`.
    pub format: String,
    /// The contract's id.
    pub contract: String,
    /// Per route.
    pub routes: Vec<RouteReport>,
    /// How many expectations were met.
    pub met: usize,
    /// How many were missing.
    pub missing: usize,
    /// How many were different.
    pub different: usize,
}

/// The `format` string of a contract report.
pub const REPORT_FORMAT: &str = "a3s.test.contract-report/1";

impl ContractReport {
    /// A report of `routes`, its counts computed.
    pub fn new(contract: &str, routes: Vec<RouteReport>) -> ContractReport {
        let count = |o: Outcome| {
            routes
                .iter()
                .flat_map(|r| &r.expectations)
                .filter(|e| e.outcome == o)
                .count()
        };
        ContractReport {
            format: REPORT_FORMAT.to_string(),
            contract: contract.to_string(),
            met: count(Outcome::Met),
            missing: count(Outcome::Missing),
            different: count(Outcome::Different),
            routes,
        }
    }

    /// True when every expectation was met.
    pub fn passed(&self) -> bool {
        self.missing == 0 && self.different == 0
    }

    /// The terminal rendering: one line per expectation, then the totals.
    pub fn render(&self) -> String {
        let mut out = format!("contract \"{}\"\n", self.contract);
        for route in &self.routes {
            out.push_str(&format!("  route {} ({})\n", route.path, route.url));
            for e in &route.expectations {
                let mark = match e.outcome {
                    Outcome::Met => "✓",
                    Outcome::Missing | Outcome::Different => "✗",
                };
                out.push_str(&format!(
                    "    {mark} {:<9} {} {}\n",
                    e.outcome.as_str(),
                    e.id,
                    e.expected
                ));
                if e.outcome != Outcome::Met {
                    out.push_str(&format!("        seen: {}\n", e.seen));
                    if !e.evidence.is_empty() {
                        out.push_str(&format!("        from: {}\n", e.evidence.join(", ")));
                    }
                }
            }
        }
        out.push_str(&format!(
            "{} met, {} missing, {} different\n",
            self.met, self.missing, self.different
        ));
        out
    }
}
