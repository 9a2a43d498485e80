"""Entry point of the Docker action: hands over to courtroom.action, exits with its status."""

from __future__ import annotations

import sys

from courtroom.action import main

if __name__ == "__main__":
    sys.exit(main())
