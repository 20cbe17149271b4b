# syntax=docker/dockerfile:1
# ossgw image: NFS exports, SMB shares and FUSE mounts of OSS buckets from one JVM (docs/deploy.md).
#   docker build -t ossgw .
#   docker run --device /dev/fuse --cap-add SYS_ADMIN -p 2049:2049 -p 445:445 -p 8080:8080 \
#     -v /srv/ossgw/etc:/etc/ossgw:ro -v ossgw-state:/var/lib/ossgw ossgw
# No credentials are baked in: pass OSS_ACCESS_KEY_ID/OSS_ACCESS_KEY_SECRET (or *_FILE pointing at mounted secrets).
#
# Build arguments (the defaults pull from Docker Hub; src/test/packaging/container.sh builds this same file offline
# from local images):
#   BASE_IMAGE  the run stage's Debian 12 base (default debian:bookworm-slim)
#   JDK_IMAGE   a JDK 25 image with the JDK in /opt/java/openjdk: builds the app and jlinks the runtime
#   APP         app-build (default): the Maven Wrapper builds gateway-app in the JDK image;
#               app-prebuilt: takes an already built quarkus-app from the build context named quarkus-app
#                 ./mvnw -B -DskipTests package -pl gateway-app -am
#                 docker buildx build --build-arg APP=app-prebuilt \
#                   --build-context quarkus-app=gateway-app/target/quarkus-app -t ossgw .
#               Both give the same run stage. podman/buildah 4.x: pass --build-arg APP=app-build explicitly (buildah
#               picks the stages to build before it applies the ARG's default, and skips app-build).
ARG BASE_IMAGE=debian:bookworm-slim
ARG JDK_IMAGE=eclipse-temurin:25-jdk-noble
ARG APP=app-build

# --- build: the Maven Wrapper on a JDK 25 image (the wrapper pins Maven 3.9.16, see .mvn/wrapper)
FROM ${JDK_IMAGE} AS app-build
WORKDIR /src
# Poms first, so the dependency layer is reused while only sources change.
COPY mvnw pom.xml ./
COPY .mvn .mvn
COPY gateway-core/pom.xml gateway-core/
COPY oss-emulator/pom.xml oss-emulator/
COPY nfs-server/pom.xml nfs-server/
COPY fuse-adapter/pom.xml fuse-adapter/
COPY gateway-app/pom.xml gateway-app/
COPY jmh/pom.xml jmh/
# Best effort: go-offline cannot resolve the reactor's own modules; whatever it misses, the package step fetches.
RUN ./mvnw -B -q -pl gateway-app -am dependency:go-offline -DexcludeReactor=true || true
COPY gateway-core gateway-core
COPY oss-emulator oss-emulator
COPY nfs-server nfs-server
COPY fuse-adapter fuse-adapter
COPY gateway-app gateway-app
RUN ./mvnw -B -q -pl gateway-app -am package -DskipTests \
 && mv gateway-app/target/quarkus-app /quarkus-app

# --- the app built outside (APP=app-prebuilt): the build context named quarkus-app is gateway-app/target/quarkus-app
FROM scratch AS app-prebuilt
# hadolint ignore=DL3022
COPY --from=quarkus-app . /quarkus-app

FROM ${APP} AS app

# --- Java 25 runtime: Debian bookworm's apt has none, so jlink makes one from the JDK image with only the modules the
# app uses (jdeps over quarkus-app's jars: java.compiler and java.desktop come from vert.x and quarkus-core, java.sql
# and jdk.management from micrometer, the JGSS/auth modules from oncrpc4j and httpclient), with a CDS archive for a
# faster start. --strip-java-debug-attributes, not --strip-debug: that one also strips native symbols with objcopy,
# which JDK images lack.
FROM ${JDK_IMAGE} AS jre
RUN /opt/java/openjdk/bin/jlink --output /jre --strip-java-debug-attributes --no-man-pages --no-header-files \
      --compress=zip-6 --generate-cds-archive \
      --add-modules java.base,java.compiler,java.desktop,java.logging,java.management,java.naming,java.security.jgss,\
java.sql,java.xml,jdk.management,jdk.security.auth,jdk.unsupported,jdk.zipfs

# --- run: debian:bookworm-slim with libfuse3-3 (the default FUSE binding, jfuse, loads libfuse3.so.3; as root it
# mounts with mount(2) itself), libfuse2 (the jnr-fuse fallback, -Dio.ossgw.fuse.binding=jnr), fuse (fusermount, which
# unmounts either kind), samba (smbd for SMB shares, supervised by the gateway), libisal2 (Intel ISA-L: the CRC-64 of every
# uploaded byte with carry-less multiplies, about 12x cheaper than the Java table method under C1) and tini (PID 1: reaps smbd's children,
# forwards SIGTERM)
FROM ${BASE_IMAGE} AS run
ENV JAVA_HOME=/opt/java/openjdk \
    OSSGW_HOME=/opt/ossgw \
    LANG=C.UTF-8
ENV PATH="${JAVA_HOME}/bin:${PATH}"
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# Versions are not pinned on purpose: bookworm's security updates replace them (a pin would break rebuilds); the
# suite is pinned by the base image tag. Samba comes from bookworm-backports (4.20 or newer): bookworm's own 4.17
# crashes a client's connection that deletes a file on a FUSE mount and asks for its attributes at close.
# hadolint ignore=DL3008
RUN echo "deb http://deb.debian.org/debian bookworm-backports main" >/etc/apt/sources.list.d/bookworm-backports.list \
 && apt-get update \
 && apt-get install -y --no-install-recommends libfuse3-3 libfuse2 fuse libisal2 tini ca-certificates curl \
 && apt-get install -y --no-install-recommends -t bookworm-backports samba \
 && smbd --version | grep -qE 'Version 4\.(2[0-9]|[3-9][0-9])' \
 && rm -rf /var/lib/apt/lists/* \
 && rm -f /etc/samba/smb.conf \
 && mkdir -p /etc/ossgw /var/lib/ossgw /var/cache/ossgw /mnt/ossgw
COPY --from=jre /jre /opt/java/openjdk
COPY --from=app /quarkus-app /opt/ossgw/quarkus-app
COPY docker/entrypoint.sh /usr/local/bin/ossgw-entrypoint
COPY docker/aot-train.sh /usr/local/bin/ossgw-aot-train
RUN chmod 0755 /usr/local/bin/ossgw-entrypoint /usr/local/bin/ossgw-aot-train \
 && java -version

# --- the JVM's AOT cache (JDK 25, JEP 483/515) for this runtime and these jars: a training run of `serve --nfs` on the
# embedded emulator (no network, no FUSE; nfs-cp/nfs-ls from libnfs-utils drive the NFS server), with the JVM options
# docker/entrypoint.sh runs the gateway with. A stage of its own so libnfs-utils stays out of the image; the cache is
# valid in the final stage because it has the same runtime and jars (same layers, same paths and mtimes), which
# ossgw.aot.key records and the entrypoint checks.
FROM run AS aot-train
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libnfs-utils \
 && ossgw-aot-train /opt/ossgw/ossgw.aot java /opt/ossgw/quarkus-app/quarkus-run.jar \
      --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -XX:TieredStopAtLevel=1

FROM run
COPY --from=aot-train /opt/ossgw/ossgw.aot /opt/ossgw/ossgw.aot.key /opt/ossgw/

# 2049 NFS (NFSv4.1 alone needs nothing else; NFSv3's MOUNT and NLM share it), 445 SMB, 8080 health + metrics;
# 111 (rpcbind, TCP+UDP) only for NFSv3 clients with ossgw.nfs.rpcbind=true
EXPOSE 2049/tcp 445/tcp 8080/tcp
# State (inode table, emulator data), write spool (tmpdir option) and the FUSE mount points
VOLUME ["/var/lib/ossgw", "/var/cache/ossgw"]
# Runs as root (the base image's user): FUSE mounts need CAP_SYS_ADMIN and smbd switches to each connected user's uid.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD ["sh", "-c", "curl -fsS http://127.0.0.1:${QUARKUS_HTTP_PORT:-8080}/q/health/ready >/dev/null"]
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/ossgw-entrypoint"]
CMD ["serve"]
