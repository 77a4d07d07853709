#!/usr/bin/env bash
# logtype-pod: the two pieces of logtype's wiring into the operator's database pod that need a
# shell. Installed in the image as /usr/local/bin/logtype-pod.
#
#   logtype-pod sidecar [logtype-sidecar options]
#       The logtype container's command: makes the two named pipes the agent's stdout and
#       stderr go to, then becomes logtype-sidecar, reading the stdout pipe as its stdin
#       (automation-agent-stdout) and the stderr pipe as the automation-agent-stderr source.
#
#   logtype-pod patch-launcher [FILE]
#       The override-agent-launcher init container's command: edits the operator's launcher
#       (default /opt/scripts/agent-launcher.sh, on the pod's database-scripts volume) so that,
#       when the sidecar's pipes are in the run directory mounted in the database container, the
#       tail | jq pipelines do not start and the agent writes its stdout and stderr to the pipes.
#       Every other line stays as the operator wrote it: no `set -e`, the agent's pid in agentPid
#       for cleanup, the SIGTERM trap and the last `wait`. Without those pipes the patched
#       launcher behaves as the original. A launcher without the lines this edits, or no
#       launcher at all (the static architecture), is left as it is, with a warning and exit 0.
#
# Both containers mount the same emptyDir at LOGTYPE_RUN_DIR (default /run/logtype): that
# directory and the two pipe names below are the contract between them.
set -Eeuo pipefail

readonly run_dir="${LOGTYPE_RUN_DIR:-/run/logtype}"
readonly stdout_pipe_name="automation-agent-stdout.fifo"
readonly stderr_pipe_name="automation-agent-stderr.fifo"
readonly marker="# logtype: patched by logtype-pod patch-launcher"

# One pino-shaped diagnostic line on stderr, like the sidecar's own (level 30 info, 40 warn, 50 error).
diag() {
  local level="$1" event="$2" message="$3"
  # A JSON string: backslashes and quotes escaped, newlines and tabs written as \n and \t, other
  # control characters (from a path or a variable) left out.
  message="${message//\\/\\\\}"
  message="${message//\"/\\\"}"
  message="${message//$'\n'/\\n}"
  message="${message//$'\t'/\\t}"
  message="$(printf '%s' "${message}" | tr -d '\000-\037\177')"
  printf '{"level":%s,"time":"%s","logType":"logtype-pod","event":"%s","msg":"%s"}\n' \
    "${level}" "$(date -u +%Y-%m-%dT%H:%M:%S.000Z)" "${event}" "${message}" >&2
}

# Makes a named pipe unless it is there (a restarted sidecar finds the ones it made before),
# one this user can read and write: a pipe another user made would fail the sidecar's open with
# a shell error, not a line that names the fix.
make_pipe() {
  { [[ -p "$1" ]] || mkfifo -m 0600 "$1" 2> /dev/null || [[ -p "$1" ]]; } && [[ -r "$1" && -w "$1" ]]
}

run_sidecar() {
  local stdout_pipe="${run_dir}/${stdout_pipe_name}" stderr_pipe="${run_dir}/${stderr_pipe_name}"
  local pipe
  for pipe in "${stdout_pipe}" "${stderr_pipe}"; do
    if ! make_pipe "${pipe}"; then
      diag 50 pipe-unavailable "cannot make the named pipe ${pipe}, or it is another user's (uid $(id -u) may not read and write it): mount a writable emptyDir at ${run_dir} in this container and in the database container, both run as the pod's user (see sidecar/README.md)"
      exit 1
    fi
  done
  export MDB_LOG_FILE_AUTOMATION_AGENT_STDERR="${stderr_pipe}"
  # Opened read-write: the open never waits for a writer, and the agent's restarts never end
  # the stream.
  exec logtype-sidecar --stdin-type automation-agent-stdout "$@" <> "${stdout_pipe}"
}

# What goes before the first line this edits: decides once whether the sidecar is there.
setup_block() {
  cat << EOF
${marker}.
# When the logtype sidecar runs in this pod, it follows the log files itself, and the agent's
# stdout and stderr go to the two named pipes it made in its run directory (a native sidecar,
# it made them before this container started): the tail | jq pipelines below do not start.
# Without those pipes (no run directory, or a pod without the sidecar) this script runs as
# before; it never makes them, for then nobody would read what the agent writes there.
logtype_run_dir="\${LOGTYPE_RUN_DIR:-${run_dir}}"
logtype_stdout_pipe="\${logtype_run_dir}/${stdout_pipe_name}"
logtype_stderr_pipe="\${logtype_run_dir}/${stderr_pipe_name}"
logtype_sidecar=""
if [[ -d "\${logtype_run_dir}" ]]; then
  if [[ -p "\${logtype_stdout_pipe}" && -p "\${logtype_stderr_pipe}" ]]; then
    # Pipes made by a logtype container running as another user cannot be opened here: the
    # agent would not start. Then the pipelines run, as without the sidecar.
    if [[ -r "\${logtype_stdout_pipe}" && -w "\${logtype_stdout_pipe}" && -r "\${logtype_stderr_pipe}" && -w "\${logtype_stderr_pipe}" ]]; then
      logtype_sidecar="yes"
    else
      echo "logtype: uid \$(id -u) cannot open the named pipes in \${logtype_run_dir}: the logtype container runs as another user (it must set no runAsUser of its own); the tail | jq pipelines run instead" >&2
    fi
  fi
fi
# The tail pipelines kept this script's last \`wait\` waiting while mongod runs: an agent that
# exits must not end the container, which would kill mongod with it. One idle process keeps it.
if [[ -n "\${logtype_sidecar}" ]]; then sleep infinity < /dev/null > /dev/null 2>&1 & fi
EOF
}

# A `tail -F [-n0] "${MDB_LOG_FILE_…}" 2> /dev/null [| json_log '…'] &` line (every launcher
# since operator 1.23 starts one per log file this way).
readonly tail_line='^([[:space:]]*)(tail -F( -n0)? "\$\{MDB_LOG_FILE_[A-Z_]+\}" 2> ?/dev/null( \| json_log '"'"'[a-z-]+'"'"')? &)[[:space:]]*$'
# The agent's start: its stdout through json_log (its stderr through json_log since the
# operator's KUBE-78, into MDB_LOG_FILE_AUTOMATION_AGENT_STDERR before).
readonly agent_stdout_json='>(json_log "automation-agent-stdout")'

# The agent line with its two streams sent to the pipes instead.
to_pipes() {
  local line="$1"
  line="${line//'2> >(json_log "automation-agent-stderr")'/'2<>"${logtype_stderr_pipe}"'}"
  line="${line//'2>> "${MDB_LOG_FILE_AUTOMATION_AGENT_STDERR}"'/'2<>"${logtype_stderr_pipe}"'}"
  line="${line//'>> >(json_log "automation-agent-stdout")'/'1<>"${logtype_stdout_pipe}"'}"
  line="${line//'> >(json_log "automation-agent-stdout")'/'1<>"${logtype_stdout_pipe}"'}"
  printf '%s' "${line}"
}

patch_launcher() {
  local file="${1:-/opt/scripts/agent-launcher.sh}"
  # Not an error that stops the pod: an init container that fails holds the database in Init.
  # Unpatched, the launcher runs its pipelines, and each line is shipped twice; nothing is lost.
  if [[ ! -f "${file}" ]]; then
    diag 40 launcher-missing "no launcher at ${file}: left as it is, so the database container runs its own tail | jq pipelines and each line is shipped twice. In the static architecture the agent container links the launcher only when it starts, after the init containers, and this is expected; otherwise this container must run after the operator's init-database container (its name must sort after mongodb-kubernetes-init-database) and mount the database-scripts volume"
    return 0
  fi
  if grep -qF "${marker}" "${file}"; then
    diag 30 launcher-already-patched "${file} is already patched; left as it is"
    return 0
  fi
  local out="${file}.logtype.$$" line indent body inserted="" tails=0 agents=0
  while IFS= read -r line || [[ -n "${line}" ]]; do
    if [[ "${line}" =~ ${tail_line} ]]; then
      indent="${BASH_REMATCH[1]}" body="${BASH_REMATCH[2]}"
      [[ -n "${inserted}" ]] || { setup_block; inserted=yes; }
      printf '%sif [[ -z "${logtype_sidecar}" ]]; then %s fi\n' "${indent}" "${body}"
      tails=$((tails + 1))
    elif [[ "${line}" == *"${agent_stdout_json}"* ]]; then
      indent="${line%%[![:space:]]*}" body="${line#"${indent}"}"
      [[ -n "${inserted}" ]] || { setup_block; inserted=yes; }
      printf '%sif [[ -n "${logtype_sidecar}" ]]; then\n' "${indent}"
      printf '%s  %s\n' "${indent}" "$(to_pipes "${body}")"
      printf '%selse\n%s  %s\n%sfi\n' "${indent}" "${indent}" "${body}" "${indent}"
      agents=$((agents + 1))
    else
      printf '%s\n' "${line}"
    fi
  done < "${file}" > "${out}"
  if [[ "${tails}" -eq 0 && "${agents}" -eq 0 ]]; then
    rm -f "${out}"
    diag 40 launcher-not-recognised "${file} has none of the tail | jq lines this patch replaces (an operator version logtype does not know?): left unchanged, so the database container still prints its own entries and each line is shipped twice; remove the logtype container or report the operator version"
    return 0
  fi
  chmod --reference="${file}" "${out}"
  mv -f "${out}" "${file}"
  diag 30 launcher-patched "${file}: ${tails} tail pipelines made conditional, ${agents} agent start lines sent to the pipes in ${run_dir}"
}

case "${1:-}" in
  sidecar) shift; run_sidecar "$@" ;;
  patch-launcher) shift; patch_launcher "$@" ;;
  *)
    diag 50 usage "usage: logtype-pod sidecar [logtype-sidecar options] | logtype-pod patch-launcher [FILE]"
    exit 2
    ;;
esac
