//! `export --html`: the page loaded in a real browser (headless
//! chromium), played through its own controls, and what its DOM shows
//! checked. The page reads a "|click=..." part of its fragment and clicks
//! its own buttons in turn: `--dump-dom` cannot click.

mod common;

use common::gosolve;
use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|b| {
        Command::new(b)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The page's DOM after loading `page` with `fragment`.
fn dom(browser: &str, page: &Path, fragment: &str, profile: &Path) -> String {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            &format!("--user-data-dir={}", profile.display()),
            "--dump-dom",
            &format!("file://{}#{fragment}", page.display()),
        ])
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The text of the first element with the attribute `attr` (a plain text element).
fn text_at(dom: &str, attr: &str) -> String {
    let start = dom.find(attr).unwrap_or_else(|| panic!("no {attr}"));
    let open = dom[start..].find('>').unwrap() + start + 1;
    let close = dom[open..].find('<').unwrap() + open;
    dom[open..close].replace("&amp;", "&")
}

/// The text of the element with `id`.
fn text_of(dom: &str, id: &str) -> String {
    text_at(dom, &format!("id=\"{id}\""))
}

/// The label on the point named `mv`.
fn label_of(dom: &str, mv: &str) -> String {
    text_at(dom, &format!("data-move=\"{mv}\""))
}

fn export(dir: &Path, name: &str, depth: usize) -> PathBuf {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("results")
        .join(name);
    let page = dir.join(name.replace(".gsr", ".html"));
    let (ok, _, err) = gosolve(&[
        "export",
        file.to_str().unwrap(),
        "--html",
        "--depth",
        &depth.to_string(),
        "-o",
        page.to_str().unwrap(),
    ]);
    assert!(ok, "{name}: {err}");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing fetched.
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains(" src="));
    page
}

#[test]
fn html_page_plays_in_a_real_browser() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: chromium is not installed (.ci/run installs it)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("gosolve-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let profile = dir.join("profile");

    // 2x2: open A1, play B2 and B1 by clicking, back twice, forward once.
    let page = export(&dir, "2x2-tromp-taylor.gsr", 3);
    let d = dom(browser, &page, "", &profile);
    assert_eq!(
        text_of(&d, "status"),
        "Black to move: value +1 (exact from the proof)"
    );
    assert_eq!(text_of(&d, "line"), "(the start)");
    for m in ["A1", "B1", "A2", "B2"] {
        assert_eq!(label_of(&d, m), "+1", "{m}");
    }
    assert_eq!(text_of(&d, "pass"), "pass -1");
    let d = dom(browser, &page, "A1|click=B2,B1,back,back,forward", &profile);
    assert_eq!(text_of(&d, "line"), "A1 B2");
    assert_eq!(
        text_of(&d, "status"),
        "Black to move: value +1 (exact from the proof)"
    );
    assert_eq!(label_of(&d, "A2"), "+1");
    assert_eq!(label_of(&d, "B1"), "+1");
    // White's other replies to A1 were searched: outside the proof, and said so.
    let d = dom(browser, &page, "A1|click=A2", &profile);
    assert_eq!(text_of(&d, "line"), "A1 A2");
    assert_eq!(
        text_of(&d, "status"),
        "Black to move: value +4 (searched now)"
    );
    assert_eq!(
        text_of(&d, "note"),
        "Outside the proof: this value was searched now."
    );
    let d = dom(browser, &page, "A1,B2,B1", &profile);
    assert_eq!(
        text_of(&d, "note"),
        "Beyond the exported depth (3 turns): no values here."
    );

    // 3x3 after B1: White's B2 keeps +3, the rest give Black +9.
    let page = export(&dir, "3x3-tromp-taylor.gsr", 2);
    let d = dom(browser, &page, "|click=B1", &profile);
    assert_eq!(
        text_of(&d, "status"),
        "White to move: value +3 (exact from the proof)"
    );
    assert_eq!(label_of(&d, "B2"), "+3");
    assert_eq!(label_of(&d, "A1"), "+9");

    // 2x4, a 1xn and a graph load with their values.
    for (name, value) in [
        ("2x4-tromp-taylor.gsr", "+8"),
        ("1x5-tromp-taylor.gsr", "0"),
        ("cycle-6-tromp-taylor.gsr", "+1"),
    ] {
        let page = export(&dir, name, 2);
        let d = dom(browser, &page, "", &profile);
        assert_eq!(
            text_of(&d, "status"),
            format!("Black to move: value {value} (exact from the proof)"),
            "{name}"
        );
        if name.starts_with("cycle") {
            assert!(text_of(&d, "note").contains("edges: 0-1 0-5 1-2"), "{name}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cgt --html`: the regions, the value and the thermograph on one page,
/// as a browser shows it.
#[test]
fn cgt_page_shows_the_value_and_thermograph_in_a_real_browser() {
    let dir = std::env::temp_dir().join(format!("gosolve-cgt-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("g.html");
    let (ok, _, err) = gosolve(&[
        "cgt",
        "eye:2 + corridor:blocked:3",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    // A folder where the page should go.
    let (ok, _, err) = gosolve(&["cgt", "*", "--html", dir.to_str().unwrap()]);
    assert!(!ok && !err.is_empty());
    let Some(browser) = chromium() else {
        eprintln!("skipped the browser part: chromium is not installed (.ci/run installs it)");
        std::fs::remove_dir_all(&dir).unwrap();
        return;
    };
    let d = dom(browser, &page, "", &dir.join("profile"));
    assert_eq!(text_of(&d, "value"), "{4|{3|2*}}");
    assert_eq!(text_of(&d, "mean"), "13/4");
    assert_eq!(text_of(&d, "temperature"), "3/4");
    assert_eq!(
        text_of(&d, "black-first"),
        "wins with B2 in term 2 (corridor:blocked:3), leaving 4"
    );
    assert!(
        d.contains("<pre class=\"region\">3 B B B B B\n2 W . . . B"),
        "{d}"
    );
    assert!(d.contains("<div id=\"thermograph\">") && d.contains("<polyline"));
    std::fs::remove_dir_all(&dir).unwrap();
}
