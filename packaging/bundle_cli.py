"""The bundle's ``kuaibu``: the command line, as the installed ``kuaibu`` is."""

from pipeline.cli.main import entry

entry()
