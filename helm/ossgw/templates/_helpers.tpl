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

{{/* ossfs option maps as properties: prefix.<name>=<value> */}}
{{- define "ossgw.optionLines" -}}
{{- $prefix := .prefix }}
{{- range $k, $v := .options }}
{{ $prefix }}.{{ $k }}={{ $v }}
{{- end }}
{{- end }}
