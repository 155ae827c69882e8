"""The elements Lodestone reads and their attributes, from the same schema tables the deck reader checks decks with
(what `lodestone elements NAME` prints): the package never lists attributes of its own."""
from . import _core
from .errors import Error

_kinds = None  # upper-case name -> the extension's description; rebuilt when law libraries add laws


def _catalog():
    global _kinds
    if _kinds is None:
        _kinds = {kind["name"].upper(): kind for kind in _core.element_kinds()}
    return _kinds


def forget():
    """Called when law libraries have been loaded: Force_Contact's attributes come from the law registry."""
    global _kinds
    _kinds = None


def kind(name):
    """The description of element `name` (any case); an Error naming the nearest names when there is none."""
    found = _catalog().get(str(name).upper())
    if found is None:
        known = [k["name"] for k in _catalog().values()]
        meant = _core.nearest_names(str(name), known)
        hint = "; did you mean %s?" % " or ".join(meant) if meant else " (lodestone.elements() lists them)"
        raise Error("no element named %s%s" % (name, hint))
    return found


def canonical_name(name):
    return kind(name)["name"]


def elements():
    """The names of the elements Lodestone reads and simulates, in the catalog's order."""
    return [k["name"] for k in _catalog().values() if k["support"] == "read"]


def describe(name):
    """The reference of one element, as `lodestone elements NAME` prints it."""
    return kind(name)["reference"]


def attribute_rules(name):
    """Every attribute element `name` can have, whatever its variant keywords select: name -> rule."""
    description = kind(name)
    rules = {rule["name"]: rule for rule in description["attributes"]}
    for _selector, variants in description["variant_sets"]:
        for rows in variants.values():
            for rule in rows:
                rules.setdefault(rule["name"], rule)
    return rules


def has_id(name):
    return any(rule["name"] == "id" for rule in kind(name)["attributes"])
