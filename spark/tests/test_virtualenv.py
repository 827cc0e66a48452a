"""Both Spark jobs run from a virtual environment exactly as the README shows them, with no
environment variable set, although the `python3` first on the PATH cannot import pagelevel;
and a worker Python without pagelevel stops the job with one clear line, not a Java trace."""

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from test_score_warc import REPO, site_pages, write_warc


@pytest.fixture(scope="module")
def pythons(tmp_path_factory):
    """(driver, bare): a venv seeing this interpreter's packages (pagelevel, pyspark, warcio),
    as a user's venv with them installed would; and a venv with no packages at all, whose bin
    folder goes first on the PATH so that its `python3` is what Spark would otherwise start."""
    root = tmp_path_factory.mktemp("venvs")
    venv.create(root / "driver", system_site_packages=True, with_pip=False)
    venv.create(root / "bare", system_site_packages=False, with_pip=False)
    driver, bare = root / "driver" / "bin" / "python", root / "bare" / "bin"
    missing = subprocess.run([bare / "python3", "-c", "import pagelevel"], capture_output=True)
    assert missing.returncode != 0, "the bare venv must not see pagelevel"
    return driver, bare


@pytest.fixture(scope="module")
def warc(tmp_path_factory):
    path = tmp_path_factory.mktemp("warc") / "sqlite.warc.gz"
    write_warc(path, site_pages("sqlite-website", 3, "sqlite.org"))
    return path


def job(script, driver, bare, arguments, pyspark_python=None):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK")}
    environment["PATH"] = f"{bare}{os.pathsep}{environment.get('PATH', '')}"
    if pyspark_python:
        environment["PYSPARK_PYTHON"] = str(pyspark_python)
    return subprocess.run(
        [driver, REPO / "spark" / script, *arguments], env=environment, capture_output=True, text=True,
        timeout=600,
    )


def test_score_warc_runs_from_a_venv_with_no_environment_variable(pythons, warc, tmp_path):
    driver, bare = pythons
    out = tmp_path / "scored"
    result = job("score_warc.py", driver, bare, [str(warc), "--output", str(out), "--master", "local[1]"])
    assert result.returncode == 0, result.stderr[-3000:]
    assert "wrote 3 rows" in result.stderr


def test_label_hosts_runs_from_a_venv_with_no_environment_variable(pythons, warc, tmp_path):
    driver, bare = pythons
    out = tmp_path / "rows"
    result = job(
        "label_hosts.py", driver, bare,
        [str(warc), "--output", str(out), "--master", "local[1]", "--min-pages", "2", "--max-pages", "3"],
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "training rows" in result.stderr and "0 hosts skipped" in result.stderr


@pytest.mark.parametrize("script", ["score_warc.py", "label_hosts.py"])
def test_workers_without_pagelevel_stop_the_job_with_one_line_naming_their_python(pythons, warc, tmp_path, script):
    driver, bare = pythons
    worker = bare / "python3"
    result = job(script, driver, bare, [str(warc), "--output", str(tmp_path / "out"), "--master", "local[1]"],
                 pyspark_python=worker)
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("pagelevel: error:")]
    assert len(errors) == 1, result.stderr[-3000:]
    assert str(worker) in errors[0] and "cannot import pagelevel" in errors[0] and "PYSPARK_PYTHON" in errors[0]
    assert "Py4JJavaError" not in result.stderr and "Traceback" not in result.stderr
