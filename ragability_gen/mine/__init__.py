"""Mine: a folder of documents -> candidate conflicts (facts, retrieval, verification) for human review."""

from ragability_gen.mine.core import (
    Candidate,
    MineResult,
    MineSummary,
    amine,
    mine,
    mine_files,
    mine_outputs,
    write_mined,
)
from ragability_gen.mine.documents import DocumentProblem, Passage, read_collection
from ragability_gen.mine.facts import Fact, quantities, rule_facts
from ragability_gen.mine.verify import LLMVerifier, RulesVerifier, Verdict

__all__ = ["Candidate", "DocumentProblem", "Fact", "LLMVerifier", "MineResult", "MineSummary", "Passage",
           "RulesVerifier", "Verdict", "amine", "mine", "mine_files", "mine_outputs", "quantities",
           "read_collection", "rule_facts", "write_mined"]
