"""Python values as a deck writes them. Imports nothing compiled, so that sweep.py (which runs the lodestone program
and does not load the extension module) writes a variant's settings exactly as deck.set and Model.save do."""
import numbers

import numpy


def attribute_text(value):
    """A Python value as a deck writes it: TRUE/FALSE, shortest round-trip numbers, ids of elements, lists spaced."""
    if isinstance(value, (bool, numpy.bool_)):
        return "TRUE" if value else "FALSE"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, str):
        return value
    if hasattr(value, "id") and not isinstance(value, (list, tuple)):
        if value.id is None:
            raise ValueError("%r has no id to refer to it by" % (value,))
        return str(value.id)
    if value is None:
        raise ValueError("an attribute cannot be None: leave it out instead")
    try:
        return " ".join(attribute_text(item) for item in value)
    except TypeError:
        raise ValueError("%r cannot be written as an attribute value" % (value,)) from None
