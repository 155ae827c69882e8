"""Plots (lodestone.plot): `lodestone plot` on the results of models/bouncing_ball.xml, the slider-crank and the
driven four-bar of models/ writes PNG images of the figures their tables allow; the contact figure marks every
impact of impacts.csv at its peak; motions get their own rows; many bodies are cut to MAX_ROWS.

Needs LODESTONE_EXECUTABLE (ctest sets it) and the package on PYTHONPATH."""

import contextlib
import io
import subprocess
import tempfile
import unittest
from pathlib import Path

import matplotlib.image
import numpy as np

from lodestone.plot import MAX_ROWS, bodies_figure, contacts_figure, joints_figure, plot, units_of
from lodestone.plot import main as plot_main
from lodestone.sweep import ResultTables, find_executable

MODELS = Path(__file__).resolve().parents[2] / "models"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run_deck(deck, folder):
    finished = subprocess.run([find_executable(), "run", "-o", str(folder), str(MODELS / deck)], capture_output=True,
                              text=True)
    if finished.returncode != 0:
        raise RuntimeError(f"lodestone run {deck}: {finished.stderr}")
    return folder


class PlotsOfTheExampleDecks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory(prefix="lodestone-plot-test-")
        root = Path(cls.scratch.name)
        cls.ball = run_deck("bouncing_ball.xml", root / "ball")
        cls.crank = run_deck("slider_crank.xml", root / "crank")
        cls.four_bar = run_deck("four_bar.xml", root / "four_bar")

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def assertImage(self, path):
        self.assertEqual(path.read_bytes()[:8], PNG_SIGNATURE, path)
        pixels = matplotlib.image.imread(path)
        self.assertEqual(pixels.ndim, 3, path)
        self.assertGreaterEqual(min(pixels.shape[:2]), 300, path)  # a figure, not an empty canvas
        self.assertGreater(pixels[..., :3].std(), 0.05, path)

    def test_the_bouncing_ball_gets_contacts_bodies_and_energy(self):
        output = Path(self.scratch.name) / "ball_figures"
        written = plot(self.ball, output=output)
        self.assertEqual([path.name for path in written], ["contacts.png", "bodies.png", "energy.png"])
        for path in written:
            self.assertEqual(path.parent, output)
            self.assertImage(path)

    def test_the_contact_figure_marks_each_impact_at_its_peak(self):
        tables = ResultTables(self.ball)
        figure = contacts_figure(tables)
        force_axes, depth_axes = figure.axes[:2]
        self.assertEqual(len(figure.axes), 2)  # one pair: Force_Contact 300, ball 200 on plate 100
        self.assertEqual(force_axes.get_title(loc="left"), "Force_Contact 300: graphics 200 on 100")
        self.assertEqual(force_axes.get_ylabel(), "normal force (N)")
        self.assertEqual(depth_axes.get_ylabel(), "penetration (mm)")
        (peaks,) = [line for line in force_axes.lines if line.get_marker() == "v"]
        # impacts.csv's two impacts (the deck's comment: 2427 N, and 2149 N between two outputs 2 ms apart).
        np.testing.assert_array_equal(peaks.get_xdata(), tables.impacts["peak_time"])
        np.testing.assert_allclose(peaks.get_ydata(), [2427, 2149], atol=0.5)
        self.assertEqual(len(force_axes.patches), 2)  # each impact shaded from onset to separation
        self.assertEqual(len(depth_axes.patches), 2)
        # Out of reach between bounces the pair has no rows: the force line breaks there instead of bridging.
        (force_line,) = [line for line in force_axes.lines if line.get_label() == "fn"]
        self.assertTrue(np.isnan(force_line.get_ydata()).any())
        self.assertEqual(np.nanmax(force_line.get_ydata()), tables.contacts["fn"].max())

    def test_the_slider_crank_gets_bodies_joints_and_energy(self):
        output = Path(self.scratch.name) / "crank_figures"
        written = plot(self.crank, output=output)
        self.assertEqual([path.name for path in written], ["bodies.png", "joints.png", "energy.png"])
        for path in written:
            self.assertImage(path)
        figure = joints_figure(ResultTables(self.crank))
        titles = [axes.get_title(loc="left") for axes in figure.axes if axes.get_title(loc="left")]
        self.assertEqual(titles, [f"Constraint_Joint {k}: on its I marker, in ground" for k in (1, 2, 3, 4)])
        self.assertEqual(units_of(self.crank), {"length": "m", "time": "s", "force": "N"})

    def test_lodestone_plot_of_the_four_bar_writes_bodies_joints_and_energy(self):
        output = Path(self.scratch.name) / "four_bar_figures"
        finished = subprocess.run([find_executable(), "plot", str(self.four_bar), "-o", str(output)],
                                  capture_output=True, text=True)
        self.assertEqual(finished.returncode, 0, finished.stderr)
        names = ["bodies.png", "joints.png", "energy.png"]
        self.assertEqual(finished.stdout, "".join(f"wrote {output / name}\n" for name in names))
        self.assertEqual(sorted(path.name for path in output.iterdir()), sorted(names))
        for name in names:
            self.assertImage(output / name)
        # The motor's torque gets a row of its own, after the four pins.
        figure = joints_figure(ResultTables(self.four_bar))
        titles = [axes.get_title(loc="left") for axes in figure.axes if axes.get_title(loc="left")]
        self.assertEqual(titles, [f"Constraint_Joint {k}: on its I marker, in ground" for k in (1, 2, 3, 4)]
                         + ["Motion_Joint 5: on its I marker, in ground"])

    def test_lodestone_plot_draws_what_is_asked_for(self):
        output = Path(self.scratch.name) / "asked"
        finished = subprocess.run([find_executable(), "plot", str(self.ball), "--what", "energy,contacts", "-o",
                                   str(output)], capture_output=True, text=True)
        self.assertEqual(finished.returncode, 0, finished.stderr)
        self.assertEqual(finished.stdout, f"wrote {output / 'energy.png'}\nwrote {output / 'contacts.png'}\n")
        self.assertEqual(sorted(path.name for path in output.iterdir()), ["contacts.png", "energy.png"])

        for arguments, exit_code, message in (
                (["--what", "joints"], 1, f"lodestone plot: no joints figure: no {self.ball / 'joints.csv'} (the deck "
                                          "has no joints)\n"),
                (["--what", "forces"], 64, "lodestone plot: --what forces: the kinds of figure are contacts, bodies, "
                                           "joints, energy\nRun 'lodestone --help' for usage.\n")):
            with contextlib.redirect_stderr(io.StringIO()) as stderr:
                self.assertEqual(plot_main([str(self.ball), *arguments]), exit_code)
            self.assertEqual(stderr.getvalue(), message)
        with contextlib.redirect_stderr(io.StringIO()) as stderr:
            self.assertEqual(plot_main([str(Path(self.scratch.name) / "nowhere")]), 1)
        self.assertIn("is not a results folder", stderr.getvalue())


class PlotsOfMadeUpTables(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory(prefix="lodestone-plot-test-")
        self.folder = Path(self.scratch.name)

    def tearDown(self):
        self.scratch.cleanup()

    def test_motions_get_rows_of_their_own(self):
        # joints.csv with an element column: a joint and a motion that share id 1.
        (self.folder / "joints.csv").write_text(
            "time,id,element,fx,fy,fz,tx,ty,tz\n0,1,Motion_Joint,0,0,0,0,0,2\n0,1,Constraint_Joint,1,0,0,0,0,0\n"
            "1,1,Motion_Joint,0,0,0,0,0,3\n1,1,Constraint_Joint,2,0,0,0,0,0\n")
        figure = joints_figure(ResultTables(self.folder))
        titles = [axes.get_title(loc="left") for axes in figure.axes if axes.get_title(loc="left")]
        self.assertEqual(titles, ["Constraint_Joint 1: on its I marker, in ground",
                                  "Motion_Joint 1: on its I marker, in ground"])
        (torque_z,) = [line for line in figure.axes[3].lines if line.get_label() == "tz"]
        np.testing.assert_array_equal(torque_z.get_ydata(), [2, 3])

    def test_many_bodies_are_cut_to_the_first_ones(self):
        rows = [f"{t},{body}" + ",0" * 19 for t in (0, 1) for body in range(2, 2 + MAX_ROWS + 3)]
        (self.folder / "bodies.csv").write_text("time,id,x,y,z,e0,e1,e2,e3,vx,vy,vz,wx,wy,wz,ax,ay,az,wdx,wdy,wdz\n"
                                                + "\n".join(rows) + "\n")
        figure = bodies_figure(ResultTables(self.folder))
        self.assertEqual(len(figure.axes), 2 * MAX_ROWS)
        title = f"Bodies: {MAX_ROWS} of {MAX_ROWS + 3} (lowest ids)"
        self.assertEqual([text.get_text() for text in figure.texts], [title])
        self.assertEqual(units_of(self.folder), {"length": "length", "time": "time", "force": "force"})
        self.assertEqual([path.name for path in plot(self.folder)], ["bodies.png"])


if __name__ == "__main__":
    unittest.main()
