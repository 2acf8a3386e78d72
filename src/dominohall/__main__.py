"""`python -m dominohall` is the `dominohall` command."""

import sys

from dominohall.cli import main

sys.exit(main())
