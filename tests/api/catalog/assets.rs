//! Generated assets as a client sees them: every silhouette of the bundled catalog is XML drawn
//! to the firearm's length and height, rasters decode at their stated size, models are
//! well-formed GLB files as large as the firearm, colours cannot inject markup, a held ETag is
//! answered 304 before anything is drawn, and the media index pages within its bounds.

use std::collections::BTreeSet;
use std::path::Path;

use armory::access::plan::Plan;
use armory::assets::svg::{Stroke, View};
use armory::catalog::import;
use armory::catalog::load::load_dir;
use armory::read::query::assets::{FirearmAsset, firearm_asset};
use resvg::tiny_skia::Pixmap;
use serde_json::Value;

use crate::support::{TestApp, error_reason};

crate::on_each_database!(setup = crate::support::read_catalog_app;
    every_silhouette_is_xml_drawn_to_the_firearms_length_and_height,
    layouts_are_drawn_apart,
    rasters_decode_at_their_stated_size,
    a_model_is_a_glb_as_long_tall_and_wide_as_the_firearm,
    stroke_parameters_are_bounded_and_cannot_inject_markup,
    a_held_etag_is_answered_304_before_anything_is_drawn,
    the_media_list_and_index_agree_and_page_within_bounds,
    a_cartridge_is_drawn_to_its_overall_length_and_base_diameter,
    a_firearm_gaining_a_drawing_is_updated_and_drawn,
    an_image_file_added_under_data_is_served_as_it_is,
);

async fn builder(app: &TestApp) -> String {
    app.key(Plan::Builder).await.2
}

async fn svg_of(app: &TestApp, key: &str, path: &str) -> String {
    let response = app.get_with_key(path, key).await;
    assert_eq!(response.status(), 200, "{path}");
    assert_eq!(response.headers()["content-type"], "image/svg+xml", "{path}");
    assert!(response.headers().contains_key("etag") && response.headers().contains_key("cache-control"));
    response.text().await.unwrap()
}

/// The viewBox's width and height, and the classes of the parts drawn.
fn parsed(svg: &str) -> ((f64, f64), BTreeSet<String>) {
    let document = roxmltree::Document::parse(svg).expect("the SVG is XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let numbers: Vec<f64> =
        root.attribute("viewBox").unwrap().split(' ').map(|n| n.parse().unwrap()).collect();
    assert_eq!(&numbers[..2], [0.0, 0.0]);
    let classes = document.descendants().filter_map(|n| n.attribute("class")).map(str::to_owned).collect();
    ((numbers[2], numbers[3]), classes)
}

async fn every_silhouette_is_xml_drawn_to_the_firearms_length_and_height(app: TestApp) {
    let key = builder(&app).await;
    let catalog = load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap();
    let (mut drawn, mut refused) = (0, 0);
    for firearm in catalog.firearms.iter() {
        let path = format!("/v1/firearms/{}/silhouette", firearm.id);
        let Some(length) = firearm.overall_length_mm else {
            let (status, reason, body) = error_reason(app.get_with_key(&path, &key).await).await;
            assert_eq!((status, reason.as_str()), (404, "RESOURCE_NOT_FOUND"), "{path}");
            assert_eq!(body["error"]["details"]["missing"], serde_json::json!(["overallLengthMm"]), "{path}");
            refused += 1;
            continue;
        };
        let ((w, h), _) = parsed(&svg_of(&app, &key, &path).await);
        assert!((w - length).abs() <= 1.0, "{path}: {w} for {length}");
        if let Some(height) = firearm.height_mm {
            assert!((h - height).abs() <= 1.0, "{path}: {h} for {height}");
        }
        drawn += 1;
    }
    assert!(drawn > 400 && refused > 0, "{drawn} drawn, {refused} refused");
}

async fn layouts_are_drawn_apart(app: TestApp) {
    let key = builder(&app).await;
    let mut seen = Vec::new();
    for (id, parts) in [
        ("glock-17", &["slide", "grip", "trigger-guard"][..]),
        ("colt-python", &["cylinder", "hammer", "barrel"]),
        ("famas-f1", &["body", "grip", "magazine"]),
        ("pkm", &["feed-cover", "belt", "stock"]),
        ("ithaca-37", &["tube-magazine", "forend", "stock"]),
        ("m1-garand", &["stock", "receiver", "barrel"]),
    ] {
        let (_, classes) = parsed(&svg_of(&app, &key, &format!("/v1/firearms/{id}/silhouette")).await);
        for part in parts {
            assert!(classes.contains(*part), "{id} lacks {part}: {classes:?}");
        }
        assert!(!seen.contains(&classes), "{id} is drawn like another layout");
        seen.push(classes);
    }
    // The other views are drawn to the same scale: the top view is as long, the front as tall.
    let ((side_w, side_h), _) =
        parsed(&svg_of(&app, &key, "/v1/firearms/sig-p226/media/schematic-side").await);
    let ((top_w, top_h), _) = parsed(&svg_of(&app, &key, "/v1/firearms/sig-p226/media/schematic-top").await);
    let ((front_w, front_h), _) =
        parsed(&svg_of(&app, &key, "/v1/firearms/sig-p226/media/schematic-front").await);
    assert_eq!((top_w, front_h), (side_w, side_h));
    assert_eq!(top_h, front_w, "both show the width");
}

async fn rasters_decode_at_their_stated_size(app: TestApp) {
    let key = builder(&app).await;
    let media: Value = app.get_with_key("/v1/firearms/ak-47/media", &key).await.json().await.unwrap();
    let thumbnail = media["data"].as_array().unwrap().iter().find(|i| i["role"] == "thumbnail").unwrap();
    let response = app.get_with_key(thumbnail["url"].as_str().unwrap(), &key).await;
    assert_eq!(response.headers()["content-type"], "image/png");
    let png = Pixmap::decode_png(&response.bytes().await.unwrap()).expect("a PNG");
    assert_eq!(
        (i64::from(png.width()), i64::from(png.height())),
        (thumbnail["width"].as_i64().unwrap(), thumbnail["height"].as_i64().unwrap())
    );
    assert!(png.pixels().iter().any(|p| p.alpha() > 0), "something is drawn");
    let response = app.get_with_key("/v1/firearms/glock-17/silhouette?format=png", &key).await;
    assert_eq!(response.headers()["content-type"], "image/png");
    let png = Pixmap::decode_png(&response.bytes().await.unwrap()).unwrap();
    // 202 × 138 mm drawn 1,200 pixels wide.
    assert_eq!((png.width(), png.height()), (1200, 820));
    // The published client's sizes of a drawing: display 1,200 pixels wide, thumb 320.
    for (size, width) in [("display", 1200), ("thumb", 320)] {
        let response =
            app.get_with_key(&format!("/v1/firearms/glock-17/media/silhouette?size={size}"), &key).await;
        assert_eq!(response.headers()["content-type"], "image/png");
        assert_eq!(Pixmap::decode_png(&response.bytes().await.unwrap()).unwrap().width(), width, "{size}");
    }
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

async fn a_model_is_a_glb_as_long_tall_and_wide_as_the_firearm(app: TestApp) {
    let key = builder(&app).await;
    // The Beretta 92FS states its length, height and width (217 × 137 × 38 mm).
    let response = app.get_with_key("/v1/firearms/beretta-92fs/model", &key).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "model/gltf-binary");
    let glb = response.bytes().await.unwrap().to_vec();
    assert_eq!(&glb[..4], b"glTF");
    assert_eq!(u32_at(&glb, 4), 2, "glTF 2.0");
    assert_eq!(u32_at(&glb, 8) as usize, glb.len(), "the header states the file's length");
    let json_length = u32_at(&glb, 12) as usize;
    assert_eq!(&glb[16..20], b"JSON");
    let document: Value = serde_json::from_slice(&glb[20..20 + json_length]).unwrap();
    let bin_at = 20 + json_length;
    let bin_length = u32_at(&glb, bin_at) as usize;
    assert_eq!(&glb[bin_at + 4..bin_at + 8], b"BIN\0");
    assert_eq!(bin_at + 8 + bin_length, glb.len(), "the chunks fill the file");
    assert!(document["buffers"][0]["byteLength"].as_u64().unwrap() as usize <= bin_length);
    let bin = &glb[bin_at + 8..];
    // The positions as stored agree with the accessor's bounds, and span the firearm (metres).
    let position = &document["accessors"]
        [document["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap() as usize];
    let view = &document["bufferViews"][position["bufferView"].as_u64().unwrap() as usize];
    let (start, count) =
        (view["byteOffset"].as_u64().unwrap() as usize, position["count"].as_u64().unwrap() as usize);
    let mut low = [f32::MAX; 3];
    let mut high = [f32::MIN; 3];
    for vertex in 0..count {
        for axis in 0..3 {
            let at = start + (vertex * 3 + axis) * 4;
            let value = f32::from_le_bytes(bin[at..at + 4].try_into().unwrap());
            low[axis] = low[axis].min(value);
            high[axis] = high[axis].max(value);
        }
    }
    let stated = |v: &Value| -> Vec<f32> {
        v.as_array().unwrap().iter().map(|n| n.as_f64().unwrap() as f32).collect()
    };
    assert_eq!(stated(&position["min"]), low.to_vec());
    assert_eq!(stated(&position["max"]), high.to_vec());
    let size_mm: Vec<f64> = (0..3).map(|axis| f64::from(high[axis] - low[axis]) * 1000.0).collect();
    for (axis, expected) in [217.0, 137.0, 38.0].into_iter().enumerate() {
        assert!((size_mm[axis] - expected).abs() <= 1.0, "axis {axis}: {} for {expected}", size_mm[axis]);
    }
    // Every index names a vertex.
    let indices =
        &document["accessors"][document["meshes"][0]["primitives"][0]["indices"].as_u64().unwrap() as usize];
    let view = &document["bufferViews"][indices["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap() as usize;
    for i in 0..indices["count"].as_u64().unwrap() as usize {
        assert!((u32_at(bin, start + i * 4) as usize) < count);
    }
}

async fn stroke_parameters_are_bounded_and_cannot_inject_markup(app: TestApp) {
    let key = builder(&app).await;
    for colour in [
        "red",
        "%23abcd",
        "abc",
        "%23abc%22%2F%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "%23abc%22%20onload%3D%22x",
        "url(%23x)",
        "%23",
    ] {
        let path = format!("/v1/firearms/glock-17/silhouette?stroke_color={colour}");
        let (status, reason, body) = error_reason(app.get_with_key(&path, &key).await).await;
        assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"), "{path}");
        assert!(body["error"]["details"].get("stroke_color").is_some(), "{path}: {body}");
    }
    for width in ["0.05", "20.5", "-1", "NaN", "wide"] {
        let path = format!("/v1/firearms/glock-17/silhouette?stroke_width={width}");
        let (status, _, body) = error_reason(app.get_with_key(&path, &key).await).await;
        assert_eq!(status, 400, "{path}");
        assert!(body["error"]["details"].get("stroke_width").is_some(), "{path}: {body}");
    }
    let (status, _, body) =
        error_reason(app.get_with_key("/v1/firearms/glock-17/silhouette?format=gif", &key).await).await;
    assert_eq!(status, 400);
    assert!(body["error"]["details"].get("format").is_some());
    let svg =
        svg_of(&app, &key, "/v1/firearms/glock-17/silhouette?stroke_color=%23A0C&stroke_width=2.5").await;
    assert!(svg.contains("fill=\"#a0c\" stroke=\"#a0c\" stroke-width=\"2.5\""), "{svg}");
    let raw = svg_of(&app, &key, "/v1/firearms/glock-17/silhouette?format=raw").await;
    assert_eq!(raw, svg_of(&app, &key, "/v1/firearms/glock-17/silhouette?format=svg").await, "raw is svg");
    // The JSON forms carry the same document, as text or as a data URI.
    let json: Value =
        app.get_with_key("/v1/firearms/glock-17/silhouette?format=json", &key).await.json().await.unwrap();
    assert_eq!(json["data"]["svg"], raw.as_str());
    assert_eq!(
        (json["data"]["lengthMm"].as_f64(), json["data"]["heightMm"].as_f64()),
        (Some(202.0), Some(138.0))
    );
    let uri: Value =
        app.get_with_key("/v1/firearms/glock-17/silhouette?format=datauri", &key).await.json().await.unwrap();
    let encoded =
        uri["data"]["dataUri"].as_str().unwrap().strip_prefix("data:image/svg+xml;base64,").unwrap();
    use base64::Engine as _;
    let decoded = base64::engine::general_purpose::STANDARD.decode(encoded).unwrap();
    assert_eq!(String::from_utf8(decoded).unwrap(), raw);
}

async fn a_held_etag_is_answered_304_before_anything_is_drawn(app: TestApp) {
    let key = builder(&app).await;
    let snapshot = app.state.catalog.current();
    // The ETag is known from the record's version before the asset is drawn.
    let located = firearm_asset(&snapshot, "m1-garand", FirearmAsset::Model).unwrap();
    let etag = located.etag.as_str().to_owned();
    let held_before = snapshot.kept_assets().bytes();
    let response = app
        .client
        .get(app.url("/v1/firearms/m1-garand/model"))
        .header("x-api-key", &key)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 304);
    assert_eq!(response.headers()["etag"], etag.as_str());
    assert!(response.headers().contains_key("cache-control"));
    assert!(response.bytes().await.unwrap().is_empty());
    assert_eq!(snapshot.kept_assets().bytes(), held_before, "nothing was drawn for the 304");
    // Asked without it, the model is drawn, kept, and carries that ETag.
    let response = app.get_with_key("/v1/firearms/m1-garand/model", &key).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["etag"], etag.as_str());
    assert!(snapshot.kept_assets().bytes() > held_before);
    // Another stroke is another asset, with another ETag.
    let other =
        firearm_asset(&snapshot, "m1-garand", FirearmAsset::svg(View::Side, &Stroke::default())).unwrap();
    assert_ne!(other.etag.as_str(), etag);
}

async fn the_media_list_and_index_agree_and_page_within_bounds(app: TestApp) {
    let key = builder(&app).await;
    let media: Value = app.get_with_key("/v1/firearms/glock-17/media", &key).await.json().await.unwrap();
    let items = media["data"].as_array().unwrap();
    let roles: Vec<&str> = items.iter().map(|i| i["role"].as_str().unwrap()).collect();
    assert_eq!(
        roles,
        ["silhouette", "thumbnail", "schematic-side", "schematic-top", "schematic-front", "model"]
    );
    for item in items {
        assert_eq!(item["credit"]["source"], "generated");
        assert_eq!(item["credit"]["license"], "MIT");
        assert_eq!(item["drawnByConvention"], serde_json::json!(["widthMm"]), "height and barrel are stated");
        let response = app.get_with_key(item["url"].as_str().unwrap(), &key).await;
        assert_eq!(response.status(), 200, "{item}");
        assert_eq!(response.headers()["content-type"], item["mimeType"].as_str().unwrap(), "{item}");
        let role = item["role"].as_str().unwrap();
        let by_role = app.get_with_key(&format!("/v1/firearms/glock-17/media/{role}"), &key).await;
        assert_eq!(by_role.status(), 200, "{item}");
        // As the published client's get_media asks: the listing, in the envelope.
        let listed: Value = app
            .get_with_key(&format!("/v1/firearms/glock-17/media/{role}?format=json"), &key)
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(&listed["data"], item);
    }
    let models: Value =
        app.get_with_key("/v1/firearms/glock-17/media?kind=model", &key).await.json().await.unwrap();
    assert_eq!(models["data"].as_array().unwrap().len(), 1);
    // A firearm with nothing to draw lists nothing; asked for a drawing, it says why.
    let media: Value = app.get_with_key("/v1/firearms/benelli-m4/media", &key).await.json().await.unwrap();
    assert_eq!(media["data"], serde_json::json!([]));
    let (status, _, body) =
        error_reason(app.get_with_key("/v1/firearms/benelli-m4/media/model", &key).await).await;
    assert_eq!(status, 404);
    assert_eq!(body["error"]["details"]["missing"], serde_json::json!(["overallLengthMm"]));
    let (status, _, _) =
        error_reason(app.get_with_key("/v1/firearms/glock-17/media/gallery", &key).await).await;
    assert_eq!(status, 404, "no stored gallery image");
    let (status, _, _) = error_reason(app.get_with_key("/v1/firearms/glock-17/images/1", &key).await).await;
    assert_eq!(status, 404, "no stored image");

    // The index: 250 by default, up to 1,000, every firearm with media once, each as listed.
    let explorer = app.key(Plan::Explorer).await.2;
    let page: Value = app.get_with_key("/v1/firearms/media", &explorer).await.json().await.unwrap();
    assert_eq!(page["pagination"]["per_page"], 250);
    assert_eq!(page["data"].as_array().unwrap().len(), 250);
    let all: Value = app.get_with_key("/v1/firearms/media?per_page=1000", &key).await.json().await.unwrap();
    let listed = all["data"].as_array().unwrap();
    assert_eq!(listed.len() as u64, all["pagination"]["total"].as_u64().unwrap());
    let glock = listed.iter().find(|f| f["id"] == "glock-17").unwrap();
    assert_eq!(glock["kinds"], serde_json::json!(["silhouette", "schematic", "model"]));
    assert_eq!(glock["count"], 6);
    assert_eq!(glock["images"], serde_json::json!([]), "no stored image");
    let of_kind = |kind: &str| format!("/v1/firearms/media?kind={kind}&per_page=1");
    let models: Value = app.get_with_key(&of_kind("model"), &key).await.json().await.unwrap();
    assert_eq!(models["pagination"]["total"], all["pagination"]["total"]);
    let photos: Value = app.get_with_key(&of_kind("photo"), &key).await.json().await.unwrap();
    assert_eq!(photos["pagination"]["total"], 0);
    assert!(listed.iter().all(|f| f["id"] != "benelli-m4"));
    for bad in ["per_page=1001", "per_page=0", "page=0"] {
        let (status, reason, _) =
            error_reason(app.get_with_key(&format!("/v1/firearms/media?{bad}"), &key).await).await;
        assert_eq!((status, reason.as_str()), (400, "INVALID_PARAMETER"), "{bad}");
    }
    // Every firearm with media, and only those, has a model in the list filter.
    let with_model: Value =
        app.get_with_key("/v1/firearms?has_3d_model=true&per_page=1", &key).await.json().await.unwrap();
    assert_eq!(with_model["pagination"]["total"], all["pagination"]["total"]);
}

async fn a_cartridge_is_drawn_to_its_overall_length_and_base_diameter(app: TestApp) {
    let key = builder(&app).await;
    // 5.56×45mm NATO: 57.4 mm overall, 9.58 mm at the base (data/calibers).
    let catalog = load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap();
    let load = catalog.ammunition.iter().find(|a| a.id == "556x45mm-nato-m855").unwrap();
    let caliber = catalog.calibers.iter().find(|c| c.id == load.caliber_id).unwrap();
    let svg = svg_of(&app, &key, "/v1/ammunition/556x45mm-nato-m855/bullet.svg").await;
    let ((w, h), _) = parsed(&svg);
    assert!((w - caliber.overall_length_mm.unwrap()).abs() <= 0.01, "{w}");
    let widest = [caliber.base_diameter_mm, caliber.neck_diameter_mm, caliber.bullet_diameter_mm]
        .into_iter()
        .flatten()
        .fold(0.0, f64::max);
    assert!((h - widest).abs() <= 0.01, "{h}");
    // A load whose cartridge lacks a dimension is 404 naming it.
    let lacking = catalog
        .ammunition
        .iter()
        .find(|a| catalog.calibers.iter().any(|c| c.id == a.caliber_id && c.neck_diameter_mm.is_none()))
        .expect("a load of a cartridge without a stated neck");
    let (status, _, body) =
        error_reason(app.get_with_key(&format!("/v1/ammunition/{}/bullet.svg", lacking.id), &key).await)
            .await;
    assert_eq!(status, 404);
    let missing = body["error"]["details"]["missing"].as_array().unwrap();
    assert!(missing.iter().any(|m| m == "neckDiameterMm"), "{body}");
}

async fn a_firearm_gaining_a_drawing_is_updated_and_drawn(app: TestApp) {
    let key = builder(&app).await;
    let path = "/v1/firearms/benelli-m4/silhouette";
    assert_eq!(app.get_with_key(path, &key).await.status(), 404, "no overall length yet");
    let served = app.state.catalog.current();
    let stale_etag =
        firearm_asset(&served, "glock-17", FirearmAsset::Model).unwrap().etag.as_str().to_owned();

    // An import states the overall length (a test figure, not a catalog one).
    let mut catalog = load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("data")).unwrap();
    let firearms = catalog.firearms.typed_mut();
    std::sync::Arc::make_mut(firearms.iter_mut().find(|f| f.id == "benelli-m4").unwrap()).overall_length_mm =
        Some(1000.0);
    let revision = import::import(&app.state.db, catalog, false).await.unwrap().revision;
    let events: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT type, resource_id FROM catalog_events WHERE revision = $1 ORDER BY seq")
            .bind(revision)
            .fetch_all(app.state.db.pool())
            .await
            .unwrap();
    assert_eq!(events, [("firearm.updated".to_owned(), Some("benelli-m4".to_owned()))]);

    app.state.catalog.catch_up(revision).await.unwrap();
    let ((w, _), _) = parsed(&svg_of(&app, &key, path).await);
    assert_eq!(w, 1000.0);
    let current = app.state.catalog.current();
    // An unchanged firearm's asset keeps its ETag across the new snapshot: clients keep their copy.
    assert_eq!(firearm_asset(&current, "glock-17", FirearmAsset::Model).unwrap().etag.as_str(), stale_etag);
}

async fn an_image_file_added_under_data_is_served_as_it_is(app: TestApp) {
    let key = builder(&app).await;
    let (_copy, dir) = super::verification::data_copy();
    // A 3 × 2 PNG, added to the Glock 17's record with its own source and license.
    let mut pixmap = Pixmap::new(3, 2).unwrap();
    pixmap.fill(resvg::tiny_skia::Color::from_rgba8(200, 40, 40, 255));
    let png = pixmap.encode_png().unwrap();
    std::fs::create_dir_all(dir.join("images")).unwrap();
    std::fs::write(dir.join("images/glock-17-test.png"), &png).unwrap();
    let file = dir.join("manufacturers/glock.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let image = r#"images = [{ id = 9001, url = "https://example.com/glock-17.png", file = "images/glock-17-test.png", type = "photo", source = "test fixture", license = "CC0-1.0", altText = "A red test image", widthPx = 3, heightPx = 2 }]"#;
    let edited = text.replacen("id = \"glock-17\"\n", &format!("id = \"glock-17\"\n{image}\n"), 1);
    assert_ne!(edited, text, "the Glock 17's record is in glock.toml");
    std::fs::write(&file, edited).unwrap();
    let revision = import::import_dir(&app.state.db, &dir, false).await.unwrap().revision;
    app.state.catalog.catch_up(revision).await.unwrap();

    let path = "/v1/firearms/glock-17/images/9001";
    let response = app.get_with_key(path, &key).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/png");
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    assert_eq!(response.bytes().await.unwrap().to_vec(), png, "served as it was added");
    let again =
        app.client.get(app.url(path)).header("x-api-key", &key).header("if-none-match", &etag).send().await;
    assert_eq!(again.unwrap().status(), 304);
    // By its type or kind on the media route, and listed with its own credit.
    let by_kind = app.get_with_key("/v1/firearms/glock-17/media/photo", &key).await;
    assert_eq!(by_kind.bytes().await.unwrap().to_vec(), png);
    let media: Value =
        app.get_with_key("/v1/firearms/glock-17/media?kind=photo", &key).await.json().await.unwrap();
    let item = &media["data"][0];
    assert_eq!((item["id"].as_i64(), item["mimeType"].as_str()), (Some(9001), Some("image/png")));
    assert_eq!(item["credit"]["license"], "CC0-1.0");
    assert_eq!(item["credit"]["sourceUrl"], "https://example.com/glock-17.png");
    let index: Value = app.get_with_key("/v1/firearms/media?kind=photo", &key).await.json().await.unwrap();
    assert_eq!(index["data"][0]["images"][0]["id"], 9001);

    // A file that is not an image refuses the whole import, naming it; nothing changes.
    std::fs::write(dir.join("images/glock-17-test.png"), b"GIF89a not taken").unwrap();
    let refused = import::import_dir(&app.state.db, &dir, false).await.unwrap_err().to_string();
    assert!(
        refused.contains("images/glock-17-test.png") && refused.contains("not a PNG, JPEG or WebP"),
        "{refused}"
    );
    let response = app.get_with_key(path, &key).await;
    assert_eq!(response.bytes().await.unwrap().to_vec(), png, "the stored file is kept");
}
