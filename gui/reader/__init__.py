"""Reading a book when the system has no reader for EPUB: the window's own (``view``), and
how the system is asked whether it has one (``system``)."""
