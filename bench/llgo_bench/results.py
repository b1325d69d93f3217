"""The collected results of a run: rows (one per measured figure), missing figures with their
reason, and the targets (ratios and limits over the rows, evaluated at the end)."""
import statistics
import sys

rows = []      # one per measured figure
missing = []   # one per figure that could not be measured, with the reason


def add_row(bench, variant, backend, params, samples, unit, note=""):
    samples = [float(s) for s in samples]
    rows.append(dict(bench=bench, variant=variant, backend=backend, params=params, unit=unit,
                     samples=samples, min=min(samples), median=statistics.median(samples), max=max(samples),
                     reps=len(samples), note=note))


def add_missing(bench, variant, backend, params, reason):
    missing.append(dict(bench=bench, variant=variant, backend=backend, params=params, reason=reason))
    print(f"  MISSING {bench} {variant}/{backend} {params}: {reason}", file=sys.stderr)


def find_row(bench, variant, backend, params=None):
    for row in rows:
        if row["bench"] == bench and row["variant"] == variant and backend in (None, row["backend"]) and \
                (params is None or row["params"] == params):
            return row
    return None


targets = []
comparisons = []   # ratios of two rows of this run printed without a limit (what a backend costs against a baseline)


def add_comparison(name, row, base, base_label):
    """`row`'s median against `base`'s (both of this run); a missing row is a missing figure."""
    if row and base:
        comparisons.append(dict(name=name, ratio=row["median"] / base["median"], row=row["median"], base=base["median"],
                                unit=row["unit"], against=base_label))
    else:
        add_missing(name, "-", "-", "-", "a row it compares is missing")


def add_target(name, measured, limit, kind, unit, detail):
    """kind 'max': measured must be <= limit; 'min': measured must be >= limit."""
    met = measured <= limit if kind == "max" else measured >= limit
    if kind == "max":
        margin = f"{(measured / limit - 1) * 100:+.1f}% vs limit" if limit else ""
    else:
        margin = f"{(measured / limit - 1) * 100:+.1f}% vs limit"
    targets.append(dict(name=name, measured=measured, limit=limit, kind=kind, unit=unit, met=met,
                        status="MET" if met else "MISSED", margin=margin, detail=detail))


def add_growth_target(name, row, base, limit, describe):
    """Growth of `row` over `base` in percent, at most `limit`; NOT MEASURED when a row is missing."""
    if row and base:
        add_target(name, (row["median"] / base["median"] - 1) * 100, limit, "max", "%", describe(row, base))
    else:
        add_unmeasured_target(name, "a row it compares is missing")


def add_unmeasured_target(name, why):
    targets.append(dict(name=name, measured=None, limit=None, kind=None, unit="", met=False,
                        status="NOT MEASURED", margin="", detail=why))


def add_ratio_target(name, ours, anchor, limit, anchor_label, missing_why):
    if ours and anchor:
        add_target(name, ours["median"] / anchor["median"], limit, "max", "x",
                   f"{ours['median']:.1f} {ours['unit'].split('/')[0]} vs {anchor_label} {anchor['median']:.1f}")
    else:
        add_unmeasured_target(name, missing_why if not anchor else "our row is missing")
