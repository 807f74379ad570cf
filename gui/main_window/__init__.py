"""The main window: paste links, watch the batch, review articles, fix rules, build books.

The window is a face over ``pipeline.usecases.workspace``: every action is a workspace use
case, run in ``Jobs`` (opening, adding, saving, previews, builds) or in the ``RunController``
(the run, in a child process); the window only reacts to their signals. It keeps no list of its
own to write back: its edits go to the workspace, which merges them into tasks.csv, and it
follows the file when another writer (a terminal's run, a person in Excel) changes it.

``MainWindow`` (``window``) is one class made of parts, one module a concern, each part adding
its methods to the one below it, so every part reaches the widgets and the methods it builds
on:

    shell         WindowShell: the widgets and where they sit, signals, hooks, shared state
    menus         WindowMenus: menu bar, toolbar, the selection's actions, which are enabled
    table         WindowTable: selection, filters, the current row's preview, column memory
    archive       WindowArchive: open (asked, new, recent, Settings), follow, save edits
    file_watch    FileWatch: tasks.csv looked at each second, one look at a time
    runs          WindowRuns: run, clean again, pause, stop, check for updates, render
    history       WindowHistory: every edit as a command on the undo stack, and its inverse
    task_actions  WindowTaskActions: category, open, copy, context menu
    intake        WindowIntake: Add, harvest, the demo site
    rules         WindowRules: the rules editor and the re-clean after a change
    books         WindowBooks: Build EPUB and opening a task's book
    window        MainWindow: the parts together, the wiring, restore and close

A ``self.tr`` string's translation context is the class it is written in (what lupdate
records); PySide6's ``tr`` looks it up under each class of ``MainWindow``'s MRO in turn.
"""
