//! Where the Connect Four player's data (opening book, n-tuple network) comes from: the
//! copy built into the binary, a file named by an `INFO` option, or none; and the rules
//! both keep: a source that cannot be used costs one warning and the player goes on without
//! it, and a file is read and checked once per path, not every move.

use parking_lot::Mutex;
use std::fmt::Display;
use std::sync::Arc;

/// Option values that turn the data off.
const OFF: [&str; 3] = ["none", "off", "0"];

/// What an option value asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source<'a> {
    /// The built-in copy: no value, an empty one, or `shipped`.
    Shipped,
    /// `none`, `off` or `0` (any case).
    Off,
    /// Anything else: a path.
    File(&'a str),
}

/// Reads an option value.
pub fn source(option: Option<&str>) -> Source<'_> {
    match option.map(str::trim) {
        None | Some("") | Some("shipped") => Source::Shipped,
        Some(v) if OFF.contains(&v.to_ascii_lowercase().as_str()) => Source::Off,
        Some(path) => Source::File(path),
    }
}

/// What a data kind says in its warning: its name and what the player does without it.
pub struct Kind {
    pub name: &'static str,
    pub without: &'static str,
}

impl Kind {
    /// The loaded value, or one warning and `None`.
    pub fn checked<T, E: Display>(&self, what: &str, loaded: Result<T, E>) -> Option<Arc<T>> {
        match loaded {
            Ok(v) => Some(Arc::new(v)),
            Err(e) => {
                log::warn!("Connect Four {} {what}: {e}; {}", self.name, self.without);
                None
            }
        }
    }
}

/// The value of the last file path asked for, kept so that a game neither rereads the file
/// every move nor repeats its warning.
pub struct LastFile<T>(Mutex<Option<(String, Option<Arc<T>>)>>);

impl<T> Default for LastFile<T> {
    fn default() -> LastFile<T> {
        LastFile::new()
    }
}

impl<T> LastFile<T> {
    pub const fn new() -> LastFile<T> {
        LastFile(Mutex::new(None))
    }

    /// The value for `path`: the kept one when `path` is the last path asked for, else
    /// `load(path)` (kept, usable or not).
    pub fn get(&self, path: &str, load: impl FnOnce(&str) -> Option<Arc<T>>) -> Option<Arc<T>> {
        let mut last = self.0.lock();
        if let Some((p, v)) = last.as_ref() {
            if p == path {
                return v.clone();
            }
        }
        let v = load(path);
        *last = Some((path.to_string(), v.clone()));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn option_values_name_a_source() {
        assert_eq!(source(None), Source::Shipped);
        assert_eq!(source(Some(" ")), Source::Shipped);
        assert_eq!(source(Some("shipped")), Source::Shipped);
        assert_eq!(source(Some("OFF")), Source::Off);
        assert_eq!(source(Some("0")), Source::Off);
        assert_eq!(source(Some(" a/b.bin ")), Source::File("a/b.bin"));
    }

    #[test]
    fn a_path_is_loaded_once_until_another_is_asked_for() {
        let cache = LastFile::<u32>::new();
        let loads = Cell::new(0);
        let load = |p: &str| {
            loads.set(loads.get() + 1);
            (p != "bad").then(|| Arc::new(p.len() as u32))
        };
        assert_eq!(cache.get("ab", load).as_deref(), Some(&2));
        assert_eq!(cache.get("ab", load).as_deref(), Some(&2));
        assert_eq!(loads.get(), 1);
        assert_eq!(cache.get("bad", load), None);
        assert_eq!(cache.get("bad", load), None);
        assert_eq!(loads.get(), 2);
        assert_eq!(cache.get("ab", load).as_deref(), Some(&2));
        assert_eq!(loads.get(), 3);
    }
}
