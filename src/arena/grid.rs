//! Parameter grids: one base engine, a few parameters with lists of values (say search depth
//! × beam width), every combination played against the others, results as CSV.
//!
//! A parameter reaches the engine in one of two ways, so any `pbrain-*` can be tuned: a
//! `{name}` placeholder in the command line arguments is replaced by the value, and a
//! parameter no argument mentions is sent as `INFO name value` after `START` (the protocol
//! says engines ignore unknown `INFO` keys, so this never breaks one).

use super::engine::EngineSpec;
use super::stats;
use super::tournament::Standings;
use std::fmt;
use std::fmt::Write as _;

/// One grid axis: a name and the values it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridParam {
    pub name: String,
    pub values: Vec<String>,
}

/// A malformed `name=v1,v2` axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridError(pub String);

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad grid parameter {:?}: expected name=value1,value2,…",
            self.0
        )
    }
}

impl std::error::Error for GridError {}

/// Parses `name=v1,v2,…`.
pub fn parse_param(text: &str) -> Result<GridParam, GridError> {
    let bad = || GridError(text.to_string());
    let (name, vals) = text.split_once('=').ok_or_else(bad)?;
    let name = name.trim();
    let values: Vec<String> = vals
        .split(',')
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect();
    let name_ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !name_ok || values.is_empty() {
        return Err(bad());
    }
    Ok(GridParam {
        name: name.to_string(),
        values,
    })
}

/// One point of the grid: the parameter values, in axis order.
pub type GridPoint = Vec<(String, String)>;

/// Every combination of the axes (the last axis varies fastest), each with its engine.
pub fn expand(base: &EngineSpec, params: &[GridParam]) -> Vec<(GridPoint, EngineSpec)> {
    let mut points: Vec<GridPoint> = vec![Vec::new()];
    for p in params {
        points = points
            .into_iter()
            .flat_map(|pt| {
                p.values.iter().map(move |v| {
                    let mut q = pt.clone();
                    q.push((p.name.clone(), v.clone()));
                    q
                })
            })
            .collect();
    }
    points
        .into_iter()
        .map(|pt| {
            let spec = configure(base, &pt);
            (pt, spec)
        })
        .collect()
}

/// The base engine with one grid point applied, named after its values.
fn configure(base: &EngineSpec, point: &GridPoint) -> EngineSpec {
    let mut e = base.clone();
    let mut label = Vec::new();
    for (k, v) in point {
        let placeholder = format!("{{{k}}}");
        let mut used = false;
        for a in &mut e.args {
            if a.contains(&placeholder) {
                *a = a.replace(&placeholder, v);
                used = true;
            }
        }
        if !used {
            e.info.push((k.clone(), v.clone()));
        }
        label.push(format!("{k}={v}"));
    }
    if !label.is_empty() {
        e.name = format!("{}[{}]", base.name, label.join(","));
    }
    e
}

/// Quotes a CSV field when it needs it.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The results CSV: one row per grid point, its parameters, and its results against the
/// field (games, W, L, D, score, Elo with its 95% bounds).
pub fn to_csv(params: &[GridParam], points: &[GridPoint], standings: &Standings) -> String {
    let mut s = String::from("engine");
    for p in params {
        s.push(',');
        s.push_str(&csv_field(&p.name));
    }
    s.push_str(",games,wins,losses,draws,score,elo,elo_low,elo_high\n");
    for (i, pt) in points.iter().enumerate() {
        let w = standings.total(i);
        let name = standings.names.get(i).map(String::as_str).unwrap_or("");
        s.push_str(&csv_field(name));
        for (_, v) in pt {
            s.push(',');
            s.push_str(&csv_field(v));
        }
        let est = stats::elo(w);
        let num = |x: Option<f64>| x.map_or(String::new(), |v| format!("{v:.2}"));
        let _ = writeln!(
            s,
            ",{},{},{},{},{},{},{},{}",
            w.games(),
            w.wins,
            w.losses,
            w.draws,
            w.score().map_or(String::new(), |v| format!("{v:.4}")),
            num(est.map(|e| e.elo)),
            num(est.map(|e| e.low)),
            num(est.map(|e| e.high)),
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_axes() {
        let p = parse_param("depth=4, 6,8").unwrap();
        assert_eq!(p.name, "depth");
        assert_eq!(p.values, vec!["4", "6", "8"]);
        assert!(parse_param("depth").is_err());
        assert!(parse_param("=1,2").is_err());
        assert!(parse_param("de pth=1").is_err());
        assert!(parse_param("depth=").is_err());
    }

    #[test]
    fn expand_substitutes_or_sends_info() {
        let mut base = EngineSpec::new("pbrain-wuzi");
        base.args = vec!["--depth={depth}".into()];
        let params = [
            parse_param("depth=4,6").unwrap(),
            parse_param("beam=20,40,60").unwrap(),
        ];
        let v = expand(&base, &params);
        assert_eq!(v.len(), 6);
        let (pt, e) = &v[1];
        assert_eq!(
            pt,
            &vec![("depth".into(), "4".into()), ("beam".into(), "40".into())]
        );
        assert_eq!(e.args, vec!["--depth=4"]);
        assert_eq!(e.info, vec![("beam".to_string(), "40".to_string())]);
        assert_eq!(e.name, "pbrain-wuzi[depth=4,beam=40]");
        assert_eq!(expand(&base, &[]).len(), 1);
    }

    #[test]
    fn csv_rows_follow_the_points() {
        let base = EngineSpec::new("e");
        let params = [parse_param("d=1,2").unwrap()];
        let v = expand(&base, &params);
        let mut st = Standings::new(v.iter().map(|(_, e)| e.name.clone()).collect(), 2);
        st.pairs.insert((0, 1), stats::Wdl::new(3, 0, 1));
        let points: Vec<GridPoint> = v.into_iter().map(|(p, _)| p).collect();
        let csv = to_csv(&params, &points, &st);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "engine,d,games,wins,losses,draws,score,elo,elo_low,elo_high"
        );
        assert!(
            lines[1].starts_with("e[d=1],1,4,3,1,0,0.7500,190.85,"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].starts_with("e[d=2],2,4,1,3,0,0.2500,-190.85,"),
            "{}",
            lines[2]
        );
    }
}
