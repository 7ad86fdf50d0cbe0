"""Temporary files a killed command leaves are removed by the next command writing the same output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ragability_gen.core.fileio import atomic_dir, atomic_output, clean_orphans, staged_outputs

KILLED_IN = {
    "atomic_output": "cm = fileio.atomic_output(target); fh = cm.__enter__(); fh.write('half'); fh.flush()",
    "staged_outputs": "cm = fileio.staged_outputs(target); (p,) = cm.__enter__(); open(p, 'w').write('half')",
    "atomic_dir": "cm = fileio.atomic_dir(target); p = cm.__enter__(); (p / 'report.md').write_text('half')",
}


def killed_while_writing(helper: str, target: Path) -> list[str]:
    """Run a writer in a child process that SIGKILLs itself mid-write; return what it left beside ``target``."""
    code = (f"import os, signal; from pathlib import Path; from ragability_gen.core import fileio; "
            f"target = Path({str(target)!r}); {KILLED_IN[helper]}; os.kill(os.getpid(), signal.SIGKILL)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert proc.returncode == -9, proc.stderr
    return sorted(p.name for p in target.parent.iterdir() if p.name.startswith("."))


@pytest.mark.parametrize("helper", list(KILLED_IN))
def test_the_next_write_removes_what_a_killed_writer_left(tmp_path: Path, helper: str) -> None:
    target = tmp_path / ("report" if helper == "atomic_dir" else "out.hjson")
    left = killed_while_writing(helper, target)
    assert len(left) == 1 and left[0].endswith(".tmp")
    live = tmp_path / f".{target.name}.{os.getppid()}.abcd.tmp"  # a writer still at work (a live pid)
    live.write_text("busy")
    unrelated = tmp_path / ".hidden"
    unrelated.write_text("mine")
    if helper == "atomic_output":
        with atomic_output(target) as fh:
            fh.write("whole")
    elif helper == "staged_outputs":
        with staged_outputs(target) as (p,):
            p.write_text("whole")
    else:
        with atomic_dir(target) as p:
            (p / "report.md").write_text("whole")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [".hidden", live.name]


def test_convert_after_a_killed_convert_leaves_no_temporary_file(cli: Any, demo_tsv: Path, tmp_path: Path) -> None:
    killed_while_writing("atomic_output", tmp_path / "demo.hjson")
    assert cli("convert", demo_tsv, "-o", tmp_path / "demo.hjson", "-q").exit_code == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_clean_orphans_touches_only_its_own_names(tmp_path: Path) -> None:
    target = tmp_path / "x.tsv"
    names = [".x.tsv.999999999.ab12.tmp", ".x.tsv.abc.tmp", ".x.tsvextra.999999999.a.tmp", ".x.tsv.999999999.a.keep"]
    for n in names:
        (tmp_path / n).write_text("")
    assert [p.name for p in clean_orphans(target)] == [".x.tsv.999999999.ab12.tmp"]
