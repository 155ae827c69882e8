"""A deck's elements read and changed by id and attribute, through the reader's own rules and messages."""
import unittest

import lodestone
from package_support import TemporaryFolderTest, lodestone_command, model

DECK = model("bouncing_ball.xml")


class ReadingElements(unittest.TestCase):
    def setUp(self):
        self.deck = lodestone.load(DECK)

    def test_elements_by_name_and_id(self):
        contact = self.deck.element("Force_Contact", 300)
        self.assertEqual(contact.label, "Ball on plate")
        self.assertEqual((contact.line, contact.column), (42, 5))
        self.assertEqual([body.id for body in self.deck.elements("body_rigid")], [1, 2])
        self.assertEqual(self.deck.labels("Post_Graphic"), {100: "Plate", 200: "Ball"})
        self.assertEqual([c.name for c in self.deck.commands], ["Simulate"] * 3 + ["Stop"])

    def test_values_are_read_by_the_schema(self):
        self.assertEqual(self.deck.get("Force_Contact", 300, "stiffness"), 463337.0)
        self.assertEqual(self.deck.get("Force_Contact", 300, "cnf_type"), "IMPACT")
        self.assertIs(self.deck.get("Body_Rigid", 1, "isground"), True)
        self.assertEqual(self.deck.get("Force_Contact", 300, "i_graphics_id"), [200])
        # Left out: the schema's default, as the reader assigns it.
        self.assertEqual(self.deck.get("Param_Transient", None, "max_order"), 5)
        self.assertEqual(self.deck.element("Force_Contact", 300).get("zero_crossing"), True)

    def test_what_the_deck_does_not_have(self):
        with self.assertRaisesRegex(KeyError, "no Force_Contact id=301; it has ids 300"):
            self.deck.element("Force_Contact", 301)
        with self.assertRaisesRegex(KeyError, "no attribute 'penalty'"):
            self.deck.get("Force_Contact", 300, "penalty")  # POISSON's, not IMPACT's
        with self.assertRaisesRegex(lodestone.Error, "did you mean Force_Contact"):
            self.deck.elements("Force_Contakt")

    def test_units(self):
        self.assertEqual(self.deck.units["length"], "MILLIMETER")
        self.assertAlmostEqual(self.deck.units["mass_factor"], 1e-3, delta=1e-18)


class SettingAttributes(TemporaryFolderTest):
    def setUp(self):
        super().setUp()
        self.deck = lodestone.load(DECK)

    def test_a_setting_is_read_as_the_deck_would_say_it(self):
        self.deck.set("Force_Contact", 300, stiffness=2e5, damping=0)
        self.assertEqual(self.deck.settings, ["Force_Contact:300:stiffness=200000.0", "Force_Contact:300:damping=0"])
        self.assertEqual(self.deck.get("Force_Contact", 300, "stiffness"), 2e5)
        self.deck.element("Force_Contact", 300).set(stiffness=3e5)  # replaces the earlier setting
        self.assertEqual(self.deck.settings, ["Force_Contact:300:damping=0", "Force_Contact:300:stiffness=300000.0"])
        self.deck.set("Param_Transient", integr_tol=1e-7)  # an element without an id
        self.assertEqual(self.deck.get("Param_Transient", None, "integr_tol"), 1e-7)
        self.deck.reset()
        self.assertEqual(self.deck.get("Force_Contact", 300, "stiffness"), 463337.0)

    def test_a_bad_value_gets_the_readers_message_at_the_elements_line(self):
        self.deck.set("Force_Contact", 300, damping=0)
        with self.assertRaises(lodestone.DeckError) as raised:
            self.deck.set("Force_Contact", 300, stiffness=-1)
        # The very line `lodestone check --set` prints.
        program = lodestone_command("check", DECK, "--set", "Force_Contact:300:stiffness=-1")
        self.assertEqual(program.returncode, 1)
        self.assertIn(str(raised.exception), program.stderr.splitlines())
        self.assertEqual(str(raised.exception),
                         DECK + ":42:5: Force_Contact id=300: attribute 'stiffness' must be > 0 (got -1)")
        error, = raised.exception.errors
        self.assertEqual((error.line, error.column, error.element, error.id), (42, 5, "Force_Contact", 300))
        # The deck keeps the settings it had.
        self.assertEqual(self.deck.settings, ["Force_Contact:300:damping=0"])
        self.assertEqual(self.deck.get("Force_Contact", 300, "stiffness"), 463337.0)

    def test_a_setting_no_element_takes_is_an_error(self):
        with self.assertRaisesRegex(lodestone.DeckError, "setting Force_Contact:301:damping=0: the deck has no "
                                                         "Force_Contact id=301"):
            self.deck.set("Force_Contact", 301, damping=0)

    def test_check_reports_what_the_program_does(self):
        self.assertEqual(self.deck.check(), [])
        # The ball sunk 1 mm into the plate: a warning at the Force_Contact's line.
        with open(DECK) as original, open(self.path("overlap.xml"), "w") as file:
            file.write(original.read().replace('pos_z="110."', 'pos_z="9."'))
        warnings = lodestone.check(self.path("overlap.xml"))
        program = lodestone_command("check", self.path("overlap.xml"))
        self.assertEqual([w.text for w in warnings], program.stderr.splitlines())
        self.assertTrue(warnings and all(w.severity == "warning" for w in warnings))


if __name__ == "__main__":
    unittest.main()
