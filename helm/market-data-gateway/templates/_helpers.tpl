{{/* Name of the chart, shortened to what a label value allows. */}}
{{- define "mdg.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name of the release's objects; component suffixes are appended to it, hence 52. */}}
{{- define "mdg.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 52 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 52 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 52 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "mdg.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "mdg.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels of one component: call with (dict "root" $ "component" "api"). */}}
{{- define "mdg.selectorLabels" -}}
app.kubernetes.io/name: {{ include "mdg.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "mdg.componentLabels" -}}
{{ include "mdg.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "mdg.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "mdg.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "mdg.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{/* The Secret the credentials come from: the existing one, or the chart's own. */}}
{{- define "mdg.secretName" -}}
{{- default (include "mdg.fullname" .) .Values.existingSecret }}
{{- end }}

{{/* The component behind the Service: api replicas, or the combined ROLE=all replicas. */}}
{{- define "mdg.servingComponent" -}}
{{- if eq .Values.mode "combined" }}all{{ else }}api{{ end }}
{{- end }}

{{/* "true" when the chart makes its own Secret: no existing one, and something to keep in it. */}}
{{- define "mdg.chartSecret" -}}
{{- if and (not .Values.existingSecret) (or .Values.redis.url .Values.redis.sentinel.password .Values.upstream.email .Values.upstream.password) }}true{{ end }}
{{- end }}

{{/*
Fails unless the ingesting pods have an exchange: upstream.baseUrl, or the built-in sandbox when asked
for, never by default (a forgotten value would publish simulated prices to the aggregators).
*/}}
{{- define "mdg.checkExchange" -}}
{{- if and .Values.upstream.baseUrl .Values.sandbox.enabled }}
{{- fail "upstream.baseUrl and sandbox.enabled: set one or the other (the sandbox is an exchange of its own)" }}
{{- else if not (or .Values.upstream.baseUrl .Values.sandbox.enabled) }}
{{- fail "upstream.baseUrl is empty: set it to the exchange's address, or sandbox.enabled: true for a trial on the built-in sandbox exchange (simulated prices)" }}
{{- end }}
{{- end }}

{{- define "mdg.redisName" -}}
{{- printf "%s-redis" (include "mdg.fullname" .) }}
{{- end }}

{{- define "mdg.hasAssets" -}}
{{- if gt (len .Values.assets) 0 }}true{{ end }}
{{- end }}

{{- define "mdg.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .Values.runAsUser }}
runAsGroup: {{ .Values.runAsGroup }}
fsGroup: {{ .Values.fsGroup }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Call with (dict "runAsUser" N "runAsGroup" N). */}}
{{- define "mdg.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .runAsUser }}
runAsGroup: {{ .runAsGroup }}
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
privileged: false
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Restarts pods when their settings change: ConfigMap and chart Secret contents. */}}
{{- define "mdg.configChecksums" -}}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
{{- if include "mdg.chartSecret" . }}
checksum/secret: {{ include (print .Template.BasePath "/secret.yaml") . | sha256sum }}
{{- end }}
{{- end }}

{{/*
The gateway's probes on its health endpoints. Startup holds the other two back while the process
boots; liveness restarts a process that stopped answering; readiness takes a pod out of its Service
while its data is not usable (see README).
*/}}
{{- define "mdg.probes" -}}
startupProbe:
  httpGet:
    path: /health/live
    port: http
  periodSeconds: {{ .Values.probes.startup.periodSeconds }}
  timeoutSeconds: {{ .Values.probes.startup.timeoutSeconds }}
  failureThreshold: {{ .Values.probes.startup.failureThreshold }}
livenessProbe:
  httpGet:
    path: /health/live
    port: http
  periodSeconds: {{ .Values.probes.liveness.periodSeconds }}
  timeoutSeconds: {{ .Values.probes.liveness.timeoutSeconds }}
  failureThreshold: {{ .Values.probes.liveness.failureThreshold }}
readinessProbe:
  httpGet:
    path: /health/ready
    port: http
  periodSeconds: {{ .Values.probes.readiness.periodSeconds }}
  timeoutSeconds: {{ .Values.probes.readiness.timeoutSeconds }}
  failureThreshold: {{ .Values.probes.readiness.failureThreshold }}
{{- end }}

{{/*
Node's options of a gateway container: call with the role's values. Its own nodeOptions when set;
otherwise, with a memory limit, an old generation of half the limit and 16 MiB semi-spaces. Node
would derive the old generation from the container's limit itself, but only where it can read the
cgroup limit, and it would shrink the young generation with it (to 1 MiB semi-spaces at 512 MiB);
explicit, the heap is the one the soak run measured (RELIABILITY.md). Without a limit: empty, and
the image's NODE_OPTIONS apply.
*/}}
{{- define "mdg.nodeOptions" -}}
{{- if .nodeOptions -}}
{{- .nodeOptions -}}
{{- else -}}
{{- with (.resources.limits | default dict).memory -}}
{{- $quantity := toString . -}}
{{- $unitBytes := dict "" 1.0 "k" 1e3 "M" 1e6 "G" 1e9 "T" 1e12 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 -}}
{{- $unit := regexFind "[A-Za-z]+$" $quantity -}}
{{- if not (hasKey $unitBytes $unit) -}}
{{- fail (printf "memory limit %s: give it in bytes or in k, M, G, T, Ki, Mi, Gi or Ti" $quantity) -}}
{{- end -}}
{{- $mebibytes := divf (mulf (float64 (trimSuffix $unit $quantity)) (get $unitBytes $unit)) 1048576 -}}
--max-old-space-size={{ div (int64 $mebibytes) 2 }} --max-semi-space-size=16
{{- end -}}
{{- end -}}
{{- end }}

{{/*
Environment of a gateway container: call with (dict "root" $ "role" "api" "credentials" bool
"values" <the role's values>). Settings come from the ConfigMap; REDIS_URL and, for ingesting roles,
the exchange login from the Secret, so that API pods never hold the exchange credentials.
*/}}
{{- define "mdg.env" -}}
{{- $root := .root -}}
envFrom:
  - configMapRef:
      name: {{ include "mdg.fullname" $root }}
env:
  - name: ROLE
    value: {{ .role }}
  {{- if include "mdg.records" . }}
  - name: POD_NAME
    valueFrom:
      fieldRef:
        fieldPath: metadata.name
  - name: RECORD_DIR
    value: /var/lib/market-data-gateway/recordings
  - name: RECORD_RETENTION_HOURS
    value: {{ $root.Values.recording.retentionHours | quote }}
  - name: RECORD_MAX_MB
    value: {{ $root.Values.recording.maxMegabytesPerPod | quote }}
  {{- end }}
  {{- with include "mdg.nodeOptions" .values }}
  - name: NODE_OPTIONS
    value: {{ . | quote }}
  {{- end }}
  {{- $sentinel := $root.Values.redis.sentinel }}
  {{- if or $root.Values.redis.url (and $root.Values.existingSecret (not $root.Values.redis.bundled.enabled)) }}
  - name: REDIS_URL
    valueFrom:
      secretKeyRef:
        name: {{ include "mdg.secretName" $root }}
        key: {{ $root.Values.secretKeys.redisUrl }}
        {{- if $sentinel.nodes }}
        optional: true
        {{- end }}
  {{- end }}
  {{- if and $sentinel.nodes (or $root.Values.existingSecret $sentinel.password) }}
  - name: REDIS_SENTINEL_PASSWORD
    valueFrom:
      secretKeyRef:
        name: {{ include "mdg.secretName" $root }}
        key: {{ $root.Values.secretKeys.redisSentinelPassword }}
        optional: {{ not (empty $root.Values.existingSecret) }}
  {{- end }}
  {{- if .credentials }}
  {{- if $root.Values.sandbox.enabled }}
  - name: SANDBOX
    value: "true"
  {{- end }}
  {{- if or $root.Values.existingSecret $root.Values.upstream.email }}
  - name: UPSTREAM_EMAIL
    valueFrom:
      secretKeyRef:
        name: {{ include "mdg.secretName" $root }}
        key: {{ $root.Values.secretKeys.upstreamEmail }}
        optional: {{ not (empty $root.Values.existingSecret) }}
  {{- end }}
  {{- if or $root.Values.existingSecret $root.Values.upstream.password }}
  - name: UPSTREAM_PASSWORD
    valueFrom:
      secretKeyRef:
        name: {{ include "mdg.secretName" $root }}
        key: {{ $root.Values.secretKeys.upstreamPassword }}
        optional: {{ not (empty $root.Values.existingSecret) }}
  {{- end }}
  {{- end }}
{{- end }}

{{/* Volumes every gateway pod mounts: a writable /tmp, and the assets file when there is one. */}}
{{/* Whether the pods of `role` (in .role, the chart in .root) record: the ingesting roles, when on. */}}
{{- define "mdg.records" -}}
{{- if and .root.Values.recording.enabled (ne .role "api") }}true{{- end }}
{{- end }}

{{- define "mdg.volumes" -}}
{{- $root := .root -}}
volumes:
  - name: tmp
    emptyDir:
      sizeLimit: 64Mi
  {{- if include "mdg.records" . }}
  - name: recordings
    persistentVolumeClaim:
      claimName: {{ $root.Values.recording.existingClaim | default (printf "%s-recordings" (include "mdg.fullname" $root)) }}
  {{- end }}
  {{- if include "mdg.hasAssets" $root }}
  - name: assets
    configMap:
      name: {{ include "mdg.fullname" $root }}-assets
      items:
        - key: assets.json
          path: assets.json
  {{- end }}
{{- end }}

{{- define "mdg.volumeMounts" -}}
volumeMounts:
  - name: tmp
    mountPath: /tmp
  {{- if include "mdg.records" . }}
  - name: recordings
    mountPath: /var/lib/market-data-gateway/recordings
    subPathExpr: $(POD_NAME)
  {{- end }}
  {{- if include "mdg.hasAssets" .root }}
  - name: assets
    mountPath: /etc/market-data-gateway
    readOnly: true
  {{- end }}
{{- end }}

{{/*
A gateway Deployment: call with (dict "root" $ "component" "api" "role" "api" "values" .Values.api
"credentials" bool "replicas" bool "preStopSleepSeconds" N).
*/}}
{{- define "mdg.deployment" -}}
{{- $root := .root -}}
{{- $values := .values }}
{{- $scope := dict "root" $root "component" .component }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "mdg.fullname" $root }}-{{ .component }}
  labels:
    {{- include "mdg.componentLabels" $scope | nindent 4 }}
spec:
  {{- if .replicas }}
  replicas: {{ $values.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  selector:
    matchLabels:
      {{- include "mdg.selectorLabels" $scope | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "mdg.selectorLabels" $scope | nindent 8 }}
        {{- with $values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      annotations:
        {{- include "mdg.configChecksums" $root | nindent 8 }}
        {{- with $values.podAnnotations }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    spec:
      serviceAccountName: {{ include "mdg.serviceAccountName" $root }}
      automountServiceAccountToken: false
      {{- with $root.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- include "mdg.podSecurityContext" $root | nindent 8 }}
      terminationGracePeriodSeconds: {{ $values.terminationGracePeriodSeconds }}
      containers:
        - name: gateway
          image: {{ include "mdg.image" $root | quote }}
          imagePullPolicy: {{ $root.Values.image.pullPolicy }}
          securityContext:
            {{- include "mdg.containerSecurityContext" (dict "runAsUser" $root.Values.runAsUser "runAsGroup" $root.Values.runAsGroup) | nindent 12 }}
          ports:
            - name: http
              containerPort: {{ $root.Values.containerPort }}
              protocol: TCP
            {{- if and (include "mdg.consoleOwnPort" $root) (ne .role "ingest") }}
            - name: console
              containerPort: {{ $root.Values.console.port }}
              protocol: TCP
            {{- end }}
          {{- include "mdg.env" (dict "root" $root "role" .role "credentials" .credentials "values" $values) | nindent 10 }}
          {{- include "mdg.probes" $root | nindent 10 }}
          {{- if gt (int .preStopSleepSeconds) 0 }}
          lifecycle:
            preStop:
              exec:
                command: ["sleep", "{{ .preStopSleepSeconds }}"]
          {{- end }}
          resources:
            {{- toYaml $values.resources | nindent 12 }}
          {{- include "mdg.volumeMounts" (dict "root" $root "role" .role) | nindent 10 }}
      {{- include "mdg.volumes" (dict "root" $root "role" .role) | nindent 6 }}
      {{- with $values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $values.topologySpreadConstraints }}
      topologySpreadConstraints:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end }}

{{/* A PodDisruptionBudget: call with (dict "root" $ "component" "api" "budget" .Values.api.podDisruptionBudget). */}}
{{- define "mdg.podDisruptionBudget" -}}
{{- $scope := dict "root" .root "component" .component }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "mdg.fullname" .root }}-{{ .component }}
  labels:
    {{- include "mdg.componentLabels" $scope | nindent 4 }}
spec:
  {{- if not (kindIs "invalid" .budget.minAvailable) }}
  minAvailable: {{ .budget.minAvailable }}
  {{- else }}
  maxUnavailable: {{ .budget.maxUnavailable }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "mdg.selectorLabels" $scope | nindent 6 }}
{{- end }}

{{/*
"true" when the console is served on a port of its own; fails when that port is the API's.
*/}}
{{- define "mdg.consoleOwnPort" -}}
{{- if and .Values.console.enabled .Values.console.port -}}
{{- if eq (int .Values.console.port) (int .Values.containerPort) -}}
{{- fail (printf "console.port (%v) must differ from containerPort (%v), or be 0 to serve the console on it" .Values.console.port .Values.containerPort) -}}
{{- end -}}
true
{{- end -}}
{{- end }}
