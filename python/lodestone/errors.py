"""Exceptions of the lodestone package, and the diagnostics a deck's reader reports."""
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Diagnostic:
    """One problem of a deck, as `lodestone check` prints it: `text` is "deck.xml:12:3: Body_Rigid id=2: ..."."""

    severity: str  # "error" or "warning"
    file: str
    line: int  # 0 when the problem is not on a line (the file cannot be read)
    column: int
    element: str  # "Body_Rigid", or "" when the problem is not an element's
    id: Optional[int]
    message: str  # without the position and the element
    text: str

    @property
    def is_error(self):
        return self.severity == "error"

    def __str__(self):
        return self.text


def diagnostics_of(found):
    """Diagnostics from the extension's plain dictionaries."""
    return [Diagnostic(**entry) for entry in found]


class Error(Exception):
    """Every exception of the lodestone package."""


class DeckError(Error):
    """A deck (or a setting given it) that the reader refuses: the message is its errors, one per line, as
    `lodestone check` prints them; `diagnostics` holds every error and warning. When the deck went wrong in the middle
    of a run (a command's change that the model cannot take), `results` holds what the run wrote before."""

    def __init__(self, diagnostics, message=None, results=None):
        self.diagnostics = list(diagnostics)
        self.results = results
        errors = [d.text for d in self.diagnostics if d.is_error]
        super().__init__(message or "\n".join(errors) or "bad deck")

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.is_error]


class SimulationError(Error):
    """A run that failed after it started (exit code 2 of `lodestone run`): the message says where and why, as
    `lodestone run` does, and `results` holds everything written up to the failure."""

    def __init__(self, message, results):
        self.results = results
        super().__init__(message)
