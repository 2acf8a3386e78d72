"""Files that are never half-written: the arena's results, the terminal game's saves."""

from __future__ import annotations

import os
import tempfile


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` to `path` through a temp file in the same folder (made if missing),
    flushed to disk, then os.replace: a crash leaves the old file or the new one."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)     # mkstemp makes 0600 files; give the usual mode
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
