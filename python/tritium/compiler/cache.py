"""The on-disk kernel cache and the hashes that key it.

``$TRITIUM_CACHE_DIR/<key>/`` holds one compiled kernel: a file per stage, its
metadata (``<name>.json``) and ``manifest.json`` (every file's SHA-256, the
key, and a checksum of that list). Robustness is the whole point: an entry is
built in a private temporary directory and published with one ``rename``
(never modified after); every read checks the manifest, every file and the
metadata's shape (``_entry_files``), and an entry that fails is moved aside,
deleted and compiled again, never served; a cache directory that cannot be
written only costs a warning. docs/knobs.md, "The on-disk cache", says what
the key (``compile_key``, ``version_key``) covers.
"""

import contextlib
import functools
import glob
import hashlib
import json
import keyword
import os
import shutil
import stat
import struct
import time
import uuid
import warnings

from .. import knobs

__all__ = ["FileCacheManager", "compile_key", "version_key", "triton_key", "write_atomic", "package_version",
           "stable_repr"]

MANIFEST = "manifest.json"
_FORMAT = 1


def stable_repr(v, baked_only=False):
    """A text that is equal across processes for equal values (types
    included: 1, 1.0 and True differ), for the keys of compiles and tunings.
    A value that is no plain data is its type and ``str()``; with
    ``baked_only``, what a kernel bakes in from a global (scalars, tuples of
    them, tritium objects such as a dtype), and None for anything else
    (lists, modules, functions, arbitrary objects): a global's summary for
    the check at launch that it has not changed (runtime/cache.py)."""
    t = type(v)
    if t.__name__ == "constexpr" and hasattr(v, "value"):  # tl.constexpr
        return stable_repr(v.value, baked_only)
    if v is None or isinstance(v, (bool, int, float, complex, str, bytes)):
        return f"{t.__name__}:{v!r}"
    if t is tuple or (not baked_only and isinstance(v, (tuple, list))):
        parts = [stable_repr(x, baked_only) for x in v]
        return None if None in parts else f"{t.__name__}(" + ",".join(parts) + ")"
    if isinstance(v, dict) and not baked_only:
        return "dict(" + ",".join(f"{stable_repr(k)}={stable_repr(x)}"
                                 for k, x in sorted(v.items(), key=lambda kv: repr(kv[0]))) + ")"
    if baked_only:
        return f"{t.__name__}:{v}" if t.__module__.startswith("tritium") and not callable(v) else None
    key = getattr(v, "cache_key", None)  # a JITFunction passed as a constexpr
    return f"jit:{key}" if isinstance(key, str) else f"{t.__name__}:{v}"


def _sha256(data):
    return hashlib.sha256(data).hexdigest()


def write_atomic(path, data):
    """Writes ``data`` (bytes) to ``path`` through a temporary file in the same
    directory and ``os.replace``: readers see the old file or the new one."""
    tmp = f"{path}.tmp.{os.getpid()}.{uuid.uuid4().hex[:8]}"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _manifest_checksum(key, files):
    return _sha256(json.dumps([_FORMAT, key, files], sort_keys=True).encode())


class FileCacheManager:
    """One entry of the on-disk cache, ``<cache dir>/<key>``."""

    def __init__(self, key, cache_dir=None):
        self.key = key
        self.cache_dir = cache_dir or knobs.cache.dir
        self.entry = os.path.join(self.cache_dir, key)

    def paths(self, files):
        return {name: os.path.join(self.entry, name) for name in files}

    def load(self):
        """The entry's files ({name: bytes}) if it exists and is sound
        (``_entry_files``); None otherwise. Anything wrong with an entry -
        a damaged or forged file, a directory where a file should be, a file
        that cannot be read - is a miss that deletes the entry, so that the
        kernel is compiled again and stored afresh."""
        try:
            raw = _read_file(os.path.join(self.entry, MANIFEST))
        except OSError:  # no entry (discard does nothing), or one without a readable manifest
            self.discard()
            return None
        files = _entry_files(self.key, raw, lambda name: _read_file(os.path.join(self.entry, name)))
        if files is None:
            self.discard()
        return files

    def store(self, files):
        """Publishes ``files`` ({name: str or bytes}) as this entry; returns
        their paths, or {} when the cache directory cannot be written."""
        data = {n: (v if isinstance(v, bytes) else v.encode()) for n, v in files.items()}
        digests = {n: _sha256(v) for n, v in data.items()}
        manifest = {"format": _FORMAT, "key": self.key, "files": digests,
                    "checksum": _manifest_checksum(self.key, digests)}
        tmp = os.path.join(self.cache_dir, f".tmp.{self.key[:16]}.{os.getpid()}."
                                           f"{uuid.uuid4().hex[:8]}")
        try:
            os.makedirs(self.cache_dir, exist_ok=True)
            os.mkdir(tmp)
            for name, blob in data.items():
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(blob)
            # The manifest goes last: a directory without one is never valid.
            with open(os.path.join(tmp, MANIFEST), "wb") as f:
                f.write(json.dumps(manifest, sort_keys=True).encode())
            try:
                os.rename(tmp, self.entry)
            except OSError:
                # Another process published the same entry first; keep theirs.
                shutil.rmtree(tmp, ignore_errors=True)
            _sweep_once(self.cache_dir)
        except OSError as e:
            shutil.rmtree(tmp, ignore_errors=True)
            warnings.warn(f"tritium: cannot write the kernel cache in {self.cache_dir} ({e}); "
                          "set TRITIUM_CACHE_DIR to a writable directory", RuntimeWarning,
                          stacklevel=3)
            return {}
        return self.paths(data)

    def discard(self):
        """Moves the entry aside, then deletes it, so that no reader ever
        opens a half-deleted directory under the entry's name."""
        trash = os.path.join(self.cache_dir, f".trash.{self.key[:16]}.{os.getpid()}."
                                             f"{uuid.uuid4().hex[:8]}")
        try:
            os.rename(self.entry, trash)
        except OSError:
            return
        if os.path.isdir(trash) and not os.path.islink(trash):
            shutil.rmtree(trash, ignore_errors=True)
        else:  # a file (or link) where the entry's directory should be
            with contextlib.suppress(OSError):
                os.unlink(trash)


def _read_file(path):
    """The bytes of a regular file; OSError for anything else (a directory,
    a symbolic link, a FIFO or device, which could block or never end)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        with os.fdopen(fd, "rb") as f:
            fd = None
            return f.read()
    finally:
        if fd is not None:
            os.close(fd)


def _entry_files(key, raw_manifest, read):
    """The one check of an entry on read: its files ({name: bytes}) if the
    manifest (``raw_manifest``, bytes) has the shape ``store`` writes and
    its checksum holds, every file it lists reads (``read(name)``) with its
    SHA-256, and every metadata file (``*.json``) has the shape
    ``compile()`` writes (``_metadata_ok``); None otherwise."""
    manifest = _json_or_none(raw_manifest)
    if not isinstance(manifest, dict) or manifest.get("format") != _FORMAT or manifest.get("key") != key:
        return None
    files = manifest.get("files")
    if not isinstance(files, dict) or not all(
            _is_entry_file_name(n) and isinstance(d, str) and len(d) == 64 for n, d in files.items()):
        return None
    if manifest.get("checksum") != _manifest_checksum(key, files):
        return None
    out = {}
    for name, digest in files.items():
        try:
            data = read(name)
        except OSError:
            return None
        if _sha256(data) != digest:
            return None
        out[name] = data
    for name, data in out.items():
        if name.endswith(".json") and not _metadata_ok(_json_or_none(data), key):
            return None
    return out


def _json_or_none(data):
    """``data`` (bytes) parsed as JSON; None where it is not JSON or nests
    deeper than the parser recurses."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _is_entry_file_name(name):
    """A name store() could have written: a plain file of the entry."""
    return (isinstance(name, str) and name not in ("", MANIFEST) and not name.startswith(".")
            and "/" not in name and os.sep not in name and "\0" not in name)


def _is_int(v, low=0):
    return isinstance(v, int) and not isinstance(v, bool) and v >= low


#: What the readers of a kernel's metadata (CompiledKernel, the launchers)
#: need of each field they read, besides every key being a field name.
_METADATA_CHECKS = {
    "name": lambda v: isinstance(v, str) and _is_entry_file_name(v + ".json"),
    "stages": lambda v: isinstance(v, list) and all(isinstance(s, str) and _is_entry_file_name("x." + s)
                                                    for s in v),
    "target": lambda v: (isinstance(v, list) and len(v) in (3, 4) and isinstance(v[0], str)
                         and (_is_int(v[1]) or isinstance(v[1], str)) and _is_int(v[2], 1)
                         and (len(v) == 3 or v[3] is None or isinstance(v[3], str))),
    "num_warps": lambda v: _is_int(v, 1),
    "num_stages": lambda v: _is_int(v),
    "num_ctas": lambda v: v is None or _is_int(v),
    "shared": lambda v: v is None or _is_int(v),
    "signature": lambda v: v is None or (isinstance(v, dict) and all(isinstance(t, str) for t in v.values())),
    "equal_to_1": lambda v: isinstance(v, list) and all(_is_int(i) for i in v),
    "n_regs": lambda v: v is None or _is_int(v),
    "n_spills": lambda v: v is None or _is_int(v),
    "n_max_threads": lambda v: v is None or _is_int(v),
}
_REQUIRED_METADATA = ("name", "hash", "stages", "target", "num_warps")


def _metadata_ok(meta, key):
    """Whether a kernel's metadata (parsed JSON) has the shape compile()
    writes: a dict of field names (it becomes a namedtuple), of this entry
    (``hash`` is its key), with the fields its readers need well typed."""
    if not isinstance(meta, dict) or any(k not in meta for k in _REQUIRED_METADATA):
        return False
    if not all(isinstance(k, str) and k.isidentifier() and not keyword.iskeyword(k) and not k.startswith("_")
               for k in meta):
        return False
    if meta["hash"] != key:
        return False
    return all(check(meta[k]) for k, check in _METADATA_CHECKS.items() if k in meta)


_swept = set()
#: Temporary and trash directories older than this are leftovers of a
#: process that died mid-write; a live writer takes milliseconds.
STALE_SECONDS = 3600


def _sweep_once(cache_dir):
    """Once per process and directory: deletes stale ``.tmp.*``/``.trash.*``."""
    if cache_dir in _swept:
        return
    _swept.add(cache_dir)
    now = time.time()
    try:
        names = os.listdir(cache_dir)
    except OSError:
        return
    for name in names:
        if name.startswith((".tmp.", ".trash.")):
            path = os.path.join(cache_dir, name)
            with contextlib.suppress(OSError):
                if now - os.stat(path).st_mtime > STALE_SECONDS:
                    shutil.rmtree(path, ignore_errors=True)


# -- Version key -------------------------------------------------------------

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@functools.lru_cache(maxsize=None)
def package_version():
    try:
        from .. import _C
        return str(_C.__version__)
    except ImportError:
        return "unknown"


def _elf_build_id(path):
    """The GNU build ID the linker wrote into an ELF library (a hash of its
    contents; the build asks for it with --build-id), read from its note
    segments without reading the file: None where it has none."""
    with open(path, "rb") as f:
        ident = f.read(64)
        if ident[:4] != b"\x7fELF" or ident[4] != 2 or ident[5] != 1:  # 64-bit little-endian
            return None
        phoff, = struct.unpack_from("<Q", ident, 32)
        phentsize, phnum = struct.unpack_from("<HH", ident, 54)
        f.seek(phoff)
        headers = f.read(phentsize * phnum)
        for i in range(phnum):
            kind, _, offset, _, _, size = struct.unpack_from("<IIQQQQ", headers, i * phentsize)
            if kind != 4:  # PT_NOTE
                continue
            f.seek(offset)
            notes, pos = f.read(size), 0
            while pos + 12 <= len(notes):
                namesz, descsz, note = struct.unpack_from("<III", notes, pos)
                name_end = pos + 12 + (namesz + 3) // 4 * 4
                if note == 3 and notes[pos + 12:pos + 12 + namesz] == b"GNU\0":  # NT_GNU_BUILD_ID
                    return notes[name_end:name_end + descsz].hex()
                pos = name_end + (descsz + 3) // 4 * 4
    return None


def _file_digest(path):
    """What identifies an extension library: its build ID, or where it has
    none the SHA-256 of its contents (5.9 MB: several ms on every first
    compile of a process, which the cold compile counts)."""
    build_id = _elf_build_id(path)
    if build_id:
        return "build-id:" + build_id
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def version_key():
    """The compiler's identity: package version, the contents of the
    extension libraries, and the compiler's and language's Python sources."""
    h = hashlib.sha256(package_version().encode())
    for so in sorted(glob.glob(os.path.join(_PKG_DIR, "*.so"))):
        h.update(os.path.basename(so).encode() + _file_digest(so).encode())
    for sub in ("compiler", "language"):
        for py in sorted(glob.glob(os.path.join(_PKG_DIR, sub, "**", "*.py"), recursive=True)):
            with open(py, "rb") as f:
                h.update(os.path.relpath(py, _PKG_DIR).encode() + f.read())
    return h.hexdigest()


def triton_key():
    """Triton's name for the compiler's identity (torch._inductor keys its
    caches on it)."""
    return f"tritium-{package_version()}-{version_key()}"


def compile_key(src_hash, options_hash, target, backend_version=""):
    text = "|".join([src_hash, options_hash, str(target), str(backend_version), version_key()])
    return _sha256(text.encode())
