"""A damaged or forged disk cache: after each corruption of a compiled
kernel's entry, compiling the kernel again must neither crash, hang, nor
serve the bad entry: it compiles again, stores a sound entry, and the next
compile is a hit. (Files that never end or block, a FIFO or /dev/zero,
used to hang; see also tests/python/runtime/test_cache.py.)
"""

import pytest

from hostile_helpers import expect_ok, run_snippet

CASE = '''
import hashlib, json, os, shutil, warnings
import tritium
from tritium.compiler.compiler import ASTSource
from tritium.compiler import cache

m = load_source("""
import tritium
import tritium.language as tl


@tritium.jit
def k(X):
    tl.store(X + tl.arange(0, 16), 1.0)
""")


def compile_it():
    return tritium.compile(ASTSource(m.k, {{"X": "*fp32"}}, {{}}), target="cuda:90")


first = compile_it()
cache_dir = os.environ["TRITIUM_CACHE_DIR"]
entry = os.path.join(cache_dir, first.hash)
manifest_path = os.path.join(entry, cache.MANIFEST)


def write_listed(name, data):
    """Writes a file of the entry and fixes the manifest's digests to match."""
    with open(os.path.join(entry, name), "wb") as f:
        f.write(data)
    manifest = json.load(open(manifest_path))
    manifest["files"][name] = hashlib.sha256(data).hexdigest()
    manifest["checksum"] = cache._manifest_checksum(manifest["key"], manifest["files"])
    json.dump(manifest, open(manifest_path, "w"))


def forge_metadata(edit):
    write_listed("k.json", json.dumps(edit(json.load(open(os.path.join(entry, "k.json"))))).encode())


def forge_manifest(edit):
    manifest = edit(json.load(open(manifest_path)))
    manifest["checksum"] = cache._manifest_checksum(manifest["key"], manifest["files"])
    json.dump(manifest, open(manifest_path, "w"))


def replace(name, make):
    path = os.path.join(entry, name)
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)
    make(path)


{corrupt}

with warnings.catch_warnings():
    warnings.simplefilter("ignore", RuntimeWarning)  # an unwritable cache only warns
    again = compile_it()
assert again.asm == first.asm and again.metadata == first.metadata, "served a bad entry"
if {stores}:
    assert cache.FileCacheManager(first.hash).load() is not None, "the entry was not stored again"
    assert compile_it().asm == first.asm
'''

#: id -> Python statements that damage ``entry`` (the first compile's).
CORRUPTIONS = {
    "stage-a-fifo": 'replace("k.tir", os.mkfifo)',
    "stage-a-link-to-dev-zero": 'replace("k.tir", lambda p: os.symlink("/dev/zero", p))',
    "stage-a-dangling-link": 'replace("k.tir", lambda p: os.symlink("/nonexistent", p))',
    "stage-a-directory": 'replace("k.ptx", os.mkdir)',
    "stage-truncated": 'open(os.path.join(entry, "k.ptx"), "r+b").truncate(10)',
    "stage-missing": 'os.unlink(os.path.join(entry, "k.llir"))',
    "manifest-a-fifo": 'replace(cache.MANIFEST, os.mkfifo)',
    "manifest-a-link-to-dev-zero": 'replace(cache.MANIFEST, lambda p: os.symlink("/dev/zero", p))',
    "manifest-a-directory": 'replace(cache.MANIFEST, os.mkdir)',
    "manifest-missing": 'os.unlink(manifest_path)',
    "manifest-empty": 'open(manifest_path, "w").close()',
    "manifest-not-utf8": 'open(manifest_path, "wb").write(b"\\xff\\xfe{")',
    "manifest-deeply-nested": 'open(manifest_path, "w").write("[" * 100000 + "]" * 100000)',
    "manifest-json-null": 'open(manifest_path, "w").write("null")',
    "manifest-lists-itself": 'forge_manifest(lambda mf: {**mf, "files": {**mf["files"], cache.MANIFEST: "0" * 64}})',
    "manifest-lists-a-file-outside": 'forge_manifest(lambda mf: {**mf, "files": {**mf["files"], "../../x": "0" * 64}})',
    "manifest-of-another-format": 'forge_manifest(lambda mf: {**mf, "format": 99})',
    "manifest-digest-not-a-string": 'forge_manifest(lambda mf: {**mf, "files": {n: 5 for n in mf["files"]}})',
    "metadata-stages-an-int": 'forge_metadata(lambda md: {**md, "stages": 5})',
    "metadata-a-list": 'forge_metadata(lambda md: [])',
    "metadata-target-bogus": 'forge_metadata(lambda md: {**md, "target": "bogus"})',
    "metadata-name-a-path": 'forge_metadata(lambda md: {**md, "name": "../../k"})',
    "metadata-num-warps-nan": 'write_listed("k.json", open(os.path.join(entry, "k.json")).read().replace(\'"num_warps": 4\', \'"num_warps": NaN\').encode())',
    "metadata-shared-a-string": 'forge_metadata(lambda md: {**md, "shared": "lots"})',
    "metadata-field-a-keyword": 'forge_metadata(lambda md: {**md, "lambda": 1})',
    "metadata-field-private": 'forge_metadata(lambda md: {**md, "_fields": 1})',
    "metadata-of-another-entry": 'forge_metadata(lambda md: {**md, "hash": "f" * 64})',
    "metadata-deeply-nested": 'write_listed("k.json", b"[" * 100000 + b"]" * 100000)',
    "entry-a-file": 'shutil.rmtree(entry); open(entry, "w").write("x")',
    "entry-a-dangling-link": 'shutil.rmtree(entry); os.symlink("/nonexistent", entry)',
}

#: Where the cache cannot be written, the compile still works (a warning).
NOT_STORED = {
    "cache-dir-a-file": 'shutil.rmtree(cache_dir); open(cache_dir, "w").write("x")',
}


@pytest.mark.parametrize("case", list(CORRUPTIONS) + list(NOT_STORED))
def test_corrupt_cache_entry_is_recompiled(case):
    corrupt = CORRUPTIONS.get(case) or NOT_STORED[case]
    expect_ok(run_snippet(CASE.format(corrupt=corrupt, stores=case not in NOT_STORED), timeout=60))
