//! The SVG figure of a run, in the style of the paper's Figures 3–6: the minimum, median and
//! maximum of each generation, the Vanilla and Random means over all generations, and for
//! MinS the lowest score a game can have.
use std::fmt::Write as _;

use super::checkpoint::Row;
use crate::match3::Goal;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// One drawn series: its name, colour, dash pattern and values per generation.
struct Series<'a> {
    name: &'a str,
    colour: &'a str,
    dash: &'a str,
    values: Vec<f64>,
}

/// The figure for `rows` of a run with `goal`; `floor` is the lowest possible score, drawn
/// for MinS.
pub fn svg(rows: &[Row], goal: Goal, title: &str, floor: Option<f64>) -> String {
    let n = rows.len();
    let average = |f: fn(&Row) -> f64| rows.iter().map(f).sum::<f64>() / n.max(1) as f64;
    let flat = |value: f64| vec![value; n];
    let mut series = vec![
        Series {
            name: "max",
            colour: "#2a9d3f",
            dash: "",
            values: rows.iter().map(|r| r.max).collect(),
        },
        Series {
            name: "median",
            colour: "#e07b00",
            dash: "",
            values: rows.iter().map(|r| r.median).collect(),
        },
        Series {
            name: "min",
            colour: "#1f5fbf",
            dash: "",
            values: rows.iter().map(|r| r.min).collect(),
        },
        Series {
            name: "Vanilla mean",
            colour: "#7a3db8",
            dash: "8 4",
            values: flat(average(|r| r.vanilla)),
        },
        Series {
            name: "Random mean",
            colour: "#555555",
            dash: "3 3",
            values: flat(average(|r| r.random)),
        },
    ];
    if let Some(floor) = floor {
        series.push(Series {
            name: "lowest possible",
            colour: "#e0408a",
            dash: "",
            values: flat(floor),
        });
    }
    let all = series.iter().flat_map(|s| s.values.iter().copied());
    let (low, high) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let (low, high, step) = axis(low, high);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |g: usize| LEFT + plot_w * g as f64 / (n.max(2) - 1) as f64;
    let y = |v: f64| TOP + plot_h * (1.0 - (v - low) / (high - low));

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"#,
        LEFT + plot_w / 2.0,
        escape(title)
    );
    // Horizontal grid and value labels.
    let mut tick = low;
    while tick <= high + step / 2.0 {
        let ty = y(tick);
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" y1="{ty:.1}" x2="{:.1}" y2="{ty:.1}" stroke="#dddddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT + plot_w,
            LEFT - 6.0,
            ty + 4.0,
            label(tick, step)
        );
        tick += step;
    }
    // Generation labels, about eight.
    let every = n.div_ceil(8).max(1);
    for g in (0..n).step_by(every) {
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{g}</text>"#,
            x(g),
            TOP + plot_h + 18.0
        );
    }
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333333"/>"##
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">generation</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 12.0
    );
    let unit = match goal {
        Goal::MaxScore | Goal::MinScore => "score after the game",
        Goal::MaxMoves | Goal::MinMoves => "average available moves",
    };
    let _ = writeln!(
        out,
        r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">{unit}</text>"#,
        TOP + plot_h / 2.0
    );
    for (i, s) in series.iter().enumerate() {
        let points: Vec<String> = s
            .values
            .iter()
            .enumerate()
            .map(|(g, &v)| format!("{:.1},{:.1}", x(g), y(v)))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline fill="none" stroke="{}" stroke-width="2" stroke-dasharray="{}" points="{}"/>"#,
            s.colour,
            s.dash,
            points.join(" ")
        );
        let ly = TOP + 10.0 + 20.0 * i as f64;
        let lx = WIDTH - RIGHT + 15.0;
        let _ = writeln!(
            out,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{}" stroke-width="2" stroke-dasharray="{}"/><text x="{}" y="{}">{}</text>"#,
            lx + 25.0,
            s.colour,
            s.dash,
            lx + 32.0,
            ly + 4.0,
            s.name
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A rounded axis range around [low, high] and its tick step (1, 2 or 5 times a power of
/// ten, about six ticks).
fn axis(low: f64, high: f64) -> (f64, f64, f64) {
    let (low, high) = if low.is_finite() && high.is_finite() {
        (low, high)
    } else {
        (0.0, 1.0)
    };
    let span = (high - low).max(1e-9);
    let raw = span / 6.0;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * power);
    let low = (low / step).floor() * step;
    let high = ((high / step).ceil() * step).max(low + step);
    (low, high, step)
}

fn label(value: f64, step: f64) -> String {
    if step >= 1.0 {
        format!("{value:.0}")
    } else {
        let digits = (-step.log10().floor()) as usize;
        format!("{value:.digits$}")
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match3::Program;

    fn row(g: usize, min: f64, max: f64) -> Row {
        Row {
            generation: g,
            min,
            median: (min + max) / 2.0,
            max,
            mean: (min + max) / 2.0,
            vanilla: 3000.0,
            random: 2500.0,
            target: None,
            best: Program::sample(),
        }
    }

    #[test]
    fn the_figure_draws_every_series_and_the_floor() {
        let rows: Vec<Row> = (0..5)
            .map(|g| row(g, 1800.0 - 50.0 * g as f64, 2600.0))
            .collect();
        let svg = svg(&rows, Goal::MinScore, "MinS <seed 1>", Some(1200.0));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 6);
        assert!(svg.contains("lowest possible") && svg.contains("MinS &lt;seed 1&gt;"));
        // The axis reaches down to the floor.
        assert!(svg.contains(">1200<") || svg.contains(">1000<"));
        let plain = super::svg(&rows, Goal::MaxScore, "MaxS", None);
        assert_eq!(plain.matches("<polyline").count(), 5);
    }

    #[test]
    fn axes_round_to_readable_steps() {
        assert_eq!(axis(1234.0, 5678.0), (1000.0, 6000.0, 1000.0));
        assert_eq!(axis(3.2, 4.9), (3.0, 5.0, 0.5));
        let (lo, hi, step) = axis(5.0, 5.0);
        assert!(lo <= 5.0 && hi > lo && step > 0.0);
    }
}
