"""The records every layer speaks, and nothing else: a task and its status, an article,
the settings, failures and errors, progress events, address classes, the bounds of a number a
person types. Plain dataclasses and enums; this package imports no other part of the pipeline,
so the window (and anything else) may read them without reaching past the use cases.
"""
