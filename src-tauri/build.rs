//! Tauri's build step, plus a placeholder UI when `ui/dist` was not built, so
//! `cargo build --workspace` works on a machine that has no Node toolchain
//! (the app then shows how to build the real UI).

use std::path::Path;

const PLACEHOLDER: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>hookd</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { display: grid; place-items: center; min-height: 90vh; margin: 0; }
  main { max-width: 34rem; padding: 2rem; line-height: 1.5; }
  code { font-family: ui-monospace, monospace; padding: 0.1em 0.3em; border-radius: 4px; background: rgba(127,127,127,0.18); }
</style>
</head>
<body>
<main id="placeholder">
  <h1>hookd</h1>
  <p>UI not built: run <code>npm install &amp;&amp; npm run build</code> in <code>ui/</code>, then rebuild the app.</p>
  <p>The daemon, the tray and the commands work without it.</p>
</main>
</body>
</html>
"#;

fn main() {
    let dist = Path::new("../ui/dist");
    let index = dist.join("index.html");
    if !index.exists() {
        println!(
            "cargo:warning=ui/dist/index.html is missing: embedding a placeholder page. Build the UI with `npm install && npm run build` in ui/."
        );
        if let Err(err) =
            std::fs::create_dir_all(dist).and_then(|()| std::fs::write(&index, PLACEHOLDER))
        {
            println!("cargo:warning=cannot write the placeholder UI in ui/dist: {err}");
        }
    }
    println!("cargo:rerun-if-changed=../ui/dist");
    tauri_build::build();
}
