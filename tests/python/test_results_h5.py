"""results.h5 read back with h5py, as a user would, against the CSV tables of the same run: every table, every
column under its CSV name and in its order, every value the same double (empty CSV cells as NaN, or -1 for flags),
and the attributes a reader needs (units, meanings, the elements behind the ids with their labels and deck lines)."""

import math
import os
import unittest

import h5py
import numpy

from results_run import MECHANISM, column, deck_line, read_csv, run_deck


class ResultsFileAgainstCsv(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder, cls.output = run_deck(MECHANISM)
        cls.file = h5py.File(os.path.join(cls.output, "results.h5"), "r")

    @classmethod
    def tearDownClass(cls):
        cls.file.close()
        cls.folder.cleanup()

    def test_every_csv_table_is_a_group_with_the_same_columns_and_values(self):
        tables = ["bodies", "contacts", "impacts", "energy", "joints", "events", "requests"]
        self.assertEqual(sorted(self.file.keys()), sorted(tables))
        for table in tables:
            with self.subTest(table=table):
                header, rows = read_csv(os.path.join(self.output, table + ".csv"))
                self.assertGreater(len(rows), 0, table + ".csv has rows, so the comparison means something")
                group = self.file[table]
                self.assertEqual(list(group.attrs["columns"]), header)
                self.assertEqual(sorted(group.keys()), sorted(header))
                for name in header:
                    self.assert_column_equal(group[name], column(rows, header, name), f"{table}/{name}")

    def assert_column_equal(self, dataset, cells, where):
        self.assertEqual(dataset.shape, (len(cells),), where)
        if dataset.dtype.kind == "O":  # text
            self.assertEqual(list(dataset.asstr()[:]), cells, where)
            return
        values = dataset[:]
        if dataset.dtype == numpy.int8:  # flags: 1, 0, or -1 where the CSV cell is empty
            self.assertEqual(values.tolist(), [-1 if cell == "" else int(cell) for cell in cells], where)
        elif dataset.dtype.kind == "i":
            self.assertEqual(dataset.dtype, numpy.int64, where)
            self.assertEqual(values.tolist(), [int(cell) for cell in cells], where)
        else:
            self.assertEqual(dataset.dtype, numpy.float64, where)
            for value, cell in zip(values.tolist(), cells):
                if cell == "":
                    self.assertTrue(math.isnan(value), f"{where}: {value} for an empty cell")
                else:
                    self.assertEqual(value, float(cell), where)  # the same double: both are exact

    def test_an_episode_still_open_at_the_end_has_nan_and_minus_one(self):
        impacts = self.file["impacts"]
        self.assertEqual(impacts["id"].shape, (2,))
        self.assertTrue(math.isnan(impacts["separation_time"][1]))
        self.assertEqual(impacts["separation_located"][1], -1)
        self.assertEqual(impacts["separation_located"][0], 1)

    def test_columns_carry_units_of_the_deck_and_meanings(self):
        units = {("bodies", "time"): "second", ("bodies", "x"): "meter", ("bodies", "e0"): "1",
                 ("bodies", "vx"): "meter/second", ("bodies", "wz"): "radian/second",
                 ("bodies", "ax"): "meter/second^2", ("contacts", "fn"): "newton", ("contacts", "tz"): "newton*meter",
                 ("impacts", "impulse"): "newton*second", ("energy", "leftover"): "newton*meter",
                 ("joints", "fx"): "newton"}
        for (table, name), expected in units.items():
            self.assertEqual(self.file[table][name].attrs["units"], expected, f"{table}/{name}")
        for table, name in [("bodies", "id"), ("contacts", "in_contact"), ("events", "action")]:
            self.assertNotIn("units", self.file[table][name].attrs, f"{table}/{name} has no unit")
            self.assertTrue(self.file[table][name].attrs["meaning"])
        self.assertEqual(self.file.attrs["units"], "METER SECOND NEWTON KILOGRAM")
        self.assertEqual(self.file.attrs["length_unit"], "meter")
        self.assertTrue(self.file.attrs["deck"].endswith("animated_mechanism.xml"))

    def test_tables_name_their_elements_with_labels_and_deck_lines(self):
        expected = {"bodies": ([2, 3], ["Ball", "Link"], ['<Body_Rigid id="2"', '<Body_Rigid id="3"'], "Body_Rigid"),
                    "contacts": ([300], ["Ball on floor"], ['<Force_Contact id="300"'], "Force_Contact"),
                    "impacts": ([300], ["Ball on floor"], ['<Force_Contact id="300"'], "Force_Contact"),
                    "joints": ([1], ["Hinge"], ['<Constraint_Joint id="1"'], "Constraint_Joint"),
                    "events": ([41], ["Ball low"], ['<Sensor_Event id="41"'], "Sensor_Event")}
        for table, (ids, labels, texts, element) in expected.items():
            with self.subTest(table=table):
                attributes = self.file[table].attrs
                self.assertEqual(attributes["element_ids"].tolist(), ids)
                self.assertEqual(list(attributes["element_labels"]), labels)
                self.assertEqual(attributes["element_deck_lines"].tolist(), [deck_line(MECHANISM, t) for t in texts])
                self.assertEqual(list(attributes["element_types"]), [element] * len(ids))
        self.assertEqual(self.file["energy"].attrs["element_ids"].size, 0)


if __name__ == "__main__":
    unittest.main()
