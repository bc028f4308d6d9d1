//! Colours as the browser computes them (`rgb(…)`, `rgba(…)`), composited and compared by the
//! WCAG 2 relative-luminance contrast ratio.
//!
//! Why its own module: the ratio is the one number contrast advice rests on, so its formula is
//! kept apart and tested against known pairs (black on white is 21:1).

/// A colour with straight (not premultiplied) alpha; channels 0..=255, alpha 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgba {
    /// Red.
    pub r: f64,
    /// Green.
    pub g: f64,
    /// Blue.
    pub b: f64,
    /// Opacity.
    pub a: f64,
}

/// Opaque white: what shows behind a page that paints no background.
pub const WHITE: Rgba = Rgba {
    r: 255.0,
    g: 255.0,
    b: 255.0,
    a: 1.0,
};

impl Rgba {
    /// Parse `rgb(r, g, b)`, `rgba(r, g, b, a)` or the space-separated `rgb(r g b / a)`;
    /// `None` for anything else (a keyword, `color(…)`).
    pub fn parse(text: &str) -> Option<Rgba> {
        let t = text.trim();
        let inner = t
            .strip_prefix("rgba(")
            .or_else(|| t.strip_prefix("rgb("))?
            .strip_suffix(')')?;
        let parts: Vec<&str> = inner
            .split(|c: char| c == ',' || c == '/' || c.is_whitespace())
            .filter(|p| !p.is_empty())
            .collect();
        let num = |p: &str| -> Option<f64> {
            let v = match p.strip_suffix('%') {
                Some(pct) => pct.parse::<f64>().ok()? / 100.0,
                None => p.parse::<f64>().ok()?,
            };
            v.is_finite().then_some(v)
        };
        let channel = |p: &str| -> Option<f64> {
            let v = if p.ends_with('%') {
                num(p)? * 255.0
            } else {
                num(p)?
            };
            Some(v.clamp(0.0, 255.0))
        };
        match parts.as_slice() {
            [r, g, b] => Some(Rgba {
                r: channel(r)?,
                g: channel(g)?,
                b: channel(b)?,
                a: 1.0,
            }),
            [r, g, b, a] => Some(Rgba {
                r: channel(r)?,
                g: channel(g)?,
                b: channel(b)?,
                a: num(a)?.clamp(0.0, 1.0),
            }),
            _ => None,
        }
    }

    /// True when nothing of it shows.
    pub fn is_transparent(self) -> bool {
        self.a <= 0.0
    }

    /// This colour painted over `under` (source-over).
    pub fn over(self, under: Rgba) -> Rgba {
        let a = self.a + under.a * (1.0 - self.a);
        if a <= 0.0 {
            return Rgba { a: 0.0, ..under };
        }
        let mix = |s: f64, u: f64| (s * self.a + u * under.a * (1.0 - self.a)) / a;
        Rgba {
            r: mix(self.r, under.r),
            g: mix(self.g, under.g),
            b: mix(self.b, under.b),
            a,
        }
    }

    /// WCAG 2 relative luminance of the opaque colour.
    pub fn luminance(self) -> f64 {
        let lin = |c: f64| {
            let s = c / 255.0;
            if s <= 0.04045 {
                s / 12.92
            } else {
                ((s + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(self.r) + 0.7152 * lin(self.g) + 0.0722 * lin(self.b)
    }

    /// `#rrggbb`, for messages.
    pub fn hex(self) -> String {
        let c = |v: f64| v.round().clamp(0.0, 255.0) as u8;
        format!("#{:02x}{:02x}{:02x}", c(self.r), c(self.g), c(self.b))
    }
}

/// The WCAG 2 contrast ratio of two opaque colours, 1..=21.
pub fn contrast(a: Rgba, b: Rgba) -> f64 {
    let (la, lb) = (a.luminance(), b.luminance());
    let (hi, lo) = if la >= lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_ratios() {
        let black = Rgba::parse("rgb(0, 0, 0)").unwrap();
        assert!((contrast(black, WHITE) - 21.0).abs() < 1e-9);
        assert!((contrast(WHITE, WHITE) - 1.0).abs() < 1e-9);
        // #767676 on white is the classic 4.54:1.
        let grey = Rgba::parse("rgb(118, 118, 118)").unwrap();
        assert!((contrast(grey, WHITE) - 4.54).abs() < 0.01);
    }

    #[test]
    fn forms_and_compositing() {
        let half = Rgba::parse("rgba(0, 0, 0, 0.5)").unwrap();
        assert_eq!(half.a, 0.5);
        assert_eq!(Rgba::parse("rgb(10 20 30 / 50%)").unwrap().a, 0.5);
        assert!(Rgba::parse("rgba(0, 0, 0, 0)").unwrap().is_transparent());
        assert_eq!(half.over(WHITE).hex(), "#808080");
        assert!(Rgba::parse("red").is_none());
        assert!(Rgba::parse("rgb(1, 2)").is_none());
    }
}
