//! How `agent ground` prints its answer without `--json`: the outcome first (and the ref when
//! the page proved one), then each place the provider named, labelled as advice.

use crate::ops::ground::{Grounded, Outcome};

/// The human form of a grounding answer.
pub fn human(g: &Grounded) -> String {
    let outcome = match (g.outcome, &g.reference) {
        (Outcome::Located, Some(r)) => match &g.locator {
            Some(l) => format!("located: {r} ({l})"),
            None => format!("located: {r}"),
        },
        (Outcome::Ambiguous, _) => {
            "ambiguous: the places are on several nodes or outside them; no ref".into()
        }
        (Outcome::ImageBound, _) => {
            "image-bound: no Test Kit node is there; the boxes are advice in image pixels".into()
        }
        _ => "not found: the provider found the query nowhere on the screenshot".into(),
    };
    let mut out = format!(
        "grounding (advisory) of {:?} on observation {} by {} ({}): {outcome}\n",
        g.query, g.observation, g.provider, g.model
    );
    for (i, p) in g.places.iter().enumerate() {
        let b = &p.image_box;
        let on = match &p.hit {
            Some(h) => format!("on {} {} {:?}", h.reference, h.role, h.name),
            None => "on no Test Kit node".into(),
        };
        out.push_str(&format!(
            "  {}. image px {}×{} at ({}, {}), confidence {:.2}{}: {on}\n",
            i + 1,
            b.width,
            b.height,
            b.x,
            b.y,
            b.confidence,
            b.text
                .as_deref()
                .map(|t| format!(", read {t:?} (untrusted)"))
                .unwrap_or_default(),
        ));
    }
    out.push_str(&format!("next: {}\n", g.next));
    out
}
