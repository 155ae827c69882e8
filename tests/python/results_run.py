"""Runs `lodestone run` on a deck into a fresh folder and reads its CSV tables back, for the Python tests of the
results files (test_results_h5.py, test_animation.py). The lodestone executable is named by LODESTONE_EXECUTABLE,
which ctest sets."""

import csv
import math
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MECHANISM = os.path.join(HERE, "animated_mechanism.xml")


def lodestone():
    executable = os.environ.get("LODESTONE_EXECUTABLE")
    if not executable:
        raise RuntimeError("set LODESTONE_EXECUTABLE to the lodestone executable (ctest does)")
    return executable


def run_deck(deck, *options):
    """The results folder of a completed run (a TemporaryDirectory kept by the caller) and its path."""
    folder = tempfile.TemporaryDirectory(prefix="lodestone_results_")
    output = os.path.join(folder.name, "results")
    completed = subprocess.run([lodestone(), "run", deck, "-o", output, *options], capture_output=True, text=True,
                               check=False)
    if completed.returncode != 0:
        raise RuntimeError(f"lodestone run {deck} failed ({completed.returncode}):\n{completed.stderr}")
    return folder, output


def read_csv(path):
    """Header and rows of a CSV table, cells as text."""
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    return rows[0], rows[1:]


def column(rows, header, name):
    index = header.index(name)
    return [row[index] for row in rows]


def number(text):
    return math.nan if text == "" else float(text)


def deck_line(deck, text):
    """1-based line of the deck where `text` first appears."""
    with open(deck) as file:
        for line_number, line in enumerate(file, start=1):
            if text in line:
                return line_number
    raise ValueError(f"{text!r} is not in {deck}")
