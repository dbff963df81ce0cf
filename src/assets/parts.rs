//! A firearm as a few convex parts (stock, receiver, barrel, grip, magazine...), each a polygon
//! in its side view and a thickness across. The side profile is their union, the top and front
//! views their extents, and the 3D model their extrusion, so every view agrees with the others.
//!
//! Parts are laid out in unit coordinates (x from the butt to the muzzle, y from the top down,
//! both 0 to about 1), then `Drawing::scaled` stretches their union to exactly the overall length
//! by the height in millimetres.

use super::figures::{Feed, Figures, Layout};

/// A point in the side view: x along the length, y down from the top.
pub type Point = (f64, f64);

/// One convex part.
#[derive(Debug, Clone)]
pub struct Part {
    pub name: &'static str,
    /// Convex, in order around the part.
    pub outline: Vec<Point>,
    /// How thick it is across, as a fraction of the firearm's width; a round part (`round`) is
    /// as thick as it is tall, at most the width.
    pub across: f64,
    pub round: bool,
}

/// The parts of one firearm, in millimetres: the union spans exactly `length` × `height`.
#[derive(Debug, Clone)]
pub struct Drawing {
    pub length: f64,
    pub height: f64,
    pub width: f64,
    pub parts: Vec<Part>,
}

impl Part {
    fn new(name: &'static str, outline: Vec<Point>, across: f64) -> Self {
        Self { name, outline, across, round: false }
    }

    fn round(mut self) -> Self {
        self.round = true;
        self
    }

    /// Its extent along the length and down the height: (x0, x1, y0, y1).
    pub fn extent(&self) -> (f64, f64, f64, f64) {
        let xs = self.outline.iter().map(|p| p.0);
        let ys = self.outline.iter().map(|p| p.1);
        let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let (y0, y1) = ys.fold((f64::MAX, f64::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
        (x0, x1, y0, y1)
    }

    /// Its thickness across, in millimetres, in a firearm `width` wide.
    pub fn thickness(&self, width: f64) -> f64 {
        if self.round {
            let (_, _, y0, y1) = self.extent();
            (y1 - y0).min(width)
        } else {
            width * self.across
        }
    }
}

fn rect(name: &'static str, x0: f64, x1: f64, y0: f64, y1: f64, across: f64) -> Part {
    Part::new(name, vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)], across)
}

fn quad(name: &'static str, points: [Point; 4], across: f64) -> Part {
    Part::new(name, points.to_vec(), across)
}

fn disc(name: &'static str, (cx, cy): Point, (rx, ry): (f64, f64), across: f64) -> Part {
    let outline = (0..16)
        .map(|i| {
            let a = i as f64 * std::f64::consts::TAU / 16.0;
            (cx + rx * a.cos(), cy + ry * a.sin())
        })
        .collect();
    Part::new(name, outline, across)
}

impl Drawing {
    /// The parts of the firearm `figures` describes, scaled to its length and height.
    pub fn of(figures: &Figures) -> Self {
        let aspect = figures.height.mm / figures.length.mm;
        let parts = match figures.layout {
            Layout::Pistol => pistol(),
            Layout::Revolver => revolver(),
            Layout::Bullpup => bullpup(figures, aspect),
            Layout::Musket => musket(figures, aspect),
            Layout::Rifle | Layout::SubmachineGun | Layout::MachineGun | Layout::Shotgun => {
                long_gun(figures, aspect)
            }
        };
        Self::scaled(parts, figures.length.mm, figures.height.mm, figures.width.mm)
    }

    /// `parts` stretched so their union spans exactly [0, length] × [0, height].
    fn scaled(mut parts: Vec<Part>, length: f64, height: f64, width: f64) -> Self {
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for part in &parts {
            let (a, b, c, d) = part.extent();
            (x0, x1, y0, y1) = (x0.min(a), x1.max(b), y0.min(c), y1.max(d));
        }
        let (sx, sy) = (length / (x1 - x0), height / (y1 - y0));
        for point in parts.iter_mut().flat_map(|p| p.outline.iter_mut()) {
            *point = ((point.0 - x0) * sx, (point.1 - y0) * sy);
        }
        Self { length, height, width, parts }
    }
}

fn pistol() -> Vec<Part> {
    vec![
        rect("slide", 0.10, 1.0, 0.02, 0.25, 0.85),
        rect("rear sight", 0.13, 0.18, 0.0, 0.02, 0.4),
        rect("front sight", 0.94, 0.97, 0.0, 0.02, 0.2),
        rect("frame", 0.12, 0.95, 0.25, 0.37, 0.9),
        quad("grip", [(0.16, 0.25), (0.42, 0.25), (0.24, 1.0), (0.0, 1.0)], 1.0),
        quad("trigger guard", [(0.60, 0.37), (0.64, 0.37), (0.58, 0.60), (0.54, 0.60)], 0.35),
        rect("trigger guard", 0.33, 0.58, 0.57, 0.61, 0.35),
        quad("trigger", [(0.44, 0.37), (0.48, 0.37), (0.46, 0.52), (0.43, 0.52)], 0.15),
    ]
}

fn revolver() -> Vec<Part> {
    vec![
        rect("barrel", 0.46, 1.0, 0.06, 0.17, 0.0).round(),
        rect("front sight", 0.95, 0.98, 0.0, 0.06, 0.2),
        rect("ejector rod housing", 0.48, 0.82, 0.17, 0.24, 0.3),
        rect("cylinder", 0.30, 0.47, 0.05, 0.37, 1.0),
        rect("frame", 0.22, 0.49, 0.03, 0.41, 0.7),
        quad("hammer", [(0.13, 0.0), (0.21, 0.04), (0.24, 0.12), (0.19, 0.13)], 0.3),
        quad("grip", [(0.13, 0.30), (0.29, 0.39), (0.19, 1.0), (0.0, 0.95)], 0.85),
        quad("trigger guard", [(0.38, 0.41), (0.42, 0.41), (0.37, 0.62), (0.33, 0.62)], 0.3),
        rect("trigger guard", 0.24, 0.37, 0.59, 0.63, 0.3),
        quad("trigger", [(0.30, 0.41), (0.33, 0.41), (0.31, 0.55), (0.29, 0.55)], 0.15),
    ]
}

/// The barrel's drawn thickness in unit height: about 1.8 % of the length for a long gun, so it
/// reads as a tube whatever the height.
fn barrel_band(aspect: f64) -> f64 {
    (0.018 / aspect).clamp(0.04, 0.2)
}

fn long_gun(figures: &Figures, aspect: f64) -> Vec<Part> {
    let barrel = figures.barrel.mm / figures.length.mm;
    let default_stock = match figures.layout {
        Layout::SubmachineGun => 0.30,
        Layout::MachineGun => 0.25,
        _ => 0.30,
    };
    let stock = figures
        .folded_mm
        .map(|folded| (1.0 - folded / figures.length.mm).clamp(0.12, 0.45))
        .unwrap_or(default_stock);
    let chamber = (1.0 - barrel).max(stock + 0.12);
    let receiver_top = if figures.layout == Layout::MachineGun { 0.06 } else { 0.08 };
    let band = barrel_band(aspect);
    let barrel_top = 0.16;
    let mut parts = vec![
        rect("receiver", stock, chamber, receiver_top, 0.34, 1.0),
        rect("barrel", chamber, 1.0, barrel_top, barrel_top + band, 0.0).round(),
        rect("front sight", 0.975, 0.99, 0.08, barrel_top, 0.15),
    ];
    parts.extend(stock_parts(figures, stock));
    let forend_end = chamber + (1.0 - chamber) * if figures.layout == Layout::Shotgun { 0.35 } else { 0.5 };
    match (figures.layout, figures.pump) {
        (Layout::Shotgun, true) => {
            let slide_from = chamber + (1.0 - chamber) * 0.25;
            parts.push(rect("forend", slide_from, slide_from + (1.0 - chamber) * 0.3, 0.12, 0.36, 0.8));
        }
        _ => parts.push(rect("forend", chamber, forend_end, 0.12, 0.32, 0.8)),
    }
    let grip_at = stock + 0.02;
    if figures.pistol_grip {
        parts.push(quad(
            "grip",
            [(grip_at + 0.03, 0.34), (grip_at + 0.075, 0.34), (grip_at + 0.045, 0.70), (grip_at, 0.70)],
            0.8,
        ));
        parts.push(rect("trigger guard", grip_at + 0.05, grip_at + 0.15, 0.44, 0.47, 0.3));
        parts.push(rect("trigger guard", grip_at + 0.14, grip_at + 0.15, 0.34, 0.47, 0.3));
        parts.push(rect("trigger", grip_at + 0.095, grip_at + 0.105, 0.34, 0.42, 0.1));
    } else {
        parts.push(rect("trigger guard", grip_at + 0.02, grip_at + 0.10, 0.34, 0.44, 0.3));
    }
    parts.extend(feed_parts(figures.feed, (grip_at + 0.16).min(chamber - 0.08), chamber, barrel_top + band));
    if figures.carry_handle || figures.layout == Layout::MachineGun && figures.feed == Feed::Belt {
        let at = chamber + (1.0 - chamber) * 0.3;
        parts.push(quad(
            "carrying handle",
            [(at, 0.0), (at + 0.06, 0.0), (at + 0.05, 0.16), (at + 0.01, 0.16)],
            0.2,
        ));
    }
    if figures.layout == Layout::MachineGun {
        parts.push(rect("feed cover", stock + 0.02, chamber - 0.02, 0.02, 0.08, 0.9));
    }
    if figures.bipod {
        let at = 1.0 - (1.0 - chamber) * 0.25;
        parts.push(quad("bipod", [(at, 0.2), (at + 0.015, 0.2), (at - 0.03, 1.0), (at - 0.045, 1.0)], 0.6));
    }
    parts
}

/// The butt stock from the butt to `end`: solid, or a frame when the stock folds.
fn stock_parts(figures: &Figures, end: f64) -> Vec<Part> {
    if figures.folded_mm.is_some() {
        return vec![
            rect("stock", 0.0, end, 0.10, 0.14, 0.5),
            rect("stock", 0.0, end, 0.30, 0.34, 0.5),
            rect("butt plate", 0.0, 0.02, 0.08, 0.60, 0.6),
        ];
    }
    if figures.pistol_grip {
        return vec![quad("stock", [(0.0, 0.10), (end, 0.08), (end, 0.32), (0.0, 0.52)], 0.7)];
    }
    // A classic stock drops from the comb to the butt and narrows at the wrist.
    vec![
        quad("stock", [(0.0, 0.18), (end * 0.55, 0.14), (end * 0.55, 0.42), (0.0, 0.78)], 0.7),
        quad("stock", [(end * 0.5, 0.14), (end, 0.10), (end, 0.34), (end * 0.5, 0.44)], 0.6),
    ]
}

/// What feeds the gun, hung ahead of the grip at `from` (a magazine), under the barrel (a tube) or
/// on the receiver (a pan).
fn feed_parts(feed: Feed, from: f64, chamber: f64, barrel_bottom: f64) -> Vec<Part> {
    match feed {
        Feed::Hidden => Vec::new(),
        Feed::Box { capacity } => {
            let depth = 0.34 + (0.15 + capacity.min(100) as f64 * 0.012).min(0.62);
            vec![quad(
                "magazine",
                [(from, 0.34), (from + 0.07, 0.34), (from + 0.10, depth), (from + 0.03, depth)],
                0.55,
            )]
        }
        Feed::Drum => vec![disc("drum magazine", (from + 0.05, 0.62), (0.06, 0.3), 0.7)],
        Feed::Pan => vec![rect("pan magazine", from - 0.06, from + 0.14, 0.0, 0.08, 1.0)],
        Feed::Tube => {
            let end = chamber + (1.0 - chamber) * 0.85;
            vec![rect("tube magazine", chamber, end, barrel_bottom, barrel_bottom + 0.08, 0.0).round()]
        }
        Feed::Belt => vec![quad(
            "belt",
            [(from, 0.34), (from + 0.06, 0.34), (from + 0.02, 0.8), (from - 0.04, 0.8)],
            0.3,
        )],
    }
}

fn bullpup(figures: &Figures, aspect: f64) -> Vec<Part> {
    let barrel = figures.barrel.mm / figures.length.mm;
    let chamber = (1.0 - barrel).clamp(0.15, 0.6);
    let body_end = (chamber + 0.35).min(0.85);
    let band = barrel_band(aspect);
    let mut parts = vec![
        quad("body", [(0.0, 0.10), (body_end, 0.12), (body_end, 0.30), (0.0, 0.45)], 1.0),
        rect("optic rail", 0.30, body_end - 0.05, 0.0, 0.10, 0.4),
        rect("barrel", body_end, 1.0, 0.14, 0.14 + band, 0.0).round(),
        quad("grip", [(0.50, 0.30), (0.57, 0.30), (0.53, 0.75), (0.46, 0.75)], 0.8),
        rect("trigger guard", 0.48, 0.62, 0.44, 0.47, 0.3),
    ];
    parts.extend(feed_parts(figures.feed, (chamber - 0.18).max(0.12), chamber, 0.14 + band));
    parts
}

fn musket(figures: &Figures, aspect: f64) -> Vec<Part> {
    let barrel = figures.barrel.mm / figures.length.mm;
    let breech = (1.0 - barrel).clamp(0.2, 0.5);
    let band = barrel_band(aspect);
    vec![
        quad("stock", [(0.0, 0.25), (breech, 0.12), (breech, 0.55), (0.0, 1.0)], 0.7),
        rect("fore-stock", breech, 0.92, 0.12 + band * 0.5, 0.35 + band, 0.7),
        rect("barrel", breech, 1.0, 0.12, 0.12 + band, 0.0).round(),
        rect("lock", breech - 0.05, breech + 0.08, 0.0, 0.40, 0.9),
        rect("trigger guard", breech - 0.12, breech + 0.02, 0.50, 0.56, 0.3),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::figures::Figure;

    fn figures(layout: Layout, feed: Feed) -> Figures {
        let stated = |mm| Figure { mm, stated: true };
        Figures {
            name: "Test".into(),
            layout,
            feed,
            length: stated(880.0),
            height: stated(240.0),
            width: stated(70.0),
            barrel: stated(415.0),
            folded_mm: Some(645.0),
            pistol_grip: true,
            bipod: true,
            carry_handle: true,
            pump: true,
        }
    }

    #[test]
    fn every_layout_spans_exactly_its_length_and_height_with_convex_parts() {
        let layouts = [
            Layout::Pistol,
            Layout::Revolver,
            Layout::Rifle,
            Layout::Bullpup,
            Layout::SubmachineGun,
            Layout::MachineGun,
            Layout::Shotgun,
            Layout::Musket,
        ];
        let feeds = [Feed::Hidden, Feed::Box { capacity: 30 }, Feed::Drum, Feed::Pan, Feed::Tube, Feed::Belt];
        for layout in layouts {
            for feed in feeds {
                let drawing = Drawing::of(&figures(layout, feed));
                let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
                for part in &drawing.parts {
                    let (a, b, c, d) = part.extent();
                    (x0, x1, y0, y1) = (x0.min(a), x1.max(b), y0.min(c), y1.max(d));
                    assert!(is_convex(&part.outline), "{layout:?} {feed:?}: {} is not convex", part.name);
                    assert!(part.thickness(70.0) > 0.0 && part.thickness(70.0) <= 70.0);
                }
                assert!(x0.abs() < 1e-9 && (x1 - 880.0).abs() < 1e-9, "{layout:?} {feed:?}: {x0}..{x1}");
                assert!(y0.abs() < 1e-9 && (y1 - 240.0).abs() < 1e-9, "{layout:?} {feed:?}: {y0}..{y1}");
            }
        }
    }

    fn is_convex(outline: &[Point]) -> bool {
        let n = outline.len();
        let turns: Vec<f64> = (0..n)
            .map(|i| {
                let (a, b, c) = (outline[i], outline[(i + 1) % n], outline[(i + 2) % n]);
                (b.0 - a.0) * (c.1 - b.1) - (b.1 - a.1) * (c.0 - b.0)
            })
            .filter(|t| t.abs() > 1e-12)
            .collect();
        turns.iter().all(|t| *t > 0.0) || turns.iter().all(|t| *t < 0.0)
    }
}
