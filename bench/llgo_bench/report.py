"""The report: the table on stdout (rows, missing figures, targets) and the yield chart (SVG)."""
import math

from .results import comparisons, find_row, missing, rows, targets
from .settings import YIELD_DEPTHS, YIELD_GOROUTINES


def fmt(value):
    if value >= 1e6:
        return f"{value:,.0f}"
    if value >= 100:
        return f"{value:,.1f}"
    return f"{value:.3g}" if value < 1 else f"{value:.2f}"


def print_table():
    header = ("benchmark", "variant", "backend", "parameters", "min", "median", "max", "unit", "n")
    table = [header] + [(r["bench"], r["variant"], r["backend"], r["params"], fmt(r["min"]), fmt(r["median"]),
                         fmt(r["max"]), r["unit"], str(r["reps"])) for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for i, line in enumerate(table):
        print("  ".join(cell.rjust(widths[j]) if 4 <= j <= 6 or j == 8 else cell.ljust(widths[j])
                        for j, cell in enumerate(line)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    if missing:
        print(f"\nMISSING ({len(missing)}):")
        for m in missing:
            print(f"  {m['bench']} {m['variant']}/{m['backend']} {m['params']}: {m['reason']}")
    if comparisons:
        print("\nComparisons (ratios of two rows of this run, no limit):")
        width = max(len(c["name"]) for c in comparisons)
        for c in comparisons:
            print(f"  {c['name']:<{width}}  {c['ratio']:6.3f}x  ({fmt(c['row'])} vs {c['against']} {fmt(c['base'])} {c['unit']})")
    print("\nTargets (ratios measured in this run):")
    for t in targets:
        if t["measured"] is None:
            print(f"  NOT MEASURED  {t['name']}: {t['detail']}")
        else:
            print(f"  {t['status']:<7} {t['name']}: measured {t['measured']:.3g} {t['unit']} "
                  f"(limit {t['limit']:g} {t['unit']}, {t['margin']}; {t['detail']})")


SERIES_COLORS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1"]


def write_svg(path):
    """Grouped bars of median yield cost (log scale), one group per shape, one bar per variant/backend."""
    yield_rows = [r for r in rows if r["bench"] == "yield"]
    series = []
    for r in yield_rows:
        key = (r["variant"], r["backend"])
        if key not in series:
            series.append(key)
    groups = [f"G={g} depth={d}" for g in YIELD_GOROUTINES for d in YIELD_DEPTHS]
    width, height, left, top, bottom = 960, 460, 70, 40, 110
    plot_w, plot_h = width - left - 20, height - top - bottom
    values = [r["median"] for r in yield_rows] or [1.0]
    lo = 10 ** math.floor(math.log10(max(min(values), 1e-3)))
    hi = 10 ** math.ceil(math.log10(max(values)))
    if hi <= lo:
        hi = lo * 10

    def y_of(v):
        return top + plot_h * (1 - (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">Goroutine yield cost (median ns per llgo_gosched, log scale)</text>']
    decade = lo
    while decade <= hi * 1.0001:
        y = y_of(decade)
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{decade:g} ns</text>')
        decade *= 10
    group_w = plot_w / len(groups)
    bar_w = group_w * 0.8 / max(1, len(series))
    for gi, group in enumerate(groups):
        gx = left + gi * group_w + group_w * 0.1
        out.append(f'<text x="{left + gi * group_w + group_w / 2:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{group}</text>')
        for si, (variant, backend) in enumerate(series):
            name = f"{variant} {backend}"
            r = find_row("yield", variant, backend, group)
            if not r:
                continue
            x, y = gx + si * bar_w, y_of(r["median"])
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_w * 0.92:.1f}" height="{top + plot_h - y:.1f}" '
                       f'fill="{SERIES_COLORS[si % len(SERIES_COLORS)]}"><title>{name} {group}: {r["median"]:.1f} ns '
                       f'(min {r["min"]:.1f}, max {r["max"]:.1f})</title></rect>')
    out.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="black"/>')
    out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="black"/>')
    for si, name in enumerate(f"{variant} {backend}" for variant, backend in series):
        lx, ly = left + (si % 4) * 220, top + plot_h + 40 + (si // 4) * 18
        out.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{SERIES_COLORS[si % len(SERIES_COLORS)]}"/>')
        out.append(f'<text x="{lx + 18}" y="{ly}">{name}</text>')
    out.append("</svg>")
    path.write_text("\n".join(out) + "\n")
