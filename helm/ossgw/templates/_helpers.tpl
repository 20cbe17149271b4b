{{/* Names and labels (the usual Helm conventions). */}}
{{- define "ossgw.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "ossgw.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "ossgw.selectorLabels" -}}
app.kubernetes.io/name: {{ include "ossgw.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "ossgw.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "ossgw.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "ossgw.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "ossgw.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret with the OSS AccessKey pair: the chart's own, or oss.existingSecret. */}}
{{- define "ossgw.ossSecretName" -}}
{{- default (include "ossgw.fullname" .) .Values.oss.existingSecret }}
{{- end }}

{{/* The Secret with SMB passwords (key = user name). */}}
{{- define "ossgw.smbSecretName" -}}
{{- default (printf "%s-smb" (include "ossgw.fullname" .)) .Values.smb.existingSecret }}
{{- end }}

{{- define "ossgw.nfsEnabled" -}}
{{- if .Values.exports }}true{{ end }}
{{- end }}

{{- define "ossgw.smbEnabled" -}}
{{- if .Values.shares }}true{{ end }}
{{- end }}

{{/* The chart's own OSS Secret is needed when AccessKeys are given in values and no existingSecret. */}}
{{- define "ossgw.ownOssSecret" -}}
{{- if and (not .Values.oss.existingSecret) .Values.oss.accessKeyId }}true{{ end }}
{{- end }}

{{/*
resources.limits.memory in MiB (rounded down), or 0 when there is no limit. Understands the Kubernetes quantity
suffixes Ki Mi Gi Ti (binary), k M G T (decimal) and plain bytes, with decimals ("1.5Gi").
*/}}
{{- define "ossgw.memoryLimitMiB" -}}
{{- $q := "" }}
{{- with .Values.resources }}{{ with .limits }}{{ $q = toString (default "" .memory) }}{{ end }}{{ end }}
{{- if not $q }}0
{{- else }}
{{- $m := regexFind "^[0-9]+(\\.[0-9]+)?" $q }}
{{- if not $m }}{{ fail (printf "resources.limits.memory %q is not a quantity" $q) }}{{ end }}
{{- $unit := trimPrefix $m $q }}
{{- $factors := dict "" 1.0 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 "k" 1000.0 "M" 1000000.0 "G" 1000000000.0 "T" 1000000000000.0 }}
{{- if not (hasKey $factors $unit) }}{{ fail (printf "resources.limits.memory %q: unit %q not supported" $q $unit) }}{{ end }}
{{- divf (mulf (float64 $m) (get $factors $unit)) 1048576.0 | floor | int64 }}
{{- end }}
{{- end }}

{{/* The prefetch + upload memory budget in MB (option memory_limit): an explicit options.memory_limit wins. */}}
{{- define "ossgw.memoryBudgetMiB" -}}
{{- if hasKey .Values.options "memory_limit" }}{{ .Values.options.memory_limit }}
{{- else }}
{{- $limit := include "ossgw.memoryLimitMiB" . | int64 }}
{{- if gt $limit 0 }}{{ div (mul $limit (int64 .Values.memory.budgetPercent)) 100 }}{{ else }}0{{ end }}
{{- end }}
{{- end }}

{{/* ossfs option maps as properties: prefix.<name>=<value> */}}
{{- define "ossgw.optionLines" -}}
{{- $prefix := .prefix }}
{{- range $k, $v := .options }}
{{ $prefix }}.{{ $k }}={{ $v }}
{{- end }}
{{- end }}
