"""What keeps a forked worker from outliving its parent when the parent is killed
outright (SIGKILL, the OOM killer): the kernel's signal at the parent's end (Linux). Used by
``simulate``'s and ``sweep``'s workers (``sim/forked.py``) and ``serve``'s (``web/workers.py``).
"""

from __future__ import annotations

import os
import signal
import sys

#: ``prctl``'s option that sets the signal a process gets when its parent ends (Linux).
PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int | None) -> None:
    """Have the kernel send this worker SIGTERM when its parent ends (Linux; a worker's
    SIGTERM is the default action), and end now when the parent ``parent`` (its process
    id, taken before the fork) has ended already, before this was asked."""
    if not sys.platform.startswith("linux"):
        return
    try:
        try:  # ctypes' C module alone: a third of ``import ctypes``'s CPU time
            import _ctypes

            prctl = _ctypes.dlsym(_ctypes.dlopen(None), "prctl")  # type: ignore[arg-type]
            _ctypes.call_function(prctl, (PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0))
        except AttributeError:  # another Python's ctypes
            import ctypes

            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (ImportError, OSError):  # best effort: the pipes' ends tell it too
        return
    if parent is not None and os.getppid() != parent:
        os._exit(0)
