package main

import (
	"fmt"
	"sort"
	"strings"

	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
)

// workload is a pod template found in a Deployment, StatefulSet, Job or bare Pod.
type workload struct {
	obj      *Object
	meta     metav1.ObjectMeta
	selector *metav1.LabelSelector
	labels   map[string]string
	spec     *corev1.PodSpec
	claims   []corev1.PersistentVolumeClaim
}

func workloadOf(o *Object) *workload {
	switch v := o.Value.(type) {
	case *appsv1.Deployment:
		return &workload{o, v.ObjectMeta, v.Spec.Selector, v.Spec.Template.Labels, &v.Spec.Template.Spec, nil}
	case *appsv1.StatefulSet:
		return &workload{o, v.ObjectMeta, v.Spec.Selector, v.Spec.Template.Labels, &v.Spec.Template.Spec,
			v.Spec.VolumeClaimTemplates}
	case *batchv1.Job:
		return &workload{o, v.ObjectMeta, nil, v.Spec.Template.Labels, &v.Spec.Template.Spec, nil}
	case *corev1.Pod:
		return &workload{o, v.ObjectMeta, nil, v.Labels, &v.Spec, nil}
	}
	return nil
}

func metaOf(o *Object) metav1.ObjectMeta {
	switch v := o.Value.(type) {
	case interface{ GetObjectMeta() metav1.Object }:
		m := v.GetObjectMeta()
		return metav1.ObjectMeta{Name: m.GetName(), Namespace: m.GetNamespace(), Labels: m.GetLabels(),
			Annotations: m.GetAnnotations()}
	}
	return metav1.ObjectMeta{}
}

// crossCheck returns the problems of each object: rules that strict decoding cannot see but the API server (names,
// labels, enums) or the running cluster (references, selectors) would reject or silently break on.
func crossCheck(objs []*Object, external map[string]bool) map[*Object][]string {
	out := map[*Object][]string{}
	byKind := map[string]map[string]*Object{}
	var loads []*workload
	for _, o := range objs {
		if o == nil {
			continue
		}
		if byKind[o.Kind] == nil {
			byKind[o.Kind] = map[string]*Object{}
		}
		if _, dup := byKind[o.Kind][o.Name]; dup {
			out[o] = append(out[o], "duplicate "+o.Kind+" name "+o.Name)
		}
		byKind[o.Kind][o.Name] = o
		out[o] = append(out[o], checkMeta(metaOf(o))...)
		if w := workloadOf(o); w != nil {
			loads = append(loads, w)
		}
	}
	exists := func(kind, name string) bool { _, ok := byKind[kind][name]; return ok || external[kind+"/"+name] }
	for _, w := range loads {
		out[w.obj] = append(out[w.obj], checkWorkload(w, byKind, exists)...)
	}
	for _, o := range byKind["Service"] {
		out[o] = append(out[o], checkService(o.Value.(*corev1.Service), loads)...)
	}
	for _, o := range byKind["ServiceMonitor"] {
		out[o] = append(out[o], checkServiceMonitor(o.Value.(*monv1.ServiceMonitor), byKind["Service"])...)
	}
	for _, o := range byKind["PersistentVolumeClaim"] {
		out[o] = append(out[o], checkClaim(o.Value.(*corev1.PersistentVolumeClaim), exists)...)
	}
	return out
}

func checkMeta(m metav1.ObjectMeta) []string {
	var ps []string
	for _, e := range validation.IsDNS1123Subdomain(m.Name) {
		ps = append(ps, "metadata.name "+m.Name+": "+e)
	}
	for k, v := range m.Labels {
		for _, e := range validation.IsQualifiedName(k) {
			ps = append(ps, "label key "+k+": "+e)
		}
		for _, e := range validation.IsValidLabelValue(v) {
			ps = append(ps, "label "+k+"="+v+": "+e)
		}
	}
	for k := range m.Annotations {
		for _, e := range validation.IsQualifiedName(strings.ToLower(k)) {
			ps = append(ps, "annotation key "+k+": "+e)
		}
	}
	return ps
}

func matches(sel map[string]string, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

var hostPathTypes = map[corev1.HostPathType]bool{corev1.HostPathUnset: true,
	corev1.HostPathDirectoryOrCreate: true, corev1.HostPathDirectory: true, corev1.HostPathFileOrCreate: true,
	corev1.HostPathFile: true, corev1.HostPathSocket: true, corev1.HostPathCharDev: true,
	corev1.HostPathBlockDev: true}

func checkWorkload(w *workload, byKind map[string]map[string]*Object, exists func(string, string) bool) []string {
	var ps []string
	if w.selector != nil {
		if len(w.selector.MatchLabels) == 0 && len(w.selector.MatchExpressions) == 0 {
			ps = append(ps, "empty selector")
		} else if !matches(w.selector.MatchLabels, w.labels) && len(w.selector.MatchLabels) > 0 {
			ps = append(ps, fmt.Sprintf("selector %v does not match the pod template labels %v",
				w.selector.MatchLabels, w.labels))
		}
	}
	spec := w.spec
	switch spec.RestartPolicy {
	case "", corev1.RestartPolicyAlways, corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever:
	default:
		ps = append(ps, "restartPolicy "+string(spec.RestartPolicy))
	}
	volumes := map[string]bool{}
	for _, c := range w.claims {
		volumes[c.Name] = true
	}
	for _, v := range spec.Volumes {
		if volumes[v.Name] {
			ps = append(ps, "duplicate volume "+v.Name)
		}
		volumes[v.Name] = true
		switch {
		case v.HostPath != nil:
			if v.HostPath.Type != nil && !hostPathTypes[*v.HostPath.Type] {
				ps = append(ps, fmt.Sprintf("volume %s: hostPath.type %q", v.Name, *v.HostPath.Type))
			}
		case v.Secret != nil:
			if !(v.Secret.Optional != nil && *v.Secret.Optional) && !exists("Secret", v.Secret.SecretName) {
				ps = append(ps, "volume "+v.Name+": Secret "+v.Secret.SecretName+" is not rendered")
			}
		case v.ConfigMap != nil:
			if !(v.ConfigMap.Optional != nil && *v.ConfigMap.Optional) && !exists("ConfigMap", v.ConfigMap.Name) {
				ps = append(ps, "volume "+v.Name+": ConfigMap "+v.ConfigMap.Name+" is not rendered")
			}
		case v.PersistentVolumeClaim != nil:
			if !exists("PersistentVolumeClaim", v.PersistentVolumeClaim.ClaimName) {
				ps = append(ps, "volume "+v.Name+": PersistentVolumeClaim "+v.PersistentVolumeClaim.ClaimName+
					" is not rendered")
			}
		}
	}
	all := append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...)
	if len(spec.Containers) == 0 {
		ps = append(ps, "no containers")
	}
	for _, c := range all {
		ps = append(ps, checkContainer(c, volumes, byKind, exists)...)
	}
	return ps
}

func checkContainer(c corev1.Container, volumes map[string]bool, byKind map[string]map[string]*Object,
	exists func(string, string) bool) []string {
	var ps []string
	where := "container " + c.Name + ": "
	if c.Image == "" {
		ps = append(ps, where+"no image")
	}
	switch c.ImagePullPolicy {
	case "", corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever:
	default:
		ps = append(ps, where+"imagePullPolicy "+string(c.ImagePullPolicy))
	}
	ports := map[string]bool{}
	for _, p := range c.Ports {
		if p.Name != "" {
			for _, e := range validation.IsValidPortName(p.Name) {
				ps = append(ps, where+"port name "+p.Name+": "+e)
			}
			ports[p.Name] = true
		}
		if p.ContainerPort < 1 || p.ContainerPort > 65535 {
			ps = append(ps, fmt.Sprintf("%sport %d", where, p.ContainerPort))
		}
		switch p.Protocol {
		case "", corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
		default:
			ps = append(ps, where+"protocol "+string(p.Protocol))
		}
	}
	for _, m := range c.VolumeMounts {
		if !volumes[m.Name] {
			ps = append(ps, where+"volumeMount "+m.Name+" has no volume")
		}
		if !strings.HasPrefix(m.MountPath, "/") {
			ps = append(ps, where+"mountPath "+m.MountPath+" is not absolute")
		}
	}
	for _, d := range c.VolumeDevices {
		if !volumes[d.Name] {
			ps = append(ps, where+"volumeDevice "+d.Name+" has no volume")
		}
	}
	for name, pr := range map[string]*corev1.Probe{"liveness": c.LivenessProbe, "readiness": c.ReadinessProbe,
		"startup": c.StartupProbe} {
		if pr != nil && pr.HTTPGet != nil && pr.HTTPGet.Port.Type == intstr.String && !ports[pr.HTTPGet.Port.StrVal] {
			ps = append(ps, where+name+" probe port "+pr.HTTPGet.Port.StrVal+" is not a container port")
		}
	}
	for _, e := range c.Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			r := e.ValueFrom.SecretKeyRef
			if r.Optional != nil && *r.Optional {
				continue
			}
			if s, ok := byKind["Secret"][r.Name]; ok {
				sec := s.Value.(*corev1.Secret)
				if _, in := sec.Data[r.Key]; !in {
					if _, in := sec.StringData[r.Key]; !in {
						ps = append(ps, where+"env "+e.Name+": Secret "+r.Name+" has no key "+r.Key)
					}
				}
			} else if !exists("Secret", r.Name) {
				ps = append(ps, where+"env "+e.Name+": Secret "+r.Name+" is not rendered")
			}
		}
	}
	for _, f := range c.EnvFrom {
		if f.SecretRef != nil && !(f.SecretRef.Optional != nil && *f.SecretRef.Optional) &&
			!exists("Secret", f.SecretRef.Name) {
			ps = append(ps, where+"envFrom Secret "+f.SecretRef.Name+" is not rendered")
		}
		if f.ConfigMapRef != nil && !(f.ConfigMapRef.Optional != nil && *f.ConfigMapRef.Optional) &&
			!exists("ConfigMap", f.ConfigMapRef.Name) {
			ps = append(ps, where+"envFrom ConfigMap "+f.ConfigMapRef.Name+" is not rendered")
		}
	}
	return ps
}

func checkService(s *corev1.Service, loads []*workload) []string {
	var ps []string
	switch s.Spec.Type {
	case "", corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer,
		corev1.ServiceTypeExternalName:
	default:
		ps = append(ps, "type "+string(s.Spec.Type))
	}
	var target *workload
	for _, w := range loads {
		if matches(s.Spec.Selector, w.labels) {
			target = w
			break
		}
	}
	if len(s.Spec.Selector) > 0 && target == nil && len(loads) > 0 {
		ps = append(ps, fmt.Sprintf("selector %v matches no rendered pod template", s.Spec.Selector))
	}
	names := map[string]bool{}
	for _, p := range s.Spec.Ports {
		if len(s.Spec.Ports) > 1 && p.Name == "" {
			ps = append(ps, fmt.Sprintf("port %d needs a name (several ports)", p.Port))
		}
		if names[p.Name] {
			ps = append(ps, "duplicate port name "+p.Name)
		}
		names[p.Name] = true
		if target != nil && p.TargetPort.Type == intstr.String {
			found := false
			for _, c := range target.spec.Containers {
				for _, cp := range c.Ports {
					found = found || cp.Name == p.TargetPort.StrVal
				}
			}
			if !found {
				ps = append(ps, "targetPort "+p.TargetPort.StrVal+" is not a port of "+target.obj.Name)
			}
		}
	}
	return ps
}

func checkServiceMonitor(m *monv1.ServiceMonitor, services map[string]*Object) []string {
	var ps []string
	var names []string
	for _, o := range services {
		s := o.Value.(*corev1.Service)
		if !matches(m.Spec.Selector.MatchLabels, s.Labels) {
			continue
		}
		for _, p := range s.Spec.Ports {
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return append(ps, fmt.Sprintf("selector %v matches no rendered Service", m.Spec.Selector.MatchLabels))
	}
	sort.Strings(names)
	for _, e := range m.Spec.Endpoints {
		if e.Port != "" && sort.SearchStrings(names, e.Port) == len(names) ||
			e.Port != "" && names[sort.SearchStrings(names, e.Port)] != e.Port {
			ps = append(ps, "endpoint port "+e.Port+" is not a port of the selected Service")
		}
	}
	return ps
}

func checkClaim(c *corev1.PersistentVolumeClaim, exists func(string, string) bool) []string {
	if c.Spec.VolumeName == "" {
		return nil
	}
	if !exists("PersistentVolume", c.Spec.VolumeName) {
		return []string{"volumeName " + c.Spec.VolumeName + " is not rendered"}
	}
	return nil
}
