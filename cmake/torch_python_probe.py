"""Prints, as CMake list entries, what a build against this Python's torch needs:
version;abi;include dirs (|-joined);library dir;Python include dir. Exits 1, saying why on
stderr, when the torch is missing or older than 2.0 (the c10d::Backend API)."""
import sys
import sysconfig

try:
    import torch
    from torch.utils import cpp_extension
except ImportError as error:
    sys.exit(f"no torch ({error})")
major = int(torch.__version__.split(".")[0])
if major < 2:
    sys.exit(f"torch {torch.__version__} is older than 2.0, whose c10d::Backend the binding is")
print(";".join([torch.__version__, str(int(torch._C._GLIBCXX_USE_CXX11_ABI)),
                "|".join(cpp_extension.include_paths()), cpp_extension.library_paths()[0],
                sysconfig.get_paths()["include"]]), end="")
