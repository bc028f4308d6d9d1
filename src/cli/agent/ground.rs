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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::ground::{Authority, Image, Place, Timing};
    use a3s_test_lang::ir::Target;
    use a3s_test_provider::grounding::{GroundingBox, GroundingTrigger, Usage};
    use a3s_test_runner::session::ground::GroundHit;

    fn grounded(outcome: Outcome, hits: &[Option<&str>]) -> Grounded {
        let places = hits
            .iter()
            .enumerate()
            .map(|(i, hit)| Place {
                image_box: GroundingBox {
                    x: 47.0,
                    y: 47.0 + 90.0 * i as f64,
                    width: 163.0,
                    height: 27.0,
                    confidence: 0.96,
                    text: Some("Checkout".into()),
                },
                centre_css: (128.5, 60.5 + 90.0 * i as f64),
                hit: hit.map(|r| GroundHit {
                    reference: r.into(),
                    role: "button".into(),
                    name: String::new(),
                    locator: Some(Target::TestId {
                        test_id: "checkout".into(),
                    }),
                }),
            })
            .collect();
        let located = outcome == Outcome::Located;
        Grounded {
            session: "s".into(),
            authority: Authority::Advisory,
            observation: 3,
            query: "Checkout".into(),
            trigger: GroundingTrigger::Canvas,
            provider: "ocr".into(),
            model: "tesseract".into(),
            outcome,
            reference: located.then(|| "@c1".into()),
            locator: located.then(|| r#"testid("checkout")"#.into()),
            places,
            image: Image {
                sha256: "ab".repeat(32),
                width: 1280,
                height: 720,
                scale: 1.0,
            },
            proof: None,
            usage: Usage {
                input_units: 1,
                output_units: 1,
            },
            cost_microusd: 0,
            timing: Timing {
                capture_ms: 1,
                provider_ms: 2,
                map_ms: 3,
                total_ms: 6,
            },
            next: "a3s-test agent inspect --session s".into(),
        }
    }

    #[test]
    fn every_outcome_prints_as_advice_with_its_places() {
        let text = [
            human(&grounded(Outcome::Located, &[Some("@c1")])),
            human(&grounded(Outcome::Ambiguous, &[Some("@c2"), Some("@c3")])),
            human(&grounded(Outcome::ImageBound, &[None])),
            human(&grounded(Outcome::NotFound, &[])),
        ]
        .join("\n");
        insta::assert_snapshot!(text);
    }
}
