"""The animation read back with VTK's own readers (Debian's python3-vtk9), against bodies.csv, contacts.csv and
joints.csv of the same run: the frames and their times, which bodies are drawn, every graphic where its body's
pose puts it (bounds of a turning box to 1e-6 m, every point of the ball 0.05 m from its centre), the contact
points and their force arrows, the joint markers and their axes, a Body_Point's sphere on its CG; and when the
animation is written at all."""

import os
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

import numpy
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader

from results_run import MECHANISM, column, read_csv, run_deck

# animated_mechanism.xml: the floor box (ground), the ball and the link, their sizes, the hinge.
FLOOR_BOUNDS = [-0.5, 0.5, -0.1, 0.0, -0.5, 0.5]
BALL_RADIUS = 0.05
LINK_HALF_SIZES = numpy.array([0.15, 0.02, 0.02])
LINK_BOX_CENTRE = numpy.array([0.0, 0.02, 0.02])  # from the link's CG, in its body axes
HINGE = numpy.array([0.0, 1.0, 0.0])
INCREMENT = 3  # H3DOutput increment
# Points are written in single precision: a few 1e-8 m in a model of a metre.
POINT_TOLERANCE = 1e-6


def rotation(e0, e1, e2, e3):
    """Body axes in ground (columns) from Euler parameters."""
    return numpy.array([
        [e0 * e0 + e1 * e1 - e2 * e2 - e3 * e3, 2 * (e1 * e2 - e0 * e3), 2 * (e1 * e3 + e0 * e2)],
        [2 * (e1 * e2 + e0 * e3), e0 * e0 - e1 * e1 + e2 * e2 - e3 * e3, 2 * (e2 * e3 - e0 * e1)],
        [2 * (e1 * e3 - e0 * e2), 2 * (e2 * e3 + e0 * e1), e0 * e0 - e1 * e1 - e2 * e2 + e3 * e3]])


def read_polydata(path):
    reader = vtkXMLPolyDataReader()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()


def frames_of(collection):
    """{time: {part name: file}} from animation.pvd, in the order written."""
    frames = {}
    for data_set in ElementTree.parse(collection).getroot().iter("DataSet"):
        frames.setdefault(float(data_set.get("timestep")), {})[data_set.get("name")] = data_set.get("file")
    return frames


def bounds_of(points):
    return [value for axis in range(3) for value in (points[:, axis].min(), points[:, axis].max())]


class AnimationOfTheMechanism(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder, cls.output = run_deck(MECHANISM)
        cls.frames = frames_of(os.path.join(cls.output, "animation.pvd"))
        header, rows = read_csv(os.path.join(cls.output, "bodies.csv"))
        cls.bodies = {(float(row[0]), int(row[1])): dict(zip(header, map(float, row))) for row in rows}
        cls.output_times = sorted({time for time, _ in cls.bodies})
        cls.contacts = read_csv(os.path.join(cls.output, "contacts.csv"))
        cls.joints = read_csv(os.path.join(cls.output, "joints.csv"))

    @classmethod
    def tearDownClass(cls):
        cls.folder.cleanup()

    def part(self, time, name):
        return read_polydata(os.path.join(self.output, self.frames[time][name]))

    def pose(self, time, body):
        row = self.bodies[(time, body)]
        return numpy.array([row["x"], row["y"], row["z"]]), rotation(row["e0"], row["e1"], row["e2"], row["e3"])

    def test_a_frame_at_every_third_output_each_with_its_three_parts(self):
        self.assertEqual(len(self.output_times), 28)
        self.assertEqual(list(self.frames), self.output_times[::INCREMENT])
        for time, parts in self.frames.items():
            self.assertEqual(sorted(parts), ["contacts", "graphics", "joints"], time)

    def test_every_body_with_a_graphic_is_drawn_with_its_graphics(self):
        graphics = self.part(self.output_times[-1], "graphics")
        body_ids = vtk_to_numpy(graphics.GetPointData().GetArray("body_id"))
        graphic_ids = vtk_to_numpy(graphics.GetPointData().GetArray("graphic_id"))
        self.assertEqual(sorted(set(body_ids.tolist())), [1, 2, 3])  # ground, ball, link
        self.assertEqual(sorted(set(graphic_ids.tolist())), [100, 200, 300])
        self.assertEqual(graphics.GetNumberOfPoints(), body_ids.size)
        self.assertGreater(graphics.GetNumberOfPolys(), 0)

    def test_graphics_are_where_the_bodies_poses_put_them(self):
        for time in self.frames:
            with self.subTest(time=time):
                graphics = self.part(time, "graphics")
                points = vtk_to_numpy(graphics.GetPoints().GetData()).astype(float)
                body_ids = vtk_to_numpy(graphics.GetPointData().GetArray("body_id"))
                numpy.testing.assert_allclose(bounds_of(points[body_ids == 1]), FLOOR_BOUNDS, atol=POINT_TOLERANCE)
                # The link's box: its bounds in ground are its centre, CG + R·c, ± Σ_j |R_ij|·h_j, which only the
                # right orientation gives (the link has turned by about 90 degrees by the end).
                cg, axes = self.pose(time, 3)
                centre = cg + axes @ LINK_BOX_CENTRE
                half = numpy.abs(axes) @ LINK_HALF_SIZES
                expected = [value for axis in range(3) for value in (centre[axis] - half[axis], centre[axis] + half[axis])]
                numpy.testing.assert_allclose(bounds_of(points[body_ids == 3]), expected, atol=POINT_TOLERANCE)
                # The ball: every point of its tessellation on the sphere about its CG.
                centre, _ = self.pose(time, 2)
                distances = numpy.linalg.norm(points[body_ids == 2] - centre, axis=1)
                numpy.testing.assert_allclose(distances, BALL_RADIUS, atol=POINT_TOLERANCE)
        _, last = self.pose(self.output_times[-1], 3)
        self.assertLess(abs(last[0, 0]), 0.5, "the link has turned well away from horizontal")

    def test_contact_points_carry_the_normal_and_friction_forces_of_contacts_csv(self):
        header, rows = self.contacts
        touching = 0
        for time in self.frames:
            contacts = self.part(time, "contacts")
            row = next(row for row in rows if float(row[0]) == time)
            values = {name: float(cell) for name, cell in zip(header, row)}
            if values["in_contact"] == 0:
                self.assertEqual(contacts.GetNumberOfPoints(), 0, time)
                continue
            touching += 1
            self.assertEqual(contacts.GetNumberOfPoints(), 1, time)
            data = contacts.GetPointData()
            point = numpy.array(contacts.GetPoint(0))
            numpy.testing.assert_allclose(point, [values["px"], values["py"], values["pz"]], rtol=0, atol=1e-12)
            normal = numpy.array([values["nx"], values["ny"], values["nz"]])
            force = numpy.array([values["fx"], values["fy"], values["fz"]])
            normal_force = numpy.array(data.GetArray("normal_force").GetTuple3(0))
            friction_force = numpy.array(data.GetArray("friction_force").GetTuple3(0))
            # One point: the force on the ball is fn along the normal plus ft across it.
            numpy.testing.assert_allclose(normal_force, values["fn"] * normal, rtol=1e-12, atol=1e-9)
            self.assertAlmostEqual(numpy.linalg.norm(friction_force), values["ft"], delta=1e-9 * values["fn"])
            numpy.testing.assert_allclose(normal_force + friction_force, force, rtol=1e-12, atol=1e-9)
            self.assertGreater(values["ft"], 0)
            self.assertEqual(data.GetArray("force_contact_id").GetValue(0), 300)
        self.assertEqual(touching, 1, "the last frame, t = 0.27 s, has the ball on the floor")

    def test_joint_markers_stay_at_the_hinge_with_the_links_axes(self):
        header, rows = self.joints
        for time in self.frames:
            joints = self.part(time, "joints")
            self.assertEqual(joints.GetNumberOfPoints(), 1)
            data = joints.GetPointData()
            self.assertEqual(data.GetArray("joint_id").GetValue(0), 1)
            numpy.testing.assert_allclose(joints.GetPoint(0), HINGE, atol=1e-6)
            _, axes = self.pose(time, 3)  # the I marker has the link's axes
            for k, name in enumerate(["x_axis", "y_axis", "z_axis"]):
                numpy.testing.assert_allclose(data.GetArray(name).GetTuple3(0), axes[:, k], atol=1e-12)
            row = next(row for row in rows if float(row[0]) == time)
            numpy.testing.assert_allclose(data.GetArray("reaction_force").GetTuple3(0),
                                          [float(row[header.index(name)]) for name in ["fx", "fy", "fz"]], rtol=1e-12)


class WhenTheAnimationIsWritten(unittest.TestCase):
    """Without H3DOutput or ResOutput no animation; `--animation` writes one anyway, with every output a frame."""

    def setUp(self):
        with open(MECHANISM) as source:
            text = "".join(line for line in source if "<H3DOutput" not in line)
        self.assertNotIn("<ResOutput", text)
        self.deck_folder = tempfile.TemporaryDirectory(prefix="lodestone_deck_")
        self.deck = os.path.join(self.deck_folder.name, "mechanism.xml")
        with open(self.deck, "w") as deck:
            deck.write(text)

    def tearDown(self):
        self.deck_folder.cleanup()

    def test_no_animation_unless_asked(self):
        folder, output = run_deck(self.deck)
        with folder:
            self.assertFalse(os.path.exists(os.path.join(output, "animation.pvd")))
            self.assertFalse(os.path.exists(os.path.join(output, "animation")))
            self.assertTrue(os.path.exists(os.path.join(output, "results.h5")))

    def test_the_command_line_asks_for_every_output(self):
        folder, output = run_deck(self.deck, "--animation")
        with folder:
            frames = frames_of(os.path.join(output, "animation.pvd"))
            header, rows = read_csv(os.path.join(output, "bodies.csv"))
            self.assertEqual(list(frames), sorted({float(time) for time in column(rows, header, "time")}))


# A Body_Point bead with a sphere on it, falling and drifting along x.
POINT_BODY_DECK = """<?xml version="1.0" encoding="UTF-8"?>
<MultiBodySystem>
  <Model>
    <Force_Gravity grav_z="-9.81"/>
    <Body_Rigid id="1" label="Ground" isground="TRUE"/>
    <Reference_Marker id="30" body_id="3" body_type="PointBody" pos_x="1." pos_z="1."/>
    <Body_Point id="3" label="Bead" cg_id="30" mass="0.5" v_ic_x="0.3"/>
    <Post_Graphic id="300" label="Bead" type="Sphere" center_marker_id="30" radius="0.05"/>
    <H3DOutput/>
  </Model>
  <Command>
    <Simulate analysis_type="Transient" end_time="0.3" print_interval="0.1"/>
  </Command>
</MultiBodySystem>
"""


class PointBodyAnimation(unittest.TestCase):
    def test_a_point_bodys_graphic_follows_its_cg(self):
        with tempfile.TemporaryDirectory(prefix="lodestone_deck_") as deck_folder:
            deck = os.path.join(deck_folder, "bead.xml")
            with open(deck, "w") as file:
                file.write(POINT_BODY_DECK)
            folder, output = run_deck(deck)
            with folder:
                frames = frames_of(os.path.join(output, "animation.pvd"))
                header, rows = read_csv(os.path.join(output, "bodies.csv"))
                self.assertEqual(list(frames), [0.0, 0.1, 0.2, 0.3])
                for (time, parts), row in zip(frames.items(), rows):
                    self.assertEqual(float(row[header.index("time")]), time)
                    centre = numpy.array([float(row[header.index(axis)]) for axis in "xyz"])
                    files = [name for name in parts.values() if "graphics" in name]
                    self.assertEqual(len(files), 1, parts)
                    points = vtk_to_numpy(read_polydata(os.path.join(output, files[0])).GetPoints().GetData())
                    distances = numpy.linalg.norm(points - centre, axis=1)
                    numpy.testing.assert_allclose(distances, 0.05, rtol=0, atol=POINT_TOLERANCE)
                self.assertLess(centre[2], 0.6)  # it fell: 1 − 9.81·0.3²/2 = 0.56 m

if __name__ == "__main__":
    unittest.main()
