//! How the window's WebKitGTK view draws. hookd's window is lists and forms,
//! so it renders on the CPU: WebKit's accelerated compositing loads a GL
//! stack (Mesa's llvmpipe where there is no GPU) into the web process, which
//! measured about 80 MiB more idle memory and a slower first paint for no
//! visible gain (`docs/benchmarks.md`). [`GPU_ENV`]`=1` keeps WebKit's own
//! choice for anyone who wants it back.

use tauri::{Runtime, WebviewWindow};

/// Set to `1` to leave WebKitGTK's hardware acceleration policy at its default.
pub const GPU_ENV: &str = "HOOKD_DESKTOP_GPU";

/// Whether the window should render on the CPU, given [`GPU_ENV`]'s value.
pub fn cpu_rendering(gpu_env: Option<&str>) -> bool {
    gpu_env.map(str::trim) != Some("1")
}

/// Switches `window`'s web view to CPU rendering unless [`GPU_ENV`] says
/// otherwise; a failure is logged and the window keeps WebKit's default.
pub fn apply<R: Runtime>(window: &WebviewWindow<R>) {
    if !cpu_rendering(std::env::var(GPU_ENV).ok().as_deref()) {
        tracing::info!("{GPU_ENV}=1: WebKit's hardware acceleration left at its default");
        return;
    }
    #[cfg(target_os = "linux")]
    if let Err(err) = window.with_webview(|webview| {
        use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
        match WebViewExt::settings(&webview.inner()) {
            Some(settings) => {
                settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
            }
            None => {
                tracing::warn!("the web view has no settings; rendering left at WebKit's default");
            }
        }
    }) {
        tracing::warn!(error = %err, "cannot switch the window to CPU rendering");
    }
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}

#[cfg(test)]
mod tests {
    use super::cpu_rendering;

    #[test]
    fn cpu_unless_the_variable_is_one() {
        assert!(cpu_rendering(None));
        assert!(cpu_rendering(Some("")));
        assert!(cpu_rendering(Some("0")));
        assert!(!cpu_rendering(Some("1")));
        assert!(!cpu_rendering(Some(" 1\n")));
    }
}
