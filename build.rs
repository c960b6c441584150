//! Embeds a digest of the program's source (`GOSOLVE_SOURCE`): resume files
//! (`src/store/resume.rs`) are taken only by a build of the same source, since
//! the package version stays the same through search and rules changes.

use std::path::Path;

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src is readable").flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    let mut paths = Vec::new();
    files(Path::new("src"), &mut paths);
    paths.sort();
    // FNV-1a over each path and its bytes.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in &paths {
        let bytes = std::fs::read(p).expect("a source file is readable");
        for &b in p.to_string_lossy().as_bytes().iter().chain(&bytes) {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=GOSOLVE_SOURCE={h:016x}");
}
