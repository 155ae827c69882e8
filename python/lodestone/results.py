"""A run's results folder as numpy structured arrays (and pandas DataFrames when pandas is installed), read from the
CSV files the run wrote, with each column's units and the labels of the elements its ids name."""
import csv
import math
import os
import re

import numpy

from . import _core, schema

TABLE_NAMES = ("bodies", "contacts", "impacts", "joints", "requests", "energy", "events")

def table_definitions(units):
    """name -> (meaning, [(column, cell type, units, meaning)]) for the deck's unit names: the tables' one
    definition (solver/output/result_tables.h), which the CSV writers write from."""
    return _core.result_tables(units)


class Table(numpy.ndarray):
    """One results table: a numpy structured array, one field per CSV column, in the file's order. Beside the data:
    `units` (column -> units in the deck's unit names, "" for ids and flags, "1" for ratios), `meanings` (column ->
    what it holds), `elements` (id column -> the element names its ids belong to) and `labels` (id column -> {id:
    label} from the deck; {(element, id): label} when the ids belong to several elements that may share an id, as
    joints.csv's, whose `element` column says which; bodies.csv's Body_Rigid and Body_Point ids are never shared)."""

    def __new__(cls, data, name, units=None, meanings=None, elements=None, labels=None):
        table = numpy.asarray(data).view(cls)
        table.name = name
        table.units = dict(units or {})
        table.meanings = dict(meanings or {})
        table.elements = dict(elements or {})
        table.labels = dict(labels or {})
        return table

    def __array_finalize__(self, source):
        # Slices and selections (table[table["id"] == 2]) keep what is known about the columns.
        for attribute in ("name", "units", "meanings", "elements", "labels"):
            setattr(self, attribute, getattr(source, attribute, None if attribute == "name" else {}))

    @property
    def columns(self):
        return list(self.dtype.names or ())

    def row_labels(self, column="id"):
        """The label of each row's element in id column `column` ("" for an element without one)."""
        labels = self.labels.get(column, {})
        if len(self.elements.get(column, ())) > 1 and "element" in self.columns:
            keys = zip(self["element"].tolist(), self[column].tolist())
        else:
            keys = self[column].tolist()
        return numpy.array([labels.get(key, "") for key in keys], dtype=str)

    def to_pandas(self):
        """The table as a pandas DataFrame, its units, meanings and labels in DataFrame.attrs."""
        try:
            import pandas
        except ImportError:
            raise ImportError("Table.to_pandas needs pandas (Debian: apt-get install python3-pandas); the table "
                              "itself is a numpy structured array") from None
        frame = pandas.DataFrame(numpy.asarray(self))
        frame.attrs.update(name=self.name, units=dict(self.units), meanings=dict(self.meanings),
                           labels={column: dict(ids) for column, ids in self.labels.items()})
        return frame


def _is_integer(text):
    try:
        int(text)
        return True
    except ValueError:
        return False


def _is_real(text):
    try:
        float(text)
        return True
    except ValueError:
        return text == ""


def _guessed_type(column, cells):
    """For a column result_tables.h does not describe (requests.csv's): ids are whole numbers, the rest reals, or text
    where a cell is not a number."""
    if column == "id" and all(_is_integer(cell) for cell in cells):
        return "Integer"
    if all(_is_real(cell) for cell in cells):
        return "Real"
    return "Text"


def _column_array(cells, cell_type):
    """A column's cells in numpy: reals float64, ids int64, flags int8, text unicode. Empty cells (a contact still
    closed when the run ended has no separation) are NaN in a real column and -1 in a flag."""
    if cell_type == "Text":
        return numpy.array(cells, dtype="U%d" % max([1] + [len(cell) for cell in cells]))
    if cell_type == "Real":
        # Python's float() reads a shortest round-trip number back to the very double the run wrote.
        return numpy.fromiter((float(cell) if cell else math.nan for cell in cells), numpy.float64, len(cells))
    if cell_type == "Flag":
        return numpy.fromiter((int(cell) if cell else -1 for cell in cells), numpy.int8, len(cells))
    return numpy.fromiter((int(cell) for cell in cells), numpy.int64, len(cells))


def read_table(path, name, definition=None, labels_of=None):
    """The CSV file `path` as a Table. `definition`: [(column, cell type, units, meaning)]; `labels_of(element)`:
    {id: label} of the deck's elements of that name."""
    with open(path, newline="") as file:
        reader = csv.reader(file)
        header = next(reader, [])
        rows = [row for row in reader if row]
    described = {column[0]: column for column in definition or []}
    fields, arrays, units, meanings, elements, labels = [], [], {}, {}, {}, {}
    for index, column in enumerate(header):
        cells = [row[index] if index < len(row) else "" for row in rows]
        cell_type = described[column][1] if column in described else _guessed_type(column, cells)
        array = _column_array(cells, cell_type)
        fields.append((column, array.dtype))
        arrays.append(array)
        if column in described:
            units[column], meanings[column] = described[column][2], described[column][3]
            # An id column's meaning names the elements it refers to ("Post_Graphic id on the I side").
            named = [kind for kind in schema.elements()
                     if cell_type == "Integer" and re.search(r"\b%s\b" % kind, meanings[column])]
            if named:
                elements[column] = tuple(named)
                if labels_of is not None and (len(named) == 1 or "element" not in header):
                    # Without an element column the ids are unique over the kinds named (a Body_Point may not share a
                    # Body_Rigid's id): keyed by id alone.
                    labels[column] = {k: v for kind in named for k, v in labels_of(kind).items()}
                elif labels_of is not None:
                    # A joint and a motion may share an id: keyed by (element, id), as the element column says.
                    labels[column] = {(kind, k): v for kind in named for k, v in labels_of(kind).items()}
    data = numpy.empty(len(rows), dtype=fields)
    for (column, _dtype), array in zip(fields, arrays):
        data[column] = array
    return Table(data, name, units, meanings, elements, labels)


class Results:
    """A results folder. Each table (`bodies`, `contacts`, `impacts`, `joints`, `requests`, `energy`, `events`) is
    read from its CSV file on first use; None when the run wrote no such file (a deck without contact has no
    contacts.csv). `status` is "completed", or "failed"/"bad deck"/"interrupted" for the partial results of a run that
    stopped."""

    def __init__(self, output_dir, deck=None, status="completed", message="", diagnostics=()):
        self.output_dir = os.fspath(output_dir)
        self.deck = deck
        self.status = status
        self.message = message
        self.diagnostics = list(diagnostics)
        self._tables = {}

    @property
    def units(self):
        """The deck's unit names (mass, length, force, time) and mass factor; None without a deck."""
        return self.deck.units if self.deck is not None else None

    def table(self, name):
        if name not in self._tables:
            path = os.path.join(self.output_dir, name + ".csv")
            if not os.path.exists(path):
                return None
            definition, labels_of = None, None
            if self.deck is not None:
                definition = table_definitions(self.deck.units).get(name, ("", []))[1]
                labels_of = self.deck.labels
            self._tables[name] = read_table(path, name, definition, labels_of)
        return self._tables[name]

    bodies = property(lambda self: self.table("bodies"))
    contacts = property(lambda self: self.table("contacts"))
    impacts = property(lambda self: self.table("impacts"))
    joints = property(lambda self: self.table("joints"))
    requests = property(lambda self: self.table("requests"))
    energy = property(lambda self: self.table("energy"))
    events = property(lambda self: self.table("events"))

    def tables(self):
        """name -> Table for every table the run wrote."""
        return {name: self.table(name) for name in TABLE_NAMES if self.table(name) is not None}

    def dataframe(self, name):
        """Table `name` as a pandas DataFrame (Table.to_pandas)."""
        table = self.table(name)
        if table is None:
            raise KeyError("%s has no %s.csv" % (self.output_dir, name))
        return table.to_pandas()

    @property
    def log(self):
        """The text of run.log."""
        with open(os.path.join(self.output_dir, "run.log")) as file:
            return file.read()

    def __repr__(self):
        present = ", ".join(self.tables())
        return "<Results %s (%s): %s>" % (self.output_dir, self.status, present)


def read_results(output_dir, deck=None):
    """A results folder written earlier (by `lodestone run` too); with the deck (a path or a Deck) for units and
    labels."""
    if not os.path.isdir(output_dir):
        raise FileNotFoundError("no results folder %s" % output_dir)
    if deck is not None and not hasattr(deck, "labels"):
        from .deck import load

        deck = load(deck)
    return Results(output_dir, deck)
