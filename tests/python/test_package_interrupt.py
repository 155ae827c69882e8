"""Ctrl-C during lodestone.run(): the run ends after its current step with every file complete, run.log's last line
says when, and Python raises KeyboardInterrupt with the results so far as its `results` — also when the deck's
contact law is a Python subroutine, which Ctrl-C must not make fail. Each run is a child process (this interpreter,
as a user's script) that gets SIGINT once its run is writing outputs. After a run, Ctrl-C is Python's again."""
import csv
import os
import re
import signal
import subprocess
import sys
import time

import lodestone
from package_support import TemporaryFolderTest, model

# The child: what a user's script does, with Python's usual Ctrl-C handler even when the test itself runs where
# SIGINT is ignored (as in a background job). It prints how many rows of bodies.csv the exception's results hold.
CHILD = """
import signal, sys
import lodestone
signal.signal(signal.SIGINT, signal.default_int_handler)
deck, output, *settings = sys.argv[1:]
try:
    lodestone.run(deck, output=output, settings=settings)
except KeyboardInterrupt as interrupt:
    print(interrupt.results.status, len(interrupt.results.bodies), flush=True)
    raise
"""

# A contact law in Python that spends its calls in Python code: the laws of models/usersub/impact_coulomb.py, each
# normal-force call made to last 0.1 ms, so that Ctrl-C comes while the deck's Python code runs.
SLOW_LAWS = """
import time
exec(compile(open(%r).read(), "impact_coulomb.py", "exec"))
_impact = CNFSUB


def CNFSUB(*arguments):
    until = time.perf_counter() + 1e-4
    while time.perf_counter() < until:
        pass
    return _impact(*arguments)
""" % model("usersub/impact_coulomb.py")

END_TIME = 1e4  # far more than the test waits for


class CtrlCDuringARun(TemporaryFolderTest):
    def interrupt(self, deck, *settings):
        """Runs the deck in a child process until bodies.csv has rows (past its first block of 4 KB: the file is
        written in blocks), sends SIGINT; the finished child."""
        output = self.path("results")
        child = subprocess.Popen([sys.executable, "-c", CHILD, deck, output, f"Simulate::end_time={END_TIME}",
                                  *settings], cwd=self.folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        self.addCleanup(child.kill)
        bodies = os.path.join(output, "bodies.csv")
        while not os.path.exists(bodies) or os.path.getsize(bodies) <= 4096:
            if child.poll() is not None:
                self.fail("the run ended before it was interrupted:\n" + child.stderr.read())
            time.sleep(0.01)
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=60)  # a guard against a run that does not stop; it takes < 1 s
        return child.returncode, stdout, stderr, output

    def assertCompleteTable(self, path, rows_per_output):
        """Every row of the CSV file has all its cells, numbers where numbers go; the last output has all its
        rows. Returns the last output's time and the number of rows."""
        with open(path, newline="") as file:
            header, *rows = list(csv.reader(file))
        numbers = [k for k, name in enumerate(header) if name != "element"]
        for row in rows:
            self.assertEqual(len(row), len(header), row)
            for k in numbers:
                float(row[k])
        last = rows[-1][0]
        self.assertEqual(sum(row[0] == last for row in rows), rows_per_output, path)
        self.assertEqual(len(rows) % rows_per_output, 0, path)
        return float(last), len(rows)

    def assertInterrupted(self, finished, bodies, print_interval):
        """KeyboardInterrupt with the results; run.log ends at the step the run reached, after the last output.
        Returns the results folder, the last output's time and the time the run was interrupted at."""
        returncode, stdout, stderr, output = finished
        self.assertEqual(returncode, -signal.SIGINT, stderr)  # Python's exit on an uncaught KeyboardInterrupt
        self.assertIn("\nKeyboardInterrupt\n", stderr)
        with open(os.path.join(output, "run.log")) as file:
            log = file.read()
        ending = re.search(r"\nSimulation interrupted at t=(\S+)\.\n$", log)
        self.assertIsNotNone(ending, log[-500:])
        interrupted_at = float(ending.group(1))
        self.assertIn(f"interrupted at t={ending.group(1)}; results up to it are kept in {output}", stderr)
        self.assertIn("DAE SOLVER STATISTICS", log)
        self.assertNotIn("FAILED", log)
        last_output, rows = self.assertCompleteTable(os.path.join(output, "bodies.csv"), bodies)
        self.assertEqual(stdout, f"interrupted {rows}\n")
        self.assertLess(interrupted_at, END_TIME)
        # What was reached is written, and nothing later than the step (run.log's time has 7 digits).
        self.assertLessEqual(last_output, interrupted_at * (1 + 1e-6))
        self.assertLessEqual(interrupted_at, (last_output + print_interval) * (1 + 1e-6))
        return output, last_output, interrupted_at

    def test_the_four_bar_stops_with_its_files_complete(self):
        output, last_output, _ = self.assertInterrupted(self.interrupt(model("four_bar.xml")), bodies=3,
                                                        print_interval=0.01)
        self.assertEqual(self.assertCompleteTable(os.path.join(output, "joints.csv"), 5)[0], last_output)
        self.assertEqual(self.assertCompleteTable(os.path.join(output, "energy.csv"), 1)[0], last_output)

    def test_a_python_contact_law_is_not_failed_by_ctrl_c(self):
        # The ball of sphere_python.xml put down on its plate, so that the contact law is called all the time.
        script = self.path("slow_laws.py")
        with open(script, "w") as file:
            file.write(SLOW_LAWS)
        output, last_output, interrupted_at = self.assertInterrupted(
            self.interrupt(model("usersub/sphere_python.xml"), "Body_Rigid:2:v_ic_x=0", "Body_Rigid:2:w_ic_y=0",
                           f"Force_Contact:300:script_name={script}"), bodies=1, print_interval=0.005)
        self.assertEqual(self.assertCompleteTable(os.path.join(output, "contacts.csv"), 1)[0], last_output)
        # CONTACTPOST had its last call, at the time the run reached, closing its file.
        with open(self.path("contact_history_300.csv")) as file:
            ending = re.search(r"\n# end at t=(\S+)\n$", file.read())
        self.assertIsNotNone(ending)
        self.assertAlmostEqual(float(ending.group(1)), interrupted_at, delta=1e-6 * interrupted_at)

    def test_after_a_run_ctrl_c_is_pythons_again(self):
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal, whatever ran this test
        self.addCleanup(signal.signal, signal.SIGINT, signal.getsignal(signal.SIGINT))
        lodestone.run(model("four_bar.xml"), output=self.path("results"), settings=["Simulate::end_time=0.01"])
        self.assertIs(signal.getsignal(signal.SIGINT), signal.default_int_handler)
        with self.assertRaises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
            time.sleep(1)  # not reached: the handler raises as the signal comes
