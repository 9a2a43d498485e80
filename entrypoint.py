"""Docker action entry point: runs courtroom.publish.github.action, exits with its status."""

from __future__ import annotations

import sys

from courtroom.publish.github.action import main

if __name__ == "__main__":
    sys.exit(main())
