import sys

from sayitout.cli import main

sys.exit(main())
