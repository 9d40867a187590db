package evaluate

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"regexp"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"lifezero/internal/atomicfile"
)

// Plot files are PlotWidth x PlotHeight at 96 dpi: 576 x 384 pixels.
const (
	PlotWidth  = 6 * vg.Inch
	PlotHeight = 4 * vg.Inch
)

// Series is a named list of points.
type Series struct {
	Name string
	X, Y []float64
}

// LinePlot is several series drawn as lines (loss curves, rates over time).
type LinePlot struct {
	Title, XLabel, YLabel string
	Series                []Series
	LogX, LogY            bool
}

// BarChart is a grouped bar chart: for each group (a method), one bar per
// category (a problem set), e.g. solve rates per method.
type BarChart struct {
	Title, YLabel string
	Categories    []string
	Groups        []BarGroup
}

// BarGroup is one group of bars: one value per category.
type BarGroup struct {
	Name   string
	Values []float64
}

// ScatterPlot is several series drawn as points, optionally on log axes with
// the diagonal y = x (e.g. our node counts against the paper's).
type ScatterPlot struct {
	Title, XLabel, YLabel string
	Series                []Series
	LogX, LogY            bool
	Diagonal              bool
}

var plotNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// SaveLinePlot draws p into <outDir>/report/<name>.png and returns the file
// name to link from the section (see Image). Points that are not finite, or
// not positive on a log axis, are left out; a plot with no point left is an
// error.
func SaveLinePlot(outDir, name string, p LinePlot) (string, error) {
	return savePlot(outDir, name, func() (*plot.Plot, error) {
		pl := newPlot(p.Title, p.XLabel, p.YLabel)
		all, err := addSeries(pl, p.Series, p.LogX, p.LogY, func(i int, pts plotter.XYs) (plot.Thumbnailer, error) {
			l, err := plotter.NewLine(pts)
			if err != nil {
				return nil, err
			}
			l.Color = plotutil.Color(i)
			l.Dashes = plotutil.Dashes(i)
			l.Width = vg.Points(1.5)
			pl.Add(l)
			return l, nil
		})
		if err != nil {
			return nil, err
		}
		return pl, finishAxes(pl, all, p.LogX, p.LogY)
	})
}

// addSeries draws each series with draw (which adds its plotter to pl) and
// a legend entry, skipping series with no drawable point, and returns every
// point drawn so the axes can cover them.
func addSeries(pl *plot.Plot, series []Series, logX, logY bool, draw func(i int, pts plotter.XYs) (plot.Thumbnailer, error)) (plotter.XYs, error) {
	var all plotter.XYs
	for i, s := range series {
		pts, err := points(s, logX, logY)
		if err != nil {
			return nil, err
		}
		if len(pts) == 0 {
			continue
		}
		thumb, err := draw(i, pts)
		if err != nil {
			return nil, fmt.Errorf("series %q: %w", s.Name, err)
		}
		pl.Legend.Add(s.Name, thumb)
		all = append(all, pts...)
	}
	return all, nil
}

// SaveScatterPlot draws p into <outDir>/report/<name>.png; see SaveLinePlot.
func SaveScatterPlot(outDir, name string, p ScatterPlot) (string, error) {
	return savePlot(outDir, name, func() (*plot.Plot, error) {
		pl := newPlot(p.Title, p.XLabel, p.YLabel)
		all, err := addSeries(pl, p.Series, p.LogX, p.LogY, func(i int, pts plotter.XYs) (plot.Thumbnailer, error) {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle.Color = plotutil.Color(i)
			sc.GlyphStyle.Shape = plotutil.Shape(i)
			sc.GlyphStyle.Radius = vg.Points(3)
			pl.Add(sc)
			return sc, nil
		})
		if err != nil {
			return nil, err
		}
		if p.Diagonal && len(all) > 0 {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, q := range all {
				lo = min(lo, q.X, q.Y)
				hi = max(hi, q.X, q.Y)
			}
			d, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
			if err != nil {
				return nil, err
			}
			d.Color = color.Gray{Y: 128}
			d.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			pl.Add(d)
			pl.Legend.Add("y = x", d)
			all = append(all, plotter.XY{X: lo, Y: lo}, plotter.XY{X: hi, Y: hi}) // axes cover the diagonal
		}
		return pl, finishAxes(pl, all, p.LogX, p.LogY)
	})
}

// SaveBarChart draws c into <outDir>/report/<name>.png; see SaveLinePlot.
// Values that are not finite are drawn as 0.
func SaveBarChart(outDir, name string, c BarChart) (string, error) {
	return savePlot(outDir, name, func() (*plot.Plot, error) {
		if len(c.Categories) == 0 || len(c.Groups) == 0 {
			return nil, fmt.Errorf("bar chart needs categories and groups, got %d and %d", len(c.Categories), len(c.Groups))
		}
		pl := newPlot(c.Title, "", c.YLabel)
		// A group of bars takes at most 70% of its category's share of a
		// roughly 400-point-wide plot area.
		group := math.Min(48, 0.7*400/float64(len(c.Categories)))
		width := vg.Points(math.Max(2, group/float64(len(c.Groups))))
		top := 0.0
		for i, g := range c.Groups {
			if len(g.Values) != len(c.Categories) {
				return nil, fmt.Errorf("group %q has %d values for %d categories", g.Name, len(g.Values), len(c.Categories))
			}
			vals := make(plotter.Values, len(g.Values))
			for j, v := range g.Values {
				if finite(v) {
					vals[j] = v
					top = max(top, v)
				}
			}
			bars, err := plotter.NewBarChart(vals, width)
			if err != nil {
				return nil, fmt.Errorf("group %q: %w", g.Name, err)
			}
			bars.Color = plotutil.Color(i)
			bars.LineStyle.Width = 0
			bars.Offset = vg.Length(float64(i)-float64(len(c.Groups)-1)/2) * width
			pl.Add(bars)
			pl.Legend.Add(g.Name, bars)
		}
		pl.NominalX(c.Categories...)
		pl.X.Min, pl.X.Max = -0.6, float64(len(c.Categories))-0.4
		if top > 0 { // headroom for the legend
			pl.Y.Max = top * (1.1 + 0.07*float64(len(c.Groups)))
		}
		pl.Legend.Left = false
		return pl, nil
	})
}

func newPlot(title, xlabel, ylabel string) *plot.Plot {
	pl := plot.New()
	pl.Title.Text = title
	pl.X.Label.Text = xlabel
	pl.Y.Label.Text = ylabel
	pl.Add(plotter.NewGrid())
	pl.Legend.Top = true
	pl.Legend.Left = true
	return pl
}

// points keeps the finite points of s, and on log axes the positive ones.
func points(s Series, logX, logY bool) (plotter.XYs, error) {
	if len(s.X) != len(s.Y) {
		return nil, fmt.Errorf("series %q has %d x and %d y values", s.Name, len(s.X), len(s.Y))
	}
	pts := make(plotter.XYs, 0, len(s.X))
	for i := range s.X {
		x, y := s.X[i], s.Y[i]
		if !finite(x) || !finite(y) || (logX && x <= 0) || (logY && y <= 0) {
			continue
		}
		pts = append(pts, plotter.XY{X: x, Y: y})
	}
	return pts, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// finishAxes sets log scales with decade bounds (gonum's log axes panic on
// a zero-width or non-positive range).
func finishAxes(pl *plot.Plot, all plotter.XYs, logX, logY bool) error {
	if len(all) == 0 {
		return fmt.Errorf("no point to plot (all series empty, not finite, or not positive on a log axis)")
	}
	if logX {
		logAxis(&pl.X, all, func(q plotter.XY) float64 { return q.X })
	}
	if logY {
		logAxis(&pl.Y, all, func(q plotter.XY) float64 { return q.Y })
	}
	return nil
}

func logAxis(ax *plot.Axis, all plotter.XYs, val func(plotter.XY) float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, q := range all {
		lo, hi = min(lo, val(q)), max(hi, val(q))
	}
	lo = math.Pow(10, math.Floor(math.Log10(lo)))
	hi = math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	ax.Scale = plot.LogScale{}
	ax.Tick.Marker = plot.LogTicks{Prec: -1}
	ax.Min, ax.Max = lo, hi
}

// savePlot builds and renders a plot to <outDir>/report/<name>.png
// atomically. gonum/plot panics on some degenerate input; that becomes an
// error here.
func savePlot(outDir, name string, build func() (*plot.Plot, error)) (file string, err error) {
	if !plotNameRE.MatchString(name) {
		return "", fmt.Errorf("evaluate: plot name %q: use letters, digits, '.', '_' and '-'", name)
	}
	file = name + ".png"
	defer func() {
		if v := recover(); v != nil {
			file, err = "", fmt.Errorf("evaluate: plot %s: %v", file, v)
		}
	}()
	pl, err := build()
	if err != nil {
		return "", fmt.Errorf("evaluate: plot %s: %w", file, err)
	}
	w, err := pl.WriterTo(PlotWidth, PlotHeight, "png")
	if err != nil {
		return "", fmt.Errorf("evaluate: plot %s: %w", file, err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("evaluate: plot %s: %w", file, err)
	}
	dir := filepath.Join(outDir, ReportDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("evaluate: plot %s: %w", file, err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, file), buf.Bytes()); err != nil {
		return "", err
	}
	return file, nil
}
