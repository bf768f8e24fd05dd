"""Reports of evaluation runs: markdown, PNG figures and terminal tables, from records only.

:func:`write_report` reads run directories (``run.json`` and ``episodes.jsonl``), computes
every number with :mod:`envsuite.evaluation.metrics` and writes ``report.md`` next to its
figures. Several runs of one task protocol are compared row by row, one row per agent.
"""

from envsuite.evaluation.report.build import Report, default_out_dir, write_report
from envsuite.evaluation.report.load import ReportError, Run, load_run, load_runs
from envsuite.evaluation.report.tables import ReportTables, Settings, build_tables
from envsuite.evaluation.report.terminal import main_tables

__all__ = [
    "Report",
    "ReportError",
    "ReportTables",
    "Run",
    "Settings",
    "build_tables",
    "default_out_dir",
    "load_run",
    "load_runs",
    "main_tables",
    "write_report",
]
