#!/usr/bin/env bash
# stunnel (Debian's stunnel4, OpenSSL) on 127.0.0.1 in front of the emulator at ENDPOINT, with a certificate for
# 127.0.0.1 issued by a CA made here (openssl, EC P-256) and the CA in a PKCS12 trust store for the JVM: the https://
# endpoint of the TLS measurements (docs/benchmarks.md "HTTPS on the lean path").
# Usage: ENDPOINT=http://127.0.0.1:PORT src/test/bench/tls-front.sh DIR
# Prints HTTPS_ENDPOINT=... and TRUST_OPTS=... (eval-able) once stunnel accepts; stunnel's PID is in DIR/stunnel.pid,
# its log (one "new session negotiated" / "previous session reused" line per handshake) in DIR/stunnel.log.
set -euo pipefail
D=$1
mkdir -p "$D" && cd "$D"
JAVA_HOME=${JAVA_HOME:-$(ls -d /usr/lib/jvm/*25* 2>/dev/null | sort -rV | head -1)}
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem -days 2 \
  -subj "/CN=ossgw bench CA" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout server.key -out server.csr \
  -subj "/CN=127.0.0.1" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > ext.cnf
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
  -extfile ext.cnf 2>/dev/null
rm -f trust.p12
"$JAVA_HOME/bin/keytool" -importcert -noprompt -alias ca -file ca.pem -keystore trust.p12 -storetype PKCS12 \
  -storepass changeit >/dev/null
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > stunnel.conf <<EOF
foreground = yes
pid =
debug = 6
output = $D/stunnel.log
[oss]
accept = 127.0.0.1:$PORT
connect = ${ENDPOINT#http://}
cert = $D/server.pem
key = $D/server.key
EOF
rm -f stunnel.log
setsid stunnel stunnel.conf >/dev/null 2>&1 &
echo $! > stunnel.pid
for _ in $(seq 60); do grep -q "Accepting new connections" stunnel.log 2>/dev/null && break; sleep 1; done
echo "HTTPS_ENDPOINT=https://127.0.0.1:$PORT"
echo "TRUST_OPTS='-Djavax.net.ssl.trustStore=$D/trust.p12 -Djavax.net.ssl.trustStorePassword=changeit'"
