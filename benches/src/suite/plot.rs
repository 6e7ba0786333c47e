//! Plots with plotters, each written as SVG and PNG: cost against men on the
//! board (one colour per implementation, least-squares line, r in the
//! legend), per-bucket bars with interval whiskers, and stacked bars of
//! named terms (generic, for the eval per-term breakdown). Text is drawn
//! with a font committed into the repository (DejaVu Sans, see
//! assets/DejaVuSans-LICENSE.txt) and loaded from bytes, so no system font
//! is needed. [`plots_for`] draws a benchmark's report.

use crate::measure::runner::Role;
use crate::suite::report::BenchReport;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::{Path, PathBuf};
use std::sync::Once;

static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";
const SIZE: (u32, u32) = (1000, 640);

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are a valid TrueType font committed with the crate.
        if plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_err() {
            unreachable!("the bundled font parses");
        }
    });
}

/// Colour of series `i`.
pub fn colour(i: usize) -> RGBColor {
    const C: [RGBColor; 12] = [
        RGBColor(0x1f, 0x77, 0xb4),
        RGBColor(0xd6, 0x27, 0x28),
        RGBColor(0x2c, 0xa0, 0x2c),
        RGBColor(0xff, 0x7f, 0x0e),
        RGBColor(0x94, 0x67, 0xbd),
        RGBColor(0x8c, 0x56, 0x4b),
        RGBColor(0xe3, 0x77, 0xc2),
        RGBColor(0x17, 0xbe, 0xcf),
        RGBColor(0xbc, 0xbd, 0x22),
        RGBColor(0x7f, 0x7f, 0x7f),
        RGBColor(0xae, 0xc7, 0xe8),
        RGBColor(0xff, 0xbb, 0x78),
    ];
    C[i % C.len()]
}

/// One implementation's points of cost against men.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Least-squares (slope, intercept).
    pub fit: Option<(f64, f64)>,
    pub r: Option<f64>,
}

/// A bar with an interval.
#[derive(Clone, Debug)]
pub struct Bar {
    pub value: f64,
    pub interval: [f64; 2],
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Render `draw` into `stem.svg` and `stem.png`; returns both paths.
fn both(
    stem: &Path,
    draw_svg: impl Fn(DrawingArea<SVGBackend, Shift>) -> DrawResult<SVGBackend>,
    draw_png: impl Fn(DrawingArea<BitMapBackend, Shift>) -> DrawResult<BitMapBackend>,
) -> Result<Vec<PathBuf>, String> {
    register_font();
    let svg = stem.with_extension("svg");
    let png = stem.with_extension("png");
    {
        let root = SVGBackend::new(&svg, SIZE).into_drawing_area();
        draw_svg(root.clone()).map_err(|e| format!("plot {}: {e}", svg.display()))?;
        root.present().map_err(|e| format!("plot {}: {e}", svg.display()))?;
    }
    {
        let root = BitMapBackend::new(&png, SIZE).into_drawing_area();
        draw_png(root.clone()).map_err(|e| format!("plot {}: {e}", png.display()))?;
        root.present().map_err(|e| format!("plot {}: {e}", png.display()))?;
    }
    Ok(vec![svg, png])
}

fn upper(max: f64) -> f64 {
    if max.is_finite() && max > 0.0 {
        max * 1.12
    } else {
        1.0
    }
}

fn scatter<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    y_label: &str,
    series: &[Series],
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let (x0, x1) = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
    let (x0, x1) = if x0.is_finite() { (x0 - 1.0, x1 + 1.0) } else { (0.0, 33.0) };
    let ymax = upper(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(0.0, f64::max));
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FAMILY, 26))
        .margin(16)
        .x_label_area_size(46)
        .y_label_area_size(80)
        .build_cartesian_2d(x0..x1, 0.0..ymax)?;
    chart
        .configure_mesh()
        .x_desc("men on the board")
        .y_desc(y_label)
        .label_style((FAMILY, 16))
        .axis_desc_style((FAMILY, 18))
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let c = colour(i);
        chart.draw_series(s.points.iter().map(|&(x, y)| Circle::new((x, y), 4, c.filled())))?;
        let label = match s.r {
            Some(r) => format!("{} (r = {r:.3})", s.name),
            None => s.name.clone(),
        };
        match s.fit {
            Some((slope, icept)) => {
                chart
                    .draw_series(LineSeries::new(
                        [x0 + 1.0, x1 - 1.0].map(|x| (x, slope * x + icept)),
                        ShapeStyle::from(&c).stroke_width(2),
                    ))?
                    .label(label)
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(3)));
            }
            None => {
                chart
                    .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())?
                    .label(label)
                    .legend(move |(x, y)| Circle::new((x + 10, y), 4, c.filled()));
            }
        }
    }
    chart
        .configure_series_labels()
        .label_font((FAMILY, 16))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    Ok(())
}

/// Cost per call against men on the board, with fit lines and r.
pub fn cost_vs_men(stem: &Path, title: &str, y_label: &str, series: &[Series]) -> Result<Vec<PathBuf>, String> {
    both(stem, |r| scatter(r, title, y_label, series), |r| scatter(r, title, y_label, series))
}

fn grouped<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    y_label: &str,
    groups: &[String],
    names: &[String],
    bars: &[Vec<Bar>],
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let n = groups.len().max(1) as f64;
    let ymax = upper(bars.iter().flatten().map(|b| b.interval[1].max(b.value)).fold(0.0, f64::max));
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FAMILY, 26))
        .margin(16)
        .x_label_area_size(46)
        .y_label_area_size(80)
        .build_cartesian_2d(0.0..n, 0.0..ymax)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc(y_label)
        .label_style((FAMILY, 16))
        .axis_desc_style((FAMILY, 18))
        .draw()?;
    group_labels(&root, &chart, groups)?;
    let k = names.len().max(1) as f64;
    let w = 0.8 / k;
    for (s, name) in names.iter().enumerate() {
        let c = colour(s);
        let rects = bars.iter().enumerate().filter_map(|(g, row)| {
            let b = row.get(s)?;
            let left = g as f64 + 0.1 + s as f64 * w;
            Some(Rectangle::new([(left, 0.0), (left + w * 0.9, b.value)], c.filled()))
        });
        chart
            .draw_series(rects)?
            .label(name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
        for (g, row) in bars.iter().enumerate() {
            if let Some(b) = row.get(s) {
                let mid = g as f64 + 0.1 + s as f64 * w + w * 0.45;
                let cap = w * 0.2;
                let [lo, hi] = b.interval;
                chart.draw_series([
                    PathElement::new(vec![(mid, lo), (mid, hi)], BLACK.stroke_width(2)),
                    PathElement::new(vec![(mid - cap, lo), (mid + cap, lo)], BLACK.stroke_width(2)),
                    PathElement::new(vec![(mid - cap, hi), (mid + cap, hi)], BLACK.stroke_width(2)),
                ])?;
            }
        }
    }
    chart
        .configure_series_labels()
        .label_font((FAMILY, 16))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    Ok(())
}

/// Group names centred under each group, below the x axis.
fn group_labels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &ChartContext<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    names: &[String],
) -> DrawResult<DB> {
    let style = TextStyle::from((FAMILY, 18).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    for (g, name) in names.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(g as f64 + 0.5, 0.0));
        root.draw_text(name, &style, (x, y + 10))?;
    }
    Ok(())
}

/// Grouped bars (one group per bucket, one bar per implementation) with
/// interval whiskers. `bars[g][s]` is series `s` in group `g`.
pub fn bucket_bars(
    stem: &Path,
    title: &str,
    y_label: &str,
    groups: &[String],
    names: &[String],
    bars: &[Vec<Bar>],
) -> Result<Vec<PathBuf>, String> {
    both(stem, |r| grouped(r, title, y_label, groups, names, bars), |r| grouped(r, title, y_label, groups, names, bars))
}

fn stacked<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    y_label: &str,
    bars: &[(String, Vec<(String, f64)>)],
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let mut terms: Vec<String> = Vec::new();
    for (_, parts) in bars {
        for (t, _) in parts {
            if !terms.contains(t) {
                terms.push(t.clone());
            }
        }
    }
    let n = bars.len().max(1) as f64;
    let ymax = upper(bars.iter().map(|(_, p)| p.iter().map(|(_, v)| v.max(0.0)).sum::<f64>()).fold(0.0, f64::max));
    let labels: Vec<String> = bars.iter().map(|(l, _)| l.clone()).collect();
    // Room on the right for the legend, clear of the bars.
    let legend_room = (n * 0.45).max(1.2);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FAMILY, 26))
        .margin(16)
        .x_label_area_size(46)
        .y_label_area_size(80)
        .build_cartesian_2d(0.0..n + legend_room, 0.0..ymax)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc(y_label)
        .label_style((FAMILY, 16))
        .axis_desc_style((FAMILY, 18))
        .draw()?;
    group_labels(&root, &chart, &labels)?;
    for (ti, term) in terms.iter().enumerate() {
        let c = colour(ti);
        let rects = bars.iter().enumerate().filter_map(|(g, (_, parts))| {
            let below: f64 = parts.iter().take_while(|(t, _)| t != term).map(|(_, v)| v.max(0.0)).sum();
            let v = parts.iter().find(|(t, _)| t == term)?.1.max(0.0);
            Some(Rectangle::new([(g as f64 + 0.2, below), (g as f64 + 0.8, below + v)], c.filled()))
        });
        chart
            .draw_series(rects)?
            .label(term.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
    }
    chart
        .configure_series_labels()
        .label_font((FAMILY, 16))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    Ok(())
}

/// Stacked bars: one bar per label, one segment per named term (negative
/// parts are drawn as zero). Generic over whatever terms are passed.
pub fn stacked_terms(
    stem: &Path,
    title: &str,
    y_label: &str,
    bars: &[(String, Vec<(String, f64)>)],
) -> Result<Vec<PathBuf>, String> {
    both(stem, |r| stacked(r, title, y_label, bars), |r| stacked(r, title, y_label, bars))
}

/// Every plot of a benchmark's report, written under `dir`: cost against
/// men on the board (its ladder), floors per bucket, and per-term stacked
/// bars (evalcycles) for each bucket. Baseline and candidate arms only.
pub fn plots_for(b: &BenchReport, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let shown: Vec<usize> = b
        .arms
        .iter()
        .enumerate()
        .filter(|(_, a)| matches!(a.role, Role::Baseline | Role::Candidate))
        .map(|(i, _)| i)
        .collect();
    if !b.ladder.is_empty() {
        let series: Vec<Series> = shown
            .iter()
            .map(|&i| {
                let name = &b.arms[i].name;
                let c = b.correlations.iter().find(|c| &c.arm == name);
                Series {
                    name: name.clone(),
                    points: b.ladder.iter().map(|r| (f64::from(r.men), r.cost[i])).collect(),
                    fit: c.map(|c| (c.slope, c.intercept)),
                    r: c.map(|c| c.pearson_r),
                }
            })
            .collect();
        files.extend(cost_vs_men(
            &dir.join(format!("{}-men", b.name)),
            &format!("{}: cost vs men on the board", b.name),
            &b.unit,
            &series,
        )?);
    }
    if !b.buckets.is_empty() {
        let groups: Vec<String> = b.buckets.iter().map(|k| k.bucket.clone()).collect();
        let names: Vec<String> = shown.iter().map(|&i| b.arms[i].name.clone()).collect();
        let bars: Vec<Vec<Bar>> = b
            .buckets
            .iter()
            .map(|k| {
                shown
                    .iter()
                    .map(|&i| {
                        let s = &k.arms[i].summary;
                        Bar { value: s.floor, interval: s.floor_interval }
                    })
                    .collect()
            })
            .collect();
        files.extend(bucket_bars(
            &dir.join(format!("{}-buckets", b.name)),
            &format!("{}: floor (10th percentile) per bucket, 95% interval", b.name),
            &b.unit,
            &groups,
            &names,
            &bars,
        )?);
    }
    // Per-term stacked bars (evalcycles), one plot per bucket.
    let mut buckets: Vec<&str> = b.terms.iter().map(|t| t.bucket.as_str()).collect();
    buckets.dedup();
    for bucket in buckets {
        let bars: Vec<(String, Vec<(String, f64)>)> = b
            .terms
            .iter()
            .filter(|t| t.bucket == bucket)
            .map(|t| (t.arm.clone(), t.groups.iter().map(|g| (g.term.clone(), g.ticks)).collect()))
            .collect();
        files.extend(stacked_terms(
            &dir.join(format!("{}-terms-{bucket}", b.name)),
            &format!("{}: ticks per evaluation by term, {bucket} (eval-time build)", b.name),
            "ticks per evaluation",
            &bars,
        )?);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of the PNG holding dark (text-like) pixels in the given band of
    /// columns and rows.
    fn dark_pixels(path: &Path, x: std::ops::Range<u32>, y: std::ops::Range<u32>) -> usize {
        let data = std::fs::read(path).unwrap();
        let img = image_from_png(&data);
        let (w, _) = SIZE;
        let mut n = 0;
        for row in y {
            for col in x.clone() {
                let i = ((row * w + col) * 3) as usize;
                if img[i] < 80 && img[i + 1] < 80 && img[i + 2] < 80 {
                    n += 1;
                }
            }
        }
        n
    }

    fn image_from_png(data: &[u8]) -> Vec<u8> {
        let dec = image::load_from_memory_with_format(data, image::ImageFormat::Png).unwrap();
        dec.to_rgb8().into_raw()
    }

    #[test]
    fn plots_render_with_text() {
        let dir = tempfile::tempdir().unwrap();
        let series = vec![
            Series {
                name: "old".into(),
                points: vec![(3.0, 10.0), (10.0, 20.0), (32.0, 60.0)],
                fit: Some((1.7, 4.0)),
                r: Some(0.99),
            },
            Series { name: "new".into(), points: vec![(3.0, 5.0), (10.0, 6.0), (32.0, 7.0)], fit: None, r: None },
        ];
        let files = cost_vs_men(&dir.path().join("men"), "cost vs men", "ticks per call", &series).unwrap();
        assert_eq!(files.len(), 2);
        let svg = std::fs::read_to_string(&files[0]).unwrap();
        assert!(svg.contains("old (r = 0.990)") && svg.contains("men on the board"));
        // The caption band of the PNG has dark text pixels: the font rendered.
        assert!(dark_pixels(&files[1], 300..700, 0..40) > 100);

        let bars = vec![
            vec![Bar { value: 10.0, interval: [9.0, 11.0] }, Bar { value: 5.0, interval: [4.9, 5.1] }],
            vec![Bar { value: 12.0, interval: [11.0, 13.0] }, Bar { value: 6.0, interval: [5.5, 6.5] }],
        ];
        let files = bucket_bars(
            &dir.path().join("bars"),
            "per bucket",
            "ticks per call",
            &["opening".into(), "endgame".into()],
            &["old".into(), "new".into()],
            &bars,
        )
        .unwrap();
        let svg = std::fs::read_to_string(&files[0]).unwrap();
        assert!(svg.contains("opening") && svg.contains("endgame"));
        assert!(dark_pixels(&files[1], 0..1000, 582..605) > 20, "x labels drawn");

        let terms = vec![
            ("mailbox".to_string(), vec![("pawns".to_string(), 30.0), ("mobility".to_string(), 70.0)]),
            ("chain".to_string(), vec![("pawns".to_string(), 30.0), ("mobility".to_string(), 40.0)]),
        ];
        let files = stacked_terms(&dir.path().join("terms"), "eval terms", "ticks", &terms).unwrap();
        let svg = std::fs::read_to_string(&files[0]).unwrap();
        assert!(svg.contains("mobility") && svg.contains("chain"));
    }
}
