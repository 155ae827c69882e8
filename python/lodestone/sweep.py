"""Parameter sweeps: many variants of one deck, each a `lodestone run` with its own --set values, on Dask distributed.

    from lodestone.sweep import sweep
    table = sweep("bouncing_ball.xml", {"Force_Contact:300:damping": [0, 0.05, 0.1]},
                  {"peak_fn": lambda r: r.impacts["peak_fn"].max(), "z_end": "bodies.2.z.last"})

Each variant runs on a Dask worker as a child process of the `lodestone` executable (find_executable), in a scratch
folder that is deleted once the summary values have been computed from its tables, unless keep=True. A variant that
is a bad deck, fails, crashes or outlasts its time limit is reported in the table and never stops the others.
The command line, `lodestone sweep DECK --vary ELEMENT:ID:ATTR=v1,v2,...`, is main() below (docs/sweeps.md).

This module runs variants through the executable and reads their CSV results with numpy: it needs neither the
compiled extension nor pandas (with pandas, sweep() returns a DataFrame; without, a numpy structured array).
"""

import argparse
import contextlib
import csv
import dataclasses
import itertools
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from numpy.lib import recfunctions

from .values import attribute_text

# --------------------------------------------------------------------------------------------------------------------
# The executable


def find_executable():
    """The `lodestone` program that runs the variants: the package's own (lodestone.executable(): the environment
    variable LODESTONE_EXECUTABLE, which `lodestone sweep` and `lodestone plot` set to themselves, else the program
    built or installed with the package, else `lodestone` on PATH), as FileNotFoundError when there is none."""
    from . import Error, executable  # the package's __init__ loads nothing compiled
    try:
        path = executable()
    except Error as missing:
        raise FileNotFoundError(str(missing)) from None
    if not os.access(path, os.X_OK):
        raise FileNotFoundError(f"{path} is not an executable file (LODESTONE_EXECUTABLE?)")
    return path


# --------------------------------------------------------------------------------------------------------------------
# Results tables


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_table(path):
    """One results CSV (bodies.csv, contacts.csv, ...) as a numpy structured array with a field per column: numbers as
    float64 (an empty cell, such as impacts.csv's separation of a contact still closed at the end, is NaN), columns
    of names (joints.csv's element) as str. A table with a header and no rows gives an empty array."""
    path = Path(path)
    with path.open(newline="", encoding="utf-8") as file:
        names = file.readline().strip().split(",")
    if names == [""]:
        raise ValueError(f"{path} is empty: a results table starts with a header line")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy warns of a header-only file, which is an empty table here
        try:  # all numbers, no empty cell: numpy's fast reader
            numbers = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2, dtype=np.float64)
        except ValueError:
            numbers = None
    if numbers is not None:
        dtype = np.dtype([(name, np.float64) for name in names])
        if numbers.size == 0:
            return np.empty(0, dtype=dtype)
        return recfunctions.unstructured_to_structured(numbers, dtype=dtype)
    with path.open(newline="", encoding="utf-8") as file:
        rows = list(csv.reader(file))[1:]
    columns = []
    for k, name in enumerate(names):
        cells = [row[k] if k < len(row) else "" for row in rows]
        if all(cell == "" or _is_number(cell) for cell in cells):
            columns.append(np.array([float(cell) if cell else math.nan for cell in cells], dtype=np.float64))
        else:
            columns.append(np.array(cells, dtype=str))
    return np.rec.fromarrays(columns, names=names).view(np.ndarray)


class ResultTables:
    """The tables of one results folder, each read (read_table) when first asked for: `tables.impacts` is
    impacts.csv, `tables.bodies` bodies.csv, and so on for any CSV file in the folder (`tables.table("bodies")` is the
    same). `tables.folder` is the folder itself, for anything else in it (run.log)."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self._tables = {}

    def table(self, name):
        if name not in self._tables:
            path = self.folder / f"{name}.csv"
            if not path.is_file():
                present = ", ".join(sorted(p.stem for p in self.folder.glob("*.csv"))) or "none"
                raise FileNotFoundError(f"no {name}.csv in the results (its tables: {present})")
            self._tables[name] = read_table(path)
        return self._tables[name]

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self.table(name)


# --------------------------------------------------------------------------------------------------------------------
# Summary values named on the command line


def _reduce_or_nan(reduction):
    return lambda values: reduction(values) if len(values) else math.nan


REDUCTIONS = {
    "first": _reduce_or_nan(lambda values: values[0]),
    "last": _reduce_or_nan(lambda values: values[-1]),
    "min": _reduce_or_nan(np.min),
    "max": _reduce_or_nan(np.max),
    "absmax": _reduce_or_nan(lambda values: np.max(np.abs(values))),
    "mean": _reduce_or_nan(np.mean),
    "sum": np.sum,
    "count": len,
}


class SummaryExpression:
    """A summary value as the command line names it, `[NAME=]TABLE[.ID].COLUMN.REDUCTION`: the REDUCTION (first, last,
    min, max, absmax, mean, sum, count) of COLUMN of TABLE.csv over its rows, or over the rows of element ID only.
    ID is a number, or ELEMENT:NUMBER where the table has an element column (joints.csv: a joint and a motion may
    share an id). `peak_fn=impacts.peak_fn.max`, `bodies.2.z.last`, `joints.Motion_Joint:1.tz.absmax`. The name
    defaults to the expression's text. Called with a ResultTables, it returns the value."""

    def __init__(self, text):
        self.text = text
        name, given_name, expression = text.partition("=")
        parts = (expression if given_name else text).strip().split(".")
        if len(parts) not in (3, 4) or not all(parts):
            raise ValueError(f"summary '{text}' is not [NAME=]TABLE[.ID].COLUMN.REDUCTION, e.g. impacts.peak_fn.max")
        self.name = name.strip() if given_name else text.strip()
        if not self.name:
            raise ValueError(f"summary '{text}' has an empty name")
        self.table, *selector, self.column, self.reduction = parts
        if self.reduction not in REDUCTIONS:
            raise ValueError(f"summary '{text}': unknown reduction '{self.reduction}'; "
                             f"the reductions are {', '.join(REDUCTIONS)}")
        self.element, self.id = None, None
        if selector:
            element, _, number = selector[0].rpartition(":")
            try:
                self.id = int(number)
            except ValueError:
                raise ValueError(f"summary '{text}': '{selector[0]}' is not an id (a number, or ELEMENT:NUMBER)")
            self.element = element or None

    def __call__(self, tables):
        table = tables.table(self.table)
        names = table.dtype.names
        if self.column not in names:
            raise KeyError(f"{self.table}.csv has no column '{self.column}' (its columns: {', '.join(names)})")
        if self.id is not None:
            table = table[self._rows_of_element(table)]
        return REDUCTIONS[self.reduction](table[self.column])

    def _rows_of_element(self, table):
        names = table.dtype.names
        if "id" not in names:
            raise KeyError(f"{self.table}.csv has no id column to select {self.id} from")
        chosen = table["id"] == self.id
        if "element" in names:
            elements = sorted(set(table["element"][chosen]))
            if self.element:
                chosen &= np.char.lower(table["element"]) == self.element.lower()
            elif len(elements) > 1:
                raise ValueError(f"{self.table}.csv has rows of {' and '.join(elements)} id {self.id}: say which, "
                                 f"as {self.table}.{elements[0]}:{self.id}.{self.column}.{self.reduction}")
        elif self.element:
            raise ValueError(f"{self.table}.csv has no element column: write {self.table}.{self.id}.…")
        if len(table) and not chosen.any():
            ids = ", ".join(str(int(i)) for i in np.unique(table["id"]))
            raise LookupError(f"{self.table}.csv has no rows of {self.element or 'id'} {self.id} (its ids: {ids})")
        return chosen


def summary_functions(summary):
    """{name: function of a ResultTables} from what sweep() takes: a dict of names to functions or expressions
    (SummaryExpression), or a list of expressions."""
    if summary is None:
        return {}
    if isinstance(summary, dict):
        items = summary.items()
    else:
        expressions = [SummaryExpression(text) for text in summary]
        items = [(expression.name, expression) for expression in expressions]
    functions = {}
    for name, function in items:
        if name in functions:
            raise ValueError(f"two summary values are named '{name}'")
        functions[name] = SummaryExpression(f"{name}={function}") if isinstance(function, str) else function
    return functions


# --------------------------------------------------------------------------------------------------------------------
# One variant, on a worker

SETPRIV = shutil.which("setpriv")

DONE, BAD_DECK, FAILED, TIMED_OUT, CRASHED, NOT_STARTED = "done", "bad deck", "failed", "timed out", "crashed", \
    "not started"


@dataclasses.dataclass
class VariantTask:
    """What a worker needs to run one variant; module-level so that Dask pickles it by reference."""
    index: int                # 1, 2, ... in the order of the variants
    deck: str                 # absolute path, the same on every worker (a shared file system on a cluster)
    settings: list            # "ELEMENT:ID:ATTR=VALUE" texts, as `lodestone run --set` takes them
    executable: str
    timeout: float = None     # seconds; None: no limit
    keep_folder: str = None   # the variant's results folder when kept; None: a scratch folder, deleted after
    summary: dict = dataclasses.field(default_factory=dict)  # name: function of a ResultTables


def _status_of_exit(code):
    """batch's statuses, from `lodestone run`'s exit code (0 done, 1 bad deck, 2 failed) or the signal that killed
    it."""
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"{CRASHED} ({name})"
    return {0: DONE, 1: BAD_DECK, 2: FAILED}.get(code, f"{FAILED} (exit {code})")


def _first_error_line(stdout, stderr):
    """The first line of standard error that is not a warning; else the last line of standard output."""
    for line in stderr.splitlines():
        if line.strip() and "warning: " not in line:
            return line.strip()
    lines = [line.strip() for line in stdout.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _plural(count, singular):
    return f"{count} {singular}{'' if count == 1 else 's'}"


def _warnings_line(stderr):
    """For a variant that completed: how many warnings the deck had and the first, since a setting the reader ignores
    (an attribute the element's law does not have) leaves the variant the same as the deck."""
    warnings_given = [line.strip() for line in stderr.splitlines() if "warning: " in line]
    if not warnings_given:
        return ""
    return f"{_plural(len(warnings_given), 'warning')}: {warnings_given[0]}"


def _text(output):
    if output is None:
        return ""
    return output.decode("utf-8", "replace") if isinstance(output, bytes) else output


def run_variant(task):
    """Runs one variant to its end or its time limit and computes its summary values from its tables. Returns a
    dict: index, status, wall_seconds, note (the first error line; for a completed variant its warnings and why a
    summary value is missing), values {name: float}, results (the kept folder, or "")."""
    if task.keep_folder:
        folder = Path(task.keep_folder)
        folder.mkdir(parents=True, exist_ok=True)
    else:
        folder = Path(tempfile.mkdtemp(prefix="lodestone-variant-"))
    outcome = {"index": task.index, "note": "", "values": {name: math.nan for name in task.summary},
               "results": str(folder) if task.keep_folder else ""}
    started = time.monotonic()
    stdout = stderr = ""
    try:
        finished = _run_program(task, folder)
        stdout, stderr = _text(finished.stdout), _text(finished.stderr)
        outcome["status"], outcome["note"] = _judge(finished.returncode, stdout, stderr)
        if outcome["status"] == DONE:
            outcome["values"], problems = _summary_values(task.summary, ResultTables(folder))
            outcome["note"] = "; ".join(filter(None, [_warnings_line(stderr), problems]))
    except subprocess.TimeoutExpired as expired:  # subprocess.run has killed the child
        stdout, stderr = _text(expired.stdout), _text(expired.stderr)
        outcome["status"], outcome["note"] = TIMED_OUT, f"killed after {task.timeout:g} s"
    except OSError as error:
        outcome["status"], outcome["note"] = NOT_STARTED, str(error)
    finally:
        outcome["wall_seconds"] = time.monotonic() - started
        if task.keep_folder:
            (folder / "console.log").write_text(stdout + stderr, encoding="utf-8")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return outcome


def _run_program(task, folder):
    """`lodestone run -o FOLDER --set ... -- DECK`, killed at the time limit and whenever its worker dies (an
    interrupted sweep, a lost worker) rather than left running. setpriv (util-linux) asks for the latter and execs the
    program, with no process between and no preexec_fn, which Python documents as unsafe in a process with threads,
    as a Dask worker is."""
    # The client's executable, or this machine's where the client's path is not one here (another host).
    executable = task.executable if os.access(task.executable, os.X_OK) else find_executable()
    command = [SETPRIV, "--pdeathsig", "KILL", "--"] if SETPRIV else []
    command += [executable, "run", "-o", str(folder)]
    for setting in task.settings:
        command += ["--set", setting]
    command += ["--", task.deck]
    return subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=task.timeout)


def _judge(code, stdout, stderr):
    """The status and note of a run that ended with this exit code (negative: the signal that killed it)."""
    if SETPRIV and code in (126, 127):  # setpriv could not exec the program
        return NOT_STARTED, _first_error_line(stdout, stderr)
    status = _status_of_exit(code)
    if status.startswith(CRASHED):  # a sanitizer's or the C++ runtime's last words say why
        lines = [line.strip() for line in stderr.splitlines() if line.strip()]
        return status, lines[-1] if lines else ""
    return status, "" if status == DONE else _first_error_line(stdout, stderr)


def _summary_values(summary, tables):
    """The summary values of a completed variant, and a note naming each one that could not be computed (NaN)."""
    values, problems = {}, []
    for name, function in summary.items():
        try:
            values[name] = float(function(tables))
        except Exception as error:  # the user's function: whatever it raises is that variant's note, not the sweep's
            values[name] = math.nan
            problems.append(f"{name}: {type(error).__name__}: {error}")
    return values, "; ".join(problems)


# --------------------------------------------------------------------------------------------------------------------
# The sweep


def setting_text(key, value):
    """"Force_Contact:300:stiffness=200000.0": a --set text, the value written as deck.set writes it (floats that read
    back exactly, TRUE/FALSE, lists spaced)."""
    return f"{key}={attribute_text(value)}"


def _check_key(key):
    parts = key.split(":")
    if len(parts) != 3 or not parts[0] or not parts[2] or (parts[1] and not parts[1].lstrip("-").isdigit()):
        raise ValueError(f"'{key}' is not ELEMENT:ID:ATTRIBUTE (ID may be empty), e.g. Force_Contact:300:stiffness")


def variants_of(variations):
    """The variants, each a dict {ELEMENT:ID:ATTR: value}: every combination of a dict's value lists (the last key
    varies fastest), or a list of such dicts taken as they are."""
    if isinstance(variations, dict):
        keys = list(variations)
        for key in keys:
            if isinstance(variations[key], (str, bytes)) or not hasattr(variations[key], "__iter__"):
                raise TypeError(f"the values of {key} must be a list, not {variations[key]!r}")
        variants = [dict(zip(keys, values)) for values in itertools.product(*(list(variations[k]) for k in keys))]
    else:
        variants = [dict(variant) for variant in variations]
    for variant in variants:
        for key in variant:
            _check_key(key)
    if not variants:
        raise ValueError("the sweep has no variants")
    return variants


def _usable_cores():
    return len(os.sched_getaffinity(0))


@contextlib.contextmanager
def _dask_client(client, n_workers):
    """A Client to use: the one given; a new one to a scheduler's address (closed after); or, for None, a new
    LocalCluster of n_workers single-threaded worker processes (default: one per usable core), shut down after."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as error:
        raise ImportError("sweeps need Dask distributed (Debian: apt-get install python3-distributed)") from error
    if client is None:
        with LocalCluster(n_workers=n_workers or _usable_cores(), threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as own:
            yield own
    elif isinstance(client, str):
        with Client(client) as own:
            yield own
    else:
        yield client


class _Progress:
    """What batch shows: a line per finished variant ("[3/40] variant 3 (damping=0.1): done"), and on a terminal a
    bar below them, redrawn as variants finish. Dask's own progress bar has no per-variant lines."""

    def __init__(self, total, stream):
        self.total, self.finished_count, self.stream = total, 0, stream
        self.bar = stream is not None and stream.isatty()
        self._draw()

    def finished(self, text):
        if self.stream is None:
            return
        self.finished_count += 1
        self._erase()
        self.stream.write(f"[{self.finished_count}/{self.total}] {text}\n")
        self._draw()

    def close(self):
        self._erase()

    def _draw(self):
        if self.bar:
            filled = 20 * self.finished_count // self.total
            self.stream.write(f"[{'#' * filled}{'.' * (20 - filled)}] {self.finished_count}/{self.total} variants")
            self.stream.flush()

    def _erase(self):
        if self.bar:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _run_all(client, tasks, describe, stream):
    """Submits every task and collects the outcomes as they finish, in variant order. A task whose worker raised or
    died is a failed variant."""
    from distributed import as_completed
    futures = [client.submit(run_variant, task, pure=False) for task in tasks]
    task_of = {future.key: task for future, task in zip(futures, tasks)}
    outcomes = {}
    progress = _Progress(len(tasks), stream)
    try:
        for future, result in as_completed(futures, with_results=True, raise_errors=False):
            task = task_of[future.key]
            if not isinstance(result, dict):
                result = {"index": task.index, "status": FAILED, "wall_seconds": math.nan,
                          "note": f"on the worker: {type(result).__name__}: {result}",
                          "values": {name: math.nan for name in task.summary}, "results": ""}
            outcomes[task.index] = result
            progress.finished(f"variant {task.index} ({describe(task)}): {result['status']}")
    finally:
        progress.close()
        client.cancel([future for future in futures if not future.done()])
    return [outcomes[task.index] for task in tasks]


@dataclasses.dataclass
class SweepTable:
    """The summary table: its column names and one row (a list of values) per variant."""
    columns: list
    rows: list

    def column(self, name):
        return [row[self.columns.index(name)] for row in self.rows]

    def array(self):
        """A numpy structured array: numbers as float64 (the variant as int64), anything else as str."""
        fields = []
        for k, name in enumerate(self.columns):
            values = [row[k] for row in self.rows]
            if name == "variant":
                fields.append(np.array(values, dtype=np.int64))
            elif all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) for v in values):
                fields.append(np.array(values, dtype=np.float64))
            elif all(isinstance(v, str) and _is_number(v) for v in values):
                fields.append(np.array([float(v) for v in values], dtype=np.float64))
            else:
                fields.append(np.array([str(v) for v in values], dtype=str))
        return np.rec.fromarrays(fields, names=self.columns).view(np.ndarray)

    def frame(self):
        """A pandas DataFrame when pandas is installed, else the structured array."""
        array = self.array()
        try:
            import pandas
        except ImportError:
            return array
        return pandas.DataFrame({name: array[name] for name in self.columns})

    def write_csv(self, path):
        with open(path, "w", newline="", encoding="utf-8") as file:
            writer = csv.writer(file)
            writer.writerow(self.columns)
            for row in self.rows:
                writer.writerow([repr(v) if isinstance(v, float) and not math.isnan(v) else
                                 ("" if isinstance(v, float) else v) for v in row])


def run_sweep(deck, variations, summary=None, *, client=None, n_workers=None, timeout=None, keep=False, output=None,
              settings=(), executable=None, progress=sys.stderr):
    """sweep(), returning the SweepTable itself. `progress`: the stream for the per-variant lines, or None."""
    deck = Path(deck).resolve()
    if not deck.is_file():
        raise FileNotFoundError(f"no deck {deck}")
    variants = variants_of(variations)
    summary = summary_functions(summary)
    keys = list(dict.fromkeys(key for variant in variants for key in variant))
    columns = ["variant", *keys, "status", "wall_seconds", *summary, "note", "results"]
    if len(set(columns)) != len(columns):
        raise ValueError(f"a summary value's name repeats a column of the table: {', '.join(columns)}")
    for setting in settings:
        _check_key(setting.partition("=")[0])
    if output is None and keep:
        output = deck.parent / f"{deck.stem}_sweep"
    output = Path(output).resolve() if output is not None else None
    if output is not None:
        output.mkdir(parents=True, exist_ok=True)
    executable = executable or find_executable()
    width = max(3, len(str(len(variants))))
    tasks = [VariantTask(index=k, deck=str(deck), executable=executable, timeout=timeout, summary=summary,
                         settings=[*settings, *(setting_text(key, value) for key, value in variant.items())],
                         keep_folder=str(output / f"variant-{k:0{width}d}") if keep else None)
             for k, variant in enumerate(variants, start=1)]

    def describe(task):
        return ", ".join(setting_text(key.rpartition(":")[2], value) for key, value in variants[task.index - 1].items())

    with _dask_client(client, n_workers) as dask_client:
        outcomes = _run_all(dask_client, tasks, describe, progress)
    rows = [[outcome["index"], *(variant.get(key, "") for key in keys), outcome["status"], outcome["wall_seconds"],
             *(outcome["values"][name] for name in summary), outcome["note"], outcome["results"]]
            for variant, outcome in zip(variants, outcomes)]
    table = SweepTable(columns, rows)
    if output is not None:
        table.write_csv(output / "summary.csv")
    return table


def sweep(deck, variations, summary=None, *, client=None, n_workers=None, timeout=None, keep=False, output=None,
          settings=(), executable=None, progress=True):
    """Runs the variants of `deck` on Dask and returns the summary table, a row per variant.

    variations: {"ELEMENT:ID:ATTR": [values...], ...}, every combination of them a variant (the last key varying
        fastest); or a list of {"ELEMENT:ID:ATTR": value, ...}, a variant each. An empty ID names elements without
        one ("Param_Transient::integr_tol").
    summary: {name: function(tables) -> number, ...} computed on the worker from the variant's ResultTables
        (`lambda r: r.impacts["peak_fn"].max()`), or {name: "TABLE[.ID].COLUMN.REDUCTION"}, or a list of
        "[NAME=]TABLE[.ID].COLUMN.REDUCTION" (SummaryExpression). A function that raises gives NaN and a note.
    client: None starts a LocalCluster of n_workers single-threaded processes (default: one per core) and shuts it
        down after; a scheduler's address ("tcp://host:8786") or a distributed.Client is used as it is.
    timeout: seconds a variant may run before it is killed ("timed out"); None: no limit.
    keep: keep each variant's results folder, as OUTPUT/variant-001, ... (on the worker's file system).
    output: the folder for summary.csv (and the kept variants); default with keep: <deck name>_sweep beside the
        deck; default without keep: none, only the table is returned.
    settings: "ELEMENT:ID:ATTR=VALUE" texts applied to every variant.

    The table's columns: variant (1, 2, ...), one per varied attribute, status (done, bad deck, failed, timed out,
    crashed (SIGNAL), not started), wall_seconds, one per summary value (NaN unless done), note (the first error line,
    or why a summary value is missing), results (the kept folder). A pandas DataFrame when pandas imports; otherwise
    a numpy structured array.
    """
    return run_sweep(deck, variations, summary, client=client, n_workers=n_workers, timeout=timeout, keep=keep,
                     output=output, settings=settings, executable=executable,
                     progress=sys.stderr if progress else None).frame()


# --------------------------------------------------------------------------------------------------------------------
# The command line: lodestone sweep DECK --vary ELEMENT:ID:ATTR=v1,v2,... (exit codes and usage as `lodestone`'s)

EXIT_DONE, EXIT_BAD_DECK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2, 64


class UsageError(Exception):
    pass


class UsageParser(argparse.ArgumentParser):
    """argparse, but a usage error exits with lodestone's code 64 and its wording."""

    def error(self, message):
        raise UsageError(message)


def usage_exit(program, message):
    print(f"{program}: {message}\nRun 'lodestone --help' for usage.", file=sys.stderr)
    return EXIT_USAGE


def _parse_vary(text):
    key, equals, values = text.partition("=")
    if not equals or not values:
        raise UsageError(f"--vary '{text}' is not ELEMENT:ID:ATTRIBUTE=V1,V2,...")
    try:
        _check_key(key)
    except ValueError as error:
        raise UsageError(f"--vary: {error}")
    values = values.split(",")
    if not all(values):
        raise UsageError(f"--vary '{text}' has an empty value")
    return key, values


def _parse_arguments(argv):
    parser = UsageParser(prog="lodestone sweep", add_help=False)
    parser.add_argument("deck")
    parser.add_argument("--vary", action="append", required=True)
    parser.add_argument("--set", action="append", default=[], dest="settings")
    parser.add_argument("--summary", action="append", default=[])
    parser.add_argument("--scheduler")
    parser.add_argument("-j", "--jobs", type=int, dest="workers")
    parser.add_argument("-o", "--output")
    parser.add_argument("--timeout", type=float)
    parser.add_argument("--keep", action="store_true")
    arguments = parser.parse_args(argv)
    variations = {}
    for text in arguments.vary:
        key, values = _parse_vary(text)
        if key in variations:
            raise UsageError(f"--vary {key} given twice")
        variations[key] = values
    try:
        arguments.summary = summary_functions([t for text in arguments.summary for t in text.split(",") if t])
        for setting in arguments.settings:
            _check_key(setting.partition("=")[0])
    except ValueError as error:
        raise UsageError(str(error))
    if arguments.workers is not None and (arguments.scheduler or arguments.workers < 1):
        raise UsageError("-j needs a number of local workers from 1 on, and no --scheduler")
    if arguments.timeout is not None and not arguments.timeout > 0:
        raise UsageError("--timeout needs a number of seconds > 0")
    arguments.variations = variations
    return arguments


def _format_value(value):
    if isinstance(value, float):
        return "-" if math.isnan(value) else f"{value:.6g}"
    return str(value)


def format_table(table):
    """The table as `lodestone sweep` prints it: aligned columns, a count line, and the note of each variant that has
    one (every variant not done)."""
    column = {name: k for k, name in enumerate(table.columns)}
    shown = [name for name in table.columns if name not in ("note", "results")]
    lines = [["wall" if name == "wall_seconds" else name for name in shown]]
    for row in table.rows:
        wall = row[column["wall_seconds"]]
        lines.append([f"{wall:.2f} s" if name == "wall_seconds" and not math.isnan(wall) else
                      _format_value(row[column[name]]) for name in shown])
    widths = [max(len(line[k]) for line in lines) for k in range(len(shown))]
    text = "".join("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() + "\n"
                   for line in lines)
    statuses = [status.split(" (")[0] for status in table.column("status")]
    counts = ", ".join(f"{statuses.count(status)} {status}" for status in (DONE, BAD_DECK, FAILED, TIMED_OUT, CRASHED))
    if statuses.count(NOT_STARTED):
        counts += f", {statuses.count(NOT_STARTED)} {NOT_STARTED}"
    text += f"{_plural(len(table.rows), 'variant')}: {counts}\n"
    for row in table.rows:
        if row[column["note"]]:
            text += f"\nvariant {row[0]}: {row[column['status']]}\n  {row[column['note']]}\n"
            if row[column["results"]]:
                text += f"  full output: {Path(row[column['results']]) / 'console.log'}\n"
    return text


def exit_code(table):
    """batch's: 0 when every variant completed, 2 when any failed, crashed, timed out or did not start, else 1."""
    statuses = set(status.split(" (")[0] for status in table.column("status"))
    if statuses - {DONE, BAD_DECK}:
        return EXIT_FAILED
    return EXIT_BAD_DECK if BAD_DECK in statuses else EXIT_DONE


def main(argv=None):
    try:
        arguments = _parse_arguments(sys.argv[1:] if argv is None else argv)
    except UsageError as error:
        return usage_exit("lodestone sweep", error)
    deck = Path(arguments.deck)
    if not deck.is_file():
        print(f"lodestone sweep: {deck}: {'is a folder, not a deck file' if deck.is_dir() else 'no such file'}",
              file=sys.stderr)
        return EXIT_BAD_DECK
    output = Path(arguments.output) if arguments.output else deck.resolve().parent / f"{deck.stem}_sweep"
    count = math.prod(len(values) for values in arguments.variations.values())
    where = arguments.scheduler or f"a local cluster of {arguments.workers or _usable_cores()} workers"
    print(f"sweep: {_plural(count, 'variant')} of {deck} on {where}", file=sys.stderr)
    try:
        table = run_sweep(deck, arguments.variations, arguments.summary, client=arguments.scheduler,
                          n_workers=arguments.workers, timeout=arguments.timeout, keep=arguments.keep, output=output,
                          settings=arguments.settings)
    except (ImportError, OSError) as error:  # no Dask, no executable, no scheduler at that address
        print(f"lodestone sweep: {error}", file=sys.stderr)
        return EXIT_FAILED
    print("\n" + format_table(table) + f"\nsummary: {output / 'summary.csv'}", flush=True)
    return exit_code(table)


if __name__ == "__main__":
    sys.exit(main())
