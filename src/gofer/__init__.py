"""gofer: hand over a whole job on the web; it runs in a real browser and stops only
when it needs you."""

from __future__ import annotations

from gofer.errors import (
    BlockedOrigin,
    GoferError,
    InvalidFlow,
    InvalidOutput,
    InvalidRequest,
    LeaseLost,
    ModelError,
    StoreError,
    StoreUnavailable,
    SurfaceError,
    SurfaceTimeout,
    TaskError,
    UnknownSecret,
)

__version__ = "0.1.0"

__all__ = [
    "BlockedOrigin",
    "GoferError",
    "InvalidFlow",
    "InvalidOutput",
    "InvalidRequest",
    "LeaseLost",
    "ModelError",
    "StoreError",
    "StoreUnavailable",
    "SurfaceError",
    "SurfaceTimeout",
    "TaskError",
    "UnknownSecret",
    "__version__",
]
