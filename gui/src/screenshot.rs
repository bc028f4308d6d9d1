//! Screenshots as PNG: the whole screen or one window, read with the X server's `GetImage`.
//!
//! Why from the server: what it returns is what a person sees at that moment (no window
//! manager, no compositor: the screen's pixels), and reading 1280×800 costs a few ms. A window
//! is read from the root window over its rectangle clipped to the screen, so a window partly
//! off the screen still gives what shows of it.

use crate::error::GuiError;
use crate::x11::X11;
use std::time::{Duration, Instant};
use x11rb::connection::Connection as _;
use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat, ImageOrder, Window};

/// A PNG image and what it shows.
#[derive(Debug, Clone)]
pub struct Screenshot {
    /// The PNG file's bytes (8-bit RGB).
    pub png: Vec<u8>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// How long reading and encoding took.
    pub took: Duration,
}

/// The whole screen.
pub fn screen(x: &X11) -> Result<Screenshot, GuiError> {
    let (width, height) = x.size();
    capture(x, 0, 0, width, height)
}

/// One top-level window (what of it is on the screen).
pub fn window(x: &X11, window: Window) -> Result<Screenshot, GuiError> {
    let geometry = x
        .conn()
        .get_geometry(window)
        .map_err(|e| GuiError::x11("GetGeometry", e))?
        .reply()
        .map_err(|e| GuiError::x11("GetGeometry", e))?;
    let (sw, sh) = x.size();
    let left = geometry.x.max(0);
    let top = geometry.y.max(0);
    let right = (i32::from(geometry.x) + i32::from(geometry.width)).min(i32::from(sw));
    let bottom = (i32::from(geometry.y) + i32::from(geometry.height)).min(i32::from(sh));
    if right <= i32::from(left) || bottom <= i32::from(top) {
        return Err(GuiError::x11("GetImage", "the window is off the screen"));
    }
    let width = (right - i32::from(left)) as u16;
    let height = (bottom - i32::from(top)) as u16;
    capture(x, left, top, width, height)
}

/// Read a rectangle of the root window and encode it.
fn capture(x: &X11, left: i16, top: i16, width: u16, height: u16) -> Result<Screenshot, GuiError> {
    let started = Instant::now();
    let image = x
        .conn()
        .get_image(
            ImageFormat::Z_PIXMAP,
            x.root(),
            left,
            top,
            width,
            height,
            !0,
        )
        .map_err(|e| GuiError::x11("GetImage", e))?
        .reply()
        .map_err(|e| GuiError::x11("GetImage", e))?;
    let setup = x.conn().setup();
    let format = setup
        .pixmap_formats
        .iter()
        .find(|f| f.depth == image.depth)
        .ok_or_else(|| {
            GuiError::x11(
                "GetImage",
                format!("no pixmap format for depth {}", image.depth),
            )
        })?;
    let visual = setup
        .roots
        .iter()
        .flat_map(|s| &s.allowed_depths)
        .flat_map(|d| &d.visuals)
        .find(|v| v.visual_id == image.visual)
        .ok_or_else(|| GuiError::x11("GetImage", "the image's visual is unknown"))?;
    let bytes_per_pixel = usize::from(format.bits_per_pixel / 8);
    if !(3..=4).contains(&bytes_per_pixel) {
        return Err(GuiError::x11(
            "GetImage",
            format!("{} bits a pixel is not read", format.bits_per_pixel),
        ));
    }
    let pad = usize::from(format.scanline_pad);
    let stride = (usize::from(width) * usize::from(format.bits_per_pixel)).div_ceil(pad) * pad / 8;
    let little = setup.image_byte_order == ImageOrder::LSB_FIRST;
    let channel = |pixel: u32, mask: u32| -> u8 {
        if mask == 0 {
            return 0;
        }
        let value = (pixel & mask) >> mask.trailing_zeros();
        let max = mask >> mask.trailing_zeros();
        (u64::from(value) * 255 / u64::from(max)) as u8
    };
    let mut rgb = Vec::with_capacity(usize::from(width) * usize::from(height) * 3);
    // The common case (Xvfb's 24-bit depth): 32 bits a pixel, B, G, R, unused in memory.
    let bgrx = bytes_per_pixel == 4
        && little
        && (visual.red_mask, visual.green_mask, visual.blue_mask) == (0xff_0000, 0xff00, 0xff);
    if bgrx {
        for row in image.data.chunks(stride).take(usize::from(height)) {
            for px in row[..usize::from(width) * 4].chunks_exact(4) {
                rgb.extend_from_slice(&[px[2], px[1], px[0]]);
            }
        }
    } else {
        for row in image.data.chunks(stride).take(usize::from(height)) {
            for px in row.chunks(bytes_per_pixel).take(usize::from(width)) {
                let mut word = [0u8; 4];
                word[..bytes_per_pixel].copy_from_slice(px);
                let pixel = if little {
                    u32::from_le_bytes(word)
                } else {
                    u32::from_be_bytes(word) >> (8 * (4 - bytes_per_pixel))
                };
                rgb.push(channel(pixel, visual.red_mask));
                rgb.push(channel(pixel, visual.green_mask));
                rgb.push(channel(pixel, visual.blue_mask));
            }
        }
    }
    let png = encode(&rgb, u32::from(width), u32::from(height))?;
    Ok(Screenshot {
        png,
        width: u32::from(width),
        height: u32::from(height),
        took: started.elapsed(),
    })
}

/// RGB pixels as PNG (fast compression: evidence is written often and read rarely).
pub(crate) fn encode(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, GuiError> {
    let failed = |e: png::EncodingError| GuiError::x11("GetImage", format!("PNG encoding: {e}"));
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(rgb).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(out)
}
