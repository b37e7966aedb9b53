"""Imported by multiprocessing's forkserver alone, when it starts (games/lifeline.py): it ends when
the process that started it ends."""

import os

from games.lifeline import end_with

end_with(os.getppid())
