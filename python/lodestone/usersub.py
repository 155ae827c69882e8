"""The utilities of user subroutines written in Python — the very `lodestone_usersub` module that `lodestone run`
gives a deck's scripts — and what a unit test of such a subroutine needs in a plain Python process:

    from lodestone import usersub
    contact = usersub.load_script("impact_coulomb.py")    # run as `lodestone run` runs it, py_* among its globals
    force, = contact.CNFSUB(300, 0.0, [1e7, 1.5, 20.0, 1e-4], 4, ...)
    with usersub.TestHost(time=0.5) as host:              # answers py_sysfnc & co. in place of a simulation
        host.set_marker(20, position=(0, 0, 0.01))
        ...

Outside a run and without a TestHost, the utilities that read the simulation raise OutsideRunError; py_step and
py_impact answer anywhere.
"""
import os

from . import _core
from ._core import TestHost

_utilities = _core.usersub  # also sys.modules["lodestone_usersub"], so `import lodestone_usersub` works too
OutsideRunError = _utilities.OutsideRunError
_functions = {name: value for name, value in vars(_utilities).items() if name.startswith("py_")}
globals().update(_functions)

def load_script(path):
    """The subroutine script at `path` executed as `lodestone run` executes it for a deck: as its own module, named
    after the file, with the py_* utilities among its globals and its folder on sys.path. A script that does not
    compile or raises while it runs gives RuntimeError with the message a deck naming it would get."""
    return _core.load_script(os.path.abspath(os.fspath(path)))


__all__ = ["TestHost", "OutsideRunError", "load_script"] + sorted(_functions)
