"""The physics: parameters, state, the models' compiled kernels and the runner. No Qt.

Importing it points numba's on-disk cache at a folder of its own (`kernel_cache`)
before numba loads, so compiled kernels are reused between runs.
"""

from .kernel_cache import use_kernel_cache

use_kernel_cache()
