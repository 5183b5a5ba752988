"""The on-disk cache: hits across processes, damaged entries, concurrent
writers, and what the key covers."""

import hashlib
import json
import multiprocessing
import os
import shutil
import subprocess
import sys

import pytest

from tritium.compiler import compiler
from tritium.compiler.compiler import ASTSource
from tritium.compiler import cache

from runtime_helpers import load_module

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "python")

KERNELS = """
import tritium.language as tl
from tritium.runtime.jit import jit

SCALE = tl.constexpr({scale})


@jit
def helper(x):
    return x * {factor}


@jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, helper(tl.load(x_ptr + offs)) * SCALE, mask=offs < n)
"""


def kernels(tmp_path, name, scale=2, factor=3):
    return load_module(tmp_path, name, KERNELS.format(scale=scale, factor=factor))


def src_of(mod):
    return ASTSource(mod.scale_kernel, {"x_ptr": "*fp32", "n": "i32"}, constexprs={"BLOCK": 128})


def entries(cache_dir):
    return sorted(e for e in os.listdir(cache_dir) if not e.startswith("."))


# -- the key -------------------------------------------------------------------

def test_key_covers_called_jit_functions_and_constexpr_globals(tmp_path):
    base = kernels(tmp_path, "k_base").scale_kernel.cache_key
    assert kernels(tmp_path, "k_same").scale_kernel.cache_key == base
    assert kernels(tmp_path, "k_factor", factor=4).scale_kernel.cache_key != base
    assert kernels(tmp_path, "k_scale", scale=5).scale_kernel.cache_key != base


def test_key_changes_reach_the_disk_cache(tmp_path, frontend, private_dirs):
    compiler.compile(src_of(kernels(tmp_path, "d_base")), target="cuda:90")
    compiler.compile(src_of(kernels(tmp_path, "d_same")), target="cuda:90")
    assert frontend.count == 1  # identical source: a disk hit
    compiler.compile(src_of(kernels(tmp_path, "d_factor", factor=7)), target="cuda:90")
    compiler.compile(src_of(kernels(tmp_path, "d_scale", scale=9)), target="cuda:90")
    assert frontend.count == 3
    assert len(entries(private_dirs["cache"])) == 3


def test_key_covers_specialization_options_and_version(tmp_path, monkeypatch):
    mod = kernels(tmp_path, "k_spec")
    keys = set()
    for sig, attrs, opts in [({"x_ptr": "*fp32", "n": "i32"}, {}, {}),
                             ({"x_ptr": "*fp16", "n": "i32"}, {}, {}),
                             ({"x_ptr": "*fp32", "n": "i32"}, {1: {"divisibility": 16}}, {}),
                             ({"x_ptr": "*fp32", "n": "i32"}, {}, {"num_warps": 8})]:
        keys.add(compiler.compile(ASTSource(mod.scale_kernel, sig, {"BLOCK": 128}, attrs),
                                  target="cuda:90", options=opts).hash)
    assert len(keys) == 4
    before = compiler.compile(src_of(mod), target="cuda:90").hash
    monkeypatch.setattr(cache, "version_key", lambda: "another compiler")
    assert compiler.compile(src_of(mod), target="cuda:90").hash != before


def test_version_key_covers_the_extension(tmp_path):
    import glob
    sos = glob.glob(os.path.join(PYTHON_DIR, "tritium", "*.so"))
    assert sos, "the extension is built"
    for so in sos:  # the build links both with --build-id
        digest = cache._file_digest(so)
        assert digest.startswith("build-id:") and len(digest) == len("build-id:") + 40, (so, digest)
    # Another build ID (a rebuilt library) is another digest; a file with no
    # build ID is keyed by its contents.
    data = bytearray(open(sos[0], "rb").read())
    at = data.index(bytes.fromhex(cache._elf_build_id(sos[0])))
    data[at] ^= 1
    rebuilt = tmp_path / "rebuilt.so"
    rebuilt.write_bytes(bytes(data))
    assert cache._file_digest(str(rebuilt)) not in (cache._file_digest(so) for so in sos)
    plain = tmp_path / "plain.so"
    plain.write_bytes(b"not an ELF file")
    assert cache._file_digest(str(plain)) == hashlib.sha256(b"not an ELF file").hexdigest()
    assert len(cache.version_key()) == 64


# -- hits across processes ---------------------------------------------------------

CHILD = r"""
import sys
sys.path[:0] = [{python!r}, {here!r}, {kdir!r}]
from runtime_helpers import CountingFrontend, real_frontend
from tritium.compiler import compiler
counting = CountingFrontend(real_frontend())
compiler.ast_to_ir = counting
import kmod_child
k = kmod_child.scale_kernel.warmup("*fp32", "i32", BLOCK=128, grid=(1,))
print(counting.count, k.hash)
"""


def run_child(tmp_path, private_dirs):
    script = CHILD.format(python=PYTHON_DIR, here=HERE, kdir=str(tmp_path))
    env = dict(os.environ, TRITIUM_CACHE_DIR=str(private_dirs["cache"]))
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    count, key = out.stdout.split()
    return int(count), key


def test_hit_across_processes(tmp_path, private_dirs):
    (tmp_path / "kmod_child.py").write_text(KERNELS.format(scale=2, factor=3))
    first = run_child(tmp_path, private_dirs)
    second = run_child(tmp_path, private_dirs)
    assert first[0] == 1 and second[0] == 0 and first[1] == second[1]
    # Editing the called helper makes the next process compile again.
    (tmp_path / "kmod_child.py").write_text(KERNELS.format(scale=2, factor=4))
    third = run_child(tmp_path, private_dirs)
    assert third[0] == 1 and third[1] != first[1]


# -- damaged entries ------------------------------------------------------------------

def damage_truncate(entry):
    path = os.path.join(entry, "scale_kernel.tir")
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) // 2)


def damage_flip_byte(entry):
    path = os.path.join(entry, "scale_kernel.json")
    data = bytearray(open(path, "rb").read())
    data[len(data) // 2] ^= 0x20
    open(path, "wb").write(bytes(data))


def damage_manifest(entry):
    with open(os.path.join(entry, cache.MANIFEST), "w") as f:
        f.write('{"format": 1, "files": {')


def damage_manifest_list(entry):
    path = os.path.join(entry, cache.MANIFEST)
    m = json.load(open(path))
    m["files"]["scale_kernel.tir"] = "0" * 64
    json.dump(m, open(path, "w"))


def damage_remove_file(entry):
    os.unlink(os.path.join(entry, "scale_kernel.py"))


def damage_remove_manifest(entry):
    os.unlink(os.path.join(entry, cache.MANIFEST))


@pytest.mark.parametrize("damage", [damage_truncate, damage_flip_byte, damage_manifest,
                                    damage_manifest_list, damage_remove_file,
                                    damage_remove_manifest])
def test_damaged_entry_is_detected_deleted_and_rebuilt(damage, tmp_path, frontend, private_dirs):
    mod = kernels(tmp_path, "k_damage_" + damage.__name__)
    good = compiler.compile(src_of(mod), target="cuda:90")
    entry = os.path.join(private_dirs["cache"], good.hash)
    assert os.path.isfile(os.path.join(entry, cache.MANIFEST))
    damage(entry)
    rebuilt = compiler.compile(src_of(mod), target="cuda:90")
    assert frontend.count == 2  # never served: compiled again
    assert rebuilt.asm == good.asm and rebuilt.metadata == good.metadata
    assert cache.FileCacheManager(good.hash).load() is not None  # and stored again, intact
    compiler.compile(src_of(mod), target="cuda:90")
    assert frontend.count == 2
    assert not [e for e in os.listdir(private_dirs["cache"]) if e.startswith((".trash", ".tmp"))]


def forge_raw_metadata(entry, data):
    """Replaces the entry's metadata file with ``data`` and fixes every
    checksum to match: damage no checksum can see."""
    path = os.path.join(entry, cache.MANIFEST)
    manifest = json.load(open(path))
    open(os.path.join(entry, "scale_kernel.json"), "wb").write(data)
    manifest["files"]["scale_kernel.json"] = hashlib.sha256(data).hexdigest()
    manifest["checksum"] = cache._manifest_checksum(manifest["key"], manifest["files"])
    json.dump(manifest, open(path, "w"))


def forge_metadata(entry, edit):
    metadata = json.load(open(os.path.join(entry, "scale_kernel.json")))
    forge_raw_metadata(entry, json.dumps(edit(metadata)).encode())


def forge_manifest(entry, edit):
    path = os.path.join(entry, cache.MANIFEST)
    manifest = edit(json.load(open(path)))
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if isinstance(files, dict):
        manifest["checksum"] = cache._manifest_checksum(manifest.get("key"), files)
    json.dump(manifest, open(path, "w"))


def replace_with(name, make):
    def damage(entry):
        path = os.path.join(entry, name)
        os.unlink(path)
        make(path)
    return damage


FORGERIES = {
    "stages-an-int": lambda e: forge_metadata(e, lambda m: {**m, "stages": 5}),
    "metadata-a-list": lambda e: forge_metadata(e, lambda m: []),
    "target-a-string": lambda e: forge_metadata(e, lambda m: {**m, "target": "bogus"}),
    "target-too-short": lambda e: forge_metadata(e, lambda m: {**m, "target": ["cuda", 90]}),
    "no-name": lambda e: forge_metadata(e, lambda m: {k: v for k, v in m.items() if k != "name"}),
    "name-a-path": lambda e: forge_metadata(e, lambda m: {**m, "name": "../x"}),
    "num-warps-a-string": lambda e: forge_metadata(e, lambda m: {**m, "num_warps": "4"}),
    "shared-negative": lambda e: forge_metadata(e, lambda m: {**m, "shared": -1}),
    "signature-of-ints": lambda e: forge_metadata(e, lambda m: {**m, "signature": {"x_ptr": 5}}),
    "field-not-a-name": lambda e: forge_metadata(e, lambda m: {**m, "not a name": 1}),
    "field-a-keyword": lambda e: forge_metadata(e, lambda m: {**m, "class": 1}),
    "hash-of-another-entry": lambda e: forge_metadata(e, lambda m: {**m, "hash": "0" * 64}),
    "metadata-not-json": lambda e: forge_raw_metadata(e, b"{not json"),
    "files-a-list": lambda e: forge_manifest(e, lambda m: {**m, "files": []}),
    "file-outside-the-entry": lambda e: forge_manifest(
        e, lambda m: {**m, "files": {**m["files"], "../escape.tir": "0" * 64}}),
    "manifest-a-list": lambda e: forge_manifest(e, lambda m: [m]),
    "manifest-a-directory": replace_with(cache.MANIFEST, os.mkdir),
    "stage-a-directory": replace_with("scale_kernel.tir", os.mkdir),
    "stage-a-symlink": replace_with("scale_kernel.tir", lambda p: os.symlink(p + ".real", p)),
    "manifest-unreadable": lambda e: os.chmod(os.path.join(e, cache.MANIFEST), 0),
}


# A FIFO or a link to /dev/zero where a file should be (reads that never end)
# are cases of tests/python/hostile, where a hang fails one case.
@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_forged_or_odd_entry_is_a_miss_that_replaces_it(forgery, tmp_path, frontend, private_dirs):
    """Valid checksums do not make an entry sound: whatever its shape, a bad
    entry is deleted and the kernel compiled again, at the first compile."""
    if forgery == "manifest-unreadable" and os.geteuid() == 0:
        pytest.skip("root reads files without read permission")
    mod = kernels(tmp_path, "k_forged_" + forgery.replace("-", "_"))
    good = compiler.compile(src_of(mod), target="cuda:90")
    entry = os.path.join(private_dirs["cache"], good.hash)
    FORGERIES[forgery](entry)
    rebuilt = compiler.compile(src_of(mod), target="cuda:90")
    assert frontend.count == 2 and rebuilt.asm == good.asm and rebuilt.metadata == good.metadata
    assert cache.FileCacheManager(good.hash).load() is not None  # stored again, intact
    compiler.compile(src_of(mod), target="cuda:90")
    assert frontend.count == 2
    assert not [e for e in os.listdir(private_dirs["cache"]) if e.startswith((".trash", ".tmp"))]


def test_a_file_where_the_entry_should_be_is_replaced(tmp_path, frontend, private_dirs):
    mod = kernels(tmp_path, "k_entry_file")
    good = compiler.compile(src_of(mod), target="cuda:90")
    entry = os.path.join(private_dirs["cache"], good.hash)
    shutil.rmtree(entry)
    open(entry, "w").write("not a directory")
    compiler.compile(src_of(mod), target="cuda:90")
    assert frontend.count == 2 and os.path.isdir(entry)
    assert cache.FileCacheManager(good.hash).load() is not None
    assert not [e for e in os.listdir(private_dirs["cache"]) if e.startswith((".trash", ".tmp"))]


def test_manifest_of_another_key_is_rejected(tmp_path, private_dirs):
    mgr = cache.FileCacheManager("a" * 64)
    mgr.store({"x.tir": "kernel"})
    os.rename(mgr.entry, os.path.join(private_dirs["cache"], "b" * 64))
    assert cache.FileCacheManager("b" * 64).load() is None
    assert not os.path.exists(os.path.join(private_dirs["cache"], "b" * 64))


def test_unwritable_cache_dir_still_compiles(tmp_path, monkeypatch, frontend):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(blocker / "cache"))
    mod = kernels(tmp_path, "k_unwritable")
    with pytest.warns(RuntimeWarning, match="cannot write the kernel cache"):
        k = compiler.compile(src_of(mod), target="cuda:90")
    assert "tir" in k.asm and k.metadata_group == {}


# -- concurrent writers ------------------------------------------------------------------

def _child_compile(kdir, cache_dir, barrier, results):
    sys.path[:0] = [PYTHON_DIR, HERE, kdir]
    os.environ["TRITIUM_CACHE_DIR"] = cache_dir
    import time
    from runtime_helpers import real_frontend
    from tritium.compiler import compiler as comp
    inner = real_frontend()

    def slow_frontend(*args, **kw):
        barrier.wait(timeout=60)  # everyone compiles at once, then stores at once
        time.sleep(0.05)
        return inner(*args, **kw)
    comp.ast_to_ir = slow_frontend
    import kmod_conc
    k = kmod_conc.scale_kernel.warmup("*fp32", "i32", BLOCK=128, grid=(1,))
    results.put((k.hash, k.asm["tir"]))


def test_concurrent_writers(tmp_path, private_dirs):
    (tmp_path / "kmod_conc.py").write_text(KERNELS.format(scale=2, factor=3))
    ctx = multiprocessing.get_context("spawn")
    n = 6
    barrier, results = ctx.Barrier(n), ctx.Queue()
    procs = [ctx.Process(target=_child_compile,
                         args=(str(tmp_path), str(private_dirs["cache"]), barrier, results))
             for _ in range(n)]
    for p in procs:
        p.start()
    import queue
    import time
    got, deadline = [], time.monotonic() + 120
    while len(got) < n and time.monotonic() < deadline:
        try:
            got.append(results.get(timeout=0.5))
        except queue.Empty:
            dead = [p.exitcode for p in procs if p.exitcode not in (None, 0)]
            assert not dead, f"a writer died (exit codes {dead})"
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert len(got) == n
    assert len({h for h, _ in got}) == 1 and len({t for _, t in got}) == 1
    key = got[0][0]
    assert entries(private_dirs["cache"]) == [key]
    assert not [e for e in os.listdir(private_dirs["cache"]) if e.startswith(".tmp")]
    files = cache.FileCacheManager(key, str(private_dirs["cache"])).load()
    assert files is not None and files["scale_kernel.tir"].decode() == got[0][1]


def test_stale_temporaries_are_swept(private_dirs, monkeypatch):
    d = private_dirs["cache"]
    d.mkdir(parents=True, exist_ok=True)
    stale, fresh = d / ".tmp.dead.1.x", d / ".tmp.live.2.y"
    stale.mkdir()
    fresh.mkdir()
    old = os.stat(stale).st_mtime - 2 * cache.STALE_SECONDS
    os.utime(stale, (old, old))
    monkeypatch.setattr(cache, "_swept", set())
    cache.FileCacheManager("c" * 64).store({"a.tir": "x"})
    assert not stale.exists() and fresh.exists()


def test_write_atomic(tmp_path):
    path = tmp_path / "f"
    cache.write_atomic(str(path), b"one")
    cache.write_atomic(str(path), b"two")
    assert path.read_bytes() == b"two" and os.listdir(tmp_path) == ["f"]
