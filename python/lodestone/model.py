"""Building a model in code and saving it as a deck that `lodestone check` accepts, without string templating.

Elements are made by their deck names (`model.add("Force_Contact", ...)`, or the shorthands below) with the deck's
attribute names, which are checked against the reader's schema tables as they are given; values are checked when
the saved deck is read back by the reader itself, so a mistake gets the reader's message with the saved deck's line.
"""
import os
import xml.etree.ElementTree as ET

from . import _core, schema
from .deck import check, load
from .values import attribute_text
from .errors import Error


class ModelElement:
    """One element of a Model: its deck name, attributes (in the order given) and, for inline meshes, its text.
    Another element given as a value stands for its id."""

    def __init__(self, name, attributes, section):
        self.name = schema.canonical_name(name)
        self.section = section  # "Model" or "Command"
        self.attributes = {}
        self.text = ""
        self.set(**attributes)

    @property
    def id(self):
        value = self.attributes.get("id")
        return None if value is None else int(value)

    def set(self, **attributes):
        """Gives attributes values: names as the deck writes them (`mass=2`, `cg_id=marker`), plus two shorthands
        drawn from the schema: `pos=(x, y, z)` for pos_x, pos_y, pos_z when the element has those three, and
        `body=b` for body_id when the element has that reference."""
        rules = schema.attribute_rules(self.name)
        for given, value in attributes.items():
            for name, item in self._expand(given.lower(), value, rules):
                self.attributes[name] = item
        return self

    def _expand(self, name, value, rules):
        if name in rules:
            return [(name, value)]
        components = [name + "_" + axis for axis in "xyz"]
        if all(component in rules for component in components):
            values = list(value)
            if len(values) != 3:
                raise Error("%s: %s takes three values (%s), not %d" % (self, name, ", ".join(components), len(values)))
            return list(zip(components, values))
        if name + "_id" in rules and rules[name + "_id"]["kind"] in ("reference", "reference_list"):
            return [(name + "_id", value)]
        meant = _core.nearest_names(name, sorted(rules))
        hint = "; did you mean %s?" % " or ".join("'%s'" % m for m in meant) if meant else (
            " (lodestone.describe(%r) lists its attributes)" % self.name)
        raise Error("%s has no attribute '%s'%s" % (self.name, name, hint))

    def __getitem__(self, name):
        return self.attributes[name.lower()]

    def __setitem__(self, name, value):
        self.set(**{name: value})

    def __repr__(self):
        return "<%s%s>" % (self.name, "" if self.id is None else " id=%d" % self.id)


class Model:
    """A deck under construction: elements of <Model> and commands of <Command>, in the order added.

        model = lodestone.Model()
        model.add("Param_Unit", length_unit="MILLIMETER")
        ground = model.body(isground=True, label="Ground")
        ...
        model.simulate(end_time=0.5, print_interval=0.001)
        deck = model.save("ball.xml")     # checked as `lodestone check` checks it
    """

    def __init__(self):
        self.elements = []  # <Model>
        self.commands = []  # <Command>

    # ---- adding elements ------------------------------------------------------------------------------------------

    def add(self, name, /, **attributes):
        """An element of <Model>, named as the deck names it. Elements with ids get the next free id of their
        element name unless one is given."""
        return self._append(self.elements, name, "Model", attributes)

    def command(self, name, /, **attributes):
        """An element of <Command>: Simulate, Stop, Deactivate, Activate, or a model element's name with an
        existing id to change it between simulations (Model.change does that for an element you hold)."""
        return self._append(self.commands, name, "Command", attributes)

    def _append(self, target, name, section, attributes):
        element = ModelElement(name, {}, section)
        if section == "Model" and schema.has_id(element.name) and "id" not in {k.lower() for k in attributes}:
            used = [e.id for e in self.elements if e.name == element.name and e.id is not None]
            element.set(id=max(used, default=0) + 1)
        element.set(**attributes)
        target.append(element)
        return element

    def body(self, **attributes):
        return self.add("Body_Rigid", **attributes)

    def marker(self, **attributes):
        return self.add("Reference_Marker", **attributes)

    def graphic(self, type, /, **attributes):
        return self.add("Post_Graphic", type=type, **attributes)

    def contact(self, **attributes):
        return self.add("Force_Contact", **attributes)

    def joint(self, type, /, **attributes):
        return self.add("Constraint_Joint", type=type, **attributes)

    def motion(self, **attributes):
        return self.add("Motion_Joint", **attributes)

    def force(self, name, /, **attributes):
        """A force element by its deck name: Force_SpringDamper, Force_Bushing, Force_Scalar_TwoBody, ..."""
        return self.add(name, **attributes)

    def simulate(self, **attributes):
        """A Simulate command (analysis_type Transient unless given)."""
        attributes.setdefault("analysis_type", "Transient")
        return self.command("Simulate", **attributes)

    def stop(self):
        return self.command("Stop")

    def change(self, element, /, **attributes):
        """A command that changes attributes of a model element between simulations."""
        return self.command(element.name, id=element.id, **attributes)

    # ---- writing --------------------------------------------------------------------------------------------------

    def to_xml(self):
        """The deck's text."""
        root = ET.Element("MultiBodySystem")
        for section, elements in (("Model", self.elements), ("Command", self.commands)):
            if section == "Command" and not elements:
                continue
            node = ET.SubElement(root, section)
            for element in elements:
                child = ET.SubElement(node, element.name,
                                      {name: attribute_text(value) for name, value in element.attributes.items()})
                child.text = element.text or None
        ET.indent(root)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"

    def save(self, path):
        """Writes the deck and checks it as `lodestone check` does: raises DeckError with the reader's messages (at
        the saved file's lines) when it is bad, and returns it read as a Deck when it is not."""
        path = os.fspath(path)
        with open(path, "w", encoding="utf-8") as file:
            file.write(self.to_xml())
        check(path)
        return load(path)
