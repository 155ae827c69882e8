"""A deck read by Lodestone's own reader: its elements by name and id, attributes given other values from outside the
deck (the reader's settings, as `lodestone run --set` gives them), its check and its run."""
import os

from . import _core, schema
from .values import attribute_text
from .errors import DeckError, SimulationError, diagnostics_of
from .results import Results


def setting_text(element, id, attribute, value):
    """One setting as `lodestone run --set` takes it: ELEMENT:ID:ATTRIBUTE=VALUE (ID empty for elements without)."""
    return "%s:%s:%s=%s" % (element, "" if id is None else int(id), attribute, attribute_text(value))


class Element:
    """One element of a deck as the reader saw it (its settings applied). `element["stiffness"]` is the attribute's
    value read by the reader's own rule, or its default when the deck leaves it out; `attributes` the text written."""

    def __init__(self, deck, description):
        self._deck = deck
        self.name = description["name"] or description["tag"]  # canonical, or as written when not an element of ours
        self.known = bool(description["name"])  # an element Lodestone does not know is ignored with a warning
        self.tag = description["tag"]
        self.section = description["section"]
        self.file = description["file"]
        self.line = description["line"]
        self.column = description["column"]
        self.id = description["id"]
        self.attributes = dict(description["attributes"])
        self.text = description["text"]

    @property
    def label(self):
        return self.attributes.get("label")

    def __getitem__(self, attribute):
        """The attribute's value by the reader's rule for it (its default when the element leaves it out); KeyError
        when the element has no such attribute."""
        name = attribute.lower()
        return _core.attribute_value(self.name, list(self.attributes.items()), name, self.attributes.get(name))

    def get(self, attribute, default=None):
        try:
            value = self[attribute]
        except KeyError:
            return default
        return default if value is None else value

    def set(self, **attributes):
        """Gives attributes of this element other values (Deck.set)."""
        self._deck.set(self.name, self.id, **attributes)

    def subject(self):
        """"Force_Contact id=300", as messages name the element."""
        return self.name if self.id is None else "%s id=%d" % (self.name, self.id)

    def __repr__(self):
        label = " %r" % self.label if self.label else ""
        return "<%s%s at %s:%d>" % (self.subject(), label, os.path.basename(self.file), self.line)


class Deck:
    """A deck file read by Lodestone's reader. `set` gives attributes other values without editing the file: the deck
    is read again with them, so a value is checked exactly as if the deck said it and a bad one is reported at the
    element's line. `run` simulates the deck with them as `lodestone run --set ...` would."""

    def __init__(self, path, settings=()):
        self.path = os.fspath(path)
        self._settings = []
        self._apply(list(settings))

    # ---- reading -------------------------------------------------------------------------------------------------

    def _apply(self, settings):
        read = _core.read_deck(self.path, settings)
        diagnostics = diagnostics_of(read["diagnostics"])
        if not read["ok"]:
            raise DeckError(diagnostics)
        self._settings = settings
        self.diagnostics = diagnostics  # the reader's warnings
        self.units = read["units"]  # names of the deck's units and the mass multiplication factor
        self._elements = [Element(self, description) for description in read["elements"]]

    @property
    def settings(self):
        """The settings in effect, as `lodestone run --set` spells them."""
        return list(self._settings)

    def elements(self, name=None):
        """The elements of <Model>, in the deck's order; only those named `name` (any case) when given."""
        wanted = None if name is None else schema.canonical_name(name)
        return [e for e in self._elements if e.section == "Model" and (wanted is None or e.name == wanted)]

    @property
    def commands(self):
        """The elements of <Command>, in the deck's order."""
        return [e for e in self._elements if e.section == "Command"]

    def element(self, name, id=None):
        """Element `name` with `id` in <Model> (id None for elements without one, such as Param_Transient)."""
        candidates = self.elements(name)
        for element in candidates:
            if element.id == id:
                return element
        ids = sorted(e.id for e in candidates if e.id is not None)
        which = "%s id=%s" % (schema.canonical_name(name), id) if id is not None else schema.canonical_name(name)
        have = ("; it has ids " + ", ".join(map(str, ids))) if ids else ""
        raise KeyError("%s: the deck has no %s%s" % (self.path, which, have))

    def get(self, name, id, attribute):
        """The value of an attribute of element `name` `id`, as the reader reads it (its default when left out)."""
        return self.element(name, id)[attribute]

    def labels(self, name):
        """id -> label of the elements `name` that have a label."""
        return {e.id: e.label for e in self.elements(name) if e.id is not None and e.label}

    # ---- changing ------------------------------------------------------------------------------------------------

    def set(self, name, id=None, /, **attributes):
        """Gives attributes of element `name` `id` other values: deck.set("Force_Contact", 300, stiffness=2e5).
        Raises DeckError, with the reader's message at the element's line, when the deck with them is bad; the deck
        then keeps the settings it had."""
        if not attributes:
            raise ValueError("Deck.set needs at least one attribute=value")
        settings = list(self._settings)
        for attribute, value in attributes.items():
            text = setting_text(name, id, attribute, value)
            target = text.split("=", 1)[0].lower()
            settings = [s for s in settings if s.split("=", 1)[0].lower() != target] + [text]
        self._apply(settings)
        return self

    def reset(self):
        """Drops every setting: the deck as its file says."""
        self._apply([])
        return self

    # ---- checking and running ------------------------------------------------------------------------------------

    def check(self):
        """What `lodestone check` reports: raises DeckError when the deck has errors, else returns its warnings."""
        return check(self.path, self._settings)

    def run(self, output=None):
        """Simulates the deck with its settings, as `lodestone run DECK [-o output] --set ...` does, in this process.
        Returns the Results; raises SimulationError (its `results` has what was written) when the run fails.
        Ctrl-C ends the run after its current step, its files complete, and raises KeyboardInterrupt with the
        results so far as its `results`."""
        outcome = _core.run_deck(self.path, self._settings, "" if output is None else os.fspath(output))
        diagnostics = diagnostics_of(outcome["diagnostics"])
        results = None
        if outcome["output_dir"]:
            results = Results(outcome["output_dir"], self, outcome["status"], outcome["message"], diagnostics)
        interruption = outcome["interruption"]  # what a signal handler raised during the run (KeyboardInterrupt)
        if interruption is not None:
            interruption.results = results
            if results is not None:
                interruption.add_note("%s: %s; results up to it are kept in %s"
                                      % (self.path, outcome["message"], results.output_dir))
            raise interruption
        if outcome["status"] == "bad deck":
            raise DeckError(diagnostics, results=results)
        if outcome["status"] in ("failed", "interrupted"):  # interrupted: by a signal whose handler raised nothing
            message = "%s: %s" % (self.path, outcome["message"].rstrip("."))
            if results is not None:
                message += "; results up to the failure are kept in " + results.output_dir
            raise SimulationError(message, results)
        return results

    def __repr__(self):
        settings = (" with " + " ".join(self._settings)) if self._settings else ""
        return "<Deck %s%s>" % (self.path, settings)


def load(path, settings=()):
    """Reads a deck; raises DeckError with the reader's messages when it has errors. `settings` as `--set` takes
    them ("Force_Contact:300:stiffness=2e5")."""
    return Deck(path, settings)


def check(path, settings=()):
    """What `lodestone check DECK --set ...` reports: raises DeckError when the deck has errors, else returns its
    warnings (Diagnostic objects)."""
    diagnostics = diagnostics_of(_core.check_deck(os.fspath(path), list(settings)))
    if any(d.is_error for d in diagnostics):
        raise DeckError(diagnostics)
    return diagnostics


def run(path, output=None, settings=()):
    """Simulates a deck, as `lodestone run DECK [-o output] --set ...` does: lodestone.load(path, settings).run()."""
    return load(path, settings).run(output)
