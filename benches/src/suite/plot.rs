//! Plots with plotters, each written as SVG and PNG: cost against men on the
//! board (one colour per implementation, least-squares line, r in the
//! legend), per-bucket bars with interval whiskers, and stacked bars of
//! named terms (generic, for the eval per-term breakdown). Text is drawn
//! with a font committed into the repository (DejaVu Sans, see
//! assets/DejaVuSans-LICENSE.txt) and loaded from bytes, so no system font
//! is needed. [`plots_for`] draws a benchmark's report. Plots are drawn in
//! memory and written atomically.

use crate::measure::runner::Role;
use crate::output::write_atomic;
use crate::suite::report::{BenchReport, EvalAttribution, RowKind};
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

/// Render `draw` into `stem.svg` and `stem.png`; returns both paths. Both
/// are drawn in memory and written atomically ([`write_atomic`]): a plot
/// is whole or absent, never a 0-byte or truncated file.
fn both(
    stem: &Path,
    draw_svg: impl Fn(DrawingArea<SVGBackend, Shift>) -> DrawResult<SVGBackend>,
    draw_png: impl Fn(DrawingArea<BitMapBackend, Shift>) -> DrawResult<BitMapBackend>,
) -> Result<Vec<PathBuf>, String> {
    register_font();
    let svg = stem.with_extension("svg");
    let png = stem.with_extension("png");
    let mut svg_text = String::new();
    {
        let root = SVGBackend::with_string(&mut svg_text, SIZE).into_drawing_area();
        draw_svg(root.clone()).map_err(|e| format!("plot {}: {e}", svg.display()))?;
        root.present().map_err(|e| format!("plot {}: {e}", svg.display()))?;
    }
    let mut rgb = vec![0u8; SIZE.0 as usize * SIZE.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
        draw_png(root.clone()).map_err(|e| format!("plot {}: {e}", png.display()))?;
        root.present().map_err(|e| format!("plot {}: {e}", png.display()))?;
    }
    let png_bytes = encode_png(&rgb, SIZE).map_err(|e| format!("plot {}: {e}", png.display()))?;
    write_atomic(&svg, svg_text.as_bytes()).map_err(|e| e.to_string())?;
    write_atomic(&png, &png_bytes).map_err(|e| e.to_string())?;
    Ok(vec![svg, png])
}

/// An RGB image of `size` as PNG bytes.
fn encode_png(rgb: &[u8], size: (u32, u32)) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(rgb, size.0, size.1, image::ColorType::Rgb8)
        .map_err(|e| e.to_string())?;
    Ok(bytes)
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

/// One segment of a stacked bar: a share of the bar drawn in its legend
/// entry's colour, lighter when `light`. A negative segment is drawn below
/// zero.
#[derive(Clone, Debug)]
pub struct Segment {
    /// Index of its [`Key`].
    pub key: usize,
    pub light: bool,
    pub value: f64,
}

/// A stacked bar: two lines of label and its segments, bottom to top. The
/// first line is written under the bar; the second once under each run of
/// neighbouring bars that share it (e.g. source, then implementation).
#[derive(Clone, Debug)]
pub struct StackedBar {
    pub label: [String; 2],
    pub segments: Vec<Segment>,
}

/// A legend entry of stacked bars; `outlined` entries (a remainder) are
/// drawn with a black border, so they never pass for a part.
#[derive(Clone, Debug)]
pub struct Key {
    pub name: String,
    pub colour: RGBColor,
    pub outlined: bool,
}

/// Panels of stacked bars side by side (each its own y axis and label),
/// one legend, and lines of notes under it.
pub struct StackedPanels<'a> {
    pub title: &'a str,
    pub panels: &'a [(String, Vec<StackedBar>)],
    pub keys: &'a [Key],
    pub notes: &'a [String],
}

/// Width of the legend column of [`stacked_panels`], in pixels.
const LEGEND_WIDTH: u32 = 215;

fn stacked_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    y_label: &str,
    bars: &[StackedBar],
    keys: &[Key],
) -> DrawResult<DB> {
    let n = bars.len().max(1) as f64;
    let (mut lo, mut hi) = (0.0f64, 0.0f64);
    for b in bars {
        let up: f64 = b.segments.iter().map(|s| s.value.max(0.0)).sum();
        let down: f64 = b.segments.iter().map(|s| s.value.min(0.0)).sum();
        (lo, hi) = (lo.min(down), hi.max(up));
    }
    let ymin = if lo < 0.0 { lo * 1.12 } else { 0.0 };
    let mut chart = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(62)
        .y_label_area_size(66)
        .build_cartesian_2d(0.0..n, ymin..upper(hi))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_desc(y_label)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 16))
        .draw()?;
    for (i, b) in bars.iter().enumerate() {
        let (left, right) = (i as f64 + 0.15, i as f64 + 0.85);
        let (mut up, mut down) = (0.0, 0.0);
        for s in &b.segments {
            let key = &keys[s.key];
            let (y0, y1) = if s.value >= 0.0 {
                up += s.value;
                (up - s.value, up)
            } else {
                down += s.value;
                (down, down - s.value)
            };
            let fill = if s.light { key.colour.mix(0.4).filled() } else { key.colour.filled() };
            chart.draw_series([Rectangle::new([(left, y0), (right, y1)], fill)])?;
            if key.outlined {
                chart.draw_series([Rectangle::new([(left, y0), (right, y1)], BLACK.stroke_width(2))])?;
            }
        }
    }
    // Under each bar its first label line; under each run of bars with the
    // same second line, that line once, centred (split at a hyphen when it
    // is wider than the run).
    let base = area.get_base_pixel();
    let style = TextStyle::from((FAMILY, 14).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    let at = |x: f64| {
        let (px, py) = chart.backend_coord(&(x, ymin));
        (px - base.0, py - base.1)
    };
    // A bar's label wider than its slot is drawn smaller, so neighbours'
    // labels do not run together.
    let narrow = TextStyle::from((FAMILY, 11).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    for (i, b) in bars.iter().enumerate() {
        let ((left, y), (right, _)) = (at(i as f64), at(i as f64 + 1.0));
        let fits = area.estimate_text_size(&b.label[0], &style)?.0 as i32 <= right - left;
        area.draw_text(&b.label[0], if fits { &style } else { &narrow }, ((left + right) / 2, y + 6))?;
    }
    let mut i = 0;
    while i < bars.len() {
        let run = bars[i..].iter().take_while(|b| b.label[1] == bars[i].label[1]).count();
        let ((left, y), (right, _)) = (at(i as f64), at((i + run) as f64));
        let text = &bars[i].label[1];
        let wide = area.estimate_text_size(text, &style)?.0 as i32 > right - left;
        let lines: Vec<String> = match text.split_once('-') {
            Some((a, b)) if wide => vec![format!("{a}-"), b.to_string()],
            _ => vec![text.clone()],
        };
        let top = if bars[i].label[0].is_empty() { y + 6 } else { y + 24 };
        for (k, line) in lines.iter().enumerate() {
            area.draw_text(line, &style, ((left + right) / 2, top + 17 * k as i32))?;
        }
        i += run;
    }
    if ymin < 0.0 {
        chart.draw_series([PathElement::new(vec![(0.0, 0.0), (n, 0.0)], BLACK.stroke_width(1))])?;
    }
    Ok(())
}

fn stacked_panels_draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, p: &StackedPanels) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let root = root.titled(p.title, (FAMILY, 22))?;
    let (w, _) = root.dim_in_pixel();
    let (plots, legend) = root.split_horizontally(w.saturating_sub(LEGEND_WIDTH) as i32);
    // Room for at least four bars in every panel, so its labels fit.
    let slots = |bars: &[StackedBar]| bars.len().max(4);
    let total: usize = p.panels.iter().map(|(_, b)| slots(b)).sum::<usize>().max(1);
    let width = plots.dim_in_pixel().0 as usize;
    let mut rest = plots;
    for (i, (y_label, bars)) in p.panels.iter().enumerate() {
        let area = if i + 1 < p.panels.len() {
            let (this, next) = rest.split_horizontally((width * slots(bars) / total) as i32);
            rest = next;
            this
        } else {
            rest.clone()
        };
        stacked_panel(&area, y_label, bars, p.keys)?;
    }
    let text = TextStyle::from((FAMILY, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let mut y = 40;
    for k in p.keys {
        legend.draw(&Rectangle::new([(8, y - 7), (22, y + 7)], k.colour.filled()))?;
        if k.outlined {
            legend.draw(&Rectangle::new([(8, y - 7), (22, y + 7)], BLACK.stroke_width(2)))?;
        }
        legend.draw_text(&k.name, &text, (30, y))?;
        y += 21;
    }
    y += 8;
    let small = TextStyle::from((FAMILY, 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for line in p.notes {
        legend.draw_text(line, &small, (8, y))?;
        y += 17;
    }
    Ok(())
}

/// Panels of stacked bars (one y axis each, e.g. ticks and instructions)
/// with one legend: the evaluation's cost by group, per implementation
/// and source.
pub fn stacked_panels(stem: &Path, p: &StackedPanels) -> Result<Vec<PathBuf>, String> {
    both(stem, |r| stacked_panels_draw(r, p), |r| stacked_panels_draw(r, p))
}

fn small_multiples<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    title: &str,
    y_label: &str,
    panels: &[(String, Vec<Series>)],
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let root = root.titled(title, (FAMILY, 22))?;
    let (_, h) = root.dim_in_pixel();
    let (body, strip) = root.split_vertically(h.saturating_sub(30) as i32);
    let cols = panels.len().div_ceil(2).max(1);
    for (area, (name, series)) in body.split_evenly((2, cols)).iter().zip(panels) {
        let points = series.iter().flat_map(|s| s.points.iter());
        let (lo, hi) = points.fold((0.0f64, 0.0f64), |(lo, hi), p| (lo.min(p.1), hi.max(p.1)));
        let ymin = if lo < 0.0 { lo * 1.12 } else { 0.0 };
        let mut chart = ChartBuilder::on(area)
            .caption(name, (FAMILY, 15))
            .margin(6)
            .x_label_area_size(22)
            .y_label_area_size(38)
            .build_cartesian_2d(2.0..33.0, ymin..upper(hi))?;
        chart
            .configure_mesh()
            .label_style((FAMILY, 11))
            .x_labels(6)
            .y_labels(5)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()?;
        for (i, s) in series.iter().enumerate() {
            let c = colour(i);
            chart.draw_series(LineSeries::new(s.points.iter().copied(), c.stroke_width(2)))?;
        }
    }
    let text = TextStyle::from((FAMILY, 15).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let mut x = 10;
    if let Some((_, series)) = panels.first() {
        for (i, s) in series.iter().enumerate() {
            strip.draw(&PathElement::new(vec![(x, 15), (x + 22, 15)], colour(i).stroke_width(3)))?;
            strip.draw_text(&s.name, &text, (x + 28, 15))?;
            x += 40 + 9 * s.name.len() as i32;
        }
    }
    strip.draw_text(&format!("x: men on the board; y: {y_label}"), &text, (x + 20, 15))?;
    Ok(())
}

/// Small multiples: one panel per named quantity (e.g. each group's cost),
/// cost against men on the board, one line per series in every panel.
pub fn cost_vs_men_panels(
    stem: &Path,
    title: &str,
    y_label: &str,
    panels: &[(String, Vec<Series>)],
) -> Result<Vec<PathBuf>, String> {
    both(stem, |r| small_multiples(r, title, y_label, panels), |r| small_multiples(r, title, y_label, panels))
}

/// Colours of the attribution's rows: the ten groups, then the inputs.
const ROW_COLOURS: [RGBColor; 13] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
    RGBColor(0x39, 0x3b, 0x79),
    RGBColor(0xe7, 0xcb, 0x94),
    RGBColor(0x9c, 0x9e, 0xde),
    RGBColor(0x63, 0x79, 0x39),
];

/// Colour of the unattributed remainder (drawn outlined).
const REMAINDER: RGBColor = RGBColor(0xb0, 0xb0, 0xb0);

/// evalcycles' attribution, drawn: per bucket the cost of a whole
/// evaluation by group, per implementation, in ticks (ablation, counters)
/// Shapley shares, and in instructions, the unattributed remainder as its own outlined
/// segment (below zero when negative); and each group's ablation cost
/// against men on the board, one line per implementation.
fn attribution_plots(name: &str, a: &EvalAttribution, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut rows: Vec<(&str, &str, RowKind)> = Vec::new();
    for r in a.tables.iter().flat_map(|t| &t.rows) {
        if !rows.iter().any(|(n, _, _)| *n == r.row) {
            rows.push((&r.row, &r.label, r.kind));
        }
    }
    // Groups and inputs first, the remainder last, in the tables' order.
    rows.sort_by_key(|r| r.2 == RowKind::Unattributed);
    let mut parts = 0;
    let keys: Vec<Key> = rows
        .iter()
        .map(|&(_, label, kind)| match kind {
            RowKind::Unattributed => Key { name: label.to_string(), colour: REMAINDER, outlined: true },
            _ => {
                parts += 1;
                Key { name: label.to_string(), colour: ROW_COLOURS[(parts - 1) % ROW_COLOURS.len()], outlined: false }
            }
        })
        .collect();
    let key = |row: &str| rows.iter().position(|r| r.0 == row).expect("every row has a key");
    let mut files = Vec::new();
    let mut buckets: Vec<&str> = a.tables.iter().map(|t| t.bucket.as_str()).collect();
    buckets.dedup();
    for bucket in buckets {
        let (mut ticks, mut instructions) = (Vec::new(), Vec::new());
        for t in a.tables.iter().filter(|t| t.bucket == bucket) {
            let seg =
                |row: &str, light: bool, value: Option<f64>| value.map(|value| Segment { key: key(row), light, value });
            let ablation: Vec<Segment> = t
                .rows
                .iter()
                .flat_map(|r| match r.kind {
                    RowKind::Group => vec![
                        seg(&r.row, false, r.ablation_work.map(|c| c.value)),
                        seg(&r.row, true, r.ablation_state.map(|c| c.value)),
                    ],
                    _ => vec![seg(&r.row, false, r.ablation.map(|c| c.value))],
                })
                .flatten()
                .collect();
            let shapley: Vec<Segment> =
                t.rows.iter().filter_map(|r| seg(&r.row, false, r.shapley.map(|c| c.value))).collect();
            let counters: Vec<Segment> = t.rows.iter().filter_map(|r| seg(&r.row, false, r.counter)).collect();
            let counted: Vec<Segment> = t.rows.iter().filter_map(|r| seg(&r.row, false, r.instructions)).collect();
            let bar = |source: &str, segments: Vec<Segment>| {
                (!segments.is_empty()).then(|| StackedBar { label: [source.to_string(), t.arm.clone()], segments })
            };
            ticks.extend(bar("ablation", ablation));
            ticks.extend(bar("Shapley", shapley));
            ticks.extend(bar("counters", counters));
            instructions.extend(bar("", counted));
        }
        let mut panels = vec![("ticks per evaluation".to_string(), ticks)];
        if !instructions.is_empty() {
            panels.push(("instructions per evaluation (callgrind)".to_string(), instructions));
        }
        let mut notes: Vec<String> = [
            "ablation: full - without G,",
            "  lighter: the state G builds;",
            "Shapley: G's average marginal",
            "  cost, fixed code: adds up;",
            "counters: sampled phases,",
            "  share x whole floor;",
            "inputs: what no group removes",
            "  (all left out; counters: each);",
            "unattributed: whole - rows,",
            "  below zero when negative;",
            "counters' cost, instrumented /",
            "  off floor (pair ticks):",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for t in a.tables.iter().filter(|t| t.bucket == bucket) {
            notes.push(format!(
                "  {} {} ({})",
                t.arm,
                t.whole.instrumented_ratio.map_or_else(|| "-".to_string(), |r| format!("{r:.2}x")),
                t.whole.counter_pair_ticks.map_or_else(|| "-".to_string(), |p| format!("{p:.0}")),
            ));
        }
        let title = format!("{name}: where a whole evaluation goes, {bucket}");
        files.extend(stacked_panels(
            &dir.join(format!("{name}-terms-{bucket}")),
            &StackedPanels { title: &title, panels: &panels, keys: &keys, notes: &notes },
        )?);
    }
    if !a.ladder.is_empty() {
        let mut panels: Vec<(String, Vec<Series>)> = Vec::new();
        for l in &a.ladder {
            let series = Series {
                name: l.arm.clone(),
                points: l.points.iter().map(|p| (p[0], p[1])).collect(),
                fit: None,
                r: None,
            };
            match panels.iter_mut().find(|(g, _)| *g == l.label) {
                Some((_, list)) => list.push(series),
                None => panels.push((l.label.clone(), vec![series])),
            }
        }
        files.extend(cost_vs_men_panels(
            &dir.join(format!("{name}-groups-men")),
            &format!("{name}: each group's cost (ablation, floor(full) - floor(without it)) against men"),
            "ticks per evaluation",
            &panels,
        )?);
    }
    Ok(files)
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
    if let Some(a) = &b.attribution {
        files.extend(attribution_plots(&b.name, a, dir)?);
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

    /// evalcycles' attribution: stacked bars per bucket with the remainder
    /// as its own outlined segment (below zero when negative), and the
    /// groups against men, from a report of the kind a run writes.
    #[test]
    fn attribution_plots_show_every_bar_and_the_remainder() {
        use crate::suite::benchmarks::evalcycles::attribution::{attribute, table, CounterRows, GroupParts};
        use crate::suite::report::{Cost, GroupLadder};
        use engine::eval::groups::Group;
        let mut tables = Vec::new();
        let mut ladder = Vec::new();
        for bucket in ["opening", "endgame"] {
            for (k, arm) in ["mailbox", "chain", "single-probe"].into_iter().enumerate() {
                let parts: Vec<GroupParts> = Group::ALL
                    .iter()
                    .map(|&g| {
                        GroupParts::from_counts(g, 100.0, g.has_work().then_some(95.0), g.has_state().then_some(90.0))
                    })
                    .collect();
                let ablation = attribute(Cost::exact(100.0 + 30.0 * k as f64), parts.clone(), Some(Cost::exact(12.0)));
                let counters = CounterRows {
                    groups: Group::ALL.iter().map(|g| (g.name().to_string(), 9.0, None)).collect(),
                    inputs: vec![("pawn_entry".into(), 4.0, None)],
                    whole: Some(80.0),
                    unattributed: Some(-60.0),
                    pair_ticks: 20.0,
                    instrumented_floor: Some(110.0),
                    uninstrumented_floor: Some(100.0),
                    ..CounterRows::default()
                };
                let instructions = attribute(Cost::exact(400.0), parts, Some(Cost::exact(40.0)));
                tables.push(table(bucket, arm, 3, Some(&ablation), Some(&counters), Some(&instructions), Some(95.0)));
                if bucket == "opening" {
                    for g in Group::ALL {
                        let points = (3..=32).map(|m| [f64::from(m), f64::from(m) * (k + 1) as f64]).collect();
                        ladder.push(GroupLadder {
                            arm: arm.into(),
                            group: g.name().into(),
                            label: g.label().into(),
                            points,
                        });
                    }
                }
            }
        }
        let a = EvalAttribution { tables, ladder, notes: Vec::new() };
        let dir = tempfile::tempdir().unwrap();
        let files = attribution_plots("evalcycles", &a, dir.path()).unwrap();
        let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().to_string()).collect();
        assert_eq!(
            names,
            [
                "evalcycles-terms-opening.svg",
                "evalcycles-terms-opening.png",
                "evalcycles-terms-endgame.svg",
                "evalcycles-terms-endgame.png",
                "evalcycles-groups-men.svg",
                "evalcycles-groups-men.png"
            ]
        );
        let svg = std::fs::read_to_string(&files[0]).unwrap();
        for text in
            ["unattributed (whole - rows)", "pawn entry (input)", "ablation", "counters", "mailbox", "instructions"]
        {
            assert!(svg.contains(text), "{text}");
        }
        // The counters' cost per implementation is written beside the bars.
        assert!(svg.contains("chain 1.10x (20)"), "the counters' cost");
        // The counters' remainder is negative here: the bars reach below zero.
        assert!(svg.split_whitespace().any(|w| w == "-50"), "a negative axis label");
        let men = std::fs::read_to_string(&files[4]).unwrap();
        assert!(men.contains("kings") && men.contains("single-probe") && men.contains("men on the board"));
        assert!(dark_pixels(&files[5], 0..1000, 0..30) > 100, "the title is drawn");
    }
}
