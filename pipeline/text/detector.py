"""py3langid's detector, loaded in milliseconds rather than in a second (issue 27 §10).

py3langid ships its model LZMA-compressed: 4.5 MB that unpack into 68 MB of arrays, half a
CPU second (a second or more of wall time on a loaded machine) in every process that detects
a language — a sixth of ``main.py extract``'s whole time on a hundred pages. So the arrays are
unpacked once into the user's cache folder, one ``.npy`` file each, and every later process
memory-maps them: loading costs milliseconds, and the system reads only the parts of the model
a text touches. The copy is named by py3langid's version and the compressed model's size
(another py3langid unpacks its own; naming it costs one ``stat``, where a digest of the model
read all 4.5 MB in every process) and appears whole or not at all (written aside, then
renamed). It also holds the automaton's row offsets already shifted, which py3langid would
otherwise compute, a hundred thousand of them, in every process, and the weights as float32
where the model ships float16: every text's product would otherwise widen the rows it reads
to float32 first, one and a half percent of ``main.py extract``'s instructions, for a copy
28 MB larger. Widening is exact, and the product then reads the same float32 numbers. Where
no copy can be written or read, the model is unpacked in memory as py3langid does. Either way
the detector holds the same numbers, so it gives the same answers.
"""

from __future__ import annotations

import lzma
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

# The arrays of py3langid 0.4's model (``py3langid.modelio``), each unpacked to NAME.npy
# (the weights, ``ptc``, widened to float32), and beside them the rows' offsets into
# ``nextmove`` (each row number shifted left by 8, as ``LanguageIdentifier.__init__`` computes
# its ``_rowbase``). ``_LAYOUT`` names this layout in the copy's folder name, so a copy made
# in another layout is never read as this one.
_ARRAYS = ("ptc", "pc", "classes", "nextmove", "nextmove_row", "out_feat")
_ROWBASE = "rowbase"
_WIDENED = "ptc"
_LAYOUT = "f32"


def load_detector(cache: Path | None) -> LanguageIdentifier:
    """The detector with normalised probabilities, its model read from the unpacked copy under
    ``cache`` (made there on first use), or unpacked in memory when ``cache`` is None or
    cannot hold the copy."""
    # numpy, imported here first, starts OpenBLAS with a thread per core, a tenth of a CPU
    # second that the detector's one small product per text never wins back (unless the
    # user says otherwise).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    model = MODEL_DIR / MODEL_FILE
    if cache is not None:
        try:
            return _mapped(_unpacked(model, cache))
        except (OSError, ValueError):  # unwritable folder, a damaged copy: read as shipped
            pass
    return LanguageIdentifier.from_model_file(model, norm_probs=True)


def user_cache() -> Path | None:
    """Kuaibu's folder in the user's cache (``$XDG_CACHE_HOME``, else ``~/.cache``), or None
    when there is no home to put it in."""
    if base := os.environ.get("XDG_CACHE_HOME"):
        return Path(base) / "kuaibu"
    try:
        return Path.home() / ".cache" / "kuaibu"
    except RuntimeError:
        return None


def _unpacked(model: Path, cache: Path) -> Path:
    """The folder holding ``model``'s arrays, unpacking them first if no process has."""
    from py3langid import __version__

    folder = cache / f"langid-{__version__}-{model.stat().st_size}-{_LAYOUT}"
    if folder.is_dir():
        return folder
    import numpy as np

    cache.mkdir(parents=True, exist_ok=True)
    aside = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=cache))
    try:
        with tempfile.TemporaryFile(dir=aside) as npz:
            with lzma.open(model) as packed:
                shutil.copyfileobj(packed, npz, length=1 << 20)
            npz.seek(0)
            with np.load(npz, allow_pickle=False) as arrays:
                for name in _ARRAYS:
                    array = arrays[name]
                    if name == _WIDENED:
                        array = array.astype(np.float32)
                    np.save(aside / f"{name}.npy", array, allow_pickle=False)
                rowbase = arrays["nextmove_row"].astype(np.int64) << 8
                np.save(aside / f"{_ROWBASE}.npy", rowbase, allow_pickle=False)
        aside.rename(folder)
    except OSError:
        if not folder.is_dir():  # another process renaming its copy first is no failure
            raise
    finally:
        shutil.rmtree(aside, ignore_errors=True)
    return folder


def _mapped(folder: Path) -> LanguageIdentifier:
    """The detector over the arrays in ``folder``, memory-mapped: the weights as a plain
    array over the mapping (a ``memmap`` pays Python overhead on every lookup), the tables it
    walks in Python (the byte automaton's transitions, its rows' offsets and what each state
    outputs) as memoryviews, whose items are plain ints as py3langid's own arrays' are. (Lists
    of the rows and outputs, 100,000 items each, cost 8 ms to make in every process; a text's
    few thousand lookups cost about the same through either.) The identifier is made with no
    rows, so that it computes no offsets, and given the mapped ones after: py3langid 0.4 reads
    its rows only through ``_rowbase``."""
    import numpy as np
    from py3langid.langid import LanguageIdentifier

    a = {name: np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False)
         for name in (*_ARRAYS, _ROWBASE)}
    detector = LanguageIdentifier(
        np.asarray(a["ptc"]), np.array(a["pc"]), a["classes"].tolist(), memoryview(a["nextmove"]),
        memoryview(a["out_feat"]), norm_probs=True, tk_row=())
    detector.tk_row = memoryview(a["nextmove_row"])
    detector._rowbase = memoryview(a[_ROWBASE])  # noqa: SLF001 - see above
    return detector
