"""results.json + machine.txt of one run -> results.md and chart.png in the same directory, and (when given the path of
docs/benchmarks.md) the headline table between its <!-- headline:begin --> and <!-- headline:end --> markers.
Usage: python report.py RUN_DIR [docs/benchmarks.md]"""
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def mark(met):
    return "—" if met is None else ("**met**" if met else "**missed**")


def pct(r):
    return "—" if r is None else f"{r:.2f}x"


def mb(n):
    return f"{n / 2**20:,.0f} MiB"


def headline(res):
    """The target table: one line per issue-14 target (ratios to the SDK ceilings of the same run, listing times),
    met/missed."""
    out = ["| workload | ossgw | raw-SDK ceiling (same run) | ossgw / ceiling | target | result | load (1 min) |",
           "|---|---:|---:|---:|---|---|---:|"]
    for r in res["rows"]:
        tgt = f">= {r['target']:.2f}x ceiling" if r["target"] else "—"
        ceil = f"{r['ceiling_mbps']:.1f} MB/s ({r['ceiling']})" if r["ceiling_mbps"] else "—"
        out.append(f"| {r['name']} | {r['mbps']:.1f} MB/s ({r['seconds']:.2f} s) | {ceil} | {pct(r['ratio'])} | {tgt} "
                   f"| {mark(r['met'])} | {r['load1']:.2f} |")
    biggest = max((x["n"] for x in res["ls"]), default=None)
    for x in res["ls"]:
        if x["n"] == biggest and x["cmd"] == "ls -l" and x["state"].startswith("warm") and "optimize" not in x["state"]:
            local = "local" in x["state"]
            out.append(f"| ls -l of {x['n']:,} files, {x['state']} | {x['seconds']:.3f} s (median of 5) | — | — | "
                       f"{'(reference)' if local else '<= 0.03 s'} | {'—' if local else mark(x['seconds'] <= 0.03)} "
                       f"| {x['load1']:.2f} |")
    for x in res["ls"]:
        if x["state"].startswith("cold"):
            # issue 14: a cold `ls -l` of 3,000 within 0.5 s by default, 0.1 s with readdir_optimize; the others are
            # shown with their requests and CPU (CPU-s per 1,000 HEAD: <= 0.4 s for HEAD/GET of small objects)
            limit = (0.1 if "optimize" in x["state"] else 0.5) if x["cmd"] == "ls -l" and x["n"] == 3000 else None
            cpu = x.get("cpu_gateway_s")
            per_head = f", {cpu / x['head'] * 1000:.2f} CPU-s / 1,000 HEAD" if cpu is not None and x["head"] else ""
            out.append(f"| {x['cmd']} of {x['n']:,} files, {x['state']} | {x['seconds']:.3f} s, {x['list']} LIST, "
                       f"{x['head']} HEAD, {num(cpu)} gateway CPU-s{per_head} | — | — | "
                       f"{f'<= {limit} s' if limit else '—'} | {mark(x['seconds'] <= limit) if limit else '—'} "
                       f"| {x['load1']:.2f} |")
    t = res.get("touch")
    if t:
        ok = t["cpu_gateway_s"] <= 1.5 and t["requests"] <= t["n"]
        out.append(f"| touch of {t['n']:,} new files (one process each) | {t['seconds']:.2f} s, {t['requests']:,} OSS "
                   f"requests ({t['by_op']}), {t['cpu_gateway_s']:.2f} gateway CPU-s | — | — | <= 1.5 CPU-s, 1 request "
                   f"each | {mark(ok)} | {t['load1']:.2f} |")
    d = res.get("dr")
    if d:
        ok = d["peak_rss"] <= d["budget"] + (256 << 20) and d["peak_spool"] == 0
        out.append(f"| direct_read: {d['files']} concurrent readers, peak RSS / disk | {mb(d['peak_rss'])} / "
                   f"{d['peak_spool']:,} B | — | — | RSS <= budget {mb(d['budget'])} + 256 MiB, 0 B on disk "
                   f"| {mark(ok)} | {d['load1']:.2f} |")
    return "\n".join(out)


def nfs_ceiling_table(res):
    """The NFS rows beside nfs-ganesha FSAL_MEM (issue 22), after the target table: a table of their own, not rows of
    it (their columns differ). Empty when the step did not run."""
    out = []
    nc = res.get("nfs_ceiling")
    if nc:
        out += ["**NFS beside nfs-ganesha FSAL_MEM** (`nfs-ceiling.sh`): " +
                f"{nc['started']} .. {nc['finished']}; " + ", ".join(nc["versions"].values())
                + "; the same libnfs client (nfsload, 1 MiB calls kept in flight) against both servers in one private "
                "network namespace; server CPU only (ossgw: the gateway's JVM; the emulator's beside it); `floor`: "
                "the gateway's write syscalls in C with no protocol (spoolfloor.c: receive, CRC-64, spool pwrite, "
                "sendfile of the parts).", "",
                "| server | row | MB/s | files/s | CPU-s / GiB | CPU-s / 1,000 files | heap MB / GiB | peak RSS MiB "
                "| emulator CPU-s | load |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in nc["rows"]:
            cell = lambda k: "" if r.get(k) is None else str(r[k])  # noqa: E731
            out.append(f"| {r['server']} | {r['row']} | {cell('mbps')} | {cell('files_per_s')} | {cell('cpu_per_gib')} "
                       f"| {cell('cpu_per_1k_files')} | {cell('alloc_mb_per_gib')} | {cell('peak_rss_mib')} "
                       f"| {cell('emulator_cpu_s')} | {r['load1']} |")
    return "\n".join(out)


def num(v, fmt="{:.2f}"):
    return "—" if v is None else fmt.format(v)


CPU_TARGETS = {"put": "<= 1.0 s/GiB", "get": "<= 1.0 s/GiB"}  # issue 14: sequential write and read through FUSE


def cpu_table(res):
    """CPU per unit (issue 14's yardstick): gateway CPU s per GiB, per 1,000 OSS requests and per 1,000 files, beside the
    Java-SDK ceiling's and curl's (the non-SDK ceiling: C, no TLS, the least this machine needs) CPU s per GiB."""
    out = ["| workload | gateway CPU s / GiB | gateway CPU s / 1,000 OSS requests (requests) | gateway CPU s / "
           "1,000 files | gateway heap MB allocated / GiB (JFR) | SDK ceiling CPU s / GiB | curl CPU s / GiB (MB/s) "
           "| target |",
           "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in res["rows"]:
        if "cpu_per_gib" not in r:
            continue  # results.json of a run before the CPU columns
        nat = f"{num(r.get('native_cpu_per_gib'))} ({num(r.get('native_mbps'), '{:.0f}')})" \
            if r.get("native_mbps") else "—"
        out.append(f"| {r['name']} | {num(r['cpu_per_gib'])} | {num(r['cpu_per_1k_requests'])} "
                   f"({r['oss_requests']:,}) | {num(r.get('cpu_per_1k_files'))} | {num(r.get('alloc_mb_per_gib'), '{:.0f}')} "
                   f"| {num(r.get('ceiling_cpu_per_gib'))} "
                   f"| {nat} | {CPU_TARGETS.get(r['ceiling'], '—') if r.get('native') and r['name'].startswith('fio') else '—'} |")
    return "\n".join(out)


def oss_summary(delta):
    ops = sorted(((k, v) for k, v in delta.items() if not k.startswith("Bytes")), key=lambda kv: -kv[1])
    text = ", ".join(f"{k} {v:,}" for k, v in ops)
    if delta.get("BytesReceived") or delta.get("BytesSent"):
        text += f"; MB in {delta.get('BytesReceived', 0) / 1e6:,.0f} / out {delta.get('BytesSent', 0) / 1e6:,.0f}"
    return text or "—"


def details(res):
    out = []
    notes = [f"* {r['name']}: {r['note']}" for r in res["rows"] if r.get("note")]
    if notes:
        out += ["Notes:", "", *notes, ""]
    if res["ls"]:
        out += ["## Listings", "",
                "Fresh mount with an empty state directory for each cold row (the gateway has never seen the keys); "
                "the directory itself is looked up before the counters are reset, so the counts are the listing's own. "
                "Warm = the same command again on the same mount, 5 times: the median (best in brackets); the "
                "counters are those of the first warm run.", "",
                "| n | command | state | seconds | HEAD | LIST | GET | FUSE callbacks | by operation | load |",
                "|---:|---|---|---:|---:|---:|---:|---:|---|---:|"]
        for x in res["ls"]:
            by = ", ".join(f"{k} {v}" for k, v in sorted(x["fuse_by_op"].items(), key=lambda kv: -kv[1]))
            best = f" ({x['best_s']:.3f})" if "best_s" in x else ""
            out.append(f"| {x['n']:,} | `{x['cmd']}` | {x['state']} | {x['seconds']:.3f}{best} | {x['head']} "
                       f"| {x['list']} | {x['get']} | {x['fuse_ops']:,} | {by} | {x['load1']:.2f} |")
        out.append("")
    d = res.get("dr")
    if d:
        out += ["## Concurrent sequential reads (direct_read)", "",
                f"{d['files']} `dd bs=1M` readers of {mb(d['file_bytes'])} objects each, page cache dropped, options "
                f"`{d['options']}`.", "",
                "| last reader done | mean reader | aggregate | SDK (one GetObject per object, concurrent) | "
                "peak RSS (VmHWM) | memory budget (its peak use) | peak spool (tmpdir) | state dir growth |",
                "|---:|---:|---:|---:|---:|---:|---:|---:|",
                f"| {d['completion_s']:.2f} s | {d['mean_s']:.2f} s | {d['mbps']:.1f} MB/s | {d['ceiling_mbps']:.1f} "
                f"MB/s ({d['ceiling_s']:.2f} s) | {mb(d['peak_rss'])} | {mb(d['budget'])}"
                f"{' (' + mb(d['budget_peak']) + ')' if d.get('budget_peak') is not None else ''} | {d['peak_spool']:,} B "
                f"| {d['state_growth']:,} B |", ""]
        if d.get("nmt"):
            out += ["Native memory tracking of the gateway right after the readers finished (committed MB; "
                    "direct buffers are under Other):", "", "```", *d["nmt"], "```", ""]
    if res["sysbench"]:
        out += ["## sysbench fileio", "",
                f"`sysbench fileio` defaults (16 KiB blocks, 1 thread, synchronous I/O, fsync every 100 requests) "
                f"with `--file-extra-flags={res['knobs'].get('SB_FLAGS', 'direct')}` (O_DIRECT: without it seqrd and "
                "rndrd re-read the kernel's page cache after the first pass and measure the kernel, not the gateway), "
                "page cache dropped before each mode. Ceilings: seqwr = SDK put, seqrd = SDK get, rndrd = one "
                "thread of 16 KiB ranged GETs; rndwr has no SDK analogue (objects are immutable).", "",
                "| mode | MB/s | raw sysbench figures | ceiling | ossgw / ceiling | load |",
                "|---|---:|---|---:|---:|---:|"]
        for s in res["sysbench"]:
            raw = ", ".join(f"{k} {v:g}" for k, v in s.get("raw", {}).items())
            ceil = f"{s['ceiling_mbps']:.1f} MB/s ({s['ceiling']})" if s.get("ceiling_mbps") else "—"
            out.append(f"| {s['mode']} | {s['mbps']:.1f} | {raw} | {ceil} | {pct(s.get('ratio'))} | {s['load1']:.2f} |")
        out.append("")
    out += ["## CPU per unit", "", cpu_table(res), ""]
    out += ["## CPU per workload", "",
            "CPU seconds used by the gateway and the emulator JVMs during the workload, how busy the 2 vCPUs were "
            "(all processes, other agents' builds included), and the OSS requests the emulator served meanwhile "
            "(MB in/out = request/response bodies).", "",
            "| workload | wall s | gateway CPU s | emulator CPU s | machine busy | load before | OSS requests |",
            "|---|---:|---:|---:|---:|---:|---|"]
    for r in res["rows"] + [dict(x, name=f"{x['cmd']} {x['n']} {x['state']}") for x in res["ls"]] + \
            [dict(s, name=f"sysbench {s['mode']}") for s in res["sysbench"]]:
        out.append(f"| {r['name']} | {r['wall_s']:.2f} | {r['cpu_gateway_s']:.1f} | {r['cpu_emulator_s']:.1f} | "
                   f"{r['machine_busy'] * 100:.0f} % | {r['load1']:.2f} | {oss_summary(r.get('oss', {}))} |")
    out.append("")
    if res["ceiling"]:
        out += ["## Raw-SDK ceilings (io.ossgw.jmh.SdkCeiling, same emulator, same run)", "",
                "Each ceiling is the best of its samples (one before and one after the gateway workload).", "",
                "| transfer | MB/s | seconds | CPU s of the SDK tool | load before | all samples, MB/s (load) |",
                "|---|---:|---:|---:|---:|---|"]
        samples = res.get("ceiling_samples", {})
        for k, v in res["ceiling"].items():
            if v:
                cpu = f"{v['cpu_tool_s']:.1f}" if v.get("cpu_tool_s") is not None else "—"
                all_ = ", ".join(f"{x['mbps']:.1f} ({x.get('load1', 0):.1f})" for x in samples.get(k, [v]))
                out.append(f"| {k} | {v['mbps']:.1f} | {v['s']:.2f} | {cpu} | {v.get('load1', 0):.2f} | {all_} |")
        out.append("")
    for name, profs in res.get("profiles", {}).items():
        out += [f"## Profile: {name}", ""]
        for who, top in profs.get("threads", {}).items():
            out.append(f"CPU seconds by thread ({who}, `top -H` folded by name): "
                       + (", ".join(f"{n} {v:.1f}" for n, v in top) or "none"))
            out.append("")
        for who, text in profs.items():
            if who != "threads":
                out += [f"JFR hot methods ({who}):", "", "```", text.strip() or "(no samples)", "```", ""]
    return "\n".join(out)


def chart(res, path):
    rows = [r for r in res["rows"] if r["ceiling_mbps"]] + \
           [dict(name=f"sysbench {s['mode']}", mbps=s["mbps"], ceiling_mbps=s["ceiling_mbps"])
            for s in res["sysbench"] if s.get("ceiling_mbps")]
    ls = res["ls"]
    fig, axes = plt.subplots(1, 2 if ls else 1, figsize=(15 if ls else 9, max(4, 0.55 * len(rows) + 1.5)),
                             squeeze=False)
    ax = axes[0][0]
    y = range(len(rows))
    ax.barh([i + 0.2 for i in y], [r["ceiling_mbps"] for r in rows], 0.4, label="raw-SDK ceiling", color="#bbbbbb")
    ax.barh([i - 0.2 for i in y], [r["mbps"] for r in rows], 0.4, label="ossgw", color="#1f77b4")
    ax.set_yticks(list(y), [r["name"] for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("MB/s (10^6 bytes/s)")
    ax.legend(loc="lower right")
    ax.set_title("Transfers vs the raw-SDK ceiling")
    if ls:
        ax2 = axes[0][1]
        labels = [f"{x['cmd']} {x['n']} {x['state']}" for x in ls]
        ax2.barh(range(len(ls)), [x["seconds"] for x in ls], color=["#d62728" if "cold" in x["state"] else "#2ca02c"
                                                                     for x in ls])
        ax2.set_yticks(range(len(ls)), labels, fontsize=8)
        ax2.invert_yaxis()
        ax2.set_xscale("log")
        ax2.axvline(0.03, color="black", lw=0.8, ls="--")
        ax2.set_xlabel("seconds (log); dashed: 0.03 s target for warm ls -l")
        ax2.set_title("Listings (red: cold, green: warm)")
    fig.suptitle(f"ossgw benchmarks {res['machine'].get('date', '')} — rev {res['machine'].get('rev', '?')}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    run = sys.argv[1]
    with open(os.path.join(run, "results.json")) as f:
        res = json.load(f)
    res["machine"] = {}
    with open(os.path.join(run, "machine.txt")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            res["machine"][k] = v
    m = res["machine"]
    head = ["# ossgw benchmark run " + m.get("date", ""), "",
            f"* ossgw: rev {m.get('rev')}; {m.get('java')}", f"* machine: {m.get('cpu')}, {m.get('memory')} RAM, "
            f"kernel {m.get('kernel')}, {m.get('os')}; {m.get('fio')}, {m.get('sysbench')}",
            f"* command: `{m.get('command')}` ({res.get('duration_s', 0):.0f} s)",
            "* everything on one machine over loopback: the OSS emulator (directory-backed), the gateway "
            "(`ossgw serve`, one FUSE mount), the clients and the raw-SDK ceiling tool; other agents' builds share "
            "the 2 vCPUs (load per row). MB = 10^6 bytes.", "", "## Targets (issue 14)", "", headline(res), "",
            nfs_ceiling_table(res), "", details(res)]
    with open(os.path.join(run, "results.md"), "w") as f:
        f.write("\n".join(head))
    chart(res, os.path.join(run, "chart.png"))
    if len(sys.argv) > 2 and sys.argv[2] and os.path.exists(sys.argv[2]):
        doc = sys.argv[2]
        with open(doc) as f:
            text = f.read()
        rel = os.path.relpath(run, os.path.dirname(doc))
        block = (f"<!-- headline:begin -->\nRun of {m.get('date')}, ossgw rev {m.get('rev')} "
                 f"([results]({rel}/results.md), [chart]({rel}/chart.png)); {m.get('cpu')}, {m.get('memory')} RAM, "
                 f"kernel {m.get('kernel')}; {m.get('java')}; command `{m.get('command')}` "
                 f"({res.get('duration_s', 0):.0f} s):\n\n{headline(res)}\n\nCPU per unit (issue 14):\n\n{cpu_table(res)}\n"
                 + (f"\n{nfs_ceiling_table(res)}\n" if res.get("nfs_ceiling") else "") +
                 "<!-- headline:end -->")
        new, n = re.subn(r"<!-- headline:begin -->.*?<!-- headline:end -->", lambda _: block, text, flags=re.S)
        if n:
            with open(doc, "w") as f:
                f.write(new)


if __name__ == "__main__":
    main()
