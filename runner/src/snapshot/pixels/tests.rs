use super::*;

fn solid(width: u32, height: u32, px: [u8; 4]) -> Rgba {
    Rgba {
        width,
        height,
        pixels: px.repeat((width * height) as usize),
    }
}

fn set(img: &mut Rgba, x: u32, y: u32, px: [u8; 4]) {
    let i = ((y * img.width + x) * 4) as usize;
    img.pixels[i..i + 4].copy_from_slice(&px);
}

const RED: [u8; 4] = [255, 0, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const WHITE: [u8; 4] = [255, 255, 255, 255];
const BLACK: [u8; 4] = [0, 0, 0, 255];

#[test]
fn equal_images_have_no_difference() {
    let a = solid(8, 4, RED);
    let c = compare(&a, &a.clone(), 0.2);
    assert_eq!((c.diff_pixels, c.anti_aliased, c.total_pixels), (0, 0, 32));
    assert_eq!(c.ratio(), 0.0);
    assert!(c
        .diff
        .pixels
        .chunks(4)
        .all(|p| p[0] == p[1] && p[1] == p[2]));
}

#[test]
fn a_red_box_turned_blue_differs_in_every_pixel_and_paints_them_red() {
    let c = compare(&solid(100, 100, RED), &solid(100, 100, BLUE), 0.2);
    assert_eq!(c.diff_pixels, 10_000);
    assert_eq!(c.ratio(), 1.0);
    assert!(c.diff.pixels.chunks(4).all(|p| p == RED));
}

#[test]
fn the_threshold_is_a_fraction_of_the_black_to_white_distance() {
    let grey = |v: u8| solid(4, 4, [v, v, v, 255]);
    // A 10-level step in grey: distance 0.5053 · 10² ≈ 50.5, i.e. threshold √(50.5/35215) ≈ 0.038.
    assert_eq!(compare(&grey(100), &grey(110), 0.05).diff_pixels, 0);
    assert_eq!(compare(&grey(100), &grey(110), 0.03).diff_pixels, 16);
    // Black against white is 0.5053 · 255² ≈ 32,857: past threshold 0.96, within 0.97.
    assert_eq!(
        compare(&solid(2, 2, BLACK), &solid(2, 2, WHITE), 0.96).diff_pixels,
        4
    );
    assert_eq!(
        compare(&solid(2, 2, BLACK), &solid(2, 2, WHITE), 0.97).diff_pixels,
        0
    );
}

#[test]
fn transparent_pixels_are_compared_over_white() {
    let clear_black = solid(2, 2, [0, 0, 0, 0]);
    assert_eq!(
        compare(&clear_black, &solid(2, 2, WHITE), 0.0).diff_pixels,
        0
    );
}

#[test]
fn a_pixel_on_a_shifted_edge_is_anti_aliasing_not_a_difference() {
    // A vertical black/white edge with a grey column between; in the other image the grey
    // pixel in the middle row is darker, as a sub-pixel shift of the edge renders it.
    let mut a = solid(5, 5, WHITE);
    let mut b = solid(5, 5, WHITE);
    for y in 0..5 {
        for x in 0..2 {
            set(&mut a, x, y, BLACK);
            set(&mut b, x, y, BLACK);
        }
        set(&mut a, 2, y, [128, 128, 128, 255]);
        set(&mut b, 2, y, [128, 128, 128, 255]);
    }
    set(&mut b, 2, 2, [40, 40, 40, 255]);
    let c = compare(&a, &b, 0.1);
    assert_eq!((c.diff_pixels, c.anti_aliased), (0, 1));
    let i = (2 * 5 + 2) * 4;
    assert_eq!(&c.diff.pixels[i..i + 4], &[255, 255, 0, 255]);
}

#[test]
fn a_lone_changed_pixel_in_a_flat_area_is_a_difference() {
    let a = solid(5, 5, WHITE);
    let mut b = a.clone();
    set(&mut b, 2, 2, BLACK);
    let c = compare(&a, &b, 0.1);
    assert_eq!((c.diff_pixels, c.anti_aliased), (1, 0));
}

#[test]
fn different_sizes_differ_everywhere_and_say_both_sizes() {
    let c = compare(&solid(4, 4, RED), &solid(4, 6, RED), 0.2);
    assert_eq!(c.size_mismatch, Some(((4, 4), (4, 6))));
    assert_eq!((c.diff_pixels, c.total_pixels), (24, 24));
    assert_eq!((c.diff.width, c.diff.height), (4, 6));
}

#[test]
fn png_round_trip_and_non_png_bytes_are_refused() {
    let mut img = solid(3, 2, BLUE);
    set(&mut img, 1, 1, [1, 2, 3, 4]);
    assert_eq!(decode_png(&encode_png(&img)).unwrap(), img);
    assert!(matches!(
        decode_png(b"GIF89a not a png"),
        Err(DecodeError::NotPng(_))
    ));
    assert!(matches!(decode_png(&[]), Err(DecodeError::NotPng(_))));
}

#[test]
fn rgb_and_grey_pngs_decode_to_rgba() {
    let mut out = Vec::new();
    {
        let mut e = png::Encoder::new(&mut out, 2, 1);
        e.set_color(png::ColorType::Grayscale);
        e.set_depth(png::BitDepth::Eight);
        let mut w = e.write_header().unwrap();
        w.write_image_data(&[0, 200]).unwrap();
    }
    let img = decode_png(&out).unwrap();
    assert_eq!(img.pixels, vec![0, 0, 0, 255, 200, 200, 200, 255]);
}
