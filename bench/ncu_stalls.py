"""Where a kernel's hot loop waits: ncu's per-instruction stall samples, summed.

    ncu --kernel-name regex:attn --launch-skip 2 --launch-count 1 --import-source no \\
        --section SourceCounters --section WarpStateStats -o /tmp/rep -f python3 my_run.py
    ncu --import /tmp/rep.ncu-rep --page source --csv --print-source sass > rep.csv
    python3 bench/ncu_stalls.py rep.csv [other.csv ...]

For each CSV (one kernel's SASS with its counters): the hot region (the
first run of instructions executed at least half as often as the most
executed one: the innermost loop that dominates), its stall samples per
reason and per opcode, and the registers its SASS never touches but the code
before and after it does: values live through the loop, which ptxas could
not use for the loop itself. Comparing two kernels this way (Tritium and
Triton's mma.sync path on causal attention) showed the short-scoreboard
stalls of HMMA waiting on an LDSM issued just before it, and 64 registers
held through the first loop for the second (docs/performance.md,
2026-12-02 evening). Nothing here needs a GPU.
"""

import collections
import csv
import re
import sys


def read(path):
    rows = list(csv.reader(open(path, newline="")))
    header = next(i for i, r in enumerate(rows) if "Source" in r and "Address" in r)
    names = rows[header]
    col = {n: i for i, n in enumerate(names)}

    def number(row, name):
        try:
            return int(row[col[name]].replace(",", ""))
        except (KeyError, ValueError, IndexError):
            return 0

    body = [r for r in rows[header + 1:] if len(r) == len(names)]
    stalls = [n for n in names if n.startswith("stall_") and "Not Issued" not in n]
    return [(r[col["Source"]].strip(), number(r, "Instructions Executed"),
             {s[6:]: number(r, s) for s in stalls}) for r in body]


def opcode(source):
    words = source.split()
    op = words[1] if words and words[0].startswith("@") and len(words) > 1 else words[0]
    return op.split(".")[0]


# Register operands with their widths: HMMA's D, A, B, C are 4, 4, 2, 4
# registers; LDSM.x4 writes 4; a .64 operand is a pair.
def registers(source):
    op = opcode(source)
    operands = source.split(None, 2 if source.startswith("@") else 1)[-1].split(",")
    out = set()
    for k, text in enumerate(operands):
        for m in re.finditer(r"\bR(\d+)(\.64)?", text):
            width = 2 if m.group(2) else 1
            if op == "HMMA" and k < 4:
                width = (4, 4, 2, 4)[k]
            elif op == "LDSM" and k == 0:
                width = 4 if ".4" in source else 2 if ".2" in source else 1
            out.update(range(int(m.group(1)), int(m.group(1)) + width))
    return out


def summarize(path):
    instrs = read(path)
    top = max(e for _, e, _ in instrs)
    hot = [i for i, (_, e, _) in enumerate(instrs) if e >= top / 2]
    start = hot[0]
    end = next((i for i in range(start, len(instrs)) if instrs[i][1] < top / 2), len(instrs))
    loop = instrs[start:end]
    reasons = collections.Counter()
    by_op = collections.defaultdict(collections.Counter)
    for source, _, stall in loop:
        reasons.update(stall)
        by_op[opcode(source)].update(stall)
    used = {k: set() for k in ("before", "loop", "after")}
    for i, (source, _, _) in enumerate(instrs):
        used["before" if i < start else "loop" if i < end else "after"] |= registers(source)
    through = (used["before"] & used["after"]) - used["loop"]
    print(f"{path}: hot loop of {len(loop)} instructions, {sum(reasons.values())} stall samples")
    print("  by reason:", ", ".join(f"{r} {n}" for r, n in reasons.most_common(6) if n))
    for op, c in sorted(by_op.items(), key=lambda kv: -sum(kv[1].values()))[:8]:
        top3 = ", ".join(f"{r} {n}" for r, n in c.most_common(3) if n)
        print(f"  {op:10s} {sum(c.values()):8d}  {top3}")
    print(f"  registers: {len(used['loop'])} used in the loop, {len(through)} live through it untouched")


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    for path in argv:
        summarize(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
