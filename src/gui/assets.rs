//! The page's files, built into the binary: a fixed table from URL path to
//! bytes. No part of a request ever reaches the filesystem; a path that is not
//! in the table is not found, whatever dots or escapes it holds.

/// One served file.
#[derive(Clone, Copy, Debug)]
pub struct Asset {
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static [u8],
}

const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const HTML: &str = "text/html; charset=utf-8";
const TEXT: &str = "text/plain; charset=utf-8";
const SVG: &str = "image/svg+xml";

macro_rules! asset {
    ($path:literal, $type:expr, $file:literal) => {
        Asset {
            path: $path,
            content_type: $type,
            body: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/gui/", $file)),
        }
    };
}

/// Every file the server serves, by the exact path it answers to.
pub const ASSETS: &[Asset] = &[
    asset!("/", HTML, "page/index.html"),
    asset!("/app.js", JS, "page/app.js"),
    asset!("/app.css", CSS, "page/app.css"),
    asset!("/favicon.svg", SVG, "page/favicon.svg"),
    asset!(
        "/vendor/chessground.min.js",
        JS,
        "vendor/chessground/chessground.min.js"
    ),
    asset!(
        "/vendor/chessground.base.css",
        CSS,
        "vendor/chessground/chessground.base.css"
    ),
    asset!(
        "/vendor/chessground.brown.css",
        CSS,
        "vendor/chessground/chessground.brown.css"
    ),
    asset!(
        "/vendor/chessground.cburnett.css",
        CSS,
        "vendor/chessground/chessground.cburnett.css"
    ),
    asset!("/vendor/LICENSE", TEXT, "vendor/chessground/LICENSE"),
    asset!("/vendor/VERSION", TEXT, "vendor/chessground/VERSION"),
];

/// The file served at exactly `path`, if there is one.
pub fn find(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|asset| asset.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_table_is_served() {
        assert!(find("/").is_some());
        assert!(find("/vendor/chessground.min.js").is_some());
        for path in [
            "/../Cargo.toml",
            "/%2e%2e/Cargo.toml",
            "/vendor/../app.js",
            "/vendor/chessground/LICENSE",
            "//etc/passwd",
            "/app.js/",
            "",
        ] {
            assert!(find(path).is_none(), "{path}");
        }
    }
}
