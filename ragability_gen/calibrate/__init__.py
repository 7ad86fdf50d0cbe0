"""Stage: can the checker be trusted? Checker verdicts against human labels, and between checkers."""

from .core import Calibration, CheckerCalibration, Disagreement, calibrate, summary_lines
from .labels import Columns, Label, read_labels
from .metrics import Agreement, ClassScores, compare
from .report import calibrate_file, default_calibration_dir, write_calibration
from .verdicts import MAJORITY, PairAgreement, between_checkers, majority, verdicts

__all__ = [
    "MAJORITY", "Agreement", "Calibration", "CheckerCalibration", "ClassScores", "Columns", "Disagreement", "Label",
    "PairAgreement", "between_checkers", "calibrate", "calibrate_file",
    "compare", "default_calibration_dir", "majority", "read_labels", "summary_lines",
    "verdicts", "write_calibration",
]
