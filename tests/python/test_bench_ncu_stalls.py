"""bench/ncu_stalls.py on a hand-written ncu source-page CSV: the hot loop is
found by execution counts, its stalls are summed per reason and opcode, and
registers touched before and after the loop but not in it are counted as
live through it (with HMMA's and LDSM's register widths)."""

import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(REPO, "bench", "ncu_stalls.py")

HEADER = ('"Address","Source","# Samples","Instructions Executed",'
          '"stall_short_sb","stall_wait","stall_short_sb (Not Issued)"')


def row(addr, source, executed, short_sb=0, wait=0):
    return f'"{addr}","{source}","0","{executed}","{short_sb}","{wait}","99"'


def test_hot_loop_stalls_and_live_through_registers(tmp_path):
    lines = ['"Kernel Name","k",', HEADER,
             row(0, "MOV R40, R41", 10),                      # R40, R41 before
             row(1, "MOV R2, R3", 10),
             row(2, "LDSM.16.M88.4 R8, [R2]", 1000, wait=5),  # the loop: R8..R11, R2
             row(3, "HMMA.16816.F32 R12, R8, R16, R12", 1000, short_sb=70, wait=3),
             row(4, "@P0 BRA 0x2", 990),
             row(5, "STG.E [R40.64], R12", 10),              # after: R40, R41 (pair), R12
             row(6, "MOV R50, R3", 10)]                      # R3: before and after, not in the loop
    path = tmp_path / "rep.csv"
    path.write_text("\n".join(lines) + "\n")
    r = subprocess.run([sys.executable, TOOL, str(path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "hot loop of 3 instructions, 78 stall samples" in out, out
    assert "by reason: short_sb 70, wait 8" in out, out
    assert re.search(r"HMMA +73  short_sb 70, wait 3\n", out), out
    assert re.search(r"BRA +0  \n", out), out
    # The loop uses R2, R8-R11 (LDSM), R12-R15 (D), R8-R11 (A), R16-R17 (B):
    # 11 registers; R3, R40 and R41 are live through it untouched.
    assert "registers: 11 used in the loop, 3 live through it untouched" in out, out
