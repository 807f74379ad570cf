"""What is kept: the task list (``tasks``, ``task_csv``), the archive's folders and atomic
writes (``archive``), the search index, the per-article image map, the changes log and a
person's near-duplicate decisions. Everything here survives a kill.
"""
