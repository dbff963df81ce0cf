//! The figures a drawing of a firearm is scaled from, and the conventions that stand in for the
//! ones the catalog does not state.
//!
//! Only the overall length is required: every drawing is exactly that long, in millimetres. A
//! stated height, width and barrel length are drawn exactly; where one is not stated, the drawing
//! uses its layout's proportion (`Proportions`) and says so (`Figure::stated` is false, and the
//! SVG's description names it). Those proportions are drawing conventions, not catalog figures:
//! they are never served as a firearm's dimensions.

use crate::catalog::model::Firearm;

/// The general arrangement a firearm is drawn in, from its category, magazine and features.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Pistol,
    Revolver,
    Rifle,
    /// Action and magazine behind the grip.
    Bullpup,
    SubmachineGun,
    MachineGun,
    Shotgun,
    /// A muzzle-loaded long arm: stock to near the muzzle, no magazine.
    Musket,
}

/// What feeds it, as far as the drawing shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feed {
    /// Nothing drawn below the receiver (single shot, internal or en-bloc clip, unknown).
    Hidden,
    /// A detachable or fixed box, its depth from the capacity.
    Box {
        capacity: u32,
    },
    Drum,
    /// A flat pan on top of the receiver.
    Pan,
    /// A tube under the barrel.
    Tube,
    Belt,
}

/// Drawing proportions of a layout whose figure is not stated: height, width and barrel length as
/// fractions of the overall length.
#[derive(Debug, Clone, Copy)]
pub struct Proportions {
    pub height: f64,
    pub width: f64,
    pub barrel: f64,
}

impl Layout {
    /// Conventions chosen from typical members (a Glock 17 is 202 × 138 mm with a 114 mm barrel, an
    /// AK-47 880 mm long with a 415 mm barrel, a Steyr AUG 790 mm with 508 mm); docs/decisions.md
    /// lists them.
    pub fn proportions(self) -> Proportions {
        let (height, width, barrel) = match self {
            Layout::Pistol => (0.65, 0.15, 0.55),
            Layout::Revolver => (0.52, 0.16, 0.45),
            Layout::Rifle => (0.24, 0.07, 0.50),
            Layout::Bullpup => (0.34, 0.09, 0.64),
            Layout::SubmachineGun => (0.34, 0.08, 0.35),
            Layout::MachineGun => (0.28, 0.11, 0.48),
            Layout::Shotgun => (0.19, 0.06, 0.62),
            Layout::Musket => (0.12, 0.05, 0.75),
        };
        Proportions { height, width, barrel }
    }

    pub fn name(self) -> &'static str {
        match self {
            Layout::Pistol => "pistol",
            Layout::Revolver => "revolver",
            Layout::Rifle => "rifle",
            Layout::Bullpup => "bullpup",
            Layout::SubmachineGun => "submachine gun",
            Layout::MachineGun => "machine gun",
            Layout::Shotgun => "shotgun",
            Layout::Musket => "musket",
        }
    }
}

/// One figure the drawing uses, and whether the catalog states it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    pub mm: f64,
    pub stated: bool,
}

/// Everything a drawing of one firearm is made from.
#[derive(Debug, Clone)]
pub struct Figures {
    pub name: String,
    pub layout: Layout,
    pub feed: Feed,
    pub length: Figure,
    pub height: Figure,
    pub width: Figure,
    pub barrel: Figure,
    /// With the stock folded: the stock is drawn as a frame that long (overall minus folded).
    pub folded_mm: Option<f64>,
    pub pistol_grip: bool,
    pub bipod: bool,
    pub carry_handle: bool,
    pub pump: bool,
}

/// The figure a drawing cannot do without, missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing(pub Vec<&'static str>);

/// Whether `firearm` states what a drawing needs (its overall length), without drawing it.
pub fn drawable(firearm: &Firearm) -> bool {
    stated_length(firearm).is_some()
}

fn stated_length(firearm: &Firearm) -> Option<f64> {
    firearm.overall_length_mm.filter(|l| l.is_finite() && *l > 0.0)
}

impl Figures {
    /// The drawing figures of `firearm`, or the required ones it lacks.
    pub fn of(firearm: &Firearm) -> Result<Self, Missing> {
        let Some(length) = stated_length(firearm) else { return Err(Missing(vec!["overallLengthMm"])) };
        let features = lowercase_features(firearm);
        let has = |word: &str| features.iter().any(|f| f.contains(word));
        let layout = layout_of(firearm, &has);
        let proportions = layout.proportions();
        let figure = |stated: Option<f64>, fraction: f64, most: f64| match stated {
            Some(mm) if mm.is_finite() && mm > 0.0 && mm <= most => Figure { mm, stated: true },
            _ => Figure { mm: length * fraction, stated: false },
        };
        let modern = firearm.year_introduced.is_some_and(|y| y >= 1944);
        let automatic = firearm.firing_modes.iter().flatten().any(|m| m.contains("auto"));
        let pistol_grip = has("pistol grip")
            || matches!(layout, Layout::Bullpup | Layout::SubmachineGun | Layout::MachineGun)
            || (layout == Layout::Rifle && modern && automatic);
        let folded_mm = firearm.folded_length_mm.filter(|f| *f > 0.0 && *f < length);
        Ok(Figures {
            name: firearm.name.clone(),
            layout,
            feed: feed_of(firearm, layout),
            length: Figure { mm: length, stated: true },
            height: figure(firearm.height_mm, proportions.height, length * 2.0),
            width: figure(firearm.width_mm, proportions.width, length),
            barrel: figure(firearm.barrel_length_mm, proportions.barrel, length),
            folded_mm,
            pistol_grip,
            bipod: has("bipod"),
            carry_handle: has("carrying handle") || has("carry handle"),
            pump: firearm.action_type.as_ref().is_some_and(|a| a.as_str() == "pump_action"),
        })
    }

    /// The conventions this drawing used for figures the catalog does not state.
    pub fn assumed(&self) -> Vec<&'static str> {
        [("heightMm", self.height), ("widthMm", self.width), ("barrelLengthMm", self.barrel)]
            .into_iter()
            .filter(|(_, figure)| !figure.stated)
            .map(|(field, _)| field)
            .collect()
    }
}

fn lowercase_features(firearm: &Firearm) -> Vec<String> {
    firearm.features.iter().flatten().map(|f| f.to_lowercase()).collect()
}

fn layout_of(firearm: &Firearm, has: &dyn Fn(&str) -> bool) -> Layout {
    let magazine = firearm.magazine_type.as_ref().map(|m| m.as_str()).unwrap_or("");
    let action = firearm.action_type.as_ref().map(|a| a.as_str()).unwrap_or("");
    match firearm.category_id.as_str() {
        "revolvers" => Layout::Revolver,
        "pistols" if magazine == "revolving_cylinder" => Layout::Revolver,
        "pistols" => Layout::Pistol,
        "machine-guns" => Layout::MachineGun,
        "submachine-guns" => Layout::SubmachineGun,
        "shotguns" => Layout::Shotgun,
        _ if has("bullpup") => Layout::Bullpup,
        _ if action == "muzzleloader" => Layout::Musket,
        _ if magazine == "revolving_cylinder" => Layout::Revolver,
        _ => Layout::Rifle,
    }
}

fn feed_of(firearm: &Firearm, layout: Layout) -> Feed {
    let magazine = firearm.magazine_type.as_ref().map(|m| m.as_str()).unwrap_or("");
    let capacity = firearm.magazine_capacity.and_then(|c| u32::try_from(c).ok()).unwrap_or(20);
    match magazine {
        _ if matches!(layout, Layout::Pistol | Layout::Revolver | Layout::Musket) => Feed::Hidden,
        "detachable_box" | "detachable_single_stack_box" | "fixed_box" => Feed::Box { capacity },
        "drum" | "rotary" if layout != Layout::Rifle || capacity > 10 => Feed::Drum,
        "pan" => Feed::Pan,
        "tube" | "tubular" => Feed::Tube,
        "belt" | "disintegrating_link_belt" => Feed::Belt,
        _ => Feed::Hidden,
    }
}
