import re, sys, statistics
from collections import defaultdict
d = defaultdict(lambda: defaultdict(list))  # row -> mode -> values
loads = defaultdict(list)
modes = []
for line in open(sys.argv[1]):
    m = re.match(r"r(\d+) (\S+) (http dd|nfs|cold ls -l|nfs small): (.*)", line)
    if not m: continue
    r, mode, kind, rest = m.groups()
    if mode not in modes: modes.append(mode)
    lm = re.search(r"load ([\d.]+)", rest)
    if lm: loads[mode].append(float(lm.group(1)))
    if kind == "http dd":
        w = re.findall(r"write [\d.]+ s / ([\d.]+) CPU-s, read [\d.]+ s / ([\d.]+) CPU-s", rest)
        for i, (a, b) in enumerate(w):
            d[f"http:// dd {i+1}. 512 MiB written"][mode].append(2*float(a))
            d[f"http:// dd {i+1}. 512 MiB read"][mode].append(2*float(b))
    elif kind == "nfs":
        w = re.findall(r"write ([\d.]+) read ([\d.]+)", rest)
        for i, (a, b) in enumerate(w):
            d[f"NFS {i+1}. 512 MiB written"][mode].append(2*float(a))
            d[f"NFS {i+1}. 512 MiB read"][mode].append(2*float(b))
    elif kind == "cold ls -l":
        s = re.search(r"start ([\d.]+) CPU-s", rest); l = re.search(r"ls [\d.]+ s / ([\d.]+) CPU-s", rest)
        d["start + mount (CPU-s)"][mode].append(float(s.group(1)))
        d["cold ls -l of 3,000 (CPU-s)"][mode].append(float(l.group(1)))
    else:
        cells = [c.strip() for c in rest.split("|")]
        # | run | server | row | MB/s | files/s | CPU-s | CPU-s/GiB | CPU-s/1,000 files | ... | load
        if len(cells) > 8 and cells[8]:
            d["NFS small files, 2,000 x 128 KiB (CPU-s per 1,000)"][mode].append(float(cells[8]))
            loads[mode].append(float(cells[12]))
print("| row | " + " | ".join(modes) + " |")
print("|---|" + "---|" * len(modes))
over = defaultdict(int); worst = defaultdict(float)
for row, per in d.items():
    meds = {m: statistics.median(v) for m, v in per.items() if v}
    best = min(meds.values())
    cells = []
    for m in modes:
        v = per.get(m, [])
        if not v: cells.append("—"); continue
        ratio = meds[m] / best
        if ratio > 1.2: over[m] += 1
        worst[m] = max(worst[m], ratio)
        r = f"{ratio:.2f}x"
        r = f"**{r}**" if ratio == 1 else (f"*{r}*" if ratio > 1.2 else r)
        cells.append(f"{min(v):.2f}-{max(v):.2f}, {meds[m]:.2f}, {r} (n={len(v)})")
    print(f"| {row} | " + " | ".join(cells) + " |")
print("| rows over 1.2x its best | " + " | ".join(f"{over[m]} (worst {worst[m]:.2f}x)" for m in modes) + " |")
print("loads: " + "; ".join(f"{m} {min(l):.1f}-{max(l):.1f}" for m, l in loads.items()))
