"""car-sandbox: a desktop tuning sandbox for 2D top-down car physics."""

import os

# numba colours its compile errors through colorama when colorama is installed
# (pyqtgraph brings it), and colorama swaps sys.stdout and sys.stderr of the whole
# process while it does, from whichever thread compiles, restoring the streams it saw
# first: a kernel compiled on a worker thread could send a command's results to streams
# nobody reads. Numba's plain messages instead (it reads this when it is imported).
os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")

__version__ = "0.1.0"
