//! What proves, after a grounding provider's answer, that the page still shows what the answer is
//! about: the pixels under the answer's places, compared with the same pixels of the screenshot
//! the provider was sent.
//!
//! Why a region and not the whole frame: a box is advice about the pixels inside it, and the page
//! is asked what is on top at its centre; a clock ticking in a corner changes nothing the answer
//! says. Proving only the union of the boxes lets the browser read back and encode a small clip
//! instead of the viewport, and a page that animates elsewhere can still be grounded. An answer
//! with no place ("not on the screenshot") is about the whole picture, so it is proven on the
//! whole frame. The comparison is of decoded pixels (a clip is encoded on its own, so its bytes
//! are not a slice of the frame's): any changed sample in the region refuses the answer.

use a3s_test_driver::PixelRegion;
use serde::{Deserialize, Serialize};

/// What a grounding answer was proven on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "area", rename_all = "snake_case")]
pub enum GroundProof {
    /// The union of the answer's boxes (image pixels): the same pixels there as in the
    /// screenshot sent.
    Region {
        /// Left edge.
        x: u32,
        /// Top edge.
        y: u32,
        /// Width.
        width: u32,
        /// Height.
        height: u32,
    },
    /// The whole viewport: the same frame as the screenshot sent (an answer with no place, or a
    /// page drawn at another scale than its device pixel ratio).
    Viewport,
}

impl From<PixelRegion> for GroundProof {
    fn from(r: PixelRegion) -> GroundProof {
        GroundProof::Region {
            x: r.x,
            y: r.y,
            width: r.width,
            height: r.height,
        }
    }
}

/// The smallest whole-pixel rectangle inside a `width`×`height` image holding every box
/// (`x, y, width, height` in image pixels) and every point; `None` when there is neither, or
/// nothing of them is inside the image.
pub fn region_of(
    boxes: &[(f64, f64, f64, f64)],
    points: &[(f64, f64)],
    width: u32,
    height: u32,
) -> Option<PixelRegion> {
    let rects = boxes
        .iter()
        .copied()
        .chain(points.iter().map(|&(x, y)| (x, y, 0.0, 0.0)));
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    let mut any = false;
    for (x, y, w, h) in rects {
        if ![x, y, w, h].iter().all(|v| v.is_finite()) {
            continue;
        }
        any = true;
        x0 = x0.min(x);
        y0 = y0.min(y);
        // A point (or an empty box) is the pixel it falls in.
        x1 = x1.max(if w > 0.0 { x + w } else { x.floor() + 1.0 });
        y1 = y1.max(if h > 0.0 { y + h } else { y.floor() + 1.0 });
    }
    if !any {
        return None;
    }
    let clamp = |v: f64, max: u32| v.clamp(0.0, f64::from(max)) as u32;
    let (left, top) = (clamp(x0.floor(), width), clamp(y0.floor(), height));
    let (right, bottom) = (clamp(x1.ceil(), width), clamp(y1.ceil(), height));
    (right > left && bottom > top).then_some(PixelRegion {
        x: left,
        y: top,
        width: right - left,
        height: bottom - top,
    })
}

/// A decoded PNG: 8-bit samples, `channels` per pixel (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pixels {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Samples per pixel.
    pub channels: usize,
    /// Rows top to bottom, no padding.
    pub data: Vec<u8>,
}

impl Pixels {
    /// The pixel at (`x`, `y`) as RGBA.
    fn rgba(&self, x: u32, y: u32) -> [u8; 4] {
        let at = (y as usize * self.width as usize + x as usize) * self.channels;
        let p = &self.data[at..at + self.channels];
        match self.channels {
            1 => [p[0], p[0], p[0], 255],
            2 => [p[0], p[0], p[0], p[1]],
            3 => [p[0], p[1], p[2], 255],
            _ => [p[0], p[1], p[2], p[3]],
        }
    }
}

/// Decode `png` (palette and 16-bit images made 8-bit colour).
pub fn decode(png: &[u8]) -> Result<Pixels, String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| "the image is too large".to_string())?;
    let mut data = vec![0u8; size];
    let info = reader.next_frame(&mut data).map_err(|e| e.to_string())?;
    data.truncate(info.buffer_size());
    let channels = match info.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => return Err("an indexed image after expansion".into()),
    };
    if data.len() != info.width as usize * info.height as usize * channels {
        return Err("the decoded image is not width × height pixels".into());
    }
    Ok(Pixels {
        width: info.width,
        height: info.height,
        channels,
        data,
    })
}

/// How a region of the frame compares with a capture of that region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compared {
    /// Every pixel is the same.
    Same,
    /// At least one pixel differs.
    Changed,
    /// The capture is not the region's size (or the region is not inside the frame): it says
    /// nothing about the region, and the whole frame must be proven instead.
    NotComparable,
}

/// Compare `region` of `frame` with `clip`, a capture of that region alone.
pub fn compare(frame: &Pixels, region: PixelRegion, clip: &Pixels) -> Compared {
    let inside = u64::from(region.x) + u64::from(region.width) <= u64::from(frame.width)
        && u64::from(region.y) + u64::from(region.height) <= u64::from(frame.height);
    if !inside || clip.width != region.width || clip.height != region.height {
        return Compared::NotComparable;
    }
    for y in 0..region.height {
        for x in 0..region.width {
            if frame.rgba(region.x + x, region.y + y) != clip.rgba(x, y) {
                return Compared::Changed;
            }
        }
    }
    Compared::Same
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(width: u32, height: u32, channels: usize, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut e = png::Encoder::new(&mut out, width, height);
        e.set_color(match channels {
            3 => png::ColorType::Rgb,
            _ => png::ColorType::Rgba,
        });
        e.set_depth(png::BitDepth::Eight);
        e.write_header().unwrap().write_image_data(data).unwrap();
        out
    }

    /// A `width`×`height` RGB image whose pixel (x, y) is (x, y, x ^ y).
    fn gradient(width: u32, height: u32) -> Vec<u8> {
        (0..height)
            .flat_map(|y| (0..width).flat_map(move |x| [x as u8, y as u8, (x ^ y) as u8]))
            .collect()
    }

    fn cut(data: &[u8], width: u32, r: PixelRegion) -> Vec<u8> {
        (r.y..r.y + r.height)
            .flat_map(|y| {
                let at = ((y * width + r.x) * 3) as usize;
                data[at..at + (r.width * 3) as usize].to_vec()
            })
            .collect()
    }

    #[test]
    fn the_region_is_the_whole_pixels_around_every_box_and_point_inside_the_image() {
        let r = region_of(&[(10.4, 20.6, 30.0, 10.0)], &[], 100, 100).unwrap();
        assert_eq!((r.x, r.y, r.width, r.height), (10, 20, 31, 11));
        let r = region_of(
            &[(10.0, 10.0, 5.0, 5.0), (50.0, 60.0, 10.0, 10.0)],
            &[(12.5, 12.5)],
            100,
            100,
        )
        .unwrap();
        assert_eq!((r.x, r.y, r.width, r.height), (10, 10, 50, 60));
        // A point alone is its pixel; a box over the edge is cut at it.
        let r = region_of(&[], &[(7.5, 3.2)], 100, 100).unwrap();
        assert_eq!((r.x, r.y, r.width, r.height), (7, 3, 1, 1));
        let r = region_of(&[(90.0, 95.0, 20.0, 20.0)], &[], 100, 100).unwrap();
        assert_eq!((r.x, r.y, r.width, r.height), (90, 95, 10, 5));
        assert_eq!(region_of(&[], &[], 100, 100), None);
        assert_eq!(region_of(&[(f64::NAN, 1.0, 2.0, 2.0)], &[], 100, 100), None);
        assert_eq!(region_of(&[(200.0, 200.0, 5.0, 5.0)], &[], 100, 100), None);
    }

    #[test]
    fn a_clip_of_the_same_pixels_is_the_same_and_one_changed_sample_is_not() {
        let data = gradient(64, 48);
        let frame = decode(&encode(64, 48, 3, &data)).unwrap();
        assert_eq!((frame.width, frame.height, frame.channels), (64, 48, 3));
        let region = PixelRegion {
            x: 5,
            y: 7,
            width: 20,
            height: 11,
        };
        let mut clip = cut(&data, 64, region);
        let same = decode(&encode(20, 11, 3, &clip)).unwrap();
        assert_eq!(compare(&frame, region, &same), Compared::Same);
        // The same pixels with an alpha channel are the same pixels.
        let rgba: Vec<u8> = clip
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect();
        let same = decode(&encode(20, 11, 4, &rgba)).unwrap();
        assert_eq!(compare(&frame, region, &same), Compared::Same);
        let last = clip.len() - 1;
        clip[last] ^= 1;
        let changed = decode(&encode(20, 11, 3, &clip)).unwrap();
        assert_eq!(compare(&frame, region, &changed), Compared::Changed);
        // A clip of another size, or a region outside the frame, proves nothing.
        assert_eq!(
            compare(
                &frame,
                PixelRegion {
                    width: 21,
                    ..region
                },
                &same
            ),
            Compared::NotComparable
        );
        let outside = PixelRegion { x: 60, ..region };
        assert_eq!(compare(&frame, outside, &same), Compared::NotComparable);
        assert!(decode(b"not a png").is_err());
    }
}
