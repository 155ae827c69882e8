"""Python subroutines imported and unit-tested in a plain Python process: the script run as `lodestone run` runs it,
called with arguments; its utilities answering from a TestHost, or raising outside a run. And the interpreter
`lodestone run` embeds shares the installation: a deck's script imports the package."""
import math
import os
import sys
import unittest

import lodestone
from lodestone import usersub
from package_support import TemporaryFolderTest, lodestone_command, model

SCRIPT = model("usersub/impact_coulomb.py")
# USER(stiffness, exponent, damping, dmax) of models/usersub/sphere_python.xml
IMPACT = [1e7, 1.5, 20.0, 1e-4]
FRICTION = [0.3, 0.2, 0.01, 0.05]  # USER(mu_static, mu_dynamic, stiction_trans_vel, friction_trans_vel)


def cnfsub(script, gap, gapdot, par=IMPACT, iflag=0):
    return script.CNFSUB(300, 0.0, par, len(par), [0.0] * 3, 3, [0.0] * 3, 3, gap, gapdot, 0.0, 0, iflag)


class ImpactCoulombScript(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.script = usersub.load_script(SCRIPT)

    def test_loaded_as_lodestone_runs_it(self):
        self.assertEqual(self.script.__name__, "impact_coulomb")
        self.assertIs(self.script.py_step, usersub.py_step)  # the utilities are its globals
        self.assertIs(sys.modules["lodestone_usersub"].py_step, usersub.py_step)

    def test_cnfsub_is_the_impact_law(self):
        k, e, c, dmax = IMPACT
        # Beyond dmax the damping is all in: k·δ^e + c·δ̇.
        force, = cnfsub(self.script, gap=-2e-4, gapdot=-0.1)
        self.assertTrue(math.isclose(force, k * 2e-4 ** e + c * 0.1, rel_tol=1e-15))
        # At dmax/2 STEP's cubic gives half of c: 3s² − 2s³ at s = 1/2.
        force, = cnfsub(self.script, gap=-5e-5, gapdot=-0.1)
        self.assertTrue(math.isclose(force, k * 5e-5 ** e + 0.5 * c * 0.1, rel_tol=1e-14))
        # Apart, and while separating fast enough, no pull.
        self.assertEqual(cnfsub(self.script, gap=1e-3, gapdot=0.0), [0.0])
        self.assertEqual(cnfsub(self.script, gap=-1e-6, gapdot=10.0), [0.0])

    def test_cffsub_is_coulomb_on(self):
        # Sliding along x beyond the transition speed: mu_dynamic·|N| against the slip.
        friction = self.script.CFFSUB(300, 0.0, FRICTION, 4, [0.0] * 3, [0.0] * 3, [0.0] * 3, [0.3, 0.0, 0.0], -50.0,
                                      0, 0)
        self.assertEqual(friction, [-0.2 * 50.0, -0.0, 0.0])
        # At the stiction speed vs: mu_static.
        friction = self.script.CFFSUB(300, 0.0, FRICTION, 4, [0.0] * 3, [0.0] * 3, [0.0] * 3, [0.0, 0.01, 0.0], 10.0,
                                      0, 0)
        self.assertTrue(math.isclose(friction[1], -0.3 * 10.0, rel_tol=1e-15))

    def test_utilities_outside_a_run_raise(self):
        # The set-up call with the wrong parameters reports through py_errmes: outside a run that is an error...
        with self.assertRaisesRegex(usersub.OutsideRunError, "py_errmes needs a running simulation"):
            cnfsub(self.script, gap=0.0, gapdot=0.0, par=[1e7], iflag=1)
        with self.assertRaisesRegex(RuntimeError, "py_sysfnc needs a running simulation.*TestHost"):
            usersub.py_sysfnc("TIME")
        # ... while STEP and IMPACT need no simulation.
        self.assertEqual(usersub.py_step(0.5, 0.0, 0.0, 1.0, 2.0), [1.0, 0])

    def test_a_test_host_answers_the_utilities(self):
        with usersub.TestHost(time=0.25) as host:
            cnfsub(self.script, gap=0.0, gapdot=0.0, par=[1e7], iflag=1)
            host.set_marker(20, position=(0.1, 0.2, 0.3), velocity=(0.0, 0.0, -2.0),
                            rotation=[[0, -1, 0], [1, 0, 0], [0, 0, 1]])  # axes turned 90° about z
            host.set_marker(10, position=(0.1, 0.0, 0.0))
            self.assertEqual(usersub.py_sysfnc("TIME"), [0.25, 0])
            self.assertEqual(usersub.py_sysfnc("DZ", [20, 10]), [0.3, 0])
            self.assertEqual(usersub.py_sysfnc("VM", [20]), [2.0, 0])
            # DX of 20 from 10 in 20's axes: the ground y offset 0.2 lies along 20's −x.
            value, errflg = usersub.py_sysfnc("DX", [20, 10, 20])
            self.assertAlmostEqual(value, 0.2, delta=1e-15)
            self.assertEqual(usersub.py_sysfnc("DZ", [99]), [0.0, 1])
        self.assertEqual(host.messages, [(300, "IMPACT needs USER(stiffness, exponent, damping, dmax)", True, True)])
        self.assertEqual(host.problems, [("c_sysfnc", "no Reference_Marker id=99 in the model")])
        with self.assertRaises(usersub.OutsideRunError):
            usersub.py_sysfnc("TIME")  # the host is gone with the block


class ContactPostScript(TemporaryFolderTest):
    def test_contactpost_reads_the_hosts_points(self):
        script = usersub.load_script(SCRIPT)
        os.chdir(self.folder)
        self.addCleanup(os.chdir, os.path.dirname(os.path.abspath(__file__)))
        with usersub.TestHost(time=0.5) as host:
            host.set_contact_points(300, 200, 100, [{"penetration": 1e-5, "normal_force": (0.0, 0.0, 3.5)}])
            script.CONTACTPOST(300, 0, 0, 0.0, [], 0, 1, 0)
            script.CONTACTPOST(300, 200, 100, 0.5, [], 0, 0, 0)
            script.CONTACTPOST(300, 0, 0, 0.5, [], 0, 0, 1)
        with open("contact_history_300.csv") as file:
            lines = file.read().splitlines()
        self.assertEqual(lines[1], "0.5,200,100,0,1.0000000000000001e-05,0,0,3.5")
        with self.assertRaisesRegex(KeyError, "has no 'depth'"):
            host.set_contact_points(300, 200, 100, [{"depth": 1e-5}])


class SharedInstallation(TemporaryFolderTest):
    """A deck's script imports the package: `lodestone run` and this process use the same one."""

    SCRIPT = """
import lodestone
from lodestone import usersub


def CNFSUB(id, time, par, npar, loci, ni, locj, nj, gap, gapdot, gapdotdot, dflag, iflag):
    if iflag:
        with open("package.txt", "w") as out:
            out.write("%s %s" % (lodestone.__file__, usersub.py_impact is py_impact))
        return [0.0]
    vector, errflg = py_impact(gap, gapdot, 0.0, par[0], par[1], par[2], par[3], 0)
    return [vector[0]]
"""

    def test_a_script_run_by_the_program_imports_the_package(self):
        with open(self.path("package_script.py"), "w") as file:
            file.write(self.SCRIPT)
        with open(model("usersub/sphere_builtin.xml")) as file:
            deck = file.read()
        deck = deck.replace('cnf_type="IMPACT" stiffness="1e7" exponent="1.5" damping="20." dmax="1e-4"',
                            'script_name="package_script.py" interpreter="PYTHON" cnf_type="USERCNF" '
                            'cnf_param_string="USER(1e7, 1.5, 20., 1e-4)"')
        self.assertIn("package_script.py", deck)
        with open(self.path("deck.xml"), "w") as file:
            file.write(deck)

        program = lodestone_command("run", "deck.xml", "-o", "program", cwd=self.folder)
        self.assertEqual(program.returncode, 0, program.stderr)
        with open(self.path("package.txt")) as file:
            self.assertEqual(file.read(), "%s True" % lodestone.__file__)
        os.remove(self.path("package.txt"))

        os.chdir(self.folder)
        self.addCleanup(os.chdir, os.path.dirname(os.path.abspath(__file__)))
        lodestone.run("deck.xml", output="python")
        with open(self.path("package.txt")) as file:
            self.assertEqual(file.read(), "%s True" % lodestone.__file__)
        for name in ("bodies.csv", "contacts.csv"):
            with open(self.path("program", name), "rb") as theirs, open(self.path("python", name), "rb") as ours:
                self.assertEqual(ours.read(), theirs.read(), name)


if __name__ == "__main__":
    unittest.main()
