# Sourced by the benchmark scripts that use the JDK's own tools (jcmd, jfr): when JAVA_HOME is unset, exports the newest
# JDK 25 or later under /usr/lib/jvm that has jcmd (the one the ./ossgw launcher picks). A JAVA_HOME already set is kept;
# when no JDK is found JAVA_HOME stays unset and the caller says so.
if [[ -z "${JAVA_HOME:-}" ]]; then
  for c in $(ls -d /usr/lib/jvm/* 2>/dev/null | sort -rV); do
    if [[ -x "$c/bin/jcmd" ]] && "$c/bin/java" -version 2>&1 | grep -qE 'version "(2[5-9]|[3-9][0-9])'; then
      export JAVA_HOME="$c"
      break
    fi
  done
fi
