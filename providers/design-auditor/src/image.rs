//! The screenshot the request carries: its digest checked, decoded once, and sampled where the
//! Page Context paints no opaque background (text over an image or a gradient).
//!
//! Why: computed styles say what a node paints, not what shows behind it; the pixels do. A
//! sample is the median colour of a thin ring just outside the text's box, in device pixels.

use crate::colour::Rgba;
use base64::Engine;
use sha2::{Digest, Sha256};

/// Largest decoded image the auditor reads (pixels); a bigger one is refused.
pub const MAX_PIXELS: u64 = 8192 * 8192;

/// A decoded RGBA8 image.
pub struct Image {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

/// Why the screenshot cannot be used.
#[derive(Debug, PartialEq, Eq)]
pub enum ImageError {
    /// `png_base64` is not base64.
    Base64,
    /// The bytes' SHA-256 is not the request's `sha256`.
    Digest,
    /// Not a PNG this reader can decode, or larger than [`MAX_PIXELS`].
    Png(String),
}

impl std::fmt::Display for ImageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImageError::Base64 => write!(f, "png_base64 is not standard base64"),
            ImageError::Digest => write!(f, "the screenshot's SHA-256 is not its sha256"),
            ImageError::Png(m) => write!(f, "the screenshot is not a usable PNG: {m}"),
        }
    }
}

impl Image {
    /// Decode `png_base64` after checking that its bytes hash to `sha256`.
    pub fn decode(png_base64: &str, sha256: &str) -> Result<Image, ImageError> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(png_base64)
            .map_err(|_| ImageError::Base64)?;
        let digest = Sha256::digest(&bytes);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        if !hex.eq_ignore_ascii_case(sha256) {
            return Err(ImageError::Digest);
        }
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder
            .read_info()
            .map_err(|e| ImageError::Png(e.to_string()))?;
        let info = reader.info();
        if u64::from(info.width) * u64::from(info.height) > MAX_PIXELS {
            return Err(ImageError::Png("larger than 8192×8192".into()));
        }
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| ImageError::Png("no output size".into()))?;
        let mut buf = vec![0; size];
        let frame = reader
            .next_frame(&mut buf)
            .map_err(|e| ImageError::Png(e.to_string()))?;
        let (width, height) = (frame.width, frame.height);
        let px = (width * height) as usize;
        let rgba = match frame.color_type {
            png::ColorType::Rgba => buf[..px * 4].to_vec(),
            png::ColorType::Rgb => buf[..px * 3]
                .chunks_exact(3)
                .flat_map(|c| [c[0], c[1], c[2], 255])
                .collect(),
            png::ColorType::GrayscaleAlpha => buf[..px * 2]
                .chunks_exact(2)
                .flat_map(|c| [c[0], c[0], c[0], c[1]])
                .collect(),
            png::ColorType::Grayscale => buf[..px].iter().flat_map(|&g| [g, g, g, 255]).collect(),
            png::ColorType::Indexed => return Err(ImageError::Png("indexed colour".into())),
        };
        Ok(Image {
            width,
            height,
            rgba,
        })
    }

    /// The image's size in device pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * self.width + x) * 4) as usize;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }

    /// The median colour of the ring 2 device px outside the CSS-px box `(x, y, w, h)` at `dpr`,
    /// or `None` when the ring lies wholly outside the image.
    pub fn ring_median(&self, x: f64, y: f64, w: f64, h: f64, dpr: f64) -> Option<Rgba> {
        let to = |v: f64| (v * dpr).round() as i64;
        let (left, top, right, bottom) = (to(x) - 2, to(y) - 2, to(x + w) + 1, to(y + h) + 1);
        let mut samples: Vec<[u8; 4]> = Vec::new();
        let mut take = |px: i64, py: i64| {
            if px >= 0
                && py >= 0
                && (px as u64) < u64::from(self.width)
                && (py as u64) < u64::from(self.height)
            {
                samples.push(self.pixel(px as u32, py as u32));
            }
        };
        let step = |len: i64| (len / 64).max(1) as usize;
        for px in (left..=right).step_by(step(right - left)) {
            take(px, top);
            take(px, bottom);
        }
        for py in (top..=bottom).step_by(step(bottom - top)) {
            take(left, py);
            take(right, py);
        }
        if samples.is_empty() {
            return None;
        }
        let mid = samples.len() / 2;
        let channel = |k: usize| {
            let mut v: Vec<u8> = samples.iter().map(|s| s[k]).collect();
            v.sort_unstable();
            f64::from(v[mid])
        };
        Some(Rgba {
            r: channel(0),
            g: channel(1),
            b: channel(2),
            a: channel(3) / 255.0,
        })
    }
}
