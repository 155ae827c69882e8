"""Sweeps (lodestone.sweep): 40 variants of the bouncing ball on a 2-worker LocalCluster give exactly the results of 40
serial `lodestone run`s, one of them a bad deck that is reported while the other 39 finish; failing, crashing and
hanging variants never stop the others; the summary vocabulary; `lodestone sweep` on a scheduler's address.

Needs LODESTONE_EXECUTABLE (ctest sets it) and the package on PYTHONPATH."""

import contextlib
import csv
import io
import math
import os
import subprocess
import sys
import tempfile
import time
import unittest
import warnings
from pathlib import Path

import numpy as np
import psutil
from distributed import Client, LocalCluster

from lodestone.sweep import (ResultTables, SummaryExpression, VariantTask, find_executable, read_table, run_sweep,
                             run_variant, sweep, variants_of)
from lodestone.sweep import main as sweep_main

MODELS = Path(__file__).resolve().parents[2] / "models"
BALL = MODELS / "bouncing_ball.xml"
DAMPING = "Force_Contact:300:damping"
BAD_VARIANT = 18  # its damping is -1: a bad deck
DAMPINGS = [round(0.01 * k, 2) if k + 1 != BAD_VARIANT else -1.0 for k in range(40)]


def peak_fn(tables):
    return tables.impacts["peak_fn"].max()


SUMMARY = {"peak_fn": peak_fn, "restitution": "impacts.restitution.first", "z_end": "bodies.2.z.last"}


def write(folder, name, text):
    path = Path(folder) / name
    path.write_text(text, encoding="utf-8")
    return path


def executable_script(folder, name, body):
    path = write(folder, name, "#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def quiet_tornado():
    """Dask 2022.12 with Debian 12's tornado: a LocalCluster makes a call that tornado has deprecated. (Here, not at
    import: unittest resets the warning filters before it runs the tests.)"""
    warnings.filterwarnings("ignore", "make_current is deprecated", DeprecationWarning)


def serial_run(folder, settings):
    """What the sweep must reproduce: one `lodestone run` with these --set texts."""
    command = [find_executable(), "run", "-o", str(folder)]
    for setting in settings:
        command += ["--set", setting]
    return subprocess.run(command + ["--", str(BALL)], capture_output=True, text=True).returncode


class SweepOnALocalCluster(unittest.TestCase):
    """One 2-worker LocalCluster for these tests, given to the sweeps as a Client (which they must leave open)."""

    @classmethod
    def setUpClass(cls):
        quiet_tornado()
        cls.scratch = tempfile.TemporaryDirectory(prefix="lodestone-sweep-test-")
        # The workers' scratch folders go here, to see that a sweep leaves none behind.
        cls.worker_temp = Path(cls.scratch.name) / "worker-temp"
        cls.worker_temp.mkdir()
        cls.saved_tmpdir = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = str(cls.worker_temp)
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        cls.client = Client(cls.cluster)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        if cls.saved_tmpdir is None:
            del os.environ["TMPDIR"]
        else:
            os.environ["TMPDIR"] = cls.saved_tmpdir
        cls.scratch.cleanup()

    def folder(self, name):
        path = Path(self.scratch.name) / name
        path.mkdir()
        return path

    def test_forty_variants_give_exactly_the_results_of_forty_serial_runs(self):
        output = self.folder("forty")
        started = time.monotonic()
        table = run_sweep(BALL, {DAMPING: DAMPINGS}, SUMMARY, client=self.client, keep=True, output=output,
                          progress=None)
        sweep_seconds = time.monotonic() - started
        self.assertFalse(self.client.status == "closed", "a Client given to the sweep must stay open")

        self.assertEqual(table.column("variant"), list(range(1, 41)))
        self.assertEqual(table.column(DAMPING), DAMPINGS)
        statuses = table.column("status")
        self.assertEqual(statuses.count("done"), 39)
        self.assertEqual(statuses[BAD_VARIANT - 1], "bad deck")
        bad_note = table.column("note")[BAD_VARIANT - 1]
        self.assertIn("bouncing_ball.xml:42:5: Force_Contact id=300: attribute 'damping' must be >= 0 (got -1)",
                      bad_note)
        self.assertTrue(math.isnan(table.column("peak_fn")[BAD_VARIANT - 1]))

        started = time.monotonic()
        serial = self.folder("serial")
        for index, damping in enumerate(DAMPINGS, start=1):
            exit_code = serial_run(serial / str(index), [f"{DAMPING}={damping!r}"])
            self.assertEqual(exit_code, 1 if index == BAD_VARIANT else 0)
        serial_seconds = time.monotonic() - started
        print(f"\n40 variants: sweep on 2 workers {sweep_seconds:.2f} s (cluster given), 40 serial runs "
              f"{serial_seconds:.2f} s", file=sys.stderr)

        for index in range(1, 41):
            if index == BAD_VARIANT:
                continue
            kept = output / f"variant-{index:03d}"
            self.assertEqual(table.column("results")[index - 1], str(kept))
            self.assertTrue((kept / "console.log").is_file())
            for name in ("bodies.csv", "contacts.csv", "impacts.csv", "energy.csv"):
                self.assertEqual((kept / name).read_bytes(), (serial / str(index) / name).read_bytes(),
                                 f"variant {index}: {name}")
            tables = ResultTables(serial / str(index))
            for name, function in SUMMARY.items():
                expected = function(tables) if callable(function) else SummaryExpression(function)(tables)
                self.assertEqual(table.column(name)[index - 1], expected, f"variant {index}: {name}")

        # The ball's figures (README, --set; the deck's comment): undamped 2573 N and restitution 1.000, the deck's
        # 0.1 N·s/mm 2427 N and 0.904 (both rounded to the digits given); more damping, less rebound.
        peaks, restitutions = table.column("peak_fn"), table.column("restitution")
        self.assertAlmostEqual(peaks[0], 2573, delta=0.5)
        self.assertAlmostEqual(restitutions[0], 1.000, delta=5e-4)
        self.assertAlmostEqual(peaks[10], 2427, delta=0.5)
        self.assertAlmostEqual(restitutions[10], 0.904, delta=5e-4)
        done = [r for r, status in zip(restitutions, statuses) if status == "done"]
        self.assertTrue(all(a > b for a, b in zip(done, done[1:])), done)

        with open(output / "summary.csv", newline="", encoding="utf-8") as file:
            rows = list(csv.DictReader(file))
        self.assertEqual(len(rows), 40)
        self.assertEqual(float(rows[0]["peak_fn"]), peaks[0])  # written so that it reads back exactly
        self.assertEqual(rows[BAD_VARIANT - 1]["status"], "bad deck")
        self.assertEqual(rows[BAD_VARIANT - 1]["peak_fn"], "")

    def test_failing_crashing_and_hanging_variants_do_not_stop_the_others(self):
        # The crash is a stand-in program that kills itself for one variant and runs lodestone for the others.
        real = find_executable()
        crashing = executable_script(self.folder("programs"), "lodestone",
                                     f'case "$*" in *damping=0.05*) kill -SEGV $$;; esac\nexec "{real}" "$@"')
        variants = [{DAMPING: 0.1},
                    {DAMPING: 0.1, "Param_Transient::h_min": 1e-4},   # IDAS cannot take the impact: failed
                    {DAMPING: 0.1, "Param_Transient::h_max": 1e-8},   # 60 million steps: timed out
                    {DAMPING: 0.05},                                  # crashed
                    {DAMPING: 0.2, "Param_Transient::vel_tol_factor": 2}]  # done, with the reader's warning
        table = run_sweep(BALL, variants, {"peak_fn": peak_fn}, client=self.client, timeout=3,
                          executable=crashing, progress=None)
        self.assertEqual(table.column("status"), ["done", "failed", "timed out", "crashed (SIGSEGV)", "done"])
        notes = table.column("note")
        self.assertIn("IDA_CONV_FAIL", notes[1])
        self.assertEqual(notes[2], "killed after 3 s")
        self.assertTrue(notes[4].startswith("1 warning: "), notes[4])
        self.assertIn("Param_Transient: attribute 'vel_tol_factor' has no effect in Lodestone", notes[4])
        self.assertTrue(all(math.isnan(value) for value in table.column("peak_fn")[1:4]))
        self.assertGreater(table.column("peak_fn")[0], table.column("peak_fn")[4])
        self.assertEqual(table.column(DAMPING), [0.1, 0.1, 0.1, 0.05, 0.2])
        self.assertEqual(table.column("Param_Transient::h_min"), ["", 1e-4, "", "", ""])
        self.assertEqual(list(self.worker_temp.glob("lodestone-variant-*")), [], "scratch folders left behind")
        self.assertEqual(self._lodestone_processes(), [], "a variant's process outlived the sweep")

    def test_a_summary_that_raises_leaves_a_note_and_the_other_values(self):
        table = run_sweep(BALL, {DAMPING: [0.1]}, {"peak_fn": peak_fn, "broken": lambda tables: 1 / 0,
                                                   "missing": "joints.1.fx.max"},
                          client=self.client, progress=None)
        self.assertEqual(table.column("status"), ["done"])
        self.assertAlmostEqual(table.column("peak_fn")[0], 2427, delta=0.5)
        self.assertTrue(math.isnan(table.column("broken")[0]))
        self.assertEqual(table.column("note")[0], "broken: ZeroDivisionError: division by zero; missing: "
                         "FileNotFoundError: no joints.csv in the results (its tables: bodies, contacts, energy, "
                         "impacts)")

    def test_lodestone_sweep_on_a_scheduler_address(self):
        output = self.folder("command")
        finished = subprocess.run(
            [find_executable(), "sweep", str(BALL), "--vary", f"{DAMPING}=0,0.1,-1", "--summary",
             "peak_fn=impacts.peak_fn.max,impacts.id.count", "--summary", "bodies.2.z.last",
             "--scheduler", self.cluster.scheduler_address, "-o", str(output)],
            capture_output=True, text=True, timeout=120)
        self.assertEqual(finished.returncode, 1, finished.stderr)  # a bad variant, the others done: batch's 1
        self.assertIn("[3/3] variant ", finished.stderr)
        self.assertIn("3 variants: 2 done, 1 bad deck, 0 failed, 0 timed out, 0 crashed", finished.stdout)
        self.assertIn("variant 3: bad deck\n  ", finished.stdout)
        summary = read_table(output / "summary.csv")
        self.assertEqual(list(summary.dtype.names),
                         ["variant", DAMPING, "status", "wall_seconds", "peak_fn", "impacts.id.count",
                          "bodies.2.z.last", "note", "results"])
        self.assertEqual(list(summary["status"]), ["done", "done", "bad deck"])
        self.assertAlmostEqual(summary["peak_fn"][1], 2427, delta=0.5)
        self.assertEqual(list(summary["impacts.id.count"][:2]), [2, 2])  # the deck's comment: two impacts in 0.6 s
        self.assertLess(summary["bodies.2.z.last"][1], summary["bodies.2.z.last"][0])
        self.assertEqual(sorted(p.name for p in output.iterdir()), ["summary.csv"])

    def test_lodestone_sweep_usage_errors_exit_64(self):
        finished = subprocess.run([find_executable(), "sweep", str(BALL), "--vary", f"{DAMPING}=0,,1"],
                                  capture_output=True, text=True)
        self.assertEqual((finished.returncode, finished.stderr), (64, f"lodestone sweep: --vary '{DAMPING}=0,,1' has "
                                                                      "an empty value\nRun 'lodestone --help' for "
                                                                      "usage.\n"))
        for arguments, message in (
                (["--vary", f"{DAMPING}=0"], "the following arguments are required: deck"),
                ([str(BALL)], "the following arguments are required: --vary"),
                ([str(BALL), "--vary", "Force_Contact:damping=0"], "is not ELEMENT:ID:ATTRIBUTE"),
                ([str(BALL), "--vary", f"{DAMPING}=0", "--summary", "impacts.peak_fn.top"], "unknown reduction"),
                ([str(BALL), "--vary", f"{DAMPING}=0", "--timeout", "0"], "--timeout needs")):
            with contextlib.redirect_stderr(io.StringIO()) as stderr:
                self.assertEqual(sweep_main(arguments), 64, arguments)
            self.assertIn(message, stderr.getvalue())

    @staticmethod
    def _lodestone_processes():
        return [child for child in psutil.Process().children(recursive=True)
                if child.name().startswith("lodestone") or child.name() == "sh"]


class SweepWithItsOwnCluster(unittest.TestCase):
    def test_client_none_starts_a_local_cluster_and_shuts_it_down(self):
        quiet_tornado()
        before = {child.pid for child in psutil.Process().children(recursive=True)}
        with contextlib.redirect_stderr(io.StringIO()) as progress:
            table = sweep(BALL, {DAMPING: [0.0, 0.1]}, ["peak_fn=impacts.peak_fn.max"], n_workers=2)
        self.assertIn("[2/2] variant ", progress.getvalue())
        self.assertEqual(list(table["status"]), ["done", "done"])
        self.assertAlmostEqual(table["peak_fn"][1], 2427, delta=0.5)
        time.sleep(0.5)  # the worker processes' last exit
        # Python's multiprocessing keeps one resource tracker per interpreter, started with the first worker process
        # and ended with the interpreter: not the sweep's.
        left = [child for child in psutil.Process().children(recursive=True) if child.pid not in before and
                child.is_running() and "multiprocessing.resource_tracker" not in " ".join(child.cmdline())]
        self.assertEqual([child.cmdline() for child in left], [])


    def test_a_killed_sweep_leaves_no_run_behind(self):
        # A variant that would run for minutes; the sweep is then terminated as a job scheduler would.
        with tempfile.TemporaryDirectory(prefix="lodestone-sweep-test-") as output:
            sweep_process = subprocess.Popen(
                [sys.executable, "-m", "lodestone.sweep", str(BALL), "--vary", "Param_Transient::h_max=1e-8", "-j",
                 "1", "-o", output], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            runs = []
            try:
                deadline = time.monotonic() + 60
                while not runs and time.monotonic() < deadline and sweep_process.poll() is None:
                    time.sleep(0.2)
                    runs = [child for child in psutil.Process(sweep_process.pid).children(recursive=True)
                            if child.name() == "lodestone"]
                self.assertTrue(runs, "the variant's run never started")
                sweep_process.terminate()
                sweep_process.wait(timeout=30)
                _, alive = psutil.wait_procs(runs, timeout=10)
                self.assertEqual(alive, [], "a run outlived its sweep")
            finally:
                for process in [sweep_process, *runs]:
                    with contextlib.suppress(psutil.NoSuchProcess, ProcessLookupError):
                        process.kill()
                sweep_process.wait()


class SummaryVocabulary(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory(prefix="lodestone-summary-test-")
        folder = self.scratch.name
        write(folder, "joints.csv", "time,id,element,fx,fy,fz,tx,ty,tz\n"
              "0,1,Constraint_Joint,1,0,0,0,0,0\n0,1,Motion_Joint,0,0,0,0,0,-2.5\n0,4,Constraint_Joint,0,0,3,0,0,0\n"
              "1,1,Constraint_Joint,-4,0,0,0,0,0\n1,1,Motion_Joint,0,0,0,0,0,1.5\n1,4,Constraint_Joint,0,0,5,0,0,0\n")
        write(folder, "impacts.csv", "id,onset_time,separation_time,peak_fn\n300,0.1,0.2,7\n300,0.5,,9\n")
        write(folder, "contacts.csv", "time,id,fn\n")
        self.tables = ResultTables(folder)

    def tearDown(self):
        self.scratch.cleanup()

    def value(self, text):
        return SummaryExpression(text)(self.tables)

    def test_reductions_over_a_column_or_one_elements_rows(self):
        self.assertEqual(self.value("impacts.peak_fn.max"), 9)
        self.assertEqual(self.value("impacts.peak_fn.first"), 7)
        self.assertEqual(self.value("impacts.300.peak_fn.sum"), 16)
        self.assertEqual(self.value("impacts.peak_fn.count"), 2)
        self.assertTrue(math.isnan(self.value("impacts.separation_time.last")))  # still in contact at the end
        self.assertEqual(self.value("joints.4.fz.mean"), 4)
        self.assertEqual(self.value("joints.Motion_Joint:1.tz.absmax"), 2.5)
        self.assertEqual(self.value("joints.constraint_joint:1.fx.min"), -4)
        self.assertTrue(math.isnan(self.value("contacts.fn.max")))  # no pair came within reach
        self.assertEqual(self.value("contacts.fn.count"), 0)
        self.assertEqual(SummaryExpression("peak=impacts.peak_fn.max").name, "peak")
        self.assertEqual(SummaryExpression("impacts.peak_fn.max").name, "impacts.peak_fn.max")

    def test_mistakes_are_named(self):
        for text, error, message in (
                ("joints.1.fx.max", ValueError, "joints.csv has rows of Constraint_Joint and Motion_Joint id 1: say "
                                                "which, as joints.Constraint_Joint:1.fx.max"),
                ("joints.7.fx.max", LookupError, "joints.csv has no rows of id 7 (its ids: 1, 4)"),
                ("impacts.peakfn.max", KeyError, "impacts.csv has no column 'peakfn' (its columns: id, onset_time"),
                ("impacts.Force_Contact:300.peak_fn.max", ValueError, "impacts.csv has no element column"),
                ("bodies.z.last", FileNotFoundError, "no bodies.csv in the results (its tables: contacts, impacts, "
                                                     "joints)")):
            with self.assertRaises(error) as raised:
                self.value(text)
            self.assertIn(message, str(raised.exception))
        for text, message in (("impacts.peak_fn", "is not [NAME=]TABLE[.ID].COLUMN.REDUCTION"),
                              ("impacts..peak_fn.max", "is not [NAME=]TABLE[.ID].COLUMN.REDUCTION"),
                              ("impacts.peak_fn.top", "unknown reduction 'top'"),
                              ("impacts.x1.peak_fn.max", "'x1' is not an id"),
                              ("=impacts.peak_fn.max", "has an empty name")):
            with self.assertRaises(ValueError) as raised:
                SummaryExpression(text)
            self.assertIn(message, str(raised.exception))

    def test_tables_keep_names_as_text_and_empty_cells_as_nan(self):
        joints = self.tables.joints
        self.assertEqual(joints["element"][1], "Motion_Joint")
        self.assertEqual(joints["tz"].dtype, np.float64)
        self.assertTrue(np.isnan(self.tables.impacts["separation_time"][1]))
        self.assertEqual(len(self.tables.contacts), 0)
        self.assertEqual(self.tables.contacts.dtype.names, ("time", "id", "fn"))


class Variants(unittest.TestCase):
    def test_every_combination_or_a_list(self):
        variants = variants_of({"A:1:x": [1, 2], "B::y": ["p", "q", "r"]})
        self.assertEqual(len(variants), 6)
        self.assertEqual(variants[1], {"A:1:x": 1, "B::y": "q"})  # the last key varies fastest
        self.assertEqual(variants_of([{"A:1:x": 1}, {"A:1:x": 5, "B::y": 2}])[1], {"A:1:x": 5, "B::y": 2})
        with self.assertRaises(ValueError):
            variants_of({"A:x": [1]})
        with self.assertRaises(TypeError):
            variants_of({"A:1:x": 1})

    def test_statuses_from_how_the_program_ended(self):
        with tempfile.TemporaryDirectory(prefix="lodestone-variant-test-") as folder:
            def status(body, keep=None):
                task = VariantTask(index=1, deck=str(BALL), settings=[], keep_folder=keep,
                                   executable=executable_script(folder, "fake", body))
                return run_variant(task)

            self.assertEqual(status("echo 'x: warning: w' >&2; echo 'x:1:2: y' >&2; exit 1")["note"], "x:1:2: y")
            usage = status("echo \"lodestone: option '--set': bad\" >&2; exit 64")
            self.assertEqual((usage["status"], usage["note"]), ("failed (exit 64)", "lodestone: option '--set': bad"))
            self.assertEqual(status("kill -ABRT $$")["status"], "crashed (SIGABRT)")
            kept = status('echo "ran with $*"', keep=str(Path(folder) / "kept"))
            self.assertEqual(kept["status"], "done")
            self.assertEqual((Path(folder) / "kept" / "console.log").read_text(),
                             f"ran with run -o {Path(folder) / 'kept'} -- {BALL}\n")
            not_a_program = write(folder, "garbage", "\x00\x01")
            not_a_program.chmod(0o755)
            task = VariantTask(index=1, deck=str(BALL), settings=[], executable=str(not_a_program))
            self.assertEqual(run_variant(task)["status"], "not started")


if __name__ == "__main__":
    unittest.main()
