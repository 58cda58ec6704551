#!/usr/bin/env bash
# A virtual sound card for tests and demos: a private PulseAudio daemon with a null sink.
#
#   scripts/audio-loop.sh start    start it (idempotent) and print the env vars to export
#   scripts/audio-loop.sh stop     stop it
#   scripts/audio-loop.sh status   exit 0 and print the env vars if it is running
#   scripts/audio-loop.sh env      print the env vars only
#
# What plays into the sink `sayitout_null` comes back out of its monitor source
# `sayitout_null.monitor`, which is the default source. PortAudio reaches the daemon
# through ALSA's pulse plugin (Debian: libasound2-plugins), as the devices `pulse`
# and `default`. Needs: pulseaudio, pulseaudio-utils (pactl), libasound2-plugins,
# libportaudio2. Works as root (CI containers) and as a normal user.
#
# SAYITOUT_PULSE_DIR overrides the runtime dir (default /tmp/sayitout-pulse-$UID).
set -euo pipefail

RUNTIME_DIR="${SAYITOUT_PULSE_DIR:-/tmp/sayitout-pulse-$(id -u)}"
SINK=sayitout_null
SOCKET="$RUNTIME_DIR/pulse/native"
LOG="$RUNTIME_DIR/pulseaudio.log"

# Keep the daemon private: its own runtime dir, home and state dir, so it never
# touches (or is confused by) a desktop session's PulseAudio or PipeWire.
export XDG_RUNTIME_DIR="$RUNTIME_DIR"
export PULSE_RUNTIME_PATH="$RUNTIME_DIR/pulse"
export PULSE_STATE_PATH="$RUNTIME_DIR/state"
export PULSE_SERVER="unix:$SOCKET"
unset PULSE_COOKIE || true

print_env() {
    echo "export PULSE_SERVER=unix:$SOCKET"
    echo "export PULSE_SINK=$SINK"
    echo "export PULSE_SOURCE=$SINK.monitor"
}

running() {
    command -v pactl >/dev/null 2>&1 && pactl info >/dev/null 2>&1
}

need() {
    if ! command -v "$1" >/dev/null 2>&1; then
        echo "audio-loop: '$1' not found; install it: apt-get install -y $2" >&2
        exit 3
    fi
}

configure() {
    if ! pactl list short sinks 2>/dev/null | awk '{print $2}' | grep -qx "$SINK"; then
        pactl load-module module-null-sink sink_name="$SINK" \
            rate=48000 channels=2 \
            sink_properties=device.description=sayitout_null >/dev/null
    fi
    pactl set-default-sink "$SINK"
    pactl set-default-source "$SINK.monitor"
    # Full volume both ways, so levels in tests are what was played.
    pactl set-sink-volume "$SINK" 100% || true
    pactl set-sink-mute "$SINK" 0 || true
    pactl set-source-volume "$SINK.monitor" 100% || true
    pactl set-source-mute "$SINK.monitor" 0 || true
}

start() {
    need pulseaudio pulseaudio
    need pactl pulseaudio-utils
    mkdir -p "$RUNTIME_DIR/pulse" "$RUNTIME_DIR/state" "$RUNTIME_DIR/home"
    chmod 700 "$RUNTIME_DIR" "$RUNTIME_DIR/pulse"
    if ! running; then
        # As root, PulseAudio refuses to run without --system unless HOME is owned by
        # root and it is told not to drop privileges; the private HOME takes care of the
        # first, and the flags below of the rest (it prints a warning, which is fine).
        HOME="$RUNTIME_DIR/home" pulseaudio \
            --daemonize=yes \
            --system=false \
            --exit-idle-time=-1 \
            --disallow-exit \
            --disallow-module-loading=false \
            --use-pid-file=yes \
            --log-target="file:$LOG" \
            --log-level=notice \
            -n \
            --load="module-native-protocol-unix auth-anonymous=1 socket=$SOCKET" \
            --load="module-always-sink" \
            >/dev/null 2>&1 || true
        for _ in $(seq 1 50); do
            running && break
            sleep 0.1
        done
        if ! running; then
            echo "audio-loop: pulseaudio did not start; log follows ($LOG)" >&2
            tail -n 20 "$LOG" >&2 2>/dev/null || true
            exit 1
        fi
    fi
    configure
    print_env
}

stop() {
    if running; then
        pactl exit 2>/dev/null || true
    fi
    # Started with --disallow-exit (so no client can end it by accident), the daemon
    # ignores `pactl exit`; its pid file ends it.
    local pidfile="$RUNTIME_DIR/pulse/pid"
    if [[ -f "$pidfile" ]]; then
        local pid
        pid="$(cat "$pidfile" 2>/dev/null || true)"
        if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            for _ in $(seq 1 30); do
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
            done
        fi
        rm -f "$pidfile"
    fi
    rm -f "$SOCKET"
    echo "audio-loop: stopped"
}

status() {
    if running; then
        echo "audio-loop: running ($SOCKET)"
        pactl list short sinks | awk -v s="$SINK" '$2 == s {print "audio-loop: sink " $2 " present"}'
        print_env
    else
        echo "audio-loop: not running"
        return 1
    fi
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    env) print_env ;;
    *)
        echo "usage: $0 start|stop|status|env" >&2
        exit 2
        ;;
esac
