"""``python -m simstats.cli``: the command line."""
import sys

from simstats.cli import main

sys.exit(main())
