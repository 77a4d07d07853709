#!/usr/bin/env bash
# How the agent launcher starts logtype-sidecar once, instead of one `tail -F -n0 FILE | jq`
# pipeline per log file (agent-launcher.sh in the operator's repository). The agent's stdout,
# which the launcher used to pipe through its own jq, goes through the sidecar's one writer.
#
# Before (one pipeline per file, all writing to the container's stdout):
#   tail -F -n0 "${MDB_LOG_FILE_MONGODB}" 2> /dev/null | json_log 'mongodb' &
#   ... seven more ...
#   "${AGENT_BINARY_PATH}" ... 2> >(json_log "automation-agent-stderr") >> >(json_log "automation-agent-stdout") &
set -Eeou pipefail

MMS_LOG_DIR="${MMS_LOG_DIR:-/var/log/mongodb-mms-automation}"
export MMS_LOG_DIR
export MDB_LOG_FILE_AGENT_LAUNCHER_SCRIPT="${MMS_LOG_DIR}/agent-launcher-script.log"

# The agent's stderr: a named pipe the sidecar reads as one more source (writers may come and go).
stderr_pipe="${MMS_LOG_DIR}/automation-agent-stderr.pipe"
[[ -p "${stderr_pipe}" ]] || mkfifo "${stderr_pipe}"
export MDB_LOG_FILE_AUTOMATION_AGENT_STDERR="${stderr_pipe}"

start_agent() {
  # Stands for the launcher's agent command line; its stdout is the sidecar's stdin.
  "${AGENT_BINARY_PATH:?}" "$@" 2> "${stderr_pipe}"
}

# One process follows every file (MDB_LOG_FILE_* or <log dir>/<type>.log), keeps its read
# positions in ${MMS_LOG_DIR}/.logtype-sidecar.state across restarts, and carries the agent's
# stdout as "automation-agent-stdout".
start_agent "$@" | logtype-sidecar --stdin-type automation-agent-stdout &
sidecar_pid=$!

# Let the sidecar deliver what is left when the container stops.
trap 'kill -TERM "${sidecar_pid}" 2> /dev/null; wait "${sidecar_pid}"' TERM INT
wait "${sidecar_pid}"
