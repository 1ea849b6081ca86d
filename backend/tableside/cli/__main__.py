"""`python -m tableside.cli`: the same as the `tableside` command."""

import sys

from tableside.cli import main

sys.exit(main())
