"""Errors are Python exceptions with the program's text: a bad deck's `file:line:col: Element id=N: ...`, and a
failed run's reason, with the results written before the failure still reachable."""
import math
import os
import unittest

import lodestone
from package_support import TemporaryFolderTest, lodestone_command

# A ball pushed up by SQRT(0.05 − TIME): the force stops being a number at t = 0.05 s, which fails the run there.
FAILING_DECK = """<?xml version="1.0" encoding="UTF-8"?>
<MultiBodySystem>
  <Model>
    <Force_Gravity grav_z="-9.81"/>
    <Body_Rigid id="1" label="Ground" isground="TRUE"/>
    <Reference_Marker id="20" label="Ball CG" body_id="2" pos_z="1."/>
    <Body_Rigid id="2" label="Ball" cg_id="20" mass="1." inertia_xx="1e-3" inertia_yy="1e-3" inertia_zz="1e-3"/>
    <Force_Vector_OneBody id="8" label="Push" type="ForceOnly" marker_id="20" fz_expression="SQRT(0.05 - TIME)"/>
  </Model>
  <Command>
    <Simulate analysis_type="Transient" end_time="0.1" print_interval="0.01"/>
  </Command>
</MultiBodySystem>
"""


class Errors(TemporaryFolderTest):
    def write(self, name, text):
        with open(self.path(name), "w") as file:
            file.write(text)
        return self.path(name)

    def test_a_bad_deck_carries_the_readers_lines(self):
        deck = self.write("bad.xml", FAILING_DECK.replace('mass="1."', 'mass="heavy"').replace(
            'marker_id="20"', 'marker_id="21"'))
        with self.assertRaises(lodestone.DeckError) as raised:
            lodestone.load(deck)
        program = lodestone_command("check", deck)
        self.assertEqual(str(raised.exception).splitlines(), program.stderr.splitlines())
        self.assertEqual([(d.line, d.element, d.id) for d in raised.exception.errors],
                         [(7, "Body_Rigid", 2), (8, "Force_Vector_OneBody", 8)])
        self.assertIsInstance(raised.exception, lodestone.Error)
        # Running it says the same.
        with self.assertRaises(lodestone.DeckError) as ran:
            lodestone.run(deck, output=self.path("out"))
        self.assertEqual(str(ran.exception), str(raised.exception))

    def test_a_file_that_cannot_be_read(self):
        with self.assertRaisesRegex(lodestone.DeckError, "missing.xml: cannot open the deck: No such file"):
            lodestone.load(self.path("missing.xml"))

    def test_a_failed_run_keeps_its_results(self):
        deck = self.write("failing.xml", FAILING_DECK)
        with self.assertRaises(lodestone.SimulationError) as raised:
            lodestone.run(deck, output=self.path("python"))
        failure = raised.exception
        self.assertIsInstance(failure, lodestone.Error)
        program = lodestone_command("run", deck, "-o", self.path("program"))
        self.assertEqual(program.returncode, 2)
        # The program's last line, word for word (where it failed, the body and the force element at fault, their
        # deck lines), and where the results are.
        self.assertEqual(str(failure), program.stderr.splitlines()[-1] + " in " + self.path("python"))
        self.assertIn("Force_Vector_OneBody id=8", str(failure))
        self.assertIn("failing.xml:7:5", str(failure))
        results = failure.results
        self.assertEqual(results.status, "failed")
        times = results.bodies["time"]
        # Outputs every 0.01 s up to the failure at 0.05 s: 0, 0.01 ... 0.04.
        self.assertEqual(len(times), 5)
        self.assertTrue(math.isclose(times[-1], 0.04, rel_tol=1e-12))
        self.assertTrue(os.path.isfile(os.path.join(results.output_dir, "run.log")))


if __name__ == "__main__":
    unittest.main()
