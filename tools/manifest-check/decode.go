package main

import (
	"fmt"

	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

// Object is one decoded manifest: its kind, name and typed value (a pointer to a k8s.io/api struct).
type Object struct {
	APIVersion string
	Kind       string
	Name       string
	Value      any
}

// kinds maps apiVersion/kind to a constructor of the typed object. Anything else is refused: a chart that renders a
// kind this list does not know should add it here, not slip through unchecked.
var kinds = map[string]func() any{
	"v1/ConfigMap":                             func() any { return &corev1.ConfigMap{} },
	"v1/Secret":                                func() any { return &corev1.Secret{} },
	"v1/Service":                               func() any { return &corev1.Service{} },
	"v1/ServiceAccount":                        func() any { return &corev1.ServiceAccount{} },
	"v1/Pod":                                   func() any { return &corev1.Pod{} },
	"v1/PersistentVolume":                      func() any { return &corev1.PersistentVolume{} },
	"v1/PersistentVolumeClaim":                 func() any { return &corev1.PersistentVolumeClaim{} },
	"apps/v1/Deployment":                       func() any { return &appsv1.Deployment{} },
	"apps/v1/StatefulSet":                      func() any { return &appsv1.StatefulSet{} },
	"batch/v1/Job":                             func() any { return &batchv1.Job{} },
	"policy/v1/PodDisruptionBudget":            func() any { return &policyv1.PodDisruptionBudget{} },
	"networking.k8s.io/v1/NetworkPolicy":       func() any { return &networkingv1.NetworkPolicy{} },
	"autoscaling/v2/HorizontalPodAutoscaler":   func() any { return &autoscalingv2.HorizontalPodAutoscaler{} },
	"rbac.authorization.k8s.io/v1/Role":        func() any { return &rbacv1.Role{} },
	"rbac.authorization.k8s.io/v1/RoleBinding": func() any { return &rbacv1.RoleBinding{} },
	"monitoring.coreos.com/v1/ServiceMonitor":  func() any { return &monv1.ServiceMonitor{} },
	"monitoring.coreos.com/v1/PodMonitor":      func() any { return &monv1.PodMonitor{} },
}

type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
}

// decodeStrict decodes a document into its k8s.io/api type with sigs.k8s.io/yaml.UnmarshalStrict (YAML -> JSON ->
// encoding/json with DisallowUnknownFields; duplicate keys fail in the YAML step).
func decodeStrict(d Doc) (*Object, error) {
	var tm typeMeta
	if err := yaml.Unmarshal(d.Body, &tm); err != nil {
		return nil, fmt.Errorf("not a YAML object: %v", err)
	}
	if tm.APIVersion == "" || tm.Kind == "" {
		return nil, fmt.Errorf("apiVersion and kind are required")
	}
	mk, ok := kinds[tm.APIVersion+"/"+tm.Kind]
	if !ok {
		return nil, fmt.Errorf("unknown kind %s %s (add it to manifest-check's kinds table)", tm.APIVersion, tm.Kind)
	}
	if tm.Metadata.Name == "" {
		return nil, fmt.Errorf("%s without metadata.name", tm.Kind)
	}
	v := mk()
	if err := yaml.UnmarshalStrict(d.Body, v); err != nil {
		return nil, err
	}
	return &Object{APIVersion: tm.APIVersion, Kind: tm.Kind, Name: tm.Metadata.Name, Value: v}, nil
}
