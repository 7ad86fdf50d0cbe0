"""Check functions: the registry that suite files name in a check's ``func``.

The built-in functions (python-ragability's names, in ``basic``) and the WikiContradict judge
(``judge``) register when the registry is first read; other packages add theirs with
:func:`register_check`, through an entry point in the ``ragability_gen.checks`` group
(see ``ragability_gen.core.registry``).
"""

from ragability_gen.checkfuncs.basic import CHECKS, CheckFunc, CheckParseError, register_check

__all__ = ["CHECKS", "CheckFunc", "CheckParseError", "register_check"]

# after basic: the ranking checks import evaluate, which imports CHECKS from this package
from ragability_gen.checkfuncs import ranking  # noqa: E402, F401  (registers rank_ndcg, rank_top_error, pair_detected)
