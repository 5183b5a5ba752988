"""Host-side tools (``triton.tools``): tensor descriptors."""
