//! The built-in device table `device = "…"` picks from (`docs/acl.md` §2.4).
//!
//! Why built in and small: a suite names a device to test the layout a class of phone or tablet
//! gets — its viewport, device scale factor, mobile and touch — and the user agent its browser
//! sends. The rows are the common devices of Playwright's table (the same dimensions, so a suite
//! moved from Playwright sees the same layout); an unknown name is refused at admission with the
//! nearest row suggested. The user agents name Chrome 120 (Safari 17 for Apple devices).

use super::browser_context::ViewportSize;

/// One device: what `device = "…"` emulates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Device {
    /// The name written in `device = "…"`.
    pub name: &'static str,
    /// The viewport in CSS px.
    pub viewport: ViewportSize,
    /// CSS px to device px.
    pub scale: f64,
    /// Mobile: `meta viewport` honoured, overlay scrollbars.
    pub mobile: bool,
    /// Touch events (`ontouchstart`, `(pointer: coarse)`).
    pub touch: bool,
    /// `navigator.userAgent` and the `User-Agent` header.
    pub user_agent: &'static str,
}

impl Device {
    /// The row named `name` (exact, case-sensitive as Playwright's names are).
    pub fn named(name: &str) -> Option<&'static Device> {
        DEVICES.iter().find(|d| d.name == name)
    }
}

const ANDROID_14: &str = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
const ANDROID_TABLET: &str = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const IPAD: &str = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const DESKTOP: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

const fn size(width: u32, height: u32) -> ViewportSize {
    ViewportSize { width, height }
}

const fn phone(
    name: &'static str,
    viewport: ViewportSize,
    scale: f64,
    user_agent: &'static str,
) -> Device {
    Device {
        name,
        viewport,
        scale,
        mobile: true,
        touch: true,
        user_agent,
    }
}

/// Every device `device = "…"` may name, in documentation order.
pub const DEVICES: &[Device] = &[
    phone("Pixel 5", size(393, 727), 2.75, ANDROID_14),
    phone("Pixel 7", size(412, 839), 2.625, ANDROID_14),
    phone("Galaxy S9+", size(320, 658), 4.5, ANDROID_14),
    phone("Galaxy S24", size(360, 780), 3.0, ANDROID_14),
    phone("Galaxy Tab S4", size(712, 1138), 2.25, ANDROID_TABLET),
    phone("iPhone SE", size(320, 568), 2.0, IPHONE),
    phone("iPhone 12", size(390, 664), 3.0, IPHONE),
    phone("iPhone 13", size(390, 664), 3.0, IPHONE),
    phone("iPhone 14", size(390, 664), 3.0, IPHONE),
    phone("iPhone 14 Pro Max", size(430, 740), 3.0, IPHONE),
    phone("iPhone 15", size(393, 659), 3.0, IPHONE),
    phone("iPhone 15 Pro", size(393, 659), 3.0, IPHONE),
    phone("iPad Mini", size(768, 1024), 2.0, IPAD),
    phone("iPad Pro 11", size(834, 1194), 2.0, IPAD),
    Device {
        name: "Desktop Chrome",
        viewport: size(1280, 720),
        scale: 1.0,
        mobile: false,
        touch: false,
        user_agent: DESKTOP,
    },
    Device {
        name: "Desktop Chrome HiDPI",
        viewport: size(1280, 720),
        scale: 2.0,
        mobile: false,
        touch: false,
        user_agent: DESKTOP,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_sizes_sane() {
        for (i, d) in DEVICES.iter().enumerate() {
            assert!(DEVICES[..i].iter().all(|o| o.name != d.name), "{}", d.name);
            assert!(d.viewport.width > 0 && d.viewport.height > 0);
            assert!(d.scale >= 1.0);
            assert_eq!(Device::named(d.name), Some(d));
        }
        assert_eq!(Device::named("pixel 7"), None);
    }
}
