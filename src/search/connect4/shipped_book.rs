//! Which opening book the engine plays from: the 7×6 book built into the binary, another
//! file named by `INFO c4_book`, or none.
//!
//! The shipped book (`book-7x6.bin` beside this file, built by `pbrain-wuzi solve --book`,
//! see docs/tuning.md and docs/connect4.md) is compiled in, so the Gomocup's single executable carries it. It is checked
//! like any file when first used. A book that cannot be used (missing file, wrong size,
//! wrong hash) is never fatal: the engine logs one warning (stderr, `log` crate) and plays
//! by search, as without a book. Each source is read and checked once per process.

use super::book::Book;
use super::data_source::{source, Kind, LastFile, Source};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The book built into the binary.
static SHIPPED_BYTES: &[u8] = include_bytes!("book-7x6.bin");

const KIND: Kind = Kind {
    name: "opening book",
    without: "playing by search alone",
};

/// The book a `c4_book` option value asks for: the shipped one when `None` (or `shipped`),
/// none for `none`/`off`/`0`, otherwise the file at that path. `None` when there is no
/// usable book; the reason was logged.
pub fn book_for(option: Option<&str>) -> Option<Arc<Book>> {
    match source(option) {
        Source::Shipped => shipped(),
        Source::Off => None,
        Source::File(path) => {
            static LAST: LastFile<Book> = LastFile::new();
            LAST.get(path, |p| KIND.checked(p, Book::load(Path::new(p))))
        }
    }
}

/// The shipped book, checked once.
fn shipped() -> Option<Arc<Book>> {
    static BOOK: OnceLock<Option<Arc<Book>>> = OnceLock::new();
    BOOK.get_or_init(|| KIND.checked("the built-in book", Book::from_bytes(SHIPPED_BYTES)))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_book_is_valid_and_for_7x6() {
        let book = book_for(None).expect("the shipped book loads");
        assert_eq!((book.width, book.height, book.k), (7, 6, 4));
        assert!(!book.is_empty());
        assert!(Arc::ptr_eq(&book, &book_for(Some("shipped")).unwrap()));
    }

    #[test]
    fn off_missing_and_corrupt_give_no_book() {
        assert!(book_for(Some("none")).is_none());
        assert!(book_for(Some("OFF")).is_none());
        assert!(book_for(Some("/nonexistent/wuzi.book")).is_none());
        let dir = std::env::temp_dir().join(format!("wuzi-shipped-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.book");
        let mut bytes = SHIPPED_BYTES.to_vec();
        let last = bytes.len() - 20;
        bytes[last] ^= 1;
        std::fs::write(&bad, &bytes).unwrap();
        assert!(book_for(bad.to_str()).is_none());
        let good = dir.join("good.book");
        std::fs::write(&good, SHIPPED_BYTES).unwrap();
        assert!(book_for(good.to_str()).is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
