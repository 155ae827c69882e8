"""A model built in code, saved as a deck: `lodestone check` accepts it and it runs to the analytic free fall."""
import math
import unittest

import lodestone
from package_support import TemporaryFolderTest, lodestone_command

HEIGHT = 0.5  # of the ball's centre above the floor, m
RADIUS = 0.02
G = 9.81


def ball_on_floor():
    """A steel-like ball dropped onto a floor, in SI units, with a revolute-hinged flap beside it (joints, markers
    with orientation) and a sensor (a command-side element) so that each kind of element is written."""
    model = lodestone.Model()
    model.add("Param_Transient", integr_tol=1e-9, h_max=1e-3)
    model.add("Force_Gravity", grav=(0, 0, -G))
    ground = model.body(isground=True, label="Ground")
    floor_centre = model.marker(body=ground, pos=(0, 0, -0.05), label="Floor centre")
    floor = model.graphic("BoxDefinedFromCenter", center_marker=floor_centre, length_x=1, length_y=1,
                          length_z=0.1, label="Floor")
    ball = model.body(label="Ball", mass=1.0, inertia_xx=1.6e-4, inertia_yy=1.6e-4, inertia_zz=1.6e-4)
    centre = model.marker(body=ball, pos=(0, 0, HEIGHT), label="Ball centre")
    ball.set(cg=centre, im=centre)
    sphere = model.graphic("Sphere", center_marker=centre, radius=RADIUS, label="Ball")
    model.contact(i_graphics=sphere, j_graphics=floor, cnf_type="IMPACT", stiffness=1e7, exponent=1.5, damping=0,
                  dmax=1e-4, cff_type="COULOMB_OFF", label="Ball on floor")
    flap = model.body(label="Flap", mass=0.5, inertia_xx=1e-3, inertia_yy=1e-3, inertia_zz=1e-3)
    hinge_on_ground = model.marker(body=ground, pos=(0.3, 0, 0.2))
    hinge_on_flap = model.marker(body=flap, pos=(0.3, 0, 0.2))
    flap_cg = model.marker(body=flap, pos=(0.4, 0, 0.2))
    flap.set(cg=flap_cg, im=flap_cg)
    hinge = model.joint("REVOLUTE", i_marker=hinge_on_flap, j_marker=hinge_on_ground, label="Hinge")
    model.motion(joint=hinge, motion_type="R", expr="0", label="Hold")  # id 1 too: joints.csv tells them apart
    model.add("Sensor_Event", type="EXPRESSION", expr="DZ(%d)" % centre.id, compare="LT", value=HEIGHT / 2,
              error_tol=1e-9, label="Half way")
    model.simulate(end_time=0.2, print_interval=0.01)
    model.change(ball, mass=2.0)
    model.simulate(end_time=0.4, print_interval=0.01)
    return model, centre


class BuildingAModel(TemporaryFolderTest):
    def test_saved_model_passes_check_and_runs(self):
        model, centre = ball_on_floor()
        deck = model.save(self.path("ball.xml"))
        program = lodestone_command("check", self.path("ball.xml"))
        self.assertEqual(program.returncode, 0, program.stderr)
        self.assertEqual(program.stdout.strip(), self.path("ball.xml") + ": OK (0 warnings)")
        self.assertEqual(deck.get("Reference_Marker", centre.id, "pos_z"), HEIGHT)
        self.assertEqual(deck.labels("Constraint_Joint"), {1: "Hinge"})
        self.assertEqual(deck.get("Motion_Joint", 1, "joint_id"), 1)

        results = deck.run()
        # Free fall onto the floor: contact after √(2h/g) at √(2gh), h the drop to the touch (integr_tol 1e-9).
        drop = HEIGHT - RADIUS
        impact = results.impacts[0]
        self.assertTrue(math.isclose(impact["onset_time"], math.sqrt(2 * drop / G), rel_tol=1e-7))
        self.assertTrue(math.isclose(impact["v_in"], math.sqrt(2 * G * drop), rel_tol=1e-6))
        # The sensor fired where the centre passed half the height: t = √(2·(h/2)/g).
        event = results.events[0]
        self.assertTrue(math.isclose(event["time"], math.sqrt(HEIGHT / G), rel_tol=1e-7))
        self.assertEqual(results.events.labels["id"], {1: "Half way"})
        # The hinge (its axis vertical) holds the flap's weight, 0.5 kg at 0.1 m from it: fz = m·g and the torque
        # about the hinge's y axis −m·g·0.1, at every output; joints.csv has them with the joint's label.
        # The motion holding the flap drives nothing: gravity has no moment about the vertical.
        joints = results.joints
        self.assertEqual(set(joints["id"].tolist()), {1})
        self.assertEqual(joints.labels["id"], {("Constraint_Joint", 1): "Hinge", ("Motion_Joint", 1): "Hold"})
        hinge = joints[joints["element"] == "Constraint_Joint"]
        self.assertEqual(set(hinge.row_labels().tolist()), {"Hinge"})
        self.assertEqual(len(hinge), len(results.bodies) // 2)  # at every output (two moving bodies)
        for fz, ty in zip(hinge["fz"], hinge["ty"]):
            self.assertAlmostEqual(fz, 0.5 * G, delta=1e-9)
            self.assertAlmostEqual(ty, -0.5 * G * 0.1, delta=1e-9)
        hold = joints[joints["element"] == "Motion_Joint"]
        self.assertEqual(set(hold.row_labels().tolist()), {"Hold"})
        self.assertLess(abs(hold["tz"]).max(), 1e-9)

    def test_shorthands_are_the_schemas_names(self):
        model = lodestone.Model()
        ground = model.body(isground=True)
        marker = model.marker(body=ground, pos=(1, 2, 3))
        self.assertEqual(marker.attributes, {"id": 1, "body_id": ground, "pos_x": 1, "pos_y": 2, "pos_z": 3})
        self.assertIn('<Reference_Marker id="1" body_id="1" pos_x="1" pos_y="2" pos_z="3" />', model.to_xml())
        with self.assertRaisesRegex(lodestone.Error, "Body_Rigid has no attribute 'mas'; did you mean 'mass'"):
            model.body(mas=1)
        with self.assertRaisesRegex(lodestone.Error, "takes three values"):
            model.marker(pos=(1, 2))
        with self.assertRaisesRegex(lodestone.Error, "no element named Body_Rigd; did you mean Body_Rigid"):
            model.add("Body_Rigd")

    def test_a_bad_value_is_reported_at_the_saved_decks_line(self):
        model = lodestone.Model()
        model.body(isground=True)
        model.body(mass=-1, label="Weightless")  # the third line of <Model>
        model.simulate(end_time=1, print_interval=0.1)
        with self.assertRaises(lodestone.DeckError) as raised:
            model.save(self.path("bad.xml"))
        program = lodestone_command("check", self.path("bad.xml"))
        self.assertEqual(program.returncode, 1)
        self.assertEqual([d.text for d in raised.exception.diagnostics], program.stderr.splitlines())
        self.assertIn(self.path("bad.xml") + ":5:5: Body_Rigid id=2: ", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
