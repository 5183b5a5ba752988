"""The tutorial kernels share the frontend tests' helpers (tir_helpers) and,
like them, need tritium._C.frontend (else they are not collected)."""

import os
import sys

import tritium._C

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "frontend"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

collect_ignore_glob = [] if hasattr(tritium._C, "frontend") else ["*.py"]
