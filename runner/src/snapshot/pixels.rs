//! Pixel comparison of two screenshots: pure functions, no I/O.
//!
//! The colour distance is the perceptual one pixelmatch published (Kotsarenko & Ramos, "Measuring
//! perceived color difference using YIQ NTSC transmission color space in mobile applications",
//! 2010): each pixel is blended onto white by its alpha, converted to YIQ, and the weighted
//! squared distance `0.5053·ΔY² + 0.299·ΔI² + 0.1957·ΔQ²` is compared with
//! `35215 · threshold²` (35215 is the largest distance two colours can be apart), so
//! `threshold` reads as a fraction of the whole range (0.2 by default, as Playwright uses).
//!
//! Anti-aliasing tolerance, after the same paper's neighbour rule (Vysniauskas, "Anti-aliased
//! pixel and intensity slope detector", 2009): a differing pixel is anti-aliasing, not a
//! difference, when among its 8 neighbours in one image the brightness both rises and falls,
//! no more than two neighbours equal it, and the darkest or the brightest neighbour sits in a
//! flat area (3+ identical neighbours) in both images — the signature of an edge drawn a
//! sub-pixel apart. Such pixels are drawn yellow in the diff and not counted.
//!
//! Why written here: the rule is a few dozen lines of arithmetic, and owning it keeps the
//! comparison's cost and its diff image in one place (`docs/benchmarks.md`).

use thiserror::Error;

/// An RGBA image, 8 bits per channel, rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rgba {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub pixels: Vec<u8>,
}

/// Why bytes are not an image this comparison reads.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum DecodeError {
    /// Not a PNG, or a broken one.
    #[error("not a PNG image: {0}")]
    NotPng(String),
    /// A PNG too large to compare (more than [`MAX_PIXELS`] pixels).
    #[error("the image is {0}×{1} pixels, over the {MAX_PIXELS}-pixel limit")]
    TooLarge(u32, u32),
}

/// Largest image compared: 16,384 × 16,384.
pub const MAX_PIXELS: u64 = 16_384 * 16_384;

/// Largest perceptual distance two colours can be apart.
const MAX_DELTA: f64 = 35_215.0;

/// Decode a PNG of any colour type into RGBA.
pub fn decode_png(bytes: &[u8]) -> Result<Rgba, DecodeError> {
    let bad = |e: png::DecodingError| DecodeError::NotPng(e.to_string());
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(bad)?;
    let (width, height) = (reader.info().width, reader.info().height);
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(DecodeError::TooLarge(width, height));
    }
    let size = reader
        .output_buffer_size()
        .ok_or(DecodeError::TooLarge(width, height))?;
    let mut buf = vec![0u8; size];
    let info = reader.next_frame(&mut buf).map_err(bad)?;
    let stride = info.line_size;
    let (w, h) = (info.width as usize, info.height as usize);
    let channels = match info.color_type {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Grayscale => 1,
        png::ColorType::Indexed => {
            return Err(DecodeError::NotPng(
                "an indexed image after expansion".into(),
            ))
        }
    };
    if channels == 4 && stride == w * 4 {
        buf.truncate(w * h * 4);
        return Ok(Rgba {
            width: info.width,
            height: info.height,
            pixels: buf,
        });
    }
    let mut pixels = Vec::with_capacity(w * h * 4);
    for row in buf.chunks(stride).take(h) {
        for px in row[..w * channels].chunks_exact(channels) {
            pixels.extend_from_slice(&match channels {
                4 => [px[0], px[1], px[2], px[3]],
                3 => [px[0], px[1], px[2], 255],
                2 => [px[0], px[0], px[0], px[1]],
                _ => [px[0], px[0], px[0], 255],
            });
        }
    }
    Ok(Rgba {
        width: info.width,
        height: info.height,
        pixels,
    })
}

/// Encode an RGBA image as PNG (fast compression: evidence, not an archive).
pub fn encode_png(image: &Rgba) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    // Writing into a Vec of an image whose size matches its buffer cannot fail.
    if let Ok(mut writer) = encoder.write_header() {
        let _ = writer.write_image_data(&image.pixels);
        let _ = writer.finish();
    }
    out
}

/// What comparing two images found.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Pixels over the threshold that are not anti-aliasing (every pixel when sizes differ).
    pub diff_pixels: u64,
    /// Pixels over the threshold taken for anti-aliasing (not counted).
    pub anti_aliased: u64,
    /// All pixels compared (of the larger image when sizes differ).
    pub total_pixels: u64,
    /// The sizes, when they differ: (expected, actual).
    pub size_mismatch: Option<((u32, u32), (u32, u32))>,
    /// The diff image: unchanged pixels faded grey, differences red, anti-aliasing yellow.
    pub diff: Rgba,
}

impl Comparison {
    /// `diff_pixels / total_pixels`.
    pub fn ratio(&self) -> f64 {
        if self.total_pixels == 0 {
            0.0
        } else {
            self.diff_pixels as f64 / self.total_pixels as f64
        }
    }
}

/// Compare `expected` with `actual` at perceptual `threshold` (0–1).
pub fn compare(expected: &Rgba, actual: &Rgba, threshold: f64) -> Comparison {
    if (expected.width, expected.height) != (actual.width, actual.height) {
        return size_mismatch(expected, actual);
    }
    let (w, h) = (expected.width as usize, expected.height as usize);
    let max_delta = MAX_DELTA * threshold * threshold;
    let mut diff = vec![0u8; w * h * 4];
    let (mut diff_pixels, mut anti_aliased) = (0u64, 0u64);
    let a = &expected.pixels;
    let b = &actual.pixels;
    for y in 0..h {
        for x in 0..w {
            let i = (y * w + x) * 4;
            let out = &mut diff[i..i + 4];
            if a[i..i + 4] == b[i..i + 4] {
                out.copy_from_slice(&faded(&a[i..i + 4]));
                continue;
            }
            let delta = colour_delta(&a[i..i + 4], &b[i..i + 4], false);
            if delta.abs() <= max_delta {
                out.copy_from_slice(&faded(&a[i..i + 4]));
            } else if anti_aliasing(a, b, x, y, w, h) || anti_aliasing(b, a, x, y, w, h) {
                anti_aliased += 1;
                out.copy_from_slice(&[255, 255, 0, 255]);
            } else {
                diff_pixels += 1;
                out.copy_from_slice(&[255, 0, 0, 255]);
            }
        }
    }
    Comparison {
        diff_pixels,
        anti_aliased,
        total_pixels: (w * h) as u64,
        size_mismatch: None,
        diff: Rgba {
            width: expected.width,
            height: expected.height,
            pixels: diff,
        },
    }
}

/// Images of different sizes: every pixel of the larger frame differs, the diff paints the
/// expected image faded and the rest red.
fn size_mismatch(expected: &Rgba, actual: &Rgba) -> Comparison {
    let (w, h) = (
        expected.width.max(actual.width) as usize,
        expected.height.max(actual.height) as usize,
    );
    let mut pixels = vec![0u8; w * h * 4];
    for y in 0..h {
        for x in 0..w {
            let i = (y * w + x) * 4;
            let px = if x < expected.width as usize && y < expected.height as usize {
                let j = (y * expected.width as usize + x) * 4;
                let mut p = faded(&expected.pixels[j..j + 4]);
                p[0] = 255;
                p
            } else {
                [255, 0, 0, 255]
            };
            pixels[i..i + 4].copy_from_slice(&px);
        }
    }
    Comparison {
        diff_pixels: (w * h) as u64,
        anti_aliased: 0,
        total_pixels: (w * h) as u64,
        size_mismatch: Some((
            (expected.width, expected.height),
            (actual.width, actual.height),
        )),
        diff: Rgba {
            width: w as u32,
            height: h as u32,
            pixels,
        },
    }
}

/// An unchanged pixel in the diff: its brightness at 10 % over white.
fn faded(px: &[u8]) -> [u8; 4] {
    let (r, g, b) = blend(px);
    let y = luma(r, g, b);
    let v = (255.0 + (y - 255.0) * 0.1).clamp(0.0, 255.0) as u8;
    [v, v, v, 255]
}

/// The pixel blended onto white by its alpha.
fn blend(px: &[u8]) -> (f64, f64, f64) {
    let a = f64::from(px[3]) / 255.0;
    let c = |v: u8| 255.0 + (f64::from(v) - 255.0) * a;
    (c(px[0]), c(px[1]), c(px[2]))
}

fn luma(r: f64, g: f64, b: f64) -> f64 {
    r * 0.298_895_31 + g * 0.586_622_47 + b * 0.114_482_23
}

fn in_phase(r: f64, g: f64, b: f64) -> f64 {
    r * 0.595_977_99 - g * 0.274_176_10 - b * 0.321_801_89
}

fn quadrature(r: f64, g: f64, b: f64) -> f64 {
    r * 0.211_470_17 - g * 0.522_617_11 + b * 0.311_146_94
}

/// The perceptual distance of two pixels, negative when the second is brighter; only the
/// brightness difference when `brightness_only`.
fn colour_delta(p: &[u8], q: &[u8], brightness_only: bool) -> f64 {
    let (r1, g1, b1) = blend(p);
    let (r2, g2, b2) = blend(q);
    let (y1, y2) = (luma(r1, g1, b1), luma(r2, g2, b2));
    let dy = y1 - y2;
    if brightness_only {
        return dy;
    }
    let di = in_phase(r1, g1, b1) - in_phase(r2, g2, b2);
    let dq = quadrature(r1, g1, b1) - quadrature(r2, g2, b2);
    let delta = 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq;
    if y1 > y2 {
        -delta
    } else {
        delta
    }
}

/// Whether pixel (`x`, `y`) of `img` looks like anti-aliasing of an edge also in `other`.
fn anti_aliasing(img: &[u8], other: &[u8], x: usize, y: usize, w: usize, h: usize) -> bool {
    let (x0, y0) = (x.saturating_sub(1), y.saturating_sub(1));
    let (x1, y1) = ((x + 1).min(w - 1), (y + 1).min(h - 1));
    let at = |x: usize, y: usize| (y * w + x) * 4;
    let me = &img[at(x, y)..at(x, y) + 4];
    let mut equal = usize::from(x == x0 || x == x1 || y == y0 || y == y1);
    let (mut darkest, mut brightest) = (0.0f64, 0.0f64);
    let (mut dark_at, mut bright_at) = ((0, 0), (0, 0));
    for ny in y0..=y1 {
        for nx in x0..=x1 {
            if (nx, ny) == (x, y) {
                continue;
            }
            let delta = colour_delta(me, &img[at(nx, ny)..at(nx, ny) + 4], true);
            if delta == 0.0 {
                equal += 1;
                if equal > 2 {
                    return false;
                }
            } else if delta < darkest {
                darkest = delta;
                dark_at = (nx, ny);
            } else if delta > brightest {
                brightest = delta;
                bright_at = (nx, ny);
            }
        }
    }
    if darkest == 0.0 || brightest == 0.0 {
        return false;
    }
    let flat = |(x, y): (usize, usize)| flat_area(img, x, y, w, h) && flat_area(other, x, y, w, h);
    flat(dark_at) || flat(bright_at)
}

/// Whether pixel (`x`, `y`) has at least 3 neighbours identical to it (edges count as one).
fn flat_area(img: &[u8], x: usize, y: usize, w: usize, h: usize) -> bool {
    let (x0, y0) = (x.saturating_sub(1), y.saturating_sub(1));
    let (x1, y1) = ((x + 1).min(w - 1), (y + 1).min(h - 1));
    let at = |x: usize, y: usize| (y * w + x) * 4;
    let me = &img[at(x, y)..at(x, y) + 4];
    let mut equal = usize::from(x == x0 || x == x1 || y == y0 || y == y1);
    for ny in y0..=y1 {
        for nx in x0..=x1 {
            if (nx, ny) != (x, y) && img[at(nx, ny)..at(nx, ny) + 4] == *me {
                equal += 1;
                if equal > 2 {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests;
