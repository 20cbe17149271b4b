"""Summary of async-profiler's collapsed stacks (`collapsed,ann`: frames end in _[k] kernel, _[j] JIT compiled, _[1]
C1 compiled, _[i] inlined, _[0] interpreted) of a warm `ossgw serve --nfs` (nfs-profile.sh). Prints, as shares of all
samples: what the leaf frames are (kernel, native, compiled, interpreted Java); the kernel and native time by the
nearest Java frame above it (which system call or JNI entry paid it); the time under each NFSv3 procedure, under the
reply's send and under the RPC layer's decoding; and the Java leaf frames that weigh most.

Usage: python3 nfsprofile.py STACKS.collapsed [TOP=15]
"""
import collections
import re
import sys

KIND = {"k": "kernel", "j": "Java, JIT compiled", "1": "Java, C1", "i": "Java, inlined", "0": "Java, interpreted"}


def frames(stack):
    return [re.sub(r"\$\$Lambda\.0x[0-9a-f]+", "$$Lambda", f) for f in stack.split(";")]


def plain(frame):
    return re.sub(r"_\[\w\]$", "", frame)


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 15
    total = 0
    leaf_kind, by_java, procs, parts, java_leaf = (collections.Counter() for _ in range(5))
    with open(path) as f:
        for line in f:
            stack, n = line.rstrip().rsplit(" ", 1)
            n = int(n)
            total += n
            fr = frames(stack)
            m = re.search(r"_\[(\w)\]$", fr[-1])
            kind = KIND.get(m.group(1), "native") if m else "native (JVM, libraries)"
            leaf_kind[kind] += n
            java = next((x for x in reversed(fr) if re.search(r"_\[[01ij]\]$", x)), None)
            if kind.startswith("Java"):
                java_leaf[plain(fr[-1])] += n
            else:
                below = "kernel" if kind == "kernel" else plain(fr[-1])
                by_java[f"{plain(java) if java else '(no Java frame)'} -> {below}"] += n
            names = [plain(x) for x in fr]
            proc = next((x.rsplit("/", 1)[1] for x in names if re.match(r"io/ossgw/nfs/v3/\w+Procs\.\w+$", x)), None)
            if proc:
                procs[proc] += n
            for label, frame in (("the reply's send (TrackedTransport.send)", "io/ossgw/nfs/rpc/TrackedTransport.send"),
                                 ("arguments decoded (RpcCall.retrieveCall)", "org/dcache/oncrpc4j/rpc/RpcCall.retrieveCall"),
                                 ("records read and split (RpcServerFilter.handleRead)",
                                  "io/ossgw/nfs/rpc/RpcServerFilter.handleRead"),
                                 ("OSS requests (LeanOssClient.exchange)", "io/ossgw/core/store/lean/LeanOssClient.exchange"),
                                 ("the spool's pwrite", "sun/nio/ch/UnixFileDispatcherImpl.pwrite0")):
                if frame in names:
                    parts[label] += n
    print(f"{total} samples")
    for title, counter, n in (("leaf frames", leaf_kind, None), ("under an NFSv3 procedure", procs, top),
                              ("parts of the path (they overlap the procedures)", parts, None),
                              ("kernel and native time by the nearest Java frame", by_java, top),
                              ("Java leaf frames", java_leaf, top)):
        print(title + ":")
        for k, c in counter.most_common(n):
            print(f"  {100 * c / total:5.1f} %  {k[:150]}")

if __name__ == "__main__":
    main()
