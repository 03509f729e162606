"""``python -m client.headless``: see :mod:`client.headless.peer`."""

import sys

from client.headless.peer import main

sys.exit(main())
