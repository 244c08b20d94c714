//! Reading back the JSON the arena writes (`games.jsonl`), for `--resume`, `merge` and
//! `status`. The crate takes no serialisation dependency (see `record`), and the lines are
//! its own, so a small strict reader is enough; strict because a line cut by a killed
//! process must fail to parse rather than yield half a game.
//!
//! Numbers keep their text: seeds and timestamps are 64-bit integers a float would round.

use std::fmt;

/// A parsed JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// The number as written.
    Number(String),
    String(String),
    Array(Vec<Value>),
    /// Members in order of appearance.
    Object(Vec<(String, Value)>),
}

/// Where and why a text is not JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    pub offset: usize,
    pub what: &'static str,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.what, self.offset)
    }
}

impl std::error::Error for JsonError {}

impl Value {
    /// A member of an object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
}

/// Parses one complete JSON text (surrounding whitespace allowed, nothing else).
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("trailing characters"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, what: &'static str) -> JsonError {
        JsonError {
            offset: self.i,
            what,
        }
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn expect(&mut self, b: u8, what: &'static str) -> Result<(), JsonError> {
        self.ws();
        if self.peek() != Some(b) {
            return Err(self.err(what));
        }
        self.i += 1;
        Ok(())
    }

    fn value(&mut self) -> Result<Value, JsonError> {
        self.ws();
        match self.peek() {
            None => Err(self.err("unexpected end")),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => Ok(self.number()),
            Some(_) => {
                for (word, v) in [
                    ("null", Value::Null),
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                ] {
                    if self.s[self.i..].starts_with(word.as_bytes()) {
                        self.i += word.len();
                        return Ok(v);
                    }
                }
                Err(self.err("unexpected character"))
            }
        }
    }

    /// The elements of `[…]` or `{…}` between `open` and `close`, each read by `item`.
    fn list<T>(
        &mut self,
        open: u8,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Result<T, JsonError>,
    ) -> Result<Vec<T>, JsonError> {
        self.expect(open, "expected a bracket")?;
        let mut out = Vec::new();
        self.ws();
        if self.peek() == Some(close) {
            self.i += 1;
            return Ok(out);
        }
        loop {
            out.push(item(self)?);
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(c) if c == close => {
                    self.i += 1;
                    return Ok(out);
                }
                _ => return Err(self.err("expected , or a closing bracket")),
            }
        }
    }

    fn object(&mut self) -> Result<Value, JsonError> {
        let members = self.list(b'{', b'}', |p| {
            p.ws();
            let k = p.string()?;
            p.expect(b':', "expected :")?;
            Ok((k, p.value()?))
        })?;
        Ok(Value::Object(members))
    }

    fn array(&mut self) -> Result<Value, JsonError> {
        Ok(Value::Array(self.list(b'[', b']', Self::value)?))
    }

    fn number(&mut self) -> Value {
        let start = self.i;
        while self.i < self.s.len()
            && matches!(
                self.s[self.i],
                b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
            )
        {
            self.i += 1;
        }
        Value::Number(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let h = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.err("bad \\u escape"))?;
        self.i += 4;
        Ok(h)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.expect(b'"', "expected a string")?;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(self.err("unterminated string"));
            };
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = self.peek().ok_or_else(|| self.err("unterminated string"))?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xd800..0xdc00).contains(&hi)
                                && self.s[self.i..].starts_with(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4()?;
                                0x10000 + ((hi - 0xd800) << 10) + (lo.wrapping_sub(0xdc00) & 0x3ff)
                            } else {
                                hi
                            };
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => return Err(self.err("bad escape")),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c if c < 0x20 => return Err(self.err("control character in string")),
                c => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| self.err("invalid UTF-8"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_objects_arrays_and_escapes() {
        let v = parse(
            r#" {"id":12,"name":"a \"b\" \u00e9\ud83d\ude00","m":[[1,2],[]],"x":null,"ok":true} "#,
        )
        .unwrap();
        assert_eq!(v.get("id").and_then(Value::as_u64), Some(12));
        assert_eq!(v.get("name").and_then(Value::as_str), Some("a \"b\" é😀"));
        assert_eq!(
            v.get("m"),
            Some(&Value::Array(vec![
                Value::Array(vec![Value::Number("1".into()), Value::Number("2".into())]),
                Value::Array(vec![])
            ]))
        );
        assert_eq!(v.get("x"), Some(&Value::Null));
        assert_eq!(v.get("ok"), Some(&Value::Bool(true)));
        // 64-bit integers survive exactly
        let big = parse("18446744073709551615").unwrap();
        assert_eq!(big.as_u64(), Some(u64::MAX));
    }

    #[test]
    fn a_cut_line_is_an_error() {
        let line = r#"{"id":3,"detail":"x","moves":[[1,2]]}"#;
        assert!(parse(line).is_ok());
        for cut in 1..line.len() {
            assert!(parse(&line[..cut]).is_err(), "{}", &line[..cut]);
        }
        assert!(parse(r#"{"a":1} x"#).is_err());
        assert!(parse("\"a\nb\"").is_err());
    }
}
