"""The package as `cmake --install` lays it out: importable by Debian's python3 from any folder with nothing of the
build tree, finding the installed program and liblodestone_usersub."""
import os
import shutil
import subprocess
import sys
import unittest

import lodestone
from package_support import TemporaryFolderTest, model

BUILD_DIR = os.environ.get("LODESTONE_BINARY_DIR")
CMAKE = os.environ.get("LODESTONE_CMAKE_COMMAND")
PACKAGE_DIR = os.environ.get("LODESTONE_PYTHON_INSTALL_DIR")


class BuildTree(unittest.TestCase):
    def test_the_program_is_the_one_built_beside_the_package(self):
        if "LODESTONE_EXECUTABLE" in os.environ:
            self.skipTest("LODESTONE_EXECUTABLE chooses the program here")
        package = os.path.dirname(lodestone.__file__)
        self.assertEqual(lodestone.executable(), os.path.join(os.path.dirname(os.path.dirname(package)), "bin",
                                                              "lodestone"))

    def test_the_schema_is_the_programs(self):
        program = subprocess.run([lodestone.executable(), "elements", "Force_Contact"], capture_output=True,
                                 text=True)
        self.assertEqual(lodestone.describe("force_contact"), program.stdout)
        self.assertIn("Body_Rigid", lodestone.elements())


@unittest.skipUnless(BUILD_DIR and CMAKE and PACKAGE_DIR, "run by ctest, which gives the build folder and CMake")
class Installed(TemporaryFolderTest):
    def test_import_from_any_folder_after_install(self):
        prefix = self.path("prefix")
        for component in ("usersub", "solver", "python"):
            install = subprocess.run([CMAKE, "--install", BUILD_DIR, "--prefix", prefix, "--component", component],
                                     capture_output=True, text=True)
            self.assertEqual(install.returncode, 0, install.stdout + install.stderr)
        site = os.path.join(prefix, PACKAGE_DIR)
        environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LODESTONE_EXECUTABLE")}
        environment["PYTHONPATH"] = site
        script = ("import lodestone, sys; r = lodestone.run(sys.argv[1], output=sys.argv[2]); "
                  "print(lodestone.__file__); print(lodestone.executable()); print(r.impacts['restitution'][0])")
        ran = subprocess.run([sys.executable, "-c", script, model("bouncing_ball.xml"), self.path("out")], cwd="/",
                             env=environment, capture_output=True, text=True)
        self.assertEqual(ran.returncode, 0, ran.stderr)
        package_file, program, restitution = ran.stdout.splitlines()
        self.assertEqual(package_file, os.path.join(site, "lodestone", "__init__.py"))
        self.assertEqual(program, os.path.join(prefix, "bin", "lodestone"))
        self.assertAlmostEqual(float(restitution), 0.904, delta=5e-4)  # the deck's comment: 0.904
        # The installed module finds the installed library, not the build tree's.
        if shutil.which("readelf"):
            module, = [name for name in os.listdir(os.path.join(site, "lodestone")) if name.startswith("_core")]
            dynamic = subprocess.run(["readelf", "-d", os.path.join(site, "lodestone", module)], capture_output=True,
                                     text=True).stdout
            self.assertNotIn(BUILD_DIR, dynamic)
            self.assertIn("$ORIGIN/", dynamic)


if __name__ == "__main__":
    unittest.main()
