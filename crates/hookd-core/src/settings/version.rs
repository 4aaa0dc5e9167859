//! Version tokens: how an editor knows that a settings file is still the
//! one it showed the user.
//!
//! An editor (the desktop app's Hook editor, its Connect dialog) loads a
//! file, shows it, and saves later. In between, the agent's own `/hooks`
//! editor, the user's text editor or another hookd may have changed it. The
//! editor keeps the token of the bytes it showed and hands it back with the
//! save; a token that no longer matches the file is a conflict, and nothing
//! is written. The token is the length and a 64-bit FNV-1a hash of the bytes
//! (the same in every process and build), or `absent` for a missing file.

use std::hash::Hasher;

/// The token of a missing file.
pub const ABSENT: &str = "absent";

/// The version token of a file's bytes (`None`: the file does not exist).
/// Equal tokens mean equal bytes for every purpose here.
pub fn version_token(bytes: Option<&[u8]>) -> String {
    let Some(bytes) = bytes else {
        return ABSENT.to_owned();
    };
    let mut hasher = Fnv1a::default();
    hasher.write(bytes);
    format!("{}-{:016x}", bytes.len(), hasher.finish())
}

/// FNV-1a, 64 bit: tiny, dependency-free and the same in every process.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_tell_contents_apart() {
        assert_eq!(version_token(None), ABSENT);
        let a = version_token(Some(b"{}\n"));
        assert_eq!(a, version_token(Some(b"{}\n")));
        assert_ne!(a, version_token(Some(b"{} \n")));
        assert_ne!(version_token(Some(b"")), ABSENT);
        assert!(a.starts_with("3-"), "{a}");
        // Stable across builds: the FNV-1a of "{}\n" never changes.
        assert_eq!(a, "3-c735ad1983dc7ddd");
    }
}
