"""The desktop entry: a freedesktop .desktop file and the icon in hicolor sizes."""
