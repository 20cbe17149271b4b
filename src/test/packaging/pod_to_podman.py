"""Turns the gateway pod of a rendered Helm chart into `podman run` arguments, doing what the kubelet would do.

    python pod_to_podman.py RENDERED.yaml WORKDIR

Writes into WORKDIR the files the pod's volumes hold (ConfigMap keys, Secret keys with their defaultMode, emptyDir
directories) and these argument files, one argument per line:
    run.args    podman run options: -v for each volumeMount, --device for a hostPath CharDevice (the kubelet
                bind-mounts the node's /dev/fuse; runc's default device rules allow it), -e for each env
                entry (secretKeyRef values decoded from the rendered Secret), --cap-add / --privileged from the
                securityContext, --memory from resources.limits.memory (--device /dev/fuse for a FUSE device
                plugin's resource), --stop-timeout from
                terminationGracePeriodSeconds; a StatefulSet's volumeClaimTemplates become directories
    cmd.args    the container's args (after the image)
    probes      "readiness PATH PORT" and "liveness PATH PORT" (named ports resolved to numbers)
Anything in the pod spec it does not know how to reproduce (a volume type, envFrom, a probe that is not httpGet,
more than one container) is an error, so a chart change the container test does not cover fails the test instead
of being skipped. Used by src/test/packaging/container.sh.
"""
import base64
import os
import sys

import yaml


def fail(msg):
    sys.exit(f"pod_to_podman: {msg}")


def quantity_to_podman(q):
    """A Kubernetes memory quantity ("1Gi", "512Mi", "1073741824") as podman --memory bytes."""
    q = str(q)
    units = {"Ki": 1024, "Mi": 1024 ** 2, "Gi": 1024 ** 3, "Ti": 1024 ** 4,
             "k": 1000, "M": 1000 ** 2, "G": 1000 ** 3, "T": 1000 ** 4}
    for u, f in units.items():
        if q.endswith(u):
            return str(int(float(q[: -len(u)]) * f))
    return str(int(float(q)))


def main(rendered, work):
    docs = [d for d in yaml.safe_load_all(open(rendered)) if d]
    objects = {(d["kind"], d["metadata"]["name"]): d for d in docs}
    workloads = [d for d in docs if d["kind"] in ("Deployment", "StatefulSet")]
    if len(workloads) != 1:
        fail(f"expected one Deployment or StatefulSet, found {len(workloads)}")
    pod = workloads[0]["spec"]["template"]["spec"]
    if len(pod["containers"]) != 1 or pod.get("initContainers"):
        fail("expected exactly one container and no init containers")
    c = pod["containers"][0]
    if c.get("command"):
        fail("command (the image's entrypoint replaced) is not reproduced")
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    # a StatefulSet's claims are directories of the host here, like emptyDirs
    for claim in workloads[0]["spec"].get("volumeClaimTemplates", []):
        volumes[claim["metadata"]["name"]] = {"name": claim["metadata"]["name"], "emptyDir": {}}

    def secret_value(name, key):
        s = objects.get(("Secret", name)) or fail(f"Secret {name} is not rendered (existingSecret?)")
        if key in s.get("stringData", {}):
            return s["stringData"][key]
        return base64.b64decode(s["data"][key]).decode()

    run = []
    for m in c.get("volumeMounts", []):
        v = volumes.get(m["name"]) or fail(f"volumeMount {m['name']} has no volume")
        path, sub = m["mountPath"], m.get("subPath")
        ro = ":ro" if m.get("readOnly") else ""
        if "configMap" in v or "secret" in v:
            if "configMap" in v:
                data = objects[("ConfigMap", v["configMap"]["name"])].get("data", {})
                mode = v["configMap"].get("defaultMode", 0o644)
            else:
                name = v["secret"]["secretName"]
                s = objects.get(("Secret", name)) or fail(f"Secret {name} is not rendered")
                data = {k: secret_value(name, k) for k in list(s.get("data", {})) + list(s.get("stringData", {}))}
                mode = v["secret"].get("defaultMode", 0o644)
            d = os.path.join(work, "vol-" + m["name"])
            os.makedirs(d, exist_ok=True)
            for k, val in data.items():
                f = os.path.join(d, k)
                with open(f, "w") as out:
                    out.write(val)
                os.chmod(f, mode)
            run += ["-v", f"{os.path.join(d, sub) if sub else d}:{path}{ro}"]
        elif "hostPath" in v:
            if v["hostPath"].get("type") != "CharDevice":
                fail(f"hostPath volume {m['name']} is not a CharDevice")
            run += ["--device", f"{v['hostPath']['path']}:{path}"]
        elif "emptyDir" in v:
            d = os.path.join(work, "vol-" + m["name"], sub or "")
            os.makedirs(d, exist_ok=True)
            run += ["-v", f"{d}:{path}{ro}"]
        else:
            fail(f"volume {m['name']}: type not reproduced ({sorted(v)})")
    if c.get("envFrom"):
        fail("envFrom is not reproduced")
    for e in c.get("env", []):
        if "value" in e:
            run += ["-e", f"{e['name']}={e['value']}"]
        elif "secretKeyRef" in e.get("valueFrom", {}):
            ref = e["valueFrom"]["secretKeyRef"]
            run += ["-e", f"{e['name']}={secret_value(ref['name'], ref['key'])}"]
        else:
            fail(f"env {e['name']}: source not reproduced")
    if pod.get("securityContext"):
        fail("a pod-level securityContext is not reproduced")
    sc = c.get("securityContext", {})
    unknown = set(sc) - {"privileged", "capabilities", "appArmorProfile"}
    if unknown or set(sc.get("capabilities", {})) - {"add"}:
        fail(f"securityContext fields not reproduced: {sorted(unknown) or sc['capabilities']}")
    if sc.get("appArmorProfile", {}).get("type") == "Unconfined":
        run += ["--security-opt", "apparmor=unconfined"]
    elif sc.get("appArmorProfile"):
        fail(f"appArmorProfile {sc['appArmorProfile']} is not reproduced")
    if sc.get("privileged"):
        run += ["--privileged"]
    for cap in sc.get("capabilities", {}).get("add", []):
        run += ["--cap-add", cap]
    limits = c.get("resources", {}).get("limits", {})
    for res in limits:
        if res.endswith("/fuse"):  # a FUSE device plugin's resource: the plugin gives the container /dev/fuse
            run += ["--device", "/dev/fuse"]
        elif res not in ("memory", "cpu"):
            fail(f"resource limit {res} is not reproduced")
    if limits.get("memory"):
        run += ["--memory", quantity_to_podman(limits["memory"])]
    run += ["--stop-timeout", str(pod.get("terminationGracePeriodSeconds", 30))]

    ports = {p["name"]: p["containerPort"] for p in c.get("ports", [])}
    probes = []
    for kind in ("readiness", "liveness"):
        p = c.get(kind + "Probe") or fail(f"no {kind}Probe")
        get = p.get("httpGet") or fail(f"{kind}Probe is not httpGet")
        port = ports.get(get["port"], get["port"])
        probes.append(f"{kind} {get['path']} {port}")
    for name, lines in (("run.args", run), ("cmd.args", c.get("args", [])), ("probes", probes)):
        with open(os.path.join(work, name), "w") as out:
            out.write("".join(f"{x}\n" for x in lines))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
