"""Plots of a results folder without writing code: `lodestone plot RESULTS [--what KIND,...] [-o DIR]` writes a PNG
per kind of figure (docs/plots.md):

    contacts.png  per contact pair, the normal force and the penetration over time, each impact of impacts.csv marked
    bodies.png    per moving body, the position and the velocity of its centre of mass
    joints.png    per joint (and motion, where joints.csv has them), the reaction force and torque
    energy.png    the energy balance: every term of energy.csv, and the leftover

    from lodestone.plot import plot
    plot("bouncing_ball_results")          # -> [Path(".../contacts.png"), ...]

The figures are drawn with matplotlib's object interface and its Agg renderer, without pyplot, so importing this
module changes no backend of the caller's.
"""

import math
import re
import sys
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from .sweep import EXIT_BAD_DECK, EXIT_DONE, ResultTables, UsageError, UsageParser, usage_exit

MAX_ROWS = 12       # elements drawn in one figure; a pile of a thousand spheres would make an unreadable one
ROW_HEIGHT = 2.4    # inches per element
FIGURE_WIDTH = 11.0

UNIT_SYMBOLS = {
    "METER": "m", "MILLIMETER": "mm", "CENTIMETER": "cm", "KILOMETER": "km", "INCH": "in", "FOOT": "ft",
    "MILE": "mile", "SECOND": "s", "MILLISECOND": "ms", "MINUTE": "min", "HOUR": "h", "NEWTON": "N",
    "KILONEWTON": "kN", "MILLINEWTON": "mN", "DYNE": "dyn", "POUND_FORCE": "lbf", "KILOGRAM_FORCE": "kgf",
    "OUNCE_FORCE": "ozf", "KILOGRAM": "kg", "GRAM": "g", "TONNE": "t", "POUND_MASS": "lbm", "SLUG": "slug",
}


def units_of(folder):
    """{"length": "mm", "time": "s", "force": "N"} from run.log's "Model units are ..." line; plain words if absent."""
    units = {"length": "length", "time": "time", "force": "force"}
    log = Path(folder) / "run.log"
    if log.is_file():
        text = log.read_text(encoding="utf-8", errors="replace")
        found = re.search(r"Model units are (\S+) (\S+) (\S+) (\S+?)\.", text)
        if found:
            for key, word in zip(("length", "time", "force"), found.groups()):
                units[key] = UNIT_SYMBOLS.get(word, word.lower())
    return units


def _figure(rows, columns, title):
    figure = Figure(figsize=(FIGURE_WIDTH, 1.0 + ROW_HEIGHT * rows), layout="constrained")
    axes = figure.subplots(rows, columns, sharex=True, squeeze=False)
    figure.suptitle(title)
    return figure, axes


def _selection_title(what, shown, total, order):
    return f"{what}" if shown == total else f"{what}: {shown} of {total} ({order})"


def _on_output_times(times, rows_times, values):
    """values at rows_times spread over every output time, NaN where the element has no row (a contact pair out of
    reach), so that its line breaks there instead of bridging the gap."""
    spread = np.full(len(times), np.nan)
    spread[np.searchsorted(times, rows_times)] = values
    return spread


def contacts_figure(tables):
    """Per contact pair (Force_Contact id and its two graphics), fn and penetration over time; each impact of
    impacts.csv shaded from onset to separation, its peak force marked."""
    contacts, units = tables.contacts, units_of(tables.folder)
    impacts = tables.impacts if (tables.folder / "impacts.csv").is_file() else None
    keys = ("id", "i_graphic", "j_graphic")
    pairs = sorted(set(zip(*(contacts[key].astype(int) for key in keys))))
    if impacts is not None:
        pairs = sorted(set(pairs) | set(zip(*(impacts[key].astype(int) for key in keys))))

    def peak(pair):
        rows = contacts[_rows_of(contacts, keys, pair)]
        return np.nanmax(rows["interval_max_fn" if "interval_max_fn" in contacts.dtype.names else "fn"]) \
            if len(rows) else 0.0

    shown = sorted(sorted(pairs, key=peak, reverse=True)[:MAX_ROWS])
    times = _output_times(tables, contacts["time"])
    figure, axes = _figure(len(shown), 2, _selection_title("Contacts", len(shown), len(pairs), "largest forces"))
    for row, pair in enumerate(shown):
        rows = contacts[_rows_of(contacts, keys, pair)]
        force_axes, depth_axes = axes[row]
        force_axes.plot(times, _on_output_times(times, rows["time"], rows["fn"]), color="C0", label="fn")
        depth_axes.plot(times, _on_output_times(times, rows["time"], rows["penetration"]), color="C1")
        force_axes.set_ylabel(f"normal force ({units['force']})")
        depth_axes.set_ylabel(f"penetration ({units['length']})")
        force_axes.set_title(f"Force_Contact {pair[0]}: graphics {pair[1]} on {pair[2]}", loc="left", fontsize=10)
        if impacts is not None:
            _mark_impacts(force_axes, depth_axes, impacts[_rows_of(impacts, keys, pair)], times[-1])
    _label_time(axes, units)
    return figure


def _mark_impacts(force_axes, depth_axes, impacts, end_time):
    if len(impacts) == 0:
        return
    for axes in (force_axes, depth_axes):
        for impact in impacts:
            separation = impact["separation_time"] if not math.isnan(impact["separation_time"]) else end_time
            axes.axvspan(impact["onset_time"], separation, color="C3", alpha=0.2, linewidth=0.8)
    force_axes.plot(impacts["peak_time"], impacts["peak_fn"], "v", color="C3",
                    label=f"impacts ({len(impacts)}): peak force")
    force_axes.legend(loc="best", fontsize=8)


def bodies_figure(tables):
    """Per moving body (the first MAX_ROWS by id), its centre of mass' position and velocity over time."""
    bodies, units = tables.bodies, units_of(tables.folder)
    ids = np.unique(bodies["id"]).astype(int)
    shown = ids[:MAX_ROWS]
    figure, axes = _figure(len(shown), 2, _selection_title("Bodies", len(shown), len(ids), "lowest ids"))
    for row, body in enumerate(shown):
        rows = bodies[bodies["id"] == body]
        _draw_components(axes[row], rows, (("position", ("x", "y", "z"), units["length"]),
                                           ("velocity", ("vx", "vy", "vz"), f"{units['length']}/{units['time']}")))
        axes[row, 0].set_title(f"Body_Rigid {body}: centre of mass in ground", loc="left", fontsize=10)
    _label_time(axes, units)
    return figure


def joints_figure(tables):
    """Per joint, and per motion where joints.csv has an element column, the force and torque on its I marker."""
    joints, units = tables.joints, units_of(tables.folder)
    has_element = "element" in joints.dtype.names
    elements = joints["element"] if has_element else np.full(len(joints), "Constraint_Joint")
    keys = sorted(set(zip(elements, joints["id"].astype(int))), key=lambda key: (key[0] == "Motion_Joint", key))
    shown = keys[:MAX_ROWS]
    figure, axes = _figure(len(shown), 2, _selection_title("Joint reactions", len(shown), len(keys), "first ids"))
    for row, (element, number) in enumerate(shown):
        rows = joints[(elements == element) & (joints["id"] == number)]
        _draw_components(axes[row], rows, (("force", ("fx", "fy", "fz"), units["force"]),
                                           ("torque", ("tx", "ty", "tz"), f"{units['force']}·{units['length']}")))
        axes[row, 0].set_title(f"{element} {number}: on its I marker, in ground", loc="left", fontsize=10)
    _label_time(axes, units)
    return figure


def _draw_components(axes_row, rows, quantities):
    """One axes per quantity (its name, its three columns, its unit): the components over time."""
    for axes, (quantity, names, unit) in zip(axes_row, quantities):
        for name in names:
            axes.plot(rows["time"], rows[name], label=name)
        axes.set_ylabel(f"{quantity} ({unit})")
        axes.legend(loc="best", fontsize=8)


def _label_time(axes, units):
    for bottom in axes[-1]:
        bottom.set_xlabel(f"time ({units['time']})")


def energy_figure(tables):
    """energy.csv: every term that is not zero throughout, and below it the leftover (docs/results.md, "Energy
    balance")."""
    energy, units = tables.energy, units_of(tables.folder)
    unit = f"{units['force']}·{units['length']}"
    figure, axes = _figure(2, 1, "Energy balance")
    terms, leftover = axes[0, 0], axes[1, 0]
    for name in energy.dtype.names:
        if name not in ("time", "leftover") and np.any(energy[name] != 0):
            terms.plot(energy["time"], energy[name], label=name)
    terms.set_ylabel(f"energy ({unit})")
    terms.set_title("held, dissipated since the start, and work done since the start", loc="left", fontsize=10)
    if terms.lines:
        terms.legend(loc="best", fontsize=8)
    leftover.plot(energy["time"], energy["leftover"], color="C3")
    leftover.axhline(0.0, color="0.5", linewidth=0.8)
    leftover.set_ylabel(f"leftover ({unit})")
    leftover.set_title("leftover: > 0 the integrator gained energy, < 0 it lost some", loc="left", fontsize=10)
    leftover.set_xlabel(f"time ({units['time']})")
    return figure


def _rows_of(table, keys, values):
    chosen = np.ones(len(table), dtype=bool)
    for key, value in zip(keys, values):
        chosen &= table[key] == value
    return chosen


def _output_times(tables, fallback):
    """Every output time of the run: energy.csv has one row per output time."""
    if (tables.folder / "energy.csv").is_file():
        return np.union1d(tables.energy["time"], fallback)
    return np.unique(fallback)


# kind: (its table, what draws it, why a folder may lack the table)
KINDS = {
    "contacts": ("contacts", contacts_figure, "the deck has no Force_Contact"),
    "bodies": ("bodies", bodies_figure, "the run wrote no output"),
    "joints": ("joints", joints_figure, "the deck has no joints"),
    "energy": ("energy", energy_figure, "the run wrote no output"),
}


class MissingTable(Exception):
    pass


def plot(results, what=None, output=None, dpi=100):
    """Writes a PNG per kind of figure (KINDS; `what`: a list of kinds, default: every kind the folder has a table
    for) into `output` (default: the results folder itself) and returns their paths. A kind asked for whose table is
    missing or empty raises MissingTable."""
    tables = ResultTables(results)
    if not tables.folder.is_dir():
        raise MissingTable(f"{tables.folder} is not a results folder")
    asked = list(what) if what else None
    for kind in asked or []:
        if kind not in KINDS:
            raise ValueError(f"no figure kind '{kind}'; the kinds are {', '.join(KINDS)}")
    output = Path(output) if output else tables.folder
    output.mkdir(parents=True, exist_ok=True)
    written = []
    for kind in asked or KINDS:
        table, draw, reason = KINDS[kind]
        path = tables.folder / f"{table}.csv"
        if not path.is_file() or len(tables.table(table)) == 0:
            if asked:
                why = reason if not path.is_file() else "it has no rows"
                raise MissingTable(f"no {kind} figure: {'no' if not path.is_file() else 'empty'} {path} ({why})")
            continue
        figure = draw(tables)
        written.append(output / f"{kind}.png")
        figure.savefig(written[-1], dpi=dpi)
    return written


def main(argv=None):
    parser = UsageParser(prog="lodestone plot", add_help=False)
    parser.add_argument("results")
    parser.add_argument("--what", action="append", default=[])
    parser.add_argument("-o", "--output")
    try:
        arguments = parser.parse_args(sys.argv[1:] if argv is None else argv)
        what = [kind for text in arguments.what for kind in text.split(",") if kind]
        unknown = [kind for kind in what if kind not in KINDS]
        if unknown:
            raise UsageError(f"--what {unknown[0]}: the kinds of figure are {', '.join(KINDS)}")
    except UsageError as error:
        return usage_exit("lodestone plot", error)
    try:
        written = plot(arguments.results, what, arguments.output)
    except MissingTable as error:
        print(f"lodestone plot: {error}", file=sys.stderr)
        return EXIT_BAD_DECK
    if not written:
        print(f"lodestone plot: {arguments.results} has no results tables to plot", file=sys.stderr)
        return EXIT_BAD_DECK
    for path in written:
        print(f"wrote {path}")
    return EXIT_DONE


if __name__ == "__main__":
    sys.exit(main())
