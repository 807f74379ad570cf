"""The bundle's ``kuaibu-gui``: the window. Its runs go to a child process that the window
starts as ``<this program> -m gui.run_process JOB`` (``gui.worker``): a bundle has no Python
to take ``-m``, so this program answers that line itself, as multiprocessing's
``freeze_support`` does for its children."""

import sys

if sys.argv[1:3] == ["-m", "gui.run_process"]:
    from gui.run_process import main

    sys.exit(main(sys.argv[3:]))
from gui.app import launch

launch()
