"""A deck loaded in Python, a law parameter changed, run in this process: its tables are the CSV files of
`lodestone run --set` of the same deck, bit for bit, with units and labels attached."""
import math
import os
import tempfile
import unittest

import numpy

import lodestone
from package_support import TemporaryFolderTest, bits, csv_columns, lodestone_command, model

DECK = model("bouncing_ball.xml")
# The ball's IMPACT law without its damping: a purely elastic Hertz impact (the deck's comment gives the figures).
SETTING = "Force_Contact:300:damping=0"


def assert_tables_are_the_csv_files(test, results, folder):
    """Every table of `results` holds, column by column, the very numbers and texts of the CSV files in `folder`."""
    for name, table in results.tables().items():
        header, columns = csv_columns(os.path.join(folder, name + ".csv"))
        with test.subTest(table=name):
            test.assertEqual(table.columns, header)
            test.assertGreater(len(table), 0)
            for column in header:
                cells, values = columns[column], table[column]
                test.assertEqual(len(values), len(cells))
                if values.dtype.kind == "f":
                    expected = [bits(float(cell)) if cell else "nan" for cell in cells]
                    test.assertEqual([bits(v) for v in values.tolist()], expected, column)
                elif values.dtype.kind in "iu":
                    test.assertEqual(values.tolist(), [int(cell) if cell else -1 for cell in cells], column)
                else:
                    test.assertEqual(values.tolist(), cells, column)


class RunLikeTheProgram(unittest.TestCase):
    """One run in this process and one by the program, shared by the tests below."""

    @classmethod
    def setUpClass(cls):
        cls._folder = tempfile.TemporaryDirectory(prefix="lodestone_python_test_")
        cls.addClassCleanup(cls._folder.cleanup)
        deck = lodestone.load(DECK)
        deck.set("Force_Contact", 300, damping=0)
        cls.settings = deck.settings
        cls.results = deck.run(output=cls.path("python"))
        cls.program = lodestone_command("run", DECK, "--set", SETTING, "-o", cls.path("program"))

    @classmethod
    def path(cls, *names):
        return os.path.join(cls._folder.name, *names)

    def test_the_setting_is_spelt_as_the_command_line_spells_it(self):
        self.assertEqual(self.settings, [SETTING])
        self.assertEqual(self.program.returncode, 0, self.program.stderr)

    def test_every_table_is_the_programs_csv_bit_for_bit(self):
        self.assertEqual(sorted(self.results.tables()), ["bodies", "contacts", "energy", "impacts"])
        assert_tables_are_the_csv_files(self, self.results, self.path("program"))

    def test_the_files_are_the_programs(self):
        for name in ("bodies", "contacts", "impacts", "energy"):
            with open(self.path("python", name + ".csv"), "rb") as ours, \
                    open(self.path("program", name + ".csv"), "rb") as theirs:
                self.assertEqual(ours.read(), theirs.read(), name)

    def test_the_setting_changed_the_law(self):
        # Undamped, the impact is elastic: restitution 1 (the damped deck gives 0.904), and the peak force is
        # Hertz's K·δmax^1.5 = 2572 N of the deck's comment (0.1 %: its 4 µs outputs and the located peak allow it).
        impacts = self.results.impacts
        self.assertEqual(len(impacts), 2)
        first = impacts[0]
        self.assertAlmostEqual(first["restitution"], 1.0, delta=1e-4)
        self.assertAlmostEqual(first["peak_fn"], 2572.0, delta=2.6)
        self.assertTrue(math.isclose(first["onset_time"], math.sqrt(2 * 100 / 9810), rel_tol=1e-6))

    def test_units_and_labels(self):
        contacts, bodies = self.results.contacts, self.results.bodies
        self.assertEqual(contacts.units["fn"], "newton")
        self.assertEqual(contacts.units["penetration"], "millimeter")
        self.assertEqual(bodies.units["vz"], "millimeter/second")
        self.assertEqual(bodies.units["wx"], "radian/second")
        self.assertEqual(self.results.energy.units["leftover"], "newton*millimeter")
        self.assertEqual(self.results.impacts.units["impulse"], "newton*second")
        self.assertEqual(bodies.units["e0"], "1")
        self.assertEqual(bodies.units["id"], "")
        self.assertEqual(bodies.labels["id"], {1: "Ground", 2: "Ball"})
        self.assertEqual(contacts.labels["id"], {300: "Ball on plate"})
        self.assertEqual(contacts.labels["i_graphic"][200], "Ball")
        self.assertEqual(contacts.labels["j_graphic"][100], "Plate")
        self.assertEqual(self.results.units["length"], "MILLIMETER")
        # A selection is a table of the same columns, units and labels.
        ball = bodies[bodies["id"] == 2]
        self.assertIsInstance(ball, lodestone.Table)
        self.assertEqual(ball.units["z"], "millimeter")
        self.assertEqual(len(ball), len(bodies))

    def test_tables_the_run_did_not_write_are_none(self):
        self.assertIsNone(self.results.joints)
        self.assertIsNone(self.results.events)
        self.assertIsNone(self.results.requests)

    def test_a_folder_written_by_the_program_reads_the_same(self):
        theirs = lodestone.read_results(self.path("program"), deck=DECK)
        for name in ("bodies", "contacts", "impacts", "energy"):
            numpy.testing.assert_array_equal(theirs.table(name), self.results.table(name), name)
        self.assertEqual(theirs.contacts.units, self.results.contacts.units)

    def test_pandas_when_installed(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            with self.assertRaisesRegex(ImportError, "needs pandas"):
                self.results.dataframe("bodies")
            self.skipTest("pandas is not installed (python3-pandas); the numpy tables are tested above")
        frame = self.results.dataframe("contacts")
        self.assertEqual(list(frame.columns), self.results.contacts.columns)
        self.assertEqual(frame.attrs["units"]["fn"], "newton")


class JointsMotionsAndRequests(TemporaryFolderTest):
    """models/slider_crank_motor.xml: joints.csv with its motion's rows and element column, requests.csv."""

    def test_the_tables_are_the_programs(self):
        deck = model("slider_crank_motor.xml")
        results = lodestone.run(deck, output=self.path("python"))
        program = lodestone_command("run", deck, "-o", self.path("program"))
        self.assertEqual(program.returncode, 0, program.stderr)
        self.assertEqual(sorted(results.tables()), ["bodies", "energy", "joints", "requests"])
        assert_tables_are_the_csv_files(self, results, self.path("program"))

        joints = results.joints
        self.assertEqual(joints.elements["id"], ("Constraint_Joint", "Constraint_Jprim", "Motion_Joint"))
        self.assertEqual(joints.labels["id"][("Motion_Joint", 5)], "Motor")
        at_start = joints[joints["time"] == 0]
        self.assertEqual(at_start.row_labels().tolist(), ["Main bearing", "Big end", "Small end", "Guide", "Motor"])
        self.assertEqual(joints.units["tz"], "newton*meter")
        requests = results.requests  # no definition in result_tables.h: ids whole numbers, types text, reals
        self.assertEqual(requests.dtype["id"].kind, "i")
        self.assertEqual(requests["type"][0], "MARKER_DISPLACEMENT")
        self.assertEqual(requests.dtype["f1"].kind, "f")


# A Body_Rigid ball and a Body_Point bead falling side by side (Body_Point ids are their own in MotionSolve; a deck
# may not give both kinds one id, so bodies.csv's ids still name one body each).
FALLING_BODIES_DECK = """<?xml version="1.0" encoding="UTF-8"?>
<MultiBodySystem>
  <Model>
    <Force_Gravity grav_z="-9.81"/>
    <Body_Rigid id="1" label="Ground" isground="TRUE"/>
    <Reference_Marker id="20" body_id="2" pos_z="1."/>
    <Body_Rigid id="2" label="Ball" cg_id="20" mass="1." inertia_xx="1e-3" inertia_yy="1e-3" inertia_zz="1e-3"/>
    <Reference_Marker id="30" body_id="3" body_type="PointBody" pos_x="1." pos_z="1."/>
    <Body_Point id="3" label="Bead" cg_id="30" mass="0.5" v_ic_x="0.2"/>
    <Param_Transient integr_tol="1e-6"/>
  </Model>
  <Command>
    <Simulate analysis_type="Transient" end_time="0.5" print_interval="0.1"/>
  </Command>
</MultiBodySystem>
"""


class PointBodies(TemporaryFolderTest):
    def test_a_point_body_is_a_row_of_bodies_with_its_label(self):
        deck = os.path.join(self.folder, "falling.xml")
        with open(deck, "w") as file:
            file.write(FALLING_BODIES_DECK)
        bodies = lodestone.run(deck, output=self.path("out")).bodies
        self.assertEqual(bodies.labels["id"], {1: "Ground", 2: "Ball", 3: "Bead"})
        bead = bodies[bodies["id"] == 3]
        self.assertEqual(bead.row_labels().tolist(), ["Bead"] * 6)
        # It falls as the rigid ball beside it does, and as free fall from (1, 0, 1) at 0.2 m/s along x says within
        # 100·integr_tol of its 1.2 m drop; its axes stay ground's.
        ball = bodies[bodies["id"] == 2]
        numpy.testing.assert_allclose(bead["z"], ball["z"], rtol=0, atol=1e-12)
        time = bead["time"]
        numpy.testing.assert_allclose(bead["x"], 1 + 0.2 * time, rtol=0, atol=1e-9)
        numpy.testing.assert_allclose(bead["z"], 1 - 9.81 * time**2 / 2, rtol=0, atol=100 * 1e-6 * 1.2)
        self.assertEqual(bead["e0"].tolist(), [1.0] * 6)
        self.assertEqual(bead["wz"].tolist(), [0.0] * 6)


class RunFunction(TemporaryFolderTest):
    def test_run_with_settings_as_the_command_line_spells_them(self):
        results = lodestone.run(DECK, output=self.path("out"), settings=[SETTING])
        self.assertEqual(results.status, "completed")
        self.assertEqual(results.deck.settings, [SETTING])
        self.assertTrue(os.path.isfile(os.path.join(results.output_dir, "run.log")))
        self.assertIn("SIMULATION COMPLETED", results.log.upper())


if __name__ == "__main__":
    unittest.main()
