"""``python -m ragability_gen.cli``: the same command line as ``ragability-gen``."""

import sys

from ragability_gen.cli import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
