"""Lodestone, a multibody dynamics solver, from Python: the program's own C++ library (the extension module
lodestone._core), and sweeps and plots (lodestone.sweep, lodestone.plot).

    import lodestone
    deck = lodestone.load("models/bouncing_ball.xml")
    deck.set("Force_Contact", 300, damping=0)        # checked by the reader, at the element's line
    results = deck.run(output="undamped")            # what `lodestone run ... --set ...` writes
    results.contacts["fn"].max(), results.contacts.units["fn"]

Decks built in code: lodestone.Model. Python subroutines tested outside a run: lodestone.usersub. Errors are
lodestone.Error: DeckError (the reader's `file:line:col: Element id=N: ...` messages) and SimulationError (with the
partial results).
"""
import importlib
import os
import shutil

from .errors import DeckError, Diagnostic, Error, SimulationError

# What needs the extension module is imported on first use, so that the pure-Python modules (sweep, plot, which run
# variants through the program) import without loading the C++ library into the process: name -> its module.
_ON_FIRST_USE = {
    "Deck": "deck", "Element": "deck", "check": "deck", "load": "deck", "run": "deck",
    "Model": "model", "ModelElement": "model",
    "Results": "results", "Table": "results", "read_results": "results",
    "describe": "schema", "elements": "schema",
}
_MODULES = ("usersub", "sweep", "plot")  # lodestone.plot needs matplotlib


def __getattr__(name):
    if name in _ON_FIRST_USE:
        value = getattr(importlib.import_module("." + _ON_FIRST_USE[name], __name__), name)
    elif name in _MODULES:
        value = importlib.import_module("." + name, __name__)
    elif name == "__version__":
        value = importlib.import_module("._core", __name__).version
    else:
        raise AttributeError("module 'lodestone' has no attribute %r" % name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_ON_FIRST_USE) | set(_MODULES) | {"__version__"})


def executable():
    """The path of the `lodestone` program this package belongs to: $LODESTONE_EXECUTABLE when set, else the one
    built or installed with the package, else the first on PATH."""
    given = os.environ.get("LODESTONE_EXECUTABLE")
    if given:
        return given
    beside = None
    try:
        from . import _paths  # written by CMake beside the extension module; not in the source folder
    except ImportError:
        pass
    else:
        beside = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), _paths.EXECUTABLE))
        if os.access(beside, os.X_OK):
            return beside
    found = shutil.which("lodestone")
    if found:
        return found
    where = "at %s (where it was built or installed with this package) nor " % beside if beside else ""
    raise Error("the lodestone program is not %son PATH; set LODESTONE_EXECUTABLE" % where)


def load_laws(libraries):
    """Loads law libraries (a name or path, or a list of them), as `lodestone --laws` does, so that decks may name
    their laws. Raises Error when one cannot be used; laws refused for their ABI version give warnings. (The
    libraries of LODESTONE_LAWS are loaded with the extension module, as the program loads them.)"""
    import warnings

    from . import _core, schema

    names = [libraries] if isinstance(libraries, (str, os.PathLike)) else list(libraries)
    problems = _core.load_laws(":".join(os.fspath(name) for name in names))
    schema.forget()
    for warning in problems["warnings"]:
        warnings.warn(warning)
    if problems["errors"]:
        raise Error("\n".join(problems["errors"]))


__all__ = ["Deck", "DeckError", "Diagnostic", "Element", "Error", "Model", "ModelElement", "Results",
           "SimulationError", "Table", "check", "describe", "elements", "executable", "load", "load_laws",
           "read_results", "run", "usersub"]
