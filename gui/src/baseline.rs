//! The window image a desktop `expect { screenshot = "name.png" }` compares with its baseline:
//! the program's first top-level window as the X server shows it, with every element a `mask`
//! target names painted over in [`MASK_COLOUR`] (`docs/acl.md` §9.2, `docs/gui.md`).
//!
//! Why here and not in the runner: the runner decides the expectation (baseline, update mode,
//! the two-equal-captures schedule, thresholds, the diff image) for every surface alike; a
//! surface only captures. What a desktop adds is where things are: a mask is an accessible
//! element whose reported extents are moved to screen pixels through its window's placement
//! (GTK4 reports window-relative extents) and then to the captured window's pixels.

use crate::element::{Element, Rect};
use crate::error::GuiError;
use crate::input::Input;
use crate::program::Program;
use a3s_test_driver::snapshot::MASK_COLOUR;
use a3s_test_lang::ir::Target;

/// A PNG of `window` (a top-level element of `program`) with the elements `masks` name painted
/// over. A mask that names nothing masks nothing (as on a page); an element outside the captured
/// window (another dialog) is not in the image and is left alone.
pub async fn capture(
    input: &Input,
    program: &Program,
    window: &Element,
    masks: &[Target],
) -> Result<Vec<u8>, GuiError> {
    let a11y = input.a11y();
    let placement = input.locate(program, window).await?;
    let mut rects = Vec::new();
    for target in masks {
        for element in crate::locate::all(program.app(a11y).await, target).await? {
            let reported = element.extents(a11y).await?;
            let at = input.locate(program, &element).await?;
            if at.window.id == placement.window.id {
                rects.push(at.to_screen(reported));
            }
        }
    }
    let shot = crate::screenshot::window(input.x11(), placement.window.id)?;
    if rects.is_empty() {
        return Ok(shot.png);
    }
    // The capture starts where the window's visible part does.
    let origin = (placement.window.x.max(0), placement.window.y.max(0));
    let mut rgb = decode_rgb(&shot.png)?;
    for rect in &rects {
        paint(&mut rgb, shot.width, shot.height, *rect, origin);
    }
    crate::screenshot::encode(&rgb, shot.width, shot.height)
}

/// Paint `rect` (screen pixels) in the mask colour on an RGB image whose top-left pixel is the
/// screen point `origin`; the part outside the image is left out.
fn paint(rgb: &mut [u8], width: u32, height: u32, rect: Rect, origin: (i32, i32)) {
    let (w, h) = (width as i32, height as i32);
    let left = (rect.x - origin.0).clamp(0, w);
    let top = (rect.y - origin.1).clamp(0, h);
    let right = (rect.x + rect.width - origin.0).clamp(0, w);
    let bottom = (rect.y + rect.height - origin.1).clamp(0, h);
    for y in top..bottom {
        for x in left..right {
            let at = ((y * w + x) * 3) as usize;
            rgb[at..at + 3].copy_from_slice(&MASK_COLOUR[..3]);
        }
    }
}

/// The RGB pixels of a PNG [`crate::screenshot`] wrote (8-bit RGB).
fn decode_rgb(png_bytes: &[u8]) -> Result<Vec<u8>, GuiError> {
    let failed = |e: png::DecodingError| GuiError::x11("GetImage", format!("PNG decoding: {e}"));
    let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes))
        .read_info()
        .map_err(failed)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| GuiError::x11("GetImage", "PNG decoding: the image is too large"))?;
    let mut rgb = vec![0; size];
    let info = reader.next_frame(&mut rgb).map_err(failed)?;
    rgb.truncate(info.buffer_size());
    Ok(rgb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_is_painted_where_it_overlaps_the_image_and_nowhere_else() {
        // A 4×3 image whose top-left pixel is the screen point (10, 20).
        let mut rgb = vec![0u8; 4 * 3 * 3];
        let rect = Rect {
            x: 12,
            y: 19,
            width: 5,
            height: 2,
        };
        paint(&mut rgb, 4, 3, rect, (10, 20));
        let painted: Vec<(usize, usize)> = (0..3)
            .flat_map(|y| (0..4).map(move |x| (x, y)))
            .filter(|(x, y)| rgb[(y * 4 + x) * 3..][..3] == MASK_COLOUR[..3])
            .collect();
        assert_eq!(painted, vec![(2, 0), (3, 0)]);
    }

    #[test]
    fn a_captured_png_decodes_to_its_pixels() {
        let rgb: Vec<u8> = (0..2 * 2 * 3).map(|i| i as u8 * 10).collect();
        let png = crate::screenshot::encode(&rgb, 2, 2).unwrap();
        assert_eq!(decode_rgb(&png).unwrap(), rgb);
    }
}
