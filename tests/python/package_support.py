"""What the tests of the lodestone package share: the repository's folders, the `lodestone` program the package
belongs to, and CSV files read independently of the package."""
import csv
import math
import os
import subprocess
import tempfile
import unittest

import lodestone

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(SOURCE_DIR, "models")


def model(name):
    return os.path.join(MODELS, name)


def lodestone_command(*arguments, cwd=None):
    """Runs the program (not the package) and returns the finished process, its output as text."""
    return subprocess.run([lodestone.executable(), *arguments], cwd=cwd, capture_output=True, text=True)


def csv_columns(path):
    """header, and each column's cells as text, read with nothing of the package."""
    with open(path, newline="") as file:
        rows = list(csv.reader(file))
    header, body = rows[0], rows[1:]
    return header, {name: [row[k] for row in body] for k, name in enumerate(header)}


def bits(value):
    """A double's 64 bits, so that equal means bit for bit (0.0 and -0.0 differ, NaN equals the same NaN)."""
    return float(value).hex() if not math.isnan(value) else "nan"


class TemporaryFolderTest(unittest.TestCase):
    """A test with its own temporary working folder, removed afterwards."""

    def setUp(self):
        self._folder = tempfile.TemporaryDirectory(prefix="lodestone_python_test_")
        self.folder = self._folder.name
        self.addCleanup(self._folder.cleanup)

    def path(self, *names):
        return os.path.join(self.folder, *names)
